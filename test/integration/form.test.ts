/**
 * `POST /v1/{dataset}/file` with the track uploaded as a form (multipart/form-data), in-process with API Gateway
 * v2 events: the bodies are what Node's own FormData serialises (as a browser or `curl -F` sends them), and the
 * answers must equal those to the same file sent as the raw body.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { attachmentHeader } from '../../functions/form';
import { invoke } from './support/api-gateway';
import {
  loadTrackHandlers,
  postFile,
  postProfile as postTrackProfile,
  type TrackHandlers,
} from './support/track-handlers';

const FIXTURES = path.resolve('test/fixtures/tracks');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let handlers: TrackHandlers;
/** MAX_FILE_BYTES at its lowest (1024), to reach the limits with small forms. */
let small: TrackHandlers;
beforeAll(async () => {
  // Each set of handlers reads its settings on its first invocation, so each is invoked before the next loads.
  handlers = await loadTrackHandlers();
  if ((await postFile(handlers, fixture('garmin.gpx'))).status !== 200)
    throw new Error('default handlers refused');
  small = await loadTrackHandlers({ MAX_FILE_BYTES: '1024' });
  if ((await postFile(small, fixture('garmin.gpx'))).status !== 413)
    throw new Error('MAX_FILE_BYTES not applied');
});

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
}

/** The bytes and content type Node's fetch would send for these parts. */
async function form(parts: Part[]): Promise<{ body: Buffer; contentType: string }> {
  const data = new FormData();
  for (const part of parts) {
    if (part.filename === undefined) data.append(part.name, part.value as string);
    else data.append(part.name, new Blob([part.value]), part.filename);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** As serverless-offline and API Gateway pass a multipart body: base64. */
function postForm(
  h: TrackHandlers,
  body: Buffer,
  contentType: string,
  query: Record<string, string> = {},
  base64 = true,
) {
  return invoke(h.file, {
    method: 'POST',
    path: '/v1/sample/file',
    pathParameters: { dataset: 'sample' },
    query,
    body: base64 ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: base64,
    headers: { 'content-type': contentType },
  });
}

const errorOf = (response: { json: unknown }) => (response.json as { error: string }).error;

describe('a track uploaded as a form', () => {
  it.each([
    ['google-earth.kml', 'application/vnd.google-earth.kml+xml'],
    ['garmin.gpx', 'application/gpx+xml'],
    ['collection.geojson', 'application/geo+json'],
    ['spreadsheet.csv', 'text/csv'],
  ])('answers %s as the raw upload does, as an attachment under its name', async (name, contentType) => {
    const { body, contentType: type } = await form([{ name: 'file', value: fixture(name), filename: name }]);
    const [viaForm, raw] = await Promise.all([
      postForm(handlers, body, type),
      postFile(handlers, fixture(name)),
    ]);
    expect(raw.status).toBe(200);
    expect(viaForm.status).toBe(200);
    expect(viaForm.headers['content-type']).toBe(contentType);
    expect(viaForm.body).toBe(raw.body);
    expect(viaForm.body).not.toBe(fixture(name).toString('utf8')); // heights were filled
    expect(viaForm.headers['x-elevation-filled']).toBe(raw.headers['x-elevation-filled']);
    expect(viaForm.headers['content-disposition']).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    );
    // A raw upload has no name: a download all the same, never a document shown inline in this API's origin.
    const extension = name.slice(name.lastIndexOf('.'));
    expect(raw.headers['content-disposition']).toBe(
      `attachment; filename="track${extension}"; filename*=UTF-8''track${extension}`,
    );
    for (const answer of [raw, viaForm]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
  });

  it('answers a KMZ part as a KMZ, whatever the file field is called', async () => {
    const kmz = Buffer.from(zipSync({ 'doc.kml': fixture('google-earth.kml') }));
    const { body, contentType } = await form([{ name: 'track', value: kmz, filename: 'trip.kmz' }]);
    const [viaForm, raw] = await Promise.all([
      postForm(handlers, body, contentType),
      postFile(handlers, kmz),
    ]);
    expect(viaForm.status).toBe(200);
    expect(viaForm.headers['content-type']).toBe('application/vnd.google-earth.kmz');
    const filled = unzipSync(Buffer.from(viaForm.body, 'base64'))['doc.kml'];
    expect(Buffer.from(filled).toString('utf8')).toBe(
      Buffer.from(unzipSync(Buffer.from(raw.body, 'base64'))['doc.kml']).toString('utf8'),
    );
  });

  it('answers a gzip-compressed part (activity.gpx.gz) gzip-compressed, under its name', async () => {
    const gz = gzipSync(fixture('garmin.gpx'));
    const { body, contentType } = await form([{ name: 'file', value: gz, filename: 'activity.gpx.gz' }]);
    const [viaForm, raw] = await Promise.all([
      postForm(handlers, body, contentType),
      postFile(handlers, fixture('garmin.gpx')),
    ]);
    expect(viaForm.status).toBe(200);
    expect(viaForm.headers['content-type']).toBe('application/gzip');
    expect(viaForm.headers['content-disposition']).toBe(
      `attachment; filename="activity.gpx.gz"; filename*=UTF-8''activity.gpx.gz`,
    );
    expect(gunzipSync(Buffer.from(viaForm.body, 'base64')).toString('utf8')).toBe(raw.body);
  });

  it('takes options from form fields as from the query string', async () => {
    const { body, contentType } = await form([
      { name: 'interpolation', value: 'cubic' },
      { name: 'report', value: 'json' },
      { name: 'file', value: fixture('garmin.gpx'), filename: 'garmin.gpx' },
    ]);
    const [viaForm, raw] = await Promise.all([
      postForm(handlers, body, contentType),
      postFile(handlers, fixture('garmin.gpx'), { interpolation: 'cubic', report: 'json' }),
    ]);
    expect(viaForm.status).toBe(200);
    expect(viaForm.json).toEqual(raw.json);
    expect((viaForm.json as { format: string }).format).toBe('gpx');
    expect(viaForm.headers['content-disposition']).toBeUndefined(); // a report, not the file
  });

  it('fills with the interpolation a form field names', async () => {
    const cubicForm = await form([{ name: 'interpolation', value: 'cubic' }, ...gpxPart()]);
    const [viaForm, cubic, bilinear] = await Promise.all([
      postForm(handlers, cubicForm.body, cubicForm.contentType),
      postFile(handlers, fixture('garmin.gpx'), { interpolation: 'cubic' }),
      postFile(handlers, fixture('garmin.gpx')),
    ]);
    expect(viaForm.body).toBe(cubic.body);
    expect(viaForm.body).not.toBe(bilinear.body);
  });

  it('names a filename with characters outside ASCII both ways', async () => {
    const { body, contentType } = await form([
      { name: 'file', value: fixture('garmin.gpx'), filename: 'Höhe 1.gpx' },
    ]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="H_he 1.gpx"; filename*=UTF-8''H%C3%B6he%201.gpx`,
    );
  });

  it('names a filename with quotes as the user named the file (browsers and FormData send them as %22)', async () => {
    const { body, contentType } = await form([
      { name: 'file', value: fixture('garmin.gpx'), filename: 'Wanderung "neu".gpx' },
    ]);
    expect(body.toString('latin1')).toContain('filename="Wanderung %22neu%22.gpx"');
    const response = await postForm(handlers, body, contentType);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Wanderung _neu_.gpx"; filename*=UTF-8''Wanderung%20%22neu%22.gpx`,
    );
  });
});

function gpxPart(): Part[] {
  return [{ name: 'file', value: fixture('garmin.gpx'), filename: 'garmin.gpx' }];
}

describe('a form that cannot be answered is a 4xx saying why', () => {
  it('refuses a form without a file', async () => {
    const { body, contentType } = await form([{ name: 'interpolation', value: 'cubic' }]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/no file.*curl -F file=@track\.kml/);
  });

  it('refuses an empty file (a form sent with no file chosen)', async () => {
    const { body, contentType } = await form([{ name: 'file', value: Buffer.alloc(0), filename: '' }]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/file is empty/);
  });

  it('names an empty file it was given a name for', async () => {
    const { body, contentType } = await form([
      { name: 'file', value: Buffer.alloc(0), filename: 'walk.kml' },
    ]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe(
      "The form's file 'walk.kml' is empty: choose a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file.",
    );
  });

  it('refuses a form request without a body', async () => {
    const { contentType } = await form(gpxPart());
    const response = await invoke(handlers.file, {
      method: 'POST',
      path: '/v1/sample/file',
      pathParameters: { dataset: 'sample' },
      headers: { 'content-type': contentType },
    });
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe('Invalid multipart/form-data request: Unexpected end of form.');
  });

  it('refuses two files rather than answering one of them', async () => {
    const { body, contentType } = await form([
      ...gpxPart(),
      { name: 'file2', value: fixture('garmin.gpx'), filename: 'b.gpx' },
    ]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/more than one file/);
  });

  it('refuses a form cut before its closing boundary rather than reading a shorter track', async () => {
    const { body, contentType } = await form(gpxPart());
    const cut = body.subarray(0, body.length - 60);
    const response = await postForm(handlers, cut, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/Invalid multipart\/form-data request: Unexpected end of form/);
  });

  it('refuses a multipart content type without a boundary', async () => {
    const { body } = await form(gpxPart());
    const response = await postForm(handlers, body, 'multipart/form-data');
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/Invalid multipart\/form-data request: .*boundary/i);
  });

  it('refuses an option given as a field and in the query string', async () => {
    const { body, contentType } = await form([{ name: 'report', value: 'json' }, ...gpxPart()]);
    const response = await postForm(handlers, body, contentType, { report: 'json' });
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe(
      "Parameter 'report' is given both in the query string and as a form field; give it once.",
    );
  });

  it('refuses a field given twice, an unknown field, a bad option value', async () => {
    const twice = await form([
      { name: 'report', value: 'json' },
      { name: 'report', value: 'json' },
      ...gpxPart(),
    ]);
    const unknown = await form([{ name: 'colour', value: 'red' }, ...gpxPart()]);
    const proto = await form([
      { name: '__proto__', value: 'x' },
      { name: 'toString', value: 'x' },
      ...gpxPart(),
    ]);
    const bad = await form([{ name: 'interpolation', value: 'spline' }, ...gpxPart()]);
    const [a, b, c, d] = await Promise.all([
      postForm(handlers, twice.body, twice.contentType),
      postForm(handlers, unknown.body, unknown.contentType),
      postForm(handlers, bad.body, bad.contentType),
      postForm(handlers, proto.body, proto.contentType),
    ]);
    expect([a.status, b.status, c.status, d.status]).toEqual([400, 400, 400, 400]);
    expect(errorOf(d)).toMatch(/Unknown parameter '__proto__'/);
    expect(errorOf(a)).toMatch(/'report' is given more than once/);
    expect(errorOf(b)).toMatch(/Unknown parameter 'colour'/);
    expect(errorOf(c)).toMatch(/spline/);
  });

  it('refuses a file over MAX_FILE_BYTES (413) and a form over it plus its overhead', async () => {
    const large = await form([{ name: 'file', value: Buffer.alloc(1025, 0x20), filename: 'big.kml' }]);
    const exact = await form([{ name: 'file', value: Buffer.alloc(1024, 0x20), filename: 'ok.kml' }]);
    const huge = await form([{ name: 'note', value: 'x'.repeat(17 * 1024) }, ...gpxPart()]);
    const [over, atLimit, form413] = await Promise.all([
      postForm(small, large.body, large.contentType),
      postForm(small, exact.body, exact.contentType),
      postForm(small, huge.body, huge.contentType),
    ]);
    expect(over.status).toBe(413);
    expect(errorOf(over)).toMatch(/'file' is larger than 1024 bytes \(MAX_FILE_BYTES\)/);
    // A file of exactly the limit passes the limit (and is then judged as a file: spaces are none).
    expect(atLimit.status).toBe(400);
    expect(errorOf(atLimit)).toMatch(/Unrecognised file/);
    expect(form413.status).toBe(413);
    expect(errorOf(form413)).toMatch(/The form is \d+ bytes; the limit is 1024 bytes for its file/);
  });

  it('refuses a form of more than 16 fields', async () => {
    const fields = Array.from({ length: 17 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    const { body, contentType } = await form([...fields, ...gpxPart()]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe('The form has too many fields: one file and at most 16 fields.');
  });

  it('refuses a long field value', async () => {
    const { body, contentType } = await form([
      { name: 'interpolation', value: 'c'.repeat(1025) },
      ...gpxPart(),
    ]);
    const response = await postForm(handlers, body, contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/'interpolation' is longer than 1024 bytes/);
  });

  it('answers a UTF-16 file (as PowerShell writes it) in UTF-16, as the raw upload does', async () => {
    const utf16 = Buffer.from(`\uFEFF${fixture('garmin.gpx').toString('utf8')}`, 'utf16le');
    const { body, contentType } = await form([{ name: 'file', value: utf16, filename: 'run.gpx' }]);
    const [viaForm, raw, utf8] = await Promise.all([
      postForm(handlers, body, contentType),
      postFile(handlers, utf16),
      postFile(handlers, fixture('garmin.gpx')),
    ]);
    expect(viaForm.status).toBe(200);
    expect(viaForm.headers['content-type']).toBe('application/gpx+xml; charset=utf-16');
    expect(viaForm.body).toBe(raw.body);
    expect(Buffer.from(viaForm.body, 'base64').equals(Buffer.from(`\uFEFF${utf8.body}`, 'utf16le'))).toBe(
      true,
    );
  });

  it('refuses a UTF-16 file whose form arrived as text (bytes lost), saying how to send it', async () => {
    const utf16 = Buffer.from(`\uFEFF${fixture('garmin.gpx').toString('utf8')}`, 'utf16le');
    const { body, contentType } = await form([{ name: 'file', value: utf16, filename: 'run.gpx' }]);
    const response = await postForm(handlers, body, contentType, {}, false);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe(
      'The UTF-16 file arrived as text and lost bytes on the way: send the form as binary (multipart/form-data ' +
        'bodies are), or the file itself with Content-Type: application/octet-stream.',
    );
  });

  it('refuses a KMZ whose form arrived as text (bytes lost), saying how to send it', async () => {
    const kmz = Buffer.from(zipSync({ 'doc.kml': fixture('google-earth.kml') }));
    const { body, contentType } = await form([{ name: 'file', value: kmz, filename: 'trip.kmz' }]);
    const response = await postForm(handlers, body, contentType, {}, false);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/KMZ arrived as text/);
  });
});

describe('a profile from a form', () => {
  const postProfile = (body: Buffer, contentType: string, query: Record<string, string> = {}) =>
    postTrackProfile(handlers, body, query, { headers: { 'content-type': contentType } });

  it("takes the form's file as the path, as the raw upload, with options from fields", async () => {
    const viaForm = await form([{ name: 'samples', value: '7' }, ...gpxPart()]);
    const [a, raw] = await Promise.all([
      postProfile(viaForm.body, viaForm.contentType),
      postProfile(fixture('garmin.gpx'), 'application/gpx+xml', { samples: '7' }),
    ]);
    expect(raw.status).toBe(200);
    expect(a.status).toBe(200);
    expect(a.json).toEqual(raw.json);
    expect((a.json as { points: unknown[] }).points).toHaveLength(7);
  });

  it('takes a UTF-16 file as the path, as the same file in UTF-8', async () => {
    const utf16 = Buffer.from(`\uFEFF${fixture('garmin.gpx').toString('utf8')}`, 'utf16le').swap16();
    const viaForm = await form([{ name: 'file', value: utf16, filename: 'run.gpx' }]);
    const [a, raw] = await Promise.all([
      postProfile(viaForm.body, viaForm.contentType),
      postProfile(fixture('garmin.gpx'), 'application/gpx+xml'),
    ]);
    expect(raw.status).toBe(200);
    expect(a.status).toBe(200);
    expect(a.json).toEqual(raw.json);
  });

  it("takes a form without a file as the request's fields, as GET does", async () => {
    const locations = '48.65,9.05|48.85,9.25';
    const viaForm = await form([
      { name: 'locations', value: locations },
      { name: 'samples', value: '5' },
    ]);
    const [a, get] = await Promise.all([
      postProfile(viaForm.body, viaForm.contentType),
      invoke(handlers.profile, {
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: { locations, samples: '5' },
      }),
    ]);
    expect(get.status).toBe(200);
    expect(a.status).toBe(200);
    expect(a.json).toEqual(get.json);
  });

  it('refuses an unknown field and a field also in the query string', async () => {
    const unknown = await form([
      { name: 'colour', value: 'red' },
      { name: 'locations', value: '48.7,9.1' },
    ]);
    const both = await form([{ name: 'samples', value: '5' }, ...gpxPart()]);
    const [a, b] = await Promise.all([
      postProfile(unknown.body, unknown.contentType),
      postProfile(both.body, both.contentType, { samples: '5' }),
    ]);
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(errorOf(a)).toMatch(/colour/);
    expect(errorOf(b)).toMatch(/'samples' is given both in the query string and as a form field/);
  });
});

describe('/v1 from a form, as OpenTopoData reads a POST form', () => {
  const postV1 = (body: Buffer, contentType: string, query: Record<string, string> = {}) =>
    invoke(handlers.elevation, {
      method: 'POST',
      path: '/v1/sample',
      pathParameters: { dataset: 'sample' },
      query,
      body: body.toString('base64'),
      isBase64Encoded: true,
      headers: { 'content-type': contentType },
    });
  const get = (query: Record<string, string>) =>
    invoke(handlers.elevation, { path: '/v1/sample', pathParameters: { dataset: 'sample' }, query });

  it('answers the fields as GET answers the same query, the form winning over the query string', async () => {
    const query = { locations: '48.742275,9.101177|48.8,9.2', interpolation: 'cubic' };
    const viaForm = await form(Object.entries(query).map(([name, value]) => ({ name, value })));
    const [a, b, expected, bilinear] = await Promise.all([
      postV1(viaForm.body, viaForm.contentType),
      postV1(viaForm.body, viaForm.contentType, { interpolation: 'nearest' }),
      get(query),
      get({ locations: query.locations }),
    ]);
    expect(expected.status).toBe(200);
    expect(a.status).toBe(200);
    expect(a.json).toEqual(expected.json);
    expect(b.json).toEqual(expected.json);
    expect(a.json).not.toEqual(bilinear.json);
  });

  it('refuses a file part, naming the routes that take one', async () => {
    const viaForm = await form([{ name: 'locations', value: '48.7,9.1' }, ...gpxPart()]);
    const response = await postV1(viaForm.body, viaForm.contentType);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe(
      'The form has a file, which this route does not take: send track files to /v1/{dataset}/file or /v1/{dataset}/profile.',
    );
  });

  it('refuses a form over MAX_BODY_BYTES plus its boundaries (413), a field over MAX_BODY_BYTES (400)', async () => {
    const limited = await loadTrackHandlers({ MAX_BODY_BYTES: '1024' });
    const call = (body: Buffer, contentType: string) =>
      invoke(limited.elevation, {
        method: 'POST',
        path: '/v1/sample',
        pathParameters: { dataset: 'sample' },
        body: body.toString('base64'),
        isBase64Encoded: true,
        headers: { 'content-type': contentType },
      });
    const long = await form([{ name: 'locations', value: '48.7,9.1|'.repeat(120) }]);
    const huge = await form(
      Array.from({ length: 3 }, (_, i) => ({ name: `f${i}`, value: 'x'.repeat(6000) })),
    );
    const fine = await form([{ name: 'locations', value: '48.7,9.1|'.repeat(100) }]);
    const [a, b, c] = [
      await call(long.body, long.contentType),
      await call(huge.body, huge.contentType),
      await call(fine.body, fine.contentType),
    ];
    expect(a.status).toBe(400);
    expect(errorOf(a)).toBe("The form field 'locations' is longer than 1024 bytes.");
    expect(b.status).toBe(413);
    expect(errorOf(b)).toMatch(/^The form is \d+ bytes; the limit is 17408 bytes\.$/);
    expect(c.status).toBe(200);
  });
});

describe('attachmentHeader', () => {
  it('keeps quotes, backslashes and control characters out of the quoted name, and the exact name in filename*', () => {
    expect(attachmentHeader('a"b\\c\u0007d é.kml')).toBe(
      `attachment; filename="a_b_c_d _.kml"; filename*=UTF-8''a%22b%5Cc%07d%20%C3%A9.kml`,
    );
    expect(attachmentHeader("it's (1)*.gpx")).toBe(
      `attachment; filename="it's (1)*.gpx"; filename*=UTF-8''it%27s%20%281%29%2A.gpx`,
    );
  });

  it('cuts a long name to 120 characters, its extension kept (a 6,000-character name made a 12 KB header)', () => {
    expect(attachmentHeader(`${'a'.repeat(6000)}.gpx`)).toBe(
      `attachment; filename="${'a'.repeat(116)}.gpx"; filename*=UTF-8''${'a'.repeat(116)}.gpx`,
    );
    // Characters, not UTF-16 units: an emoji is never cut in half.
    expect(attachmentHeader(`${'😀'.repeat(200)}.kml`)).toBe(
      `attachment; filename="${'_'.repeat(116)}.kml"; filename*=UTF-8''${'%F0%9F%98%80'.repeat(116)}.kml`,
    );
    // No extension, or a "dot" too far from the end to be one: cut plainly.
    expect(attachmentHeader('b'.repeat(121))).toContain(`filename="${'b'.repeat(120)}"`);
    expect(attachmentHeader(`x.${'c'.repeat(200)}`)).toContain(`filename="x.${'c'.repeat(118)}"`);
    expect(attachmentHeader(`${'d'.repeat(120)}.gpx`)).toContain(`filename="${'d'.repeat(116)}.gpx"`);
    expect(attachmentHeader(`${'e'.repeat(116)}.gpx`)).toContain(`filename="${'e'.repeat(116)}.gpx"`);
  });
});
