/**
 * Property: no query makes `/v1/{dataset}/profile` or `/maps/api/elevation/json` answer 5xx or throw: arbitrary
 * values for every parameter they know (and unknown ones), as query strings and, for profiles, JSON bodies; and
 * `/maps/api/elevation/xml` always answers a document a strict XML parser reads, in Google's shape; and Google's
 * route answers `OK` only with `/v1`'s height for every location, `DATA_NOT_AVAILABLE` where `/v1` has a null.
 */
import fc from 'fast-check';
import { encodePolyline } from '../../layers/elevation/request/polyline';
import { readGoogleXml } from '../support/google-xml';
import { httpEvent, lambdaContext } from './support/api-gateway';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** Bounded for a 2-core machine; each run is one in-process invocation over the small sample. */
const RUNS = 150;
/**
 * 150 handler runs each: ~1-2 s alone, over jest's 5 s default on a loaded 2-core machine (a full run beside a
 * mutation run timed out). A bound on a hang, not a speed target.
 */
const PROPERTY_TIMEOUT_MS = 60_000;

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

const coordinate = fc.tuple(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: -180, max: 180, noNaN: true }),
);
const path = fc.oneof(
  fc.array(coordinate, { minLength: 1, maxLength: 4 }).map((ps) => ps.map(([a, b]) => `${a},${b}`).join('|')),
  fc.array(coordinate, { minLength: 1, maxLength: 4 }).map((ps) => `enc:${encodePolyline(ps)}`),
  fc.constant('48.65,9.05|48.85,9.25'),
  fc.string(),
);
const value = fc.oneof(
  fc.string(),
  fc.constantFrom('0', '1', '2', '512', '513', '-1', '1e9', 'NaN', 'svg', 'json', 'ellipsoid', 'egm2008'),
  fc.integer().map(String),
);
const params = (names: string[]) => fc.dictionary(fc.constantFrom(...names), fc.oneof(value, path));
const status = (result: { statusCode?: number }) => result.statusCode ?? 0;
const acceptable = (code: number) => code === 200 || (code >= 400 && code < 500);

describe('profile and Google endpoints robustness', () => {
  it(
    'never answer 5xx, whatever the query',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          params(['locations', 'samples', 'distance', 'threshold', 'format', 'interpolation', 'datum', 'x']),
          params(['locations', 'path', 'samples', 'key', 'x']),
          async (profileQuery, googleQuery) => {
            const profile = await handlers.profile(
              httpEvent({
                path: '/v1/sample/profile',
                pathParameters: { dataset: 'sample' },
                query: profileQuery,
              }),
              lambdaContext(),
            );
            const google = await handlers.google(
              httpEvent({ path: '/maps/api/elevation/json', query: googleQuery }),
              lambdaContext(),
            );
            expect([status(profile), status(google)].every(acceptable)).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "answers Google's XML output, well-formed and in Google's shape, whatever the query (any UTF-16, lone surrogates too)",
    async () => {
      const anyText = fc.string({ unit: 'binary' });
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('locations', 'path', 'samples', 'key'),
            fc.oneof(value, path, anyText),
          ),
          async (query) => {
            const result = await handlers.google(
              httpEvent({ path: '/maps/api/elevation/xml', query }),
              lambdaContext(),
            );
            expect(acceptable(status(result))).toBe(true);
            const read = readGoogleXml(String(result.body)); // throws on a malformed document
            expect(read.status).toMatch(
              status(result) === 200 ? /^(OK|DATA_NOT_AVAILABLE)$/ : /^INVALID_REQUEST$/,
            );
          },
        ),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "answers Google's OK only with a height for every location, and DATA_NOT_AVAILABLE exactly where /v1 has a null",
    async () => {
      // Half the points in the sample's tile (48.6-48.9 N, 9.0-9.3 E), half anywhere: both answers come up.
      const inSample = fc.tuple(
        fc.double({ min: 48.6, max: 48.9, noNaN: true }),
        fc.double({ min: 9, max: 9.3, noNaN: true }),
      );
      const located = fc.array(fc.oneof(inSample, coordinate), { minLength: 1, maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(located, async (points) => {
          const locations = points.map(([lat, lon]) => `${lat},${lon}`).join('|');
          const [google, v1] = await Promise.all([
            handlers.google(
              httpEvent({ path: '/maps/api/elevation/json', query: { locations } }),
              lambdaContext(),
            ),
            handlers.elevation(
              httpEvent({ path: '/v1/sample', pathParameters: { dataset: 'sample' }, query: { locations } }),
              lambdaContext(),
            ),
          ]);
          expect([status(google), status(v1)]).toEqual([200, 200]);
          const answer = JSON.parse(String(google.body)) as {
            status: string;
            results: { elevation: unknown }[];
          };
          const heights = (
            JSON.parse(String(v1.body)) as { results: { elevation: number | null }[] }
          ).results.map((r) => r.elevation);
          const expected = heights.includes(null)
            ? { status: 'DATA_NOT_AVAILABLE', results: [] }
            : { status: 'OK', results: heights.map((elevation) => ({ elevation })) };
          expect(answer).toMatchObject(expected);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx for arbitrary JSON bodies posted to /profile',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (json) => {
          const result = await handlers.profile(
            httpEvent({
              method: 'POST',
              path: '/v1/sample/profile',
              pathParameters: { dataset: 'sample' },
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(json),
            }),
            lambdaContext(),
          );
          expect(acceptable(status(result))).toBe(true);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
