/**
 * Property: no file a client can send makes `POST /v1/{dataset}/file` (or `/profile`) answer 5xx or throw.
 * Inputs: arbitrary bytes, the committed fixtures cut short or with arbitrary text spliced in anywhere (inside
 * tags, coordinates, numbers, entities), and well-formed files without a coordinate, plus arbitrary option
 * values; the same files gzip-compressed, whole or cut short; FIT files, whole, cut or with a byte changed; and the same files in multipart forms, whole or cut anywhere or with bytes spliced in (into boundaries
 * and part headers too).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { fitFile } from '../support/fit-files';
import { httpEvent, lambdaContext, type EventOptions } from './support/api-gateway';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** Bounded for a 2-core machine: each run is one in-process invocation over a small file. */
const RUNS = 200;
const FIXTURES = [
  'google-earth.kml',
  'garmin.gpx',
  'garmin.tcx',
  'collection.geojson',
  'spreadsheet.csv',
].map((name) => readFileSync(path.resolve('test/fixtures/tracks', name), 'utf8'));

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers({ MAX_FILE_COORDINATES: '50' });
});

const splice = fc
  .tuple(
    fc.constantFrom(...FIXTURES),
    fc.nat(),
    fc.nat(),
    fc.oneof(
      fc.string(),
      fc.constantFrom('<', '&', ']]>', '<!DOCTYPE x>', ',', '"', '[', '1e999', '-', ';', '\n', '\t'),
    ),
  )
  .map(([text, at, cut, insert]) => {
    const i = at % (text.length + 1);
    return Buffer.from(text.slice(0, i) + insert + text.slice(i + (cut % 8)));
  });
const truncated = fc
  .tuple(fc.constantFrom(...FIXTURES), fc.nat())
  .map(([text, n]) => Buffer.from(text.slice(0, n % text.length)));
const kmzOf = splice.map((kml) => Buffer.from(zipSync({ 'doc.kml': kml })));
/** Well-formed files without a single coordinate (a /profile of one was a 500), in every format. */
const EMPTY = [
  '<gpx version="1.1"><metadata/></gpx>',
  '<kml><Document><Placemark><name>x</name></Placemark></Document></kml>',
  '<TrainingCenterDatabase><Activities><Activity><Lap><Track><Trackpoint/></Track></Lap></Activity></Activities></TrainingCenterDatabase>',
  '{"type":"FeatureCollection","features":[]}',
  '{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[]}]}',
  'name;lat;lon\r\n',
].map((text) => Buffer.from(text));
const empty = fc.oneof(
  fc.constantFrom(...EMPTY),
  fc.constantFrom(...EMPTY).map((text) => Buffer.from(zipSync({ 'doc.kml': text }))),
);
/** The same documents gzip-compressed (activity.gpx.gz), whole or cut short. */
const gzipOf = fc.tuple(fc.oneof(splice, empty), fc.nat(), fc.boolean()).map(([bytes, n, cut]) => {
  const gz = gzipSync(bytes);
  return cut ? gz.subarray(0, n % gz.length) : gz;
});
/**
 * FIT files of arbitrary positions (latitudes beyond the poles too; a longitude is a sint32), whole, cut short or
 * with one byte changed.
 */
const fitOf = fc
  .tuple(
    fc.array(
      fc.option(
        fc.tuple(
          fc.double({ min: -100, max: 100, noNaN: true }),
          fc.double({ min: -180, max: 179.9999, noNaN: true }),
        ),
      ),
      { maxLength: 6 },
    ),
    fc.nat(),
    fc.constantFrom('whole', 'cut', 'changed'),
  )
  .map(([points, n, how]) => {
    const fit = fitFile(points);
    if (how === 'cut') return fit.subarray(0, n % fit.length);
    if (how === 'changed') fit[n % fit.length] ^= 1 << (n % 8);
    return fit;
  });
const body = fc.oneof(
  splice,
  truncated,
  kmzOf,
  empty,
  gzipOf,
  fitOf,
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
);
const options = fc.dictionary(
  fc.constantFrom('interpolation', 'overwrite', 'altitude_mode', 'report', 'x'),
  fc.oneof(fc.string(), fc.constantFrom('absolute', 'json', 'false', 'true', 'cubic', 'nearest')),
);

/** POSTs the bytes (as base64 or text) and expects a 200 or a 4xx INVALID_REQUEST, never a 5xx or a throw. */
async function expectNo5xx(
  bytes: Buffer,
  base64: boolean,
  extra: Partial<EventOptions>,
  route: 'file' | 'profile' = 'file',
): Promise<void> {
  const event = httpEvent({
    method: 'POST',
    path: `/v1/sample/${route}`,
    pathParameters: { dataset: 'sample' },
    body: base64 ? bytes.toString('base64') : bytes.toString('utf8'),
    isBase64Encoded: base64,
    ...extra,
  });
  const result = await handlers[route](event, lambdaContext());
  const status = result.statusCode ?? 0;
  expect(status === 200 || (status >= 400 && status < 500)).toBe(true);
  const errorStatus = status === 200 ? 'INVALID_REQUEST' : JSON.parse(String(result.body)).status;
  expect(errorStatus).toBe('INVALID_REQUEST');
}

describe('file endpoint robustness', () => {
  it('never answers 5xx, whatever the file and options', async () => {
    await fc.assert(
      fc.asyncProperty(body, options, fc.boolean(), async (bytes, query, base64) => {
        await expectNo5xx(bytes, base64, { query });
      }),
      { numRuns: RUNS },
    );
  });

  it('never answers 5xx to a file posted for a profile, whatever the file', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (bytes, base64) => {
        await expectNo5xx(bytes, base64, {}, 'profile');
      }),
      { numRuns: RUNS },
    );
  });

  it('never answers 5xx to a form upload, whatever the form', async () => {
    const BOUNDARY = '----elevation-test-boundary';
    const part = (name: string, value: Buffer, filename?: string) =>
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"` +
            (filename === undefined ? '' : `; filename="${filename}"`) +
            '\r\n\r\n',
        ),
        value,
        Buffer.from('\r\n'),
      ]);
    const form = fc
      .tuple(
        fc.array(fc.tuple(fc.constantFrom('interpolation', 'report', 'x', 'file'), fc.string()), {
          maxLength: 3,
        }),
        fc.array(body, { minLength: 0, maxLength: 2 }),
      )
      .map(([fields, files]) =>
        Buffer.concat([
          ...fields.map(([name, value]) => part(name, Buffer.from(value))),
          ...files.map((bytes, i) => part(`file${i}`, bytes, `track${i}.kml`)),
          Buffer.from(`--${BOUNDARY}--\r\n`),
        ]),
      );
    const damaged = fc
      .tuple(form, fc.nat(), fc.nat(), fc.uint8Array({ maxLength: 8 }))
      .map(([bytes, at, cut, insert]) => {
        const i = at % (bytes.length + 1);
        return Buffer.concat([bytes.subarray(0, i), insert, bytes.subarray(i + (cut % 8))]);
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(form, damaged), fc.boolean(), async (bytes, base64) => {
        await expectNo5xx(bytes, base64, {
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        });
      }),
      { numRuns: RUNS },
    );
  });
});
