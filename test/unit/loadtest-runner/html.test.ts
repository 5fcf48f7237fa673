/**
 * k6/html as k6 answers it: Selection's jQuery-like methods, Element's DOM-like methods (k6 makes them
 * methods, not properties), a tag's own methods (an anchor's URL parts, a form's controls, a select's
 * options), val()/data()/serialize() with k6's rules; and, through the runner, parseHTML, res.html(),
 * res.submitForm() and res.clickLink() against a local server.
 */
import http from 'node:http';
import { type Element, parseHTML, type Selection } from '../../../loadtests/runner/modules/html';
import { closeServer, listenLocal, runScript } from './harness';

const PAGE = `<!DOCTYPE html>
<html>
<head><title>Elevation</title><meta name="csrf" content="t0k3n"></head>
<body>
  <h1 id="top" class="big title" lang="en" data-tile-id="42" data-ratio="0.5" data-raw="1E02" data-json='{"a":[1,2]}' data-on="true">Heights</h1>
  <p>first</p>
  <p>second</p>
  between
  <ul id="list"><li>a</li><li class="x">b</li><li>c</li><li class="x">d</li></ul>
  <a id="rel" href="/v1/lookup?locations=50,10#result" rel="next nofollow">lookup</a>
  <a id="abs" href="http://user:pw@example.com:8080/p?q=1">abs</a>
  <form id="f" action="submit" method="POST">
    <label for="name">Name</label>
    <input id="name" name="name" value="Ada">
    <input name="empty">
    <input type="checkbox" name="remember" checked="checked">
    <input type="checkbox" name="news">
    <input type="radio" name="unit" value="m" checked="checked"><input type="radio" name="unit" value="ft">
    <input name="off" value="x" disabled="disabled">
    <input type="file" name="upload">
    <select name="dataset"><option>srtm</option><option value="eu" selected>EU-DEM</option></select>
    <select name="formats" multiple><option value="json" selected>JSON</option><option selected>gpx</option><option>kml</option></select>
    <textarea name="note">a &amp; b</textarea>
    <button type="submit" name="go" value="now">Go</button>
  </form>
  <table><tr><th>h</th><td>d1</td><td colspan="2">d2</td></tr><tr><td>x</td></tr></table>
  <svg id="pic"></svg>
  <footer>end</footer>
</body>
</html>`;

describe('k6/html Selection', () => {
  const doc = parseHTML(PAGE);

  it('finds, filters and walks as jQuery (and goquery) do', () => {
    expect(doc.find('title').text()).toBe('Elevation');
    expect(doc.find('li').size()).toBe(4);
    expect(doc.find('li').filter('.x').text()).toBe('bd');
    expect(doc.find('li').not('.x').text()).toBe('ac');
    expect(doc.find('li').eq(-1).text()).toBe('d');
    expect(doc.find('li').first().next().text()).toBe('b');
    expect(doc.find('li').last().prevAll().size()).toBe(3);
    expect(doc.find('li').first().nextUntil('.x').size()).toBe(0);
    expect(doc.find('li').eq(1).nextUntil('li:last-child').text()).toBe('c');
    expect(doc.find('li').eq(1).siblings('.x').text()).toBe('d');
    expect(doc.find('li').slice(1, 3).text()).toBe('bc');
    expect(doc.find('li').eq(2).parent().attr('id')).toBe('list');
    expect(doc.find('li').eq(2).parents('body').size()).toBe(1);
    expect(doc.find('li').eq(2).closest('ul').attr('id')).toBe('list');
    expect(doc.find('ul').children('.x').size()).toBe(2);
    expect(doc.find('ul').has('.x').size()).toBe(1);
    expect(doc.find('li').is('.x')).toBe(true);
    expect(doc.find('li').eq(0).is('.x')).toBe(false);
    expect(doc.find('li').eq(2).index()).toBe(2);
    expect(doc.find('li.x').index('li')).toBe(1);
    expect(doc.find('li').find('.nothing').end().size()).toBe(4);
    expect(doc.find('h1').add('footer').size()).toBe(2);
    // A Selection or an Element is a selector too.
    const xs = doc.find('.x');
    expect(doc.find('li').filter(xs).size()).toBe(2);
    expect(doc.find('ul').find(xs).size()).toBe(2);
    expect(doc.find('ul').has(xs.get(0)).size()).toBe(1);
    expect(doc.find('li').index(xs.get(1))).toBe(3);
    expect(doc.find('p').index(xs.get(1))).toBe(-1);
    expect(doc.find('li').index(xs)).toBe(1);
  });

  it('calls functions with (index, selection) for filter/is/not/map, (index, element) for each', () => {
    const lis = doc.find('li');
    expect(lis.filter((i: number) => i % 2 === 0).text()).toBe('ac');
    expect(lis.not((_: number, s: Selection) => s.text() === 'a').text()).toBe('bcd');
    expect(lis.is((_: number, s: Selection) => s.text() === 'c')).toBe(true);
    expect(lis.map((i: number, s: Selection) => `${i}${s.text()}`)).toEqual(['0a', '1b', '2c', '3d']);
    const seen: string[] = [];
    expect(lis.each((i: number, e: Element) => seen.push(`${i}${e.textContent()}`))).toBe(lis);
    expect(seen).toEqual(['0a', '1b', '2c', '3d']);
    expect(() => lis.each('x')).toThrow('the argument to each() must be a function');
    expect(() => lis.filter(3)).toThrow(
      'the argument to filter() must be a function, a selector or a selection',
    );
    expect(() => lis.find(3)).toThrow("invalid argument, cannot use a 'number' as a selector");
    expect(() => lis.each(() => JSON.parse('{'))).toThrow(/^the function passed to each\(\) failed: /);
  });

  it('answers attr/html/text/get/toArray as k6 does, undefined where k6 does', () => {
    expect(doc.find('h1').attr('id')).toBe('top');
    expect(doc.find('h1').attr('nope')).toBeUndefined();
    expect(doc.find('h1').attr('nope', 'dflt')).toBe('dflt');
    expect(doc.find('ul').html()).toBe('<li>a</li><li class="x">b</li><li>c</li><li class="x">d</li>');
    expect(doc.find('nothing').html()).toBe('');
    expect(doc.find('nothing').attr('id')).toBeUndefined();
    expect((doc.find('li').get() as Element[]).map((e) => e.textContent())).toEqual(['a', 'b', 'c', 'd']);
    expect((doc.find('li').get(-1) as Element).textContent()).toBe('d');
    expect(doc.find('li').get(4)).toBeUndefined();
    expect(doc.find('li').get(-4)).toBeUndefined();
    expect(
      doc
        .find('li')
        .toArray()
        .map((s) => s.text()),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads data- attributes with k6 conversions', () => {
    const h1 = doc.find('h1');
    expect(h1.data()).toEqual({ tileID: 42, ratio: 0.5, raw: '1E02', json: { a: [1, 2] }, on: true });
    expect(h1.data('tileID')).toBe(42);
    expect(h1.data('tileId')).toBe(42);
    expect(h1.data('missing')).toBeUndefined();
    expect(doc.find('footer').data()).toBeUndefined();
  });

  it('reads control values and serialises a form as k6 (jQuery) does', () => {
    const form = doc.find('form');
    expect(form.find('[name=name]').val()).toBe('Ada');
    expect(form.find('[name=empty]').val()).toBe('');
    expect(form.find('[name=news]').val()).toBe('on');
    expect(form.find('select[name=dataset]').val()).toBe('eu');
    expect(form.find('select[name=formats]').val()).toEqual(['json', 'gpx']);
    expect(form.find('textarea').val()).toBe('a &amp; b');
    expect(form.find('button').val()).toBe('now');
    expect(doc.find('h1').val()).toBeUndefined();
    expect(form.serializeArray()).toEqual([
      { name: 'name', value: 'Ada' },
      { name: 'empty', value: '' },
      { name: 'remember', value: 'on' },
      { name: 'unit', value: 'm' },
      { name: 'dataset', value: 'eu' },
      { name: 'formats', value: ['json', 'gpx'] },
      { name: 'note', value: 'a &amp; b' },
    ]);
    expect(form.serializeObject()).toMatchObject({ name: 'Ada', unit: 'm', formats: ['json', 'gpx'] });
    expect(form.serialize()).toBe(
      'dataset=eu&empty=&formats=json&formats=gpx&name=Ada&note=a+%26amp%3B+b&remember=on&unit=m',
    );
    // Not a form: the controls selected themselves.
    expect(form.find('input').serializeObject()).toEqual({
      name: 'Ada',
      empty: '',
      remember: 'on',
      unit: 'm',
    });
  });
});

describe('k6/html Element', () => {
  const doc = parseHTML(PAGE, 'http://127.0.0.1:3000/page/index.html');
  const el = (selector: string) => doc.find(selector).get(0) as Element & Record<string, () => unknown>;

  it('has the DOM methods k6 gives every node', () => {
    const h1 = el('h1');
    expect(h1.nodeName()).toBe('h1');
    expect(h1.nodeType()).toBe(1);
    expect(h1.id()).toBe('top');
    expect(h1.classList()).toEqual(['big', 'title']);
    expect(h1.className()).toBe('big title');
    expect(h1.lang()).toBe('en');
    expect(h1.textContent()).toBe('Heights');
    expect(h1.firstChild()?.nodeName()).toBe('#text');
    expect(h1.firstChild()?.nodeValue()).toBe('Heights');
    expect(h1.firstChild()?.toString()).toBe('[object #text]');
    expect(h1.toString()).toBe('[object html.Node]');
    expect(h1.hasAttribute('id')).toBe(true);
    expect(h1.hasAttribute('nope')).toBe(false);
    expect(h1.getAttribute('data-tile-id')).toBe('42');
    expect(h1.getAttributeNode('id')).toMatchObject({ name: 'id', value: 'top', owner_element: h1 });
    expect(Object.keys(h1.attributes())).toContain('data-json');
    expect(h1.hasAttributes()).toBe(true);
    expect(el('footer').hasAttributes()).toBe(false);
    expect(h1.nextElementSibling()?.textContent()).toBe('first');
    expect(el('footer').previousElementSibling()?.nodeName()).toBe('svg');
    expect(el('p').previousSibling()?.nodeName()).toBe('#text');
    expect(h1.parentElement()?.nodeName()).toBe('body');
    expect(el('html').parentNode()?.nodeName()).toBe('#document');
    expect(el('html').parentElement()).toBeUndefined();
    expect(h1.ownerDocument()?.nodeName()).toBe('#document');
    expect(h1.ownerDocument()?.nodeType()).toBe(9);
    const ul = el('ul');
    expect(ul.childElementCount()).toBe(4);
    expect(ul.children().map((c) => c.textContent())).toEqual(['a', 'b', 'c', 'd']);
    expect(ul.childNodes()).toHaveLength(4);
    expect(ul.firstElementChild()?.textContent()).toBe('a');
    expect(ul.lastElementChild()?.textContent()).toBe('d');
    expect(ul.lastChild()?.textContent()).toBe('d');
    expect(ul.innerHTML()).toBe('<li>a</li><li class="x">b</li><li>c</li><li class="x">d</li>');
    expect(ul.hasChildNodes()).toBe(true);
    expect(el('input').hasChildNodes()).toBe(false);
    expect(ul.getElementsByClassName('x')).toHaveLength(2);
    expect(el('body').getElementsByTagName('p')).toHaveLength(2);
    expect(el('body').querySelector('li.x')?.textContent()).toBe('b');
    expect(el('body').querySelector('blink')).toBeUndefined();
    expect(
      el('body')
        .querySelectorAll('li.x')
        .map((e) => e.textContent()),
    ).toEqual(['b', 'd']);
    expect(el('body').contains(ul)).toBe(true);
    expect(ul.contains(ul)).toBe(false);
    expect(ul.matches('#list')).toBe(true);
    expect(ul.isSameNode(el('ul'))).toBe(true);
    expect(el('p').isSameNode(doc.find('p').get(1))).toBe(false);
    expect(doc.find('li').get(0)?.isEqualNode(parseHTML('<li>a</li>').find('li').get(0))).toBe(true);
    expect(ul.selection().find('li').size()).toBe(4);
    expect(el('#pic').namespaceURI()).toBe('http://www.w3.org/2000/svg');
    expect(el('#pic').isDefaultNamespace()).toBe(false);
    expect(ul.isDefaultNamespace()).toBe(true);
  });

  it("gives an anchor its URL's parts, resolved against the page's URL", () => {
    const rel = el('#rel');
    expect(rel.href()).toBe('http://127.0.0.1:3000/v1/lookup?locations=50,10#result');
    expect(rel.toString()).toBe('http://127.0.0.1:3000/v1/lookup?locations=50,10#result');
    expect(rel.pathname()).toBe('/v1/lookup');
    expect(rel.search()).toBe('?locations=50,10');
    expect(rel.hash()).toBe('#result');
    expect(rel.host()).toBe('127.0.0.1:3000');
    expect(rel.origin()).toBe('http://127.0.0.1:3000');
    expect(rel.relList()).toEqual(['next', 'nofollow']);
    expect(rel.text()).toBe('lookup');
    const abs = el('#abs');
    expect([abs.protocol(), abs.hostname(), abs.port(), abs.username(), abs.password()]).toEqual([
      'http',
      'example.com',
      '8080',
      'user',
      'pw',
    ]);
    // parseHTML() has no URL: the href as written.
    expect((parseHTML(PAGE).find('#rel').get(0) as Element & { href(): string }).href()).toBe(
      '/v1/lookup?locations=50,10#result',
    );
  });

  it("gives forms, controls, selects, options and tables their tags' methods", () => {
    const form = el('form');
    expect(form.action()).toBe('http://127.0.0.1:3000/page/submit');
    expect(form.method()).toBe('get'); // k6 compares the attribute as written: "POST" is not "post"
    expect(form.enctype()).toBe('application/x-www-form-urlencoded');
    expect((form.elements() as Element[]).length).toBe(form.length());
    const name = el('#name');
    expect([name.name(), name.value(), name.type(), name.maxLength()]).toEqual(['name', 'Ada', 'text', -1]);
    expect((name.form() as Element).id()).toBe('f');
    expect(name.formAction()).toBe('http://127.0.0.1:3000/page/submit');
    expect(name.formMethod()).toBe('post');
    expect((name.labels() as Element[]).map((l) => l.textContent())).toEqual(['Name']);
    expect((el('label').control() as Element).id()).toBe('name');
    expect(el('[name=remember]').checked()).toBe(true);
    expect(el('[name=news]').checked()).toBe(false);
    const select = el('select[name=dataset]');
    expect(select.length()).toBe(2);
    expect(select.selectedIndex()).toBe(1);
    expect(select.value()).toBe('eu');
    expect(select.type()).toBe('select');
    expect(el('select[multiple]').type()).toBe('select-multiple');
    expect((select.options() as Element[]).map((o) => (o as unknown as { value(): string }).value())).toEqual(
      ['srtm', 'eu'],
    );
    const option = el('option');
    expect([option.index(), option.label(), option.selected(), option.value()]).toEqual([
      0,
      'srtm',
      false,
      'srtm',
    ]);
    // k6 reads a textarea's value() from its value attribute (its val() from its content).
    expect(el('textarea').value()).toBe('');
    expect(el('button').value()).toBe('now');
    expect(el('title').text()).toBe('Elevation');
    expect(el('meta').content()).toBe('t0k3n');
    expect(el('td').cellIndex()).toBe(1);
    expect(doc.find('td').get(1)?.nodeName()).toBe('td');
    expect((doc.find('td').get(1) as Element & { colSpan(): number }).colSpan()).toBe(2);
    expect((el('table').rows() as Element[]).length).toBe(2);
    expect(
      doc.find('tr').eq(1).get(0) && (doc.find('tr').get(1) as Element & { rowIndex(): number }).rowIndex(),
    ).toBe(1);
  });
});

describe('k6/html answers what Go answers (goquery, net/url, strconv)', () => {
  const one = (html: string, selector: string, url = '') =>
    parseHTML(html, url).find(selector).get(0) as Element & Record<string, () => unknown>;

  it('writes markup as x/net/html does: void elements closed, quotes as &#34;, nbsp as the character', () => {
    const doc = parseHTML(
      `<p>a<br>b<img src="x.png" alt='say "hi"'>c&nbsp;d "q" 'a'</p><textarea>He said "hi"</textarea>`,
    );
    expect(doc.find('p').html()).toBe(
      'a<br/>b<img src="x.png" alt="say &#34;hi&#34;"/>c\u00a0d &#34;q&#34; &#39;a&#39;',
    );
    expect(doc.find('textarea').val()).toBe('He said &#34;hi&#34;');
    expect(parseHTML('<script>if (a < b) x = "y";</script>').find('script').html()).toBe(
      'if (a < b) x = "y";',
    );
    // isEqualNode compares inner HTML, as k6 does: other attributes, same content, equal.
    const [a, b] = parseHTML('<p class=a>same</p><p class=b>same</p>').find('p').get();
    expect(a.isEqualNode(b)).toBe(true);
  });

  it("reads an anchor's parts as net/url does", () => {
    const rel = one('<a href="/testhref?querytxt#hashtext">x</a>', 'a');
    expect([rel.href(), rel.hash(), rel.search(), rel.pathname(), rel.protocol()]).toEqual([
      '/testhref?querytxt#hashtext',
      '#hashtext',
      '?querytxt',
      '/testhref',
      ':',
    ]);
    const port80 = one('<a href="http://u:p@EXAMPLE.com:80">x</a>', 'a');
    expect([port80.port(), port80.host(), port80.hostname(), port80.origin(), port80.pathname()]).toEqual([
      '80',
      'EXAMPLE.com',
      'EXAMPLE.com',
      'http://EXAMPLE.com:80',
      '',
    ]);
    expect(one('<a href="//cdn.example.com/x">x</a>', 'a').host()).toBe('cdn.example.com');
    // Without the document's URL (parseHTML), a relative href stays as written.
    expect(one('<a href="web.address.com">x</a>', 'a').toString()).toBe('web.address.com');
    expect(one('<a rel="">x</a>', 'a').relList()).toEqual([]);
    expect(one('<a href="mailto:someone@example.com">x</a>', 'a').pathname()).toBe('');
    // An empty URL attribute is the document's URL, without a slash added.
    expect(one('<img src="">', 'img', 'http://example.com').src()).toBe('http://example.com');
    expect(one('<base href="">', 'base', 'http://example.com').href()).toBe('http://example.com');
    expect(one('<a href="../up/./x?q">x</a>', 'a', 'http://h/a/b/c').href()).toBe('http://h/a/up/x?q');
    expect(one('<a href="a  b" rel="a  b">x</a>', 'a').relList()).toEqual(['a', '', 'b']);
  });

  it('reads attributes with k6 types: enums exactly, integers as Atoi, crossOrigin or undefined', () => {
    expect(one('<ol type="A"></ol>', 'ol').type()).toBe('A');
    expect(one('<input type="EMAIL">', 'input').type()).toBe('text');
    expect(one('<button type="RESET">', 'button').type()).toBe('submit');
    expect(one('<img width="100px" height="1.5" crossorigin="foo">', 'img').width()).toBe(0);
    expect(one('<img width="100px" height="1.5" crossorigin="foo">', 'img').height()).toBe(0);
    expect(one('<img width="+7">', 'img').width()).toBe(7);
    expect(one('<img crossorigin="foo">', 'img').crossOrigin()).toBeUndefined();
    expect(one('<img crossorigin="anonymous">', 'img').crossOrigin()).toBe('anonymous');
    expect(one('<table><colgroup><col span="0"></colgroup></table>', 'col').span()).toBe(1); // outside a table the parser drops it
    expect(one('<textarea value="héllo" autocapitalize="words"></textarea>', 'textarea').length()).toBe(6);
  });

  it("finds a control's form (the one around it first) and labels (the wrapping one first)", () => {
    const html =
      '<form id=A><button id=b form=B>x</button></form><form id=B></form>' +
      '<label for=c>by id</label><label>wrapper <input id=c></label>';
    expect((one(html, '#b').form() as Element).id()).toBe('A');
    expect((one(html, '#c').labels() as Element[]).map((l) => l.textContent().trim())).toEqual([
      'wrapper',
      'by id',
    ]);
    const list = one(
      '<input list=dl><datalist id=dl><option>a</option><option>b</option></datalist>',
      'input',
    );
    expect(((list.list() as Element & { options(): unknown[] }).options() as unknown[]).length).toBe(2);
    expect(one('<object data="x.swf"></object>', 'object', 'http://h/p/').data()).toBe('http://h/p/x.swf');
    expect(one('<keygen name=k keytype=EC>', 'keygen').keytype()).toBe('EC');
    expect(one('<quote cite="src">q</quote>', 'quote').cite()).toBe('src');
    const table =
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>a</td></tr><tr><td>b</td></tr></tbody></table>';
    expect(
      parseHTML(table)
        .find('tr')
        .get()
        .map((r) => (r as Element & { sectionRowIndex(): number }).sectionRowIndex()),
    ).toEqual([0, 0, 1]);
    expect(
      (one('<video><track id=t1><track id=t2></video>', 'video').textTracks() as Element[]).map((t) =>
        t.id(),
      ),
    ).toEqual(['t1', 't2']);
  });

  it('map() keeps what the function returns and leaves out an element whose function throws', () => {
    const lis = parseHTML('<li>a</li><li>b</li><li>c</li>').find('li');
    expect(lis.map((i: number) => i)).toEqual([0, 1, 2]);
    expect(lis.map((i: number, s: Selection) => ({ i, t: s.text() }))[1]).toEqual({ i: 1, t: 'b' });
    expect(
      lis.map((i: number) => {
        if (i === 1) throw new Error('x');
        return i;
      }),
    ).toEqual([0, 2]);
  });

  it('data() names keys as k6 (snaker) does and reads numbers that Go writes back unchanged', () => {
    const h = parseHTML(
      '<h1 data-test-id="v" data-api-url="u" data-x="0.0000001" data-big="100000000000000000000000" data-z="-0" data-y="101.00">',
    ).find('h1');
    const data = h.data() as Record<string, unknown>;
    expect([data.testID, data.apiURL, data.x, data.big, Object.is(data.z, -0), data.y]).toEqual([
      'v',
      'u',
      1e-7,
      1e23,
      true,
      '101.00',
    ]);
    expect(h.data('apiURL')).toBe('u');
  });

  it("supports cascadia's :containsOwn and :matchesOwn, and gives attributes k6's methods", () => {
    const doc = parseHTML('<p>outer<span>inner</span></p><p>other</p>');
    expect(doc.find('p:containsOwn("outer")').size()).toBe(1);
    expect(doc.find('p:containsOwn("inner")').size()).toBe(0);
    expect(doc.find('p:matchesOwn(^oth)').size()).toBe(1);
    const attr = (
      parseHTML('<svg xlink:href="#a" id="s"></svg>').find('svg').get(0) as Element
    ).getAttributeNode('id') as unknown as {
      name: string;
      value: string;
      localName(): string;
      namespaceURI(): string;
      prefix(): string;
    };
    expect([attr.name, attr.value, attr.localName(), attr.prefix(), attr.namespaceURI()]).toEqual([
      'id',
      's',
      'id',
      '',
      'http://www.w3.org/1999/xhtml',
    ]);
  });
});

describe('k6/html through the runner', () => {
  // Each test spawns the runner's CLI: its start alone took over 5 s (jest's default) on a loaded machine.
  jest.setTimeout(30_000);
  let server: http.Server;
  let url = '';
  const received: { method: string; url: string; body: string; type: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString(),
          type: req.headers['content-type'] ?? '',
        });
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          req.url === '/'
            ? '<a href="form.html">form</a><form action="/search"><input name="q" value="x"></form>'
            : '<form method="post" action="done"><input type="hidden" name="csrf" value="t"><input name="who" value="">' +
                '<input type="submit" name="send" value="yes"></form>',
        );
      });
    });
    url = await listenLocal(server);
  });
  afterAll(() => closeServer(server));

  it('parseHTML, res.html(), res.clickLink() and res.submitForm() work as in k6', async () => {
    received.length = 0;
    const result = await runScript(
      `
import http from 'k6/http';
import { check } from 'k6';
import { parseHTML } from 'k6/html';
export const options = { iterations: 1 };
export default function () {
  const home = http.get('${url}/');
  check(home, {
    'html() finds': (r) => r.html('a').attr('href') === 'form.html',
    'parseHTML finds': (r) => parseHTML(r.body).find('input').val() === 'x',
    'get() is an Element': (r) => r.html().find('a').get(0).nodeName() === 'a',
    'href resolves against the response URL': (r) => r.html().find('a').get(0).href() === '${url}/form.html',
  });
  const page = home.clickLink();
  check(page, { 'clickLink followed the link': (r) => r.url === '${url}/form.html' });
  const done = page.submitForm({ fields: { who: 'ada' } });
  check(done, { 'submitForm posted to the action': (r) => r.url === '${url}/done' });
  home.submitForm({ fields: { q: 'a b' } });
}
`,
    );
    expect(result.stderr).not.toMatch(/error|ERRO/i);
    expect(result.code).toBe(0);
    expect(result.summary.root_group.checks.every((c) => c.passes === 1 && c.fails === 0)).toBe(true);
    expect(result.summary.root_group.checks).toHaveLength(6);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /',
      'GET /form.html',
      'POST /done',
      'GET /search?q=a+b',
    ]);
    const post = received[2];
    expect(post.type).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(post.body).toString()).toBe(
      new URLSearchParams('csrf=t&who=ada&send=yes').toString(),
    );
  });

  it("says what is missing when submitForm() finds no form, as k6's message does", async () => {
    const result = await runScript(
      `
import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  http.get('${url}/').submitForm({ formSelector: '#nope' });
}
`,
    );
    expect(result.stderr).toContain(`no form found for selector '#nope' in response '${url}/'`);
  });
});
