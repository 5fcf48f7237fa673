/**
 * Property: no request a client can send makes a handler answer 5xx or throw. Client mistakes are 4xx;
 * everything else is a 200. Inputs: arbitrary query strings, bodies (text, JSON values, shaped JSON with
 * huge numbers and unicode), base64 flags, methods, content types, content encodings (the body compressed that
 * way or not) and dataset names.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { encodePolyline } from '../../layers/elevation/request/polyline';
import { httpEvent, lambdaContext, type EventOptions } from './support/api-gateway';
import { loadHandlers, type Handlers } from './support/handlers';

/** Bounded for a 2-core machine; each run is one in-process invocation over tiny fixtures. */
const RUNS = 250;
const DATASETS = ['plane-point', 'int16-nodata', 'laea-pair', 'utm32', 'copernicus', 'plane-area,laea-pair'];

let handlers: Handlers;
beforeAll(async () => {
  handlers = await loadHandlers();
});

const anyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 90, -90, 180, -180, 0, -0, 2 ** 53, 1e-320),
);
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  // Any UTF-16 code unit, lone surrogates included (cheaper to generate than unit: 'binary').
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
  fc.base64String(),
);
const coordinate = fc.tuple(
  fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, 0, -0, 34, 48.8)),
  fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, 0, -0, -118, 9.15)),
);
const pairsText = fc
  .array(
    fc.oneof(
      coordinate.map(([a, b]) => `${a},${b}`),
      fc.tuple(anyNumber, anyNumber).map(([a, b]) => `${a},${b}`),
    ),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((pairs) => pairs.join('|'));
const polyline = fc
  .array(coordinate, { minLength: 1, maxLength: 8 })
  .map((points) => `enc:${encodePolyline(points)}`);
const locationsValue = fc.oneof(
  pairsText,
  polyline,
  anyText,
  fc.array(fc.record({ lat: anyNumber, lng: anyNumber })),
  fc.array(fc.record({ latitude: anyNumber, longitude: anyNumber })),
  fc.jsonValue(),
);
const optionValue = fc.oneof(
  fc.constantFrom(
    'nearest',
    'bilinear',
    'cubic',
    'null',
    'nan',
    '-9999',
    'json',
    'geojson',
    '2',
    '512',
    '513',
    '1e309',
  ),
  anyText,
  anyNumber.map(String),
);
const queryKey = fc.oneof(
  fc.constantFrom('locations', 'interpolation', 'nodata_value', 'format', 'samples', 'coordinates'),
  fc.string(),
);
const query = fc.dictionary(queryKey, fc.oneof(optionValue, pairsText, polyline), { maxKeys: 5 });
/** JSON objects whose toString/valueOf are not functions: String()/Number() on them throws a TypeError. */
const hostile = fc.record({ toString: fc.jsonValue(), valueOf: fc.jsonValue() }, { requiredKeys: [] });
const bodyObject = fc.record(
  {
    locations: fc.oneof(locationsValue, hostile, fc.array(hostile)),
    interpolation: fc.oneof(optionValue, fc.jsonValue(), hostile),
    nodata_value: fc.oneof(optionValue, fc.jsonValue(), hostile),
    format: fc.oneof(optionValue, hostile),
    samples: fc.oneof(optionValue, anyNumber, hostile),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  anyText,
  fc.jsonValue().map((v) => JSON.stringify(v)),
  bodyObject.map((v) => JSON.stringify(v)),
  locationsValue.map((v) => JSON.stringify(v)),
  fc.constant(undefined),
);
const event = fc.record({
  method: fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT', 'HEAD', 'get', 'FOO'),
  dataset: fc.oneof(fc.constantFrom(...DATASETS, '%', '%E0%A4%A', 'plane-point%2', ',', ''), anyText),
  query,
  body,
  isBase64Encoded: fc.boolean(),
  contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
  /** A Content-Encoding header, and whether the body really is compressed that way (clients get this wrong). */
  contentEncoding: fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'identity', 'zstd', 'gzip, br', ''),
  compressed: fc.boolean(),
});

const COMPRESS: Record<string, (text: string) => Buffer> = {
  gzip: (text) => gzipSync(text),
  deflate: (text) => deflateSync(text),
  br: (text) => brotliCompressSync(text),
};

type Generated = typeof event extends fc.Arbitrary<infer T> ? T : never;

function toOptions(e: Generated, path: string): EventOptions {
  return {
    method: e.method,
    path,
    pathParameters: { dataset: e.dataset },
    query: e.query,
    body: e.body === undefined ? undefined : e.isBase64Encoded ? bytesOf(e).toString('base64') : e.body,
    isBase64Encoded: e.isBase64Encoded && e.body !== undefined,
    headers: {
      ...(e.contentType ? { 'content-type': e.contentType } : {}),
      ...(e.contentEncoding === undefined ? {} : { 'content-encoding': e.contentEncoding }),
    },
  };
}

function bytesOf(e: Generated): Buffer {
  const compress = e.compressed && e.contentEncoding ? COMPRESS[e.contentEncoding] : undefined;
  return compress ? compress(e.body ?? '') : Buffer.from(e.body ?? '');
}

async function statusOf(handler: Handlers[keyof Handlers], options: EventOptions): Promise<number> {
  const result = await handler(httpEvent(options), lambdaContext());
  const status = result.statusCode ?? 200;
  // Every answer but a preflight (204) or a HEAD (headers only) is JSON.
  if (status !== 204 && options.method !== 'HEAD') JSON.parse(String(result.body));
  return status;
}

describe('no client input yields a 5xx', () => {
  const PATHS = { legacy: '/api/elevation', openElevation: '/api/v1/lookup' } as const;
  it.each(['elevation', 'legacy', 'openElevation'] as const)(
    '%s handler answers < 500 for arbitrary requests',
    async (name) => {
      await fc.assert(
        fc.asyncProperty(event, async (e) => {
          const status = await statusOf(
            handlers[name],
            toOptions(e, name === 'elevation' ? `/v1/${e.dataset}` : PATHS[name]),
          );
          expect(status).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('elevation handler answers < 500 for any in-range coordinates on every dataset and interpolation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DATASETS),
        fc.array(coordinate, { minLength: 1, maxLength: 20 }),
        fc.constantFrom('nearest', 'bilinear', 'cubic'),
        async (dataset, points, interpolation) => {
          const status = await statusOf(handlers.elevation, {
            path: `/v1/${dataset}`,
            pathParameters: { dataset },
            query: { locations: points.map(([a, b]) => `${a},${b}`).join('|'), interpolation },
          });
          expect(status).toBe(200);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it.each(['datasets', 'health'] as const)('%s handler answers < 500 whatever the request', async (name) => {
    await fc.assert(
      fc.asyncProperty(event, async (e) => {
        expect(await statusOf(handlers[name], toOptions(e, `/${name}`))).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
  });
});
