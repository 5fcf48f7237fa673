/**
 * The profile chart as a reader sees it, read back with an XML parser: an 800x320 picture whose plot area is
 * x 64..780, y 40..272 (margins 64 left, 20 right, 40 top, 48 bottom); the line, ticks, grid, axes and labels
 * are where the data says. Positions are checked to the 0.1 px the SVG writes.
 */
import { SaxesParser } from 'saxes';
import { buildProfile } from '../../../layers/elevation/profile/profile';
import { renderProfileSvg } from '../../../layers/elevation/profile/profile-svg';

interface Element {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

function parseSvg(svg: string): { root: Element; elements: Element[] } {
  const parser = new SaxesParser({ xmlns: false });
  const elements: Element[] = [];
  const open: Element[] = [];
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    if (open.length) open[open.length - 1].text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.write(svg).close();
  return { root: elements[0], elements };
}

const LEFT = 64;
const RIGHT = 780;
const TOP = 40;
const BOTTOM = 272;

/** A path of `distances` (m) with one height per sample. */
function profile(distances: number[], heights: (number | null)[], threshold = 0) {
  const length = distances[distances.length - 1];
  return buildProfile(
    {
      points: distances.map((d) => ({ lat: 48, lon: 9 + d / 74_000 })),
      distances,
      length,
    },
    heights,
    threshold,
  );
}

const num = (e: Element, name: string) => Number(e.attributes[name]);
const byClass = (elements: Element[], name: string, cls: string) =>
  elements.filter((e) => e.name === name && e.attributes.class === cls);

describe('the profile chart', () => {
  // 1000 m, heights 100..180 with a gap: x ticks 0..1000 every 200 m, y ticks 100..180 every 20 m.
  // Drawn in each test, not once for the describe block: StrykerJS tests a mutant only in the tests it runs in.
  function draw() {
    const svg = renderProfileSvg(
      profile([0, 250, 500, 750, 1000], [100, 150, null, 120, 180]),
      'tiles & <more> "here"',
    );
    const { root, elements } = parseSvg(svg);
    const texts = elements.filter((e) => e.name === 'text');
    return { svg, root, elements, texts, tickLabels: texts.filter((e) => e.attributes.class === 'tick') };
  }

  it('is an 800x320 SVG document on a white background', () => {
    const { root, elements } = draw();
    expect(root.name).toBe('svg');
    expect(root.attributes).toMatchObject({
      xmlns: 'http://www.w3.org/2000/svg',
      width: '800',
      height: '320',
      viewBox: '0 0 800 320',
    });
    const rect = elements.find((e) => e.name === 'rect');
    expect(rect?.attributes).toMatchObject({ width: '800', height: '320', fill: '#fff' });
    // The line is a stroke, not a filled shape.
    expect(elements.find((e) => e.name === 'style')?.text).toContain('.profile{fill:none;stroke:#c0392b');
  });

  it('titles the chart with the dataset, length, ascent and descent, escaped', () => {
    const { svg, elements, texts } = draw();
    const title = 'Elevation profile · tiles & <more> "here" · 1000 m · ascent 110 m · descent 30 m';
    expect(elements.find((e) => e.name === 'title')?.text).toBe(title);
    const heading = texts.find((e) => e.attributes['font-weight'] === 'bold');
    expect(heading?.text).toBe(title);
    expect(heading?.attributes).toMatchObject({ x: '400', y: '22', 'text-anchor': 'middle' });
    expect(svg).toContain('tiles &amp; &lt;more&gt; &quot;here&quot;');
  });

  it('draws the line through every sample with data, broken at the gap', () => {
    const { elements } = draw();
    const lines = byClass(elements, 'polyline', 'profile').map((e) => e.attributes.points);
    // (0 m, 100) at the bottom left, (250, 150) 5/8 up, (750, 120) 1/4 up, (1000, 180) at the top right.
    expect(lines).toEqual(['64.0,272.0 243.0,127.0', '601.0,214.0 780.0,40.0']);
  });

  it('draws the axes along the left and bottom of the plot area', () => {
    const { elements } = draw();
    const axes = byClass(elements, 'line', 'axis').map((e) => ['x1', 'y1', 'x2', 'y2'].map((a) => num(e, a)));
    expect(axes).toEqual([
      [LEFT, TOP, LEFT, BOTTOM],
      [LEFT, BOTTOM, RIGHT, BOTTOM],
    ]);
  });

  it('ticks the distance axis at round distances, labelled below it', () => {
    const { elements, tickLabels } = draw();
    const ticks = elements.filter((e) => e.name === 'line' && !e.attributes.class);
    const xs = [0, 200, 400, 600, 800, 1000].map((d) => LEFT + (d / 1000) * (RIGHT - LEFT));
    expect(ticks.map((e) => [num(e, 'x1'), num(e, 'y1'), num(e, 'x2'), num(e, 'y2')])).toEqual(
      xs.map((x) => [Number(x.toFixed(1)), BOTTOM, Number(x.toFixed(1)), BOTTOM + 5]),
    );
    const below = tickLabels.filter((e) => e.attributes['text-anchor'] === 'middle');
    expect(below.map((e) => e.text)).toEqual(['0', '200', '400', '600', '800', '1000']);
    expect(below.map((e) => num(e, 'x'))).toEqual(xs.map((x) => Number(x.toFixed(1))));
    expect(new Set(below.map((e) => e.attributes.y))).toEqual(new Set([String(BOTTOM + 18)]));
  });

  it('grids and labels the height axis at round heights, from the lowest to the highest', () => {
    const { elements, tickLabels } = draw();
    const ys = [100, 120, 140, 160, 180].map((h) => BOTTOM - ((h - 100) / 80) * (BOTTOM - TOP));
    const grid = byClass(elements, 'line', 'grid');
    expect(grid.map((e) => [num(e, 'x1'), num(e, 'y1'), num(e, 'x2'), num(e, 'y2')])).toEqual(
      ys.map((y) => [LEFT, y, RIGHT, y]),
    );
    const left = tickLabels.filter((e) => e.attributes['text-anchor'] === 'end');
    expect(left.map((e) => e.text)).toEqual(['100', '120', '140', '160', '180']);
    expect(left.map((e) => [num(e, 'x'), num(e, 'y')])).toEqual(ys.map((y) => [LEFT - 8, y + 4]));
  });

  it('names both axes with their units, centred on them', () => {
    const { texts } = draw();
    const distance = texts.find((e) => e.text === 'Distance (m)');
    expect(distance?.attributes).toMatchObject({ x: '422', y: '310', 'text-anchor': 'middle' });
    const height = texts.find((e) => e.text === 'Elevation (m)');
    expect(height?.attributes).toMatchObject({ x: '16', y: '156', transform: 'rotate(-90 16 156)' });
  });

  it('measures in km from 2,000 m on, with ticks in km', () => {
    const long = renderProfileSvg(profile([0, 2500, 5000], [10, 20, 15]), 'd');
    const parsed = parseSvg(long).elements;
    expect(parsed.find((e) => e.name === 'title')?.text).toBe(
      'Elevation profile · d · 5.0 km · ascent 10 m · descent 5 m',
    );
    const below = parsed.filter(
      (e) => e.attributes.class === 'tick' && e.attributes['text-anchor'] === 'middle',
    );
    expect(below.map((e) => e.text)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(num(below[1], 'x')).toBeCloseTo(LEFT + (RIGHT - LEFT) / 5, 1);
    // The last sample, 5 km, is on the right edge.
    expect(byClass(parsed, 'polyline', 'profile')[0].attributes.points.split(' ').pop()).toMatch(/^780\.0,/);
    expect(parsed.some((e) => e.text === 'Distance (km)')).toBe(true);
    expect(renderProfileSvg(profile([0, 2000], [1, 2]), 'd')).toContain('Distance (km)');
    expect(renderProfileSvg(profile([0, 1999.99], [1, 2]), 'd')).toContain('Distance (m)');
  });

  it('rounds tick labels of small steps to what the step shows', () => {
    const small = parseSvg(renderProfileSvg(profile([0, 10, 20], [0.1, 0.35, 0.2]), 'd')).elements;
    const left = small.filter((e) => e.attributes.class === 'tick' && e.attributes['text-anchor'] === 'end');
    expect(left.map((e) => e.text)).toEqual(['0.1', '0.15', '0.2', '0.25', '0.3', '0.35']);
  });

  it('scales heights between the lowest and highest sample, wherever they are', () => {
    // Highest first, lowest last: the line falls from the top left to the bottom right.
    const falling = parseSvg(renderProfileSvg(profile([0, 500, 1000], [180, 140, 100]), 'd')).elements;
    expect(byClass(falling, 'polyline', 'profile')[0].attributes.points).toBe(
      '64.0,40.0 422.0,156.0 780.0,272.0',
    );
  });

  it('draws an empty 0..1 m frame when no sample has data', () => {
    const empty = parseSvg(renderProfileSvg(profile([0, 500, 1000], [null, null, null]), 'd')).elements;
    const left = empty.filter((e) => e.attributes.class === 'tick' && e.attributes['text-anchor'] === 'end');
    expect(left.map((e) => e.text)).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1']);
    expect(byClass(empty, 'polyline', 'profile')).toHaveLength(0);
    expect(byClass(empty, 'line', 'axis')).toHaveLength(2);
  });

  it('draws a single sample with data at its place', () => {
    const one = parseSvg(renderProfileSvg(profile([0, 500, 1000], [null, 250, null]), 'd')).elements;
    const lines = byClass(one, 'polyline', 'profile');
    expect(lines.map((e) => e.attributes.points)).toEqual(['422.0,272.0']);
  });
});
