/**
 * `npm run bench:file-memory`: time and memory of the largest track files the API takes, per format, through the
 * two domain calls the file routes make: `fillFileHeights` (`/file`, over the bundled sample dataset) and
 * `readTrackPath` (`/profile`'s reading). Each case runs in its own child process (`--expose-gc`): the file is
 * built, memory is collected, the peak-RSS mark is reset (`/proc/self/clear_refs`, Linux), and the figure printed
 * is the peak RSS above the level before the call (VmHWM − VmRSS), which synchronous parsing cannot hide from a
 * sampler. The files are the limits' worst cases: MAX_FIT_BYTES of FIT records (one in 20 with a position, as a
 * device that logs power or heart rate between fixes), and 4 MiB text files (MAX_FILE_BYTES) near
 * MAX_FILE_COORDINATES.
 *   npm run bench:file-memory              # every case
 *   npm run bench:file-memory -- fit-sparse # one case
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { FitBaseType, FitEncoder } from 'fit-file-parser';
import { fillFileHeights, loadDatasetRegistry, readTrackPath } from '../../layers/elevation';
import { MAX_FIT_BYTES } from '../../layers/elevation/track/fit';
import { DEVICE_HEADER } from '../../test/support/fit-files';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const MAX_COORDINATES = 100_000;
const MAX_UNZIPPED_BYTES = 32 * 1024 * 1024;
const ROUTES = ['file', 'profile'] as const;

/** A point of the sample raster (Stuttgart), i-th of a track walking north-east. */
const at = (i: number): [number, number] => [48.7 + (i % 10_000) * 1e-5, 9.05 + (i % 7_000) * 1e-5];
const semicircles = (degrees: number) => Math.round((degrees * 2 ** 31) / 180);

/** `count` FIT records (timestamp only), every `every`-th with a position too. */
function fitRecords(count: number, every: number): Uint8Array {
  const encoder = new FitEncoder(DEVICE_HEADER);
  for (let i = 0; i < count; i++) {
    const time = { number: 253, size: 4, baseType: FitBaseType.Uint32, value: 1_100_000_000 + i };
    const [lat, lon] = at(i);
    encoder.writeMessage(
      20,
      i % every === 0
        ? [
            time,
            { number: 0, size: 4, baseType: FitBaseType.Sint32, value: semicircles(lat) },
            { number: 1, size: 4, baseType: FitBaseType.Sint32, value: semicircles(lon) },
          ]
        : [time],
    );
  }
  return new Uint8Array(encoder.close());
}

/**
 * As many records as fit in `bytes` (FitEncoder writes a definition again each time a record's fields differ
 * from the last one's, so a record's share is measured on 1,000 of each pattern).
 */
function fitFileOf(bytes: number, every: number): Uint8Array {
  const empty = fitRecords(0, every).length;
  const perRecord = (fitRecords(1000 * every, every).length - empty) / (1000 * every);
  return fitRecords(Math.floor((bytes - empty) / perRecord) - every, every);
}

function text(parts: Iterable<string>): Uint8Array {
  return new TextEncoder().encode([...parts].join(''));
}

function* repeat(n: number, line: (i: number) => string): Iterable<string> {
  for (let i = 0; i < n; i++) yield line(i);
}

/** ~32 MiB of GPX: 100,000 points with time and a Garmin TrackPointExtension, padded by descriptions. */
function bigGpx(): Uint8Array {
  const point = (i: number) =>
    `<trkpt lat="${at(i)[0].toFixed(6)}" lon="${at(i)[1].toFixed(6)}"><ele>0</ele><time>2026-12-05T07:00:00Z</time>` +
    `<desc>${'x'.repeat(50)}</desc><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${120 + (i % 40)}</gpxtpx:hr>` +
    `<gpxtpx:cad>85</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>\n`;
  return text([
    '<?xml version="1.0"?><gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"',
    ' xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>\n',
    ...repeat(MAX_COORDINATES, point),
    '</trkseg></trk></gpx>\n',
  ]);
}

/** ~32 MiB of KML: 10,000 placemarks of 10 points, each with a long description. */
function bigKml(): Uint8Array {
  const placemark = (p: number) =>
    `<Placemark><name>${p}</name><description>${'y'.repeat(2_600)}</description><LineString><coordinates>` +
    Array.from(
      { length: 10 },
      (_, k) => `${at(p * 10 + k)[1].toFixed(6)},${at(p * 10 + k)[0].toFixed(6)},0`,
    ).join(' ') +
    '</coordinates></LineString></Placemark>\n';
  return text([
    '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>\n',
    ...repeat(MAX_COORDINATES / 10, placemark),
    '</Document></kml>\n',
  ]);
}

/** A gzip file of 32 MiB (MAX_KMZ_UNZIPPED_MB): `head`, then `unit` as often as fits, then `tail`. */
function gzip32(head: string, unit: string, tail: string): Uint8Array {
  const count = Math.floor((MAX_UNZIPPED_BYTES - 64 - head.length - tail.length) / unit.length);
  return gzipSync(text([head, unit.repeat(count), tail]));
}

const CASES: Record<string, () => Uint8Array> = {
  'fit-sparse': () => fitFileOf(MAX_FIT_BYTES, 20),
  'fit-dense': () => fitRecords(MAX_COORDINATES, 1),
  gpx: () =>
    text([
      '<?xml version="1.0"?><gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n',
      ...repeat(
        60_000,
        (i) => `<trkpt lat="${at(i)[0].toFixed(6)}" lon="${at(i)[1].toFixed(6)}"><ele>0</ele></trkpt>\n`,
      ),
      '</trkseg></trk></gpx>\n',
    ]),
  kml: () =>
    text([
      '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>\n',
      ...repeat(MAX_COORDINATES, (i) => `${at(i)[1].toFixed(6)},${at(i)[0].toFixed(6)},0 `),
      '</coordinates></LineString></Placemark></kml>\n',
    ]),
  geojson: () =>
    text([
      '{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[\n',
      [...repeat(MAX_COORDINATES, (i) => `[${at(i)[1].toFixed(6)},${at(i)[0].toFixed(6)},0]`)].join(',\n'),
      ']}}\n',
    ]),
  // What MAX_KMZ_UNZIPPED_MB lets in: a .gpx.gz that unzips to 32 MiB (a watch's export, heart rate and cadence
  // with every point), and a KMZ whose KML is as large.
  'gpx-gz': () => gzipSync(bigGpx()),
  kmz: () => zipSync({ 'doc.kml': bigKml() }, { level: 6 }),
  // Over MAX_FILE_COORDINATES: ~30 KB sent, 32 MiB of the shortest coordinates unzipped; refused with a 400.
  'csv-over': () => gzip32('lat,lon\n', '1,1\n', ''),
  'geojson-over': () => gzip32('{"type":"LineString","coordinates":[', '[1,1],', '[1,1]]}'),
  'kml-over': () =>
    gzip32(
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>',
      '1,1 ',
      '</coordinates></LineString></Placemark></kml>',
    ),
  csv: () =>
    text([
      'lat,lon,ele\n',
      ...repeat(MAX_COORDINATES, (i) => `${at(i)[0].toFixed(6)},${at(i)[1].toFixed(6)},0\n`),
    ]),
};

function status(field: 'VmRSS' | 'VmHWM'): number {
  const line = fs.readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  if (!line) throw new Error(`/proc/self/status has no ${field}`);
  return Number(line[1]) / 1024;
}

async function child(file: string, route: (typeof ROUTES)[number]): Promise<void> {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const registry = loadDatasetRegistry({ configPath: path.join(REPO_ROOT, 'layers/dem-sample/config.yaml') });
  const dataset = registry.get('sample');
  const limits = { maxCoordinates: MAX_COORDINATES, maxUnzippedBytes: MAX_UNZIPPED_BYTES };
  (globalThis as { gc?: () => void }).gc?.();
  const before = status('VmRSS');
  fs.writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
  const start = performance.now();
  let points: number | string;
  try {
    if (route === 'file') {
      const filled = await fillFileHeights(
        bytes,
        dataset,
        { interpolation: 'bilinear', overwrite: true, absoluteAltitude: false },
        limits,
      );
      points = filled.report.coordinates;
    } else {
      points = (await readTrackPath(bytes, limits)).locations.length;
    }
  } catch (error) {
    const { statusCode } = error as { statusCode?: number };
    points = `${statusCode ?? 'crash'}: ${(error as Error).message.slice(0, 40)}…`;
  }
  const ms = performance.now() - start;
  process.stdout.write(
    JSON.stringify({ bytes: bytes.length, points, ms, peakMiB: status('VmHWM') - before }),
  );
}

interface ChildResult {
  bytes: number;
  /** How many points, or the refusal's status and the start of its message. */
  points: number | string;
  ms: number;
  peakMiB: number;
}

function main(): void {
  const only = process.argv.slice(2);
  const names = only.length > 0 ? only : Object.keys(CASES);
  for (const name of names)
    if (!(name in CASES)) throw new Error(`No case ${name}: ${Object.keys(CASES).join(', ')}`);
  const rows: string[][] = [['file', 'route', 'bytes', 'points', 'ms', 'peak RSS above idle, MiB']];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-memory-'));
  try {
    for (const name of names) {
      // Written here, so the child's heap has not grown around building the file before it measures.
      const file = path.join(dir, name);
      fs.writeFileSync(file, CASES[name]());
      for (const route of ROUTES) {
        const args = ['--expose-gc', '--import', 'tsx', __filename, '--child', file, route];
        const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`${name} ${route} failed: ${run.stderr}`);
        const r = JSON.parse(run.stdout) as ChildResult;
        const figures = [
          r.bytes.toLocaleString('en'),
          r.points.toLocaleString('en'),
          r.ms.toFixed(0),
          r.peakMiB.toFixed(0),
        ];
        rows.push([name, route, ...figures]);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  console.log(line(rows[0]));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows.slice(1)) console.log(line(row));
}

if (process.argv[2] === '--child') {
  void child(process.argv[3], process.argv[4] as (typeof ROUTES)[number]);
} else {
  main();
}
