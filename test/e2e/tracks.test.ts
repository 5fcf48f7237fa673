/**
 * Issue 13's endpoints over real HTTP through serverless-offline (esbuild bundles, worker threads) and the
 * data-layer server: a KMZ, a GPX, a gzip-compressed GPX, a UTF-16 GPX and a Windows-1252 CSV uploaded and answered
 * (binary bodies survive the offline gateway), a body sent with Content-Encoding: gzip, Google's Node, Python and
 * Go clients against `/maps/api/elevation/json` and its XML output, OSMnx's node elevations through the three URL
 * templates its users set, and a profile's `format=svg` rendered by Debian's headless Chromium. Without Chromium, the
 * Python packages or the Go program, those tests skip with a message locally and fail under CI=true.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Client, Status } from '@googlemaps/google-maps-services-js';
import { unzipSync, zipSync } from 'fflate';
import { CHROMIUM, dumpDom } from '../../scripts/report/chromium';
import { fitFile } from '../support/fit-files';
import { readGoogleXml } from '../support/google-xml';
import { describeIfAvailable } from '../support/requirements';
import { startStack, type Stack } from './support/stack';

const FIXTURES = path.resolve(__dirname, '../fixtures/tracks');
const execFileAsync = promisify(execFile);
const HAS_CHROMIUM = existsSync(CHROMIUM);
/** The profile line's stroke (#c0392b) drawn across the 736 px wide plot leaves well over this many pixels. */
const MIN_LINE_PIXELS = 500;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { POWERTOOLS_LOG_LEVEL: 'WARN' } });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

async function v1Heights(keys: string[]): Promise<Map<string, number>> {
  const response = await fetch(`${stack.baseUrl}/v1/sample?locations=${encodeURIComponent(keys.join('|'))}`);
  const body = (await response.json()) as { results: { elevation: number }[] };
  return new Map(keys.map((key, i) => [key, body.results[i].elevation]));
}

/** The `.expected` twin with its `{{lat,lon}}` placeholders filled from /v1 over HTTP. */
async function expected(name: string): Promise<string> {
  const template = readFileSync(path.join(FIXTURES, name), 'utf8');
  const keys = [...new Set([...template.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]))];
  const heights = await v1Heights(keys);
  return template.replace(/\{\{([^}]+)\}\}/g, (_, key: string) => String(heights.get(key)));
}

/** The same file to `/file` twice: as `application/octet-stream` (base64 to the handler) and with a text type. */
function sendAsBinaryAndText(body: Buffer, textType: string): Promise<[Response, Response]> {
  const send = (contentType: string) =>
    fetch(`${stack.baseUrl}/v1/sample/file`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
  return Promise.all([send('application/octet-stream'), send(textType)]);
}

describe('track files through serverless-offline', () => {
  it('answers a KMZ with its doc.kml filled, byte-identical except the heights', async () => {
    const kmz = zipSync({ 'doc.kml': readFileSync(path.join(FIXTURES, 'google-earth.kml')) });
    const response = await fetch(`${stack.baseUrl}/v1/sample/file`, {
      method: 'POST',
      // serverless-offline base64-encodes only octet-stream/multipart bodies (API Gateway: any binary type).
      headers: { 'content-type': 'application/octet-stream' },
      body: kmz,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.google-earth.kmz');
    expect(response.headers.get('x-elevation-filled')).toBe('6');
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Buffer.from(entries['doc.kml']).toString('utf8')).toBe(
      await expected('google-earth.expected.kml'),
    );
  });

  it('answers 400 with the fix for a KMZ sent with a content type that made it text', async () => {
    const kmz = zipSync({ 'doc.kml': readFileSync(path.join(FIXTURES, 'google-earth.kml')) });
    const response = await fetch(`${stack.baseUrl}/v1/sample/file`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.google-earth.kmz' },
      body: kmz,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain('application/octet-stream');
  });

  it('answers a gzip-compressed GPX (activity.gpx.gz) gzip-compressed, filled', async () => {
    const response = await fetch(`${stack.baseUrl}/v1/sample/file`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: gzipSync(readFileSync(path.join(FIXTURES, 'garmin.gpx'))),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const answer = gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
    expect(answer).toBe(await expected('garmin.expected.gpx'));
  });

  it('answers a profile for a FIT file (the bundle reads it with fit-file-parser)', async () => {
    const fit = fitFile([
      [48.742275, 9.101177],
      [48.77, 9.15],
    ]);
    const response = await fetch(`${stack.baseUrl}/v1/sample/profile?samples=3`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: fit,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { points: { elevation: number | null }[] };
    expect(body.points).toHaveLength(3);
    const [first] = body.points;
    const direct = await v1Heights(['48.742275,9.101177']);
    expect(first.elevation).toBeCloseTo(direct.get('48.742275,9.101177') ?? NaN, 1);
  });

  it('undoes Content-Encoding: gzip on a request body (serverless-offline passes it on as sent)', async () => {
    const locations = '48.742275,9.101177|48.8,9.2';
    const [plain, encoded] = await Promise.all([
      fetch(`${stack.baseUrl}/v1/sample?locations=${locations}`),
      fetch(`${stack.baseUrl}/v1/sample`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ locations })),
      }),
    ]);
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toEqual(await plain.json());
  });

  it('answers a GPX byte-identical except the heights', async () => {
    const response = await fetch(`${stack.baseUrl}/v1/sample/file`, {
      method: 'POST',
      headers: { 'content-type': 'application/gpx+xml' },
      body: readFileSync(path.join(FIXTURES, 'garmin.gpx')),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(await expected('garmin.expected.gpx'));
  });

  it('answers a UTF-16 GPX (as PowerShell writes it) in UTF-16; sent as text it is refused with the fix', async () => {
    const utf16 = Buffer.from(`\uFEFF${readFileSync(path.join(FIXTURES, 'garmin.gpx'), 'utf8')}`, 'utf16le');
    const [binary, text] = await sendAsBinaryAndText(utf16, 'application/gpx+xml');
    expect(binary.status).toBe(200);
    expect(binary.headers.get('content-type')).toBe('application/gpx+xml; charset=utf-16');
    const answered = Buffer.from(await binary.arrayBuffer());
    expect(answered.equals(Buffer.from(`\uFEFF${await expected('garmin.expected.gpx')}`, 'utf16le'))).toBe(
      true,
    );
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: string }).error).toBe(
      'The UTF-16 file arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.',
    );
  });

  it("answers Excel's Windows-1252 CSV byte for byte, labelled so (not hapi's utf-8); sent as text it is refused", async () => {
    const csv = Buffer.from('Name;Breite;Länge;Höhe\r\nMünchen;48,742275;9,101177;\r\n', 'latin1');
    const [binary, text] = await sendAsBinaryAndText(csv, 'text/csv');
    expect(binary.status).toBe(200);
    expect(binary.headers.get('content-type')).toBe('text/csv; charset=windows-1252');
    const height = (await v1Heights(['48.742275,9.101177'])).get('48.742275,9.101177');
    const answered = Buffer.from(await binary.arrayBuffer());
    const filled = Buffer.concat([
      csv.subarray(0, -2),
      Buffer.from(String(height).replace('.', ',')),
      csv.subarray(-2),
    ]);
    expect(answered.equals(filled)).toBe(true);
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: string }).error).toBe(
      'The file in an 8-bit encoding (Windows-1252, Latin-1) arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.',
    );
  });

  it('answers a KMZ uploaded as a form (curl -F) as the raw upload, under its own name', async () => {
    const kmz = zipSync({ 'doc.kml': readFileSync(path.join(FIXTURES, 'google-earth.kml')) });
    const form = new FormData();
    form.append('interpolation', 'cubic');
    form.append('file', new Blob([kmz]), 'trip.kmz');
    const [viaForm, raw] = await Promise.all([
      fetch(`${stack.baseUrl}/v1/sample/file`, { method: 'POST', body: form }),
      fetch(`${stack.baseUrl}/v1/sample/file?interpolation=cubic`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: kmz,
      }),
    ]);
    expect(viaForm.status).toBe(200);
    expect(raw.status).toBe(200);
    expect(viaForm.headers.get('content-disposition')).toBe(
      `attachment; filename="trip.kmz"; filename*=UTF-8''trip.kmz`,
    );
    const docOf = async (response: Response) =>
      Buffer.from(unzipSync(new Uint8Array(await response.arrayBuffer()))['doc.kml']).toString('utf8');
    const [fromForm, fromRaw] = await Promise.all([docOf(viaForm), docOf(raw)]);
    expect(fromForm).toBe(fromRaw);
    expect(fromForm).not.toBe(readFileSync(path.join(FIXTURES, 'google-earth.kml'), 'utf8'));
  });

  it("answers Google's client library for points and paths", async () => {
    const client = new Client({});
    const url = `${stack.baseUrl}/maps/api/elevation/json`;
    const points = await client.elevation({
      params: { locations: [{ lat: 48.742275, lng: 9.101177 }], key: 'ignored' },
      url,
    });
    expect(points.data.status).toBe(Status.OK);
    expect(points.data.results[0].elevation).toBe(
      (await v1Heights(['48.742275,9.101177'])).get('48.742275,9.101177'),
    );
    const path_ = await client.elevation({
      params: {
        path: [
          { lat: 48.65, lng: 9.05 },
          { lat: 48.85, lng: 9.25 },
        ],
        samples: 4,
        key: 'ignored',
      },
      url,
    });
    expect(path_.data.status).toBe(Status.OK);
    expect(path_.data.results).toHaveLength(4);
    expect(path_.data.results.every((r) => r.elevation > 150 && r.resolution > 60)).toBe(true);
  });

  it("answers Google's XML output as its JSON, and an error in XML, through the offline gateway", async () => {
    const query = 'locations=48.742275,9.101177|48.8,9.2&key=ignored';
    const xml = await fetch(`${stack.baseUrl}/maps/api/elevation/xml?${query}`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    const json = await fetch(`${stack.baseUrl}/maps/api/elevation/json?${query}`);
    const read = readGoogleXml(await xml.text());
    expect(read).toEqual(await json.json());
    const heights = await v1Heights(['48.742275,9.101177', '48.8,9.2']);
    expect(read.results.map((r) => r.elevation)).toEqual([...heights.values()]);
    const partly = await fetch(`${stack.baseUrl}/maps/api/elevation/xml?locations=48.742275,9.101177|10,10`);
    expect(partly.status).toBe(200);
    expect(readGoogleXml(await partly.text())).toMatchObject({ status: 'DATA_NOT_AVAILABLE', results: [] });
    const bad = await fetch(`${stack.baseUrl}/maps/api/elevation/xml/?locations=91,9`);
    expect(bad.status).toBe(400);
    expect(readGoogleXml(await bad.text())).toEqual({
      status: 'INVALID_REQUEST',
      error_message: expect.stringContaining(
        "Invalid 'locations' parameter: Unable to parse location '91,9' in position 1. Latitude must be between -90 and 90",
      ),
      results: [],
    });
  });
});

/** Google's Python client (PyPI googlemaps), installed into .bin/venv by `npm run deploy:install`. */
const VENV_PYTHON = path.resolve(__dirname, '../../.bin/venv/bin/python');
const HAS_GOOGLEMAPS =
  existsSync(VENV_PYTHON) && spawnSync(VENV_PYTHON, ['-c', 'import googlemaps']).status === 0;
/**
 * What a Python program written for Google's Elevation API does, with only base_url changed: points (sent as the
 * shortest of a pipe list and an `enc:` polyline), points of which one has no data, a path with samples, a request
 * Google calls invalid and one without data. Prints one JSON line per call: the results, or the exception the client raised.
 */
const GOOGLEMAPS_SCRIPT = `
import json, sys, googlemaps
client = googlemaps.Client(key='AIzaLocalKeyNotChecked0000000000000000', base_url=sys.argv[1], retry_timeout=5)
def show(call):
    try:
        print(json.dumps({'results': call()}))
    except Exception as error:
        print(json.dumps({'raised': type(error).__name__, 'text': str(error)}))
show(lambda: client.elevation([(48.742275, 9.101177), (48.8, 9.2)]))
show(lambda: client.elevation([(48.742275, 9.101177), (10, 10)]))
show(lambda: client.elevation_along_path([(48.65, 9.05), (48.85, 9.25)], 5))
show(lambda: client.elevation((91, 9)))
show(lambda: client.elevation((10, 10)))
`;

describeIfAvailable(
  "Google's Python client (googlemaps) against /maps/api/elevation/json",
  [{ what: 'googlemaps in .bin/venv (npm run deploy:install)', available: HAS_GOOGLEMAPS }],
  () => {
    it('reads our answers as Google’s; our 400 and DATA_NOT_AVAILABLE raise its documented exceptions', async () => {
      // Asynchronously: the local gateway runs in this process and must go on answering while Python waits.
      const run = await execFileAsync(VENV_PYTHON, ['-c', GOOGLEMAPS_SCRIPT, stack.baseUrl], {
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      const [points, partly, along, invalid, none] = run.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              results?: {
                elevation: number | null;
                location: { lat: number; lng: number };
                resolution: number | null;
              }[];
              raised?: string;
              text?: string;
            },
        );
      // The client sent the points as an enc: polyline (5 decimals): compare with /v1 at the decoded places.
      const places = (points.results ?? []).map((r) => `${r.location.lat},${r.location.lng}`);
      expect(places).toEqual(['48.74228,9.10118', '48.8,9.2']);
      const heights = await v1Heights(places);
      expect((points.results ?? []).map((r) => r.elevation)).toEqual([...heights.values()]);
      expect(points.results?.[0].resolution).toBeGreaterThan(90);
      // A point without data: an exception naming it, never a result without a height.
      expect(partly).toEqual({
        raised: 'ApiError',
        text: expect.stringMatching(/^DATA_NOT_AVAILABLE \(No elevation data .* position 2 \(10,10\)\./),
      });
      expect(along.results).toHaveLength(5);
      expect(along.results?.[0].location).toEqual({ lat: 48.65, lng: 9.05 });
      expect(along.results?.every((r) => typeof r.elevation === 'number')).toBe(true);
      // Google answers INVALID_REQUEST with HTTP 200 (ApiError with its message); we answer 400, as every route
      // here answers bad input, so this client raises HTTPError (README: Google's API).
      expect(invalid).toEqual({ raised: 'HTTPError', text: 'HTTP Error: 400' });
      expect(none).toEqual({
        raised: 'ApiError',
        text: expect.stringMatching(/^DATA_NOT_AVAILABLE \(No elevation/),
      });
    });
  },
);

/** Google's Go client in a small program (test/e2e/support/google-go-client), built by `npm run deploy:install`. */
const GO_CLIENT = path.resolve(__dirname, '../../.bin/google-go-client');

describeIfAvailable(
  "Google's Go client (googlemaps.github.io/maps) against /maps/api/elevation/json",
  [{ what: '.bin/google-go-client (npm run deploy:install)', available: existsSync(GO_CLIENT) }],
  () => {
    it("reads /v1's heights, and for a point without data an error, never 0 m", async () => {
      const run = await execFileAsync(GO_CLIENT, [stack.baseUrl], { timeout: 60_000 });
      expect(run.stderr).toBe('');
      const [points, partly] = run.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              results?: { location: { lat: number; lng: number }; elevation: number }[];
              error?: string;
            },
        );
      // The client sent an enc: polyline (5 decimals, rounded its own way): compare at the places it names.
      const places = (points.results ?? []).map((r) => `${r.location.lat},${r.location.lng}`);
      expect(places).toHaveLength(2);
      const heights = await v1Heights(places);
      expect(points.results?.map((r) => r.elevation)).toEqual([...heights.values()]);
      // Its Elevation is a float64: a null height would have been read as 0 m with no error.
      expect(partly).toEqual({
        error: expect.stringMatching(
          /^maps: DATA_NOT_AVAILABLE - No elevation data .* position 2 \(10,10\)\./,
        ),
      });
    });
  },
);

const HAS_OSMNX = existsSync(VENV_PYTHON) && spawnSync(VENV_PYTHON, ['-c', 'import osmnx']).status === 0;
/**
 * What an OSMnx user does to put heights on a street graph (ox.elevation.add_node_elevations_google with
 * settings.elevation_url_template), on a graph read from OSM XML: a 150-node street in the sample's area and a
 * 2-node street without data. Three templates: OSMnx 1.x's documented Open Topo Data one (`&key={key}`, so
 * `key=None` arrives) in batches of 100 (OpenTopoData's default limit), Google's (on the whole graph, and on the
 * street alone), and Open-Elevation's. Prints one JSON line per run: each node's [lat, lon, elevation] and the
 * edges' grades, or the exception raised.
 */
const OSMNX_SCRIPT = `
import json, math, os, sys, tempfile
import osmnx as ox
base = sys.argv[1]
ox.settings.use_cache = False
street = [(i + 1, 48.70 + i * 0.0005, 9.05 + i * 0.0007) for i in range(150)]
nowhere = [(1001, 10.0, 10.0), (1002, 10.001, 10.0)]
xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="e2e">']
xml += [f'<node id="{i}" lat="{lat:.7f}" lon="{lon:.7f}" version="1"/>' for i, lat, lon in street + nowhere]
for way, nodes in ((1, street), (2, nowhere)):
    xml += [f'<way id="{way}" version="1">'] + [f'<nd ref="{i}"/>' for i, _, _ in nodes]
    xml += ['<tag k="highway" v="residential"/>', '</way>']
path = os.path.join(tempfile.mkdtemp(), 'streets.osm')
with open(path, 'w') as f:
    f.write('\\n'.join(xml + ['</osm>']))
G = ox.graph_from_xml(path, simplify=False, retain_all=True)
finite = lambda v: None if v is None or math.isnan(v) else v
def run(template, graph=G, **options):
    ox.settings.elevation_url_template = base + template
    try:
        H = ox.elevation.add_edge_grades(ox.elevation.add_node_elevations_google(graph.copy(), **options))
        return {'nodes': {n: [d['y'], d['x'], finite(d['elevation'])] for n, d in H.nodes(data=True)},
                'grades': [finite(d['grade']) for _, _, d in H.edges(data=True)]}
    except Exception as error:
        return {'raised': type(error).__name__, 'text': str(error)}
print(json.dumps(run('/v1/sample?locations={locations}&key={key}', batch_size=100)))
google = '/maps/api/elevation/json?locations={locations}&key={key}'
print(json.dumps(run(google, api_key='AIzaNotChecked')))
print(json.dumps(run(google, G.subgraph([n for n, _, _ in street]).copy(), api_key='AIzaNotChecked')))
print(json.dumps(run('/api/v1/lookup?locations={locations}')))
`;

describeIfAvailable(
  'OSMnx (add_node_elevations_google) against /v1, /maps/api/elevation/json and /api/v1/lookup',
  [{ what: 'osmnx in .bin/venv (npm run deploy:install)', available: HAS_OSMNX }],
  () => {
    it("puts /v1's heights on a street graph through all three templates, and grades on its edges", async () => {
      const run = await execFileAsync(VENV_PYTHON, ['-c', OSMNX_SCRIPT, stack.baseUrl], { timeout: 120_000 });
      expect(run.stderr).toBe('');
      const answers = run.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              nodes?: Record<string, [number, number, number | null]>;
              grades?: (number | null)[];
              raised?: string;
              text?: string;
            },
        );
      expect(answers).toHaveLength(4);
      const [v1] = answers;
      expect(v1.raised).toBeUndefined();
      const nodes = Object.entries(v1.nodes ?? {});
      expect(nodes).toHaveLength(152);
      // OSMnx sends each node as f"{lat:.6f},{lon:.6f}".
      const places = nodes.map(([, [lat, lon]]) => `${lat.toFixed(6)},${lon.toFixed(6)}`);
      const heights = new Map<string, number>();
      for (let i = 0; i < places.length; i += 100) {
        for (const [key, height] of await v1Heights(places.slice(i, i + 100))) heights.set(key, height);
      }
      nodes.forEach(([id, [, , elevation]], i) => {
        expect([id, elevation]).toEqual([id, Number(id) > 1000 ? null : heights.get(places[i])]);
      });
      expect(nodes.filter(([id]) => Number(id) <= 1000).every(([, [, , e]]) => typeof e === 'number')).toBe(
        true,
      );
      // The street's 149 segments both ways have a grade; the street without data has none.
      expect(v1.grades?.filter((g) => typeof g === 'number')).toHaveLength(298);
      expect(v1.grades?.filter((g) => g === null)).toHaveLength(2);
      const [, google, googleStreet, openElevation] = answers;
      expect(openElevation).toEqual(v1);
      // Google's route answers no heights for a graph with a node without data (DATA_NOT_AVAILABLE); OSMnx raises.
      expect(google).toEqual({
        raised: 'InsufficientResponseError',
        text: expect.stringContaining("'status': 'DATA_NOT_AVAILABLE'"),
      });
      expect(googleStreet.nodes).toEqual(Object.fromEntries(nodes.filter(([id]) => Number(id) <= 1000)));
    });
  },
);

if (!HAS_CHROMIUM && process.env.CI !== 'true') {
  console.warn(`Profile SVG browser test skipped: ${CHROMIUM} is absent (apt-get install chromium).`);
  test('skips the SVG browser test because Chromium is absent', () => {
    expect(HAS_CHROMIUM).toBe(false);
  });
} else {
  test('a profile with format=svg renders in headless Chromium at its size, with the profile line drawn', async () => {
    expect(HAS_CHROMIUM).toBe(true); // under CI=true a missing Chromium fails here
    const response = await fetch(
      `${stack.baseUrl}/v1/sample/profile?locations=48.65,9.05|48.85,9.25&samples=200&format=svg`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    const svg = Buffer.from(await response.text()).toString('base64');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-svg-'));
    try {
      const page = path.join(dir, 'page.html');
      writeFileSync(page, probePage(svg));
      const dom = dumpDom(page, '', 820);
      const result = JSON.parse(
        /data-result="([^"]*)"/.exec(dom)?.[1]?.replace(/&quot;/g, '"') ?? 'null',
      ) as {
        width: number;
        height: number;
        line: number;
      } | null;
      expect(result).not.toBeNull();
      expect(result).toMatchObject({ width: 800, height: 320 });
      expect(result!.line).toBeGreaterThan(MIN_LINE_PIXELS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** A page that loads the SVG as an image, draws it on a canvas and counts pixels in the line's colour. */
function probePage(svgBase64: string): string {
  return `<!doctype html><html><body><img id="p" src="data:image/svg+xml;base64,${svgBase64}"><script>
const img = document.getElementById('p');
const done = (r) => document.body.setAttribute('data-result', JSON.stringify(r));
img.onerror = () => done(null);
img.onload = () => {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let line = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i + 1] < 100 && d[i + 2] < 90) line++;
  done({ width: img.naturalWidth, height: img.naturalHeight, line });
};
</script></body></html>`;
}
