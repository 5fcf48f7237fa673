/**
 * GDAL VRT mosaics (the form gdalbuildvrt writes), read locally and over the data layer: a VRT over the four
 * Copernicus fixture tiles answers exactly what the same tiles answer as a tiled dataset (whose values are pinned
 * against GDAL), ComplexSource NODATA applies, and every VRT we cannot read exactly is refused with its reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../scripts/data-server';
import { startFlakyServer } from './support/flaky-data-server';
import {
  configureBlockCache,
  DataSourceAccessDeniedError,
  DatasetConfigError,
  DatasetRegistry,
  DatasetUnavailableError,
  loadApiConfig,
  loadDatasetRegistry,
  type Interpolation,
  type LatLon,
} from '../../layers/elevation';

const FIXTURES = path.resolve('test/fixtures');
const tile = (lat: number, lon: number) => `Copernicus_DSM_COG_10_N${lat}_00_W${lon}_00_DEM.tif`;

interface Source {
  file: string;
  dst: [number, number];
  kind?: 'SimpleSource' | 'ComplexSource' | 'AveragedSource';
  extra?: string;
  src?: string;
  relative?: boolean;
}

/** A VRT as gdalbuildvrt writes it (its element order and attributes), over 32x32 sources of 1/32 degree. */
function vrt(
  sources: Source[],
  options: { size?: [number, number]; head?: string; band?: string; srs?: string } = {},
): string {
  const [w, h] = options.size ?? [64, 64];
  const body = sources
    .map(({ file, dst, kind = 'SimpleSource', extra = '', src, relative = true }) =>
      [
        `    <${kind}>`,
        `      <SourceFilename relativeToVRT="${relative ? 1 : 0}">${file}</SourceFilename>`,
        '      <SourceBand>1</SourceBand>',
        '      <SourceProperties RasterXSize="32" RasterYSize="32" DataType="Float32" BlockXSize="16" BlockYSize="16" />',
        `      ${src ?? '<SrcRect xOff="0" yOff="0" xSize="32" ySize="32" />'}`,
        `      <DstRect xOff="${dst[0]}" yOff="${dst[1]}" xSize="32" ySize="32" />`,
        extra,
        `    </${kind}>`,
      ].join('\n'),
    )
    .join('\n');
  return `<VRTDataset rasterXSize="${w}" rasterYSize="${h}"${options.head ?? ''}>
  <SRS dataAxisToSRSAxisMapping="2,1">${options.srs ?? 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],AUTHORITY["EPSG","4326"]]'}</SRS>
  <GeoTransform> -1.1901562500000000e+02,  3.1250000000000000e-02,  0.0000000000000000e+00,  3.5015625000000000e+01,  0.0000000000000000e+00, -3.1250000000000000e-02</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1"${options.band ?? ''}>
    <ColorInterp>Gray</ColorInterp>
${body}
  </VRTRasterBand>
</VRTDataset>
`;
}

const FOUR: Source[] = [
  { file: `tiles/${tile(34, 119)}`, dst: [0, 0] },
  { file: `tiles/${tile(34, 118)}`, dst: [32, 0] },
  { file: `tiles/${tile(33, 119)}`, dst: [0, 32] },
  { file: `tiles/${tile(33, 118)}`, dst: [32, 32] },
];

let root: string;
let dataServer: DataServer;

const write = (name: string, text: string) => fs.writeFileSync(path.join(root, name), text);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vrt-'));
  fs.mkdirSync(path.join(root, 'tiles'));
  for (const name of fs.readdirSync(path.join(FIXTURES, 'copernicus-2x2')))
    fs.copyFileSync(path.join(FIXTURES, 'copernicus-2x2', name), path.join(root, 'tiles', name));
  write('mosaic.vrt', vrt(FOUR));
  fs.mkdirSync(path.join(root, 'vrt-folder'));
  fs.writeFileSync(
    path.join(root, 'vrt-folder', 'all.VRT'),
    vrt(FOUR.map((s) => ({ ...s, file: `../${s.file}` }))),
  );
  write(
    'complex.vrt',
    vrt(FOUR.map((s) => ({ ...s, kind: 'ComplexSource', extra: '      <NODATA>1000</NODATA>' }))),
  );
  write(
    'band-nodata.vrt',
    vrt(FOUR, { band: '' }).replace('<ColorInterp>', '<NoDataValue>1000</NoDataValue>\n    <ColorInterp>'),
  );
  write('windowed.vrt', vrt([{ ...FOUR[0], src: '<SrcRect xOff="4" yOff="0" xSize="28" ySize="32" />' }]));
  // Each way of windowing or resampling alone: an offset down, a narrower or a shorter source rectangle.
  write(
    'windowed-down.vrt',
    vrt([{ ...FOUR[0], src: '<SrcRect xOff="0" yOff="4" xSize="32" ySize="32" />' }]),
  );
  write('narrower.vrt', vrt([{ ...FOUR[0], src: '<SrcRect xOff="0" yOff="0" xSize="16" ySize="32" />' }]));
  write('shorter.vrt', vrt([{ ...FOUR[0], src: '<SrcRect xOff="0" yOff="0" xSize="32" ySize="16" />' }]));
  write(
    'scaled.vrt',
    vrt([{ ...FOUR[0], kind: 'ComplexSource', extra: '      <ScaleRatio>2</ScaleRatio>' }]),
  );
  write('averaged.vrt', vrt([{ ...FOUR[0], kind: 'AveragedSource' }]));
  write('warped.vrt', vrt(FOUR, { head: ' subClass="VRTWarpedDataset"' }));
  write('misplaced.vrt', vrt([{ ...FOUR[0], dst: [1, 0] }]));
  // gdalbuildvrt -a_srs: the VRT's CRS places the sources' pixels, whatever theirs say.
  write('srs-dhdn.vrt', vrt(FOUR, { srs: 'EPSG:4314' }));
  write('srs-unknown.vrt', vrt(FOUR, { srs: 'EPSG:1' }));
  write('missing-source.vrt', vrt([...FOUR, { file: 'tiles/nowhere.tif', dst: [0, 0] }]));
  write('not-xml.vrt', 'hello');
  write('growing.vrt', vrt(FOUR.slice(0, 3)));
  write(
    'config.yaml',
    `datasets:
  - name: tiles
    path: tiles/
    filename_epsg: 4326
    filename_tile_size: 1
${[
  'mosaic',
  'complex',
  'band-nodata',
  'windowed',
  'windowed-down',
  'narrower',
  'shorter',
  'scaled',
  'averaged',
  'warped',
  'misplaced',
  'srs-dhdn',
  'srs-unknown',
  'missing-source',
  'not-xml',
  'growing',
]
  .map((n) => `  - name: ${n}\n    path: ${n}.vrt`)
  .join('\n')}
  - name: vrt-folder
    path: vrt-folder/
`,
  );
  dataServer = await startDataServer({ root, port: 0 });
});

afterAll(async () => {
  await dataServer.close();
  fs.rmSync(root, { recursive: true, force: true });
});

beforeEach(() => configureBlockCache(16 * 1024 * 1024));

const registryOver = (dataRoot: string) =>
  loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot, missingTtlMs: 60_000 });

/** Points all over the 2x2 degrees: a grid that crosses both seams, the outer edges and a point outside. */
function points(): LatLon[] {
  const out: LatLon[] = [];
  for (let lat = 33.0; lat <= 35.0; lat += 0.0731)
    for (let lon = -119.0; lon <= -117.0; lon += 0.0677) out.push({ lat, lon });
  out.push(
    { lat: 34, lon: -118 },
    { lat: 34.0001, lon: -118.0001 },
    { lat: 35.01, lon: -119.01 },
    { lat: 36, lon: -118 },
  );
  return out;
}

describe.each([
  ['local folder', () => root],
  ['data layer (HTTP)', () => dataServer.url],
])('a gdalbuildvrt mosaic over the %s', (_where, dataRoot) => {
  it('a VRT replaced under a running registry is read again after MISSING_TTL_S (a source added answers)', async () => {
    write('growing.vrt', vrt(FOUR.slice(0, 3)));
    const registry = loadDatasetRegistry({
      configPath: path.join(root, 'config.yaml'),
      dataRoot: dataRoot(),
      missingTtlMs: 0,
    });
    const added = { lat: 33.5, lon: -117.5 }; // in the fourth source, (33 N, 118 W)
    const [truth] = await registry.get('tiles').sample([added], 'nearest');
    expect(truth).not.toBeNull();
    await expect(registry.get('growing').sample([added], 'nearest')).resolves.toEqual([null]);
    write('growing.vrt', vrt(FOUR));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, 'growing.vrt'), later, later);
    await expect(registry.get('growing').sample([added], 'nearest')).resolves.toEqual([truth]);
  });

  it.each<Interpolation>(['nearest', 'bilinear', 'cubic'])(
    'answers %s exactly as the same tiles read as a tiled dataset',
    async (interpolation) => {
      const registry = registryOver(dataRoot());
      const expected = await registry.get('tiles').sample(points(), interpolation);
      expect(expected.filter((v) => v !== null).length).toBeGreaterThan(500);
      await expect(registry.get('mosaic').sample(points(), interpolation)).resolves.toEqual(expected);
    },
  );

  it('reads a folder holding one VRT (any case) as that VRT, its sources relative to it', async () => {
    const registry = registryOver(dataRoot());
    const expected = await registry.get('tiles').sample(points(), 'bilinear');
    await expect(registry.get('vrt-folder').sample(points(), 'bilinear')).resolves.toEqual(expected);
  });

  it('applies a ComplexSource <NODATA> and a band <NoDataValue> to the sources pixels', async () => {
    const registry = registryOver(dataRoot());
    const at = [{ lat: 34, lon: -118 }]; // the fixture's pixel of 1000 (test/fixtures/README.md)
    await expect(registry.get('mosaic').sample(at, 'nearest')).resolves.toEqual([1000]);
    const complex = await registry.get('complex').sampleAttributed(at, 'nearest');
    expect(complex).toMatchObject({ elevations: [null], nodataPixels: [true] });
    await expect(registry.get('band-nodata').sample(at, 'nearest')).resolves.toEqual([null]);
  });

  it('describes the mosaic: its bounds, resolution and source count', async () => {
    const info = await registryOver(dataRoot()).get('mosaic').describe();
    expect(info).toMatchObject({
      bounds: [-119.015625, 33.015625, -117.015625, 35.015625],
      resolution: [0.03125, 0.03125],
      tileCount: 4,
      pixelType: 'Float32',
    });
  });
});

it('checks a VRT once per MISSING_TTL_S by one byte: an outage keeps it, a refusal fails the request, a replaced one is read again', async () => {
  write('checked.vrt', vrt(FOUR.slice(0, 3)));
  fs.utimesSync(path.join(root, 'checked.vrt'), 1000, 1000); // the file's version is its size and mtime
  write('checked.yaml', 'datasets:\n  - name: checked\n    path: checked.vrt\n');
  const server = await startFlakyServer(root);
  let clock = 0;
  const registry = new DatasetRegistry(loadApiConfig(path.join(root, 'checked.yaml')), {
    dataRoot: server.url,
    headerPrefetchBytes: 65536,
    timeoutMs: 5000,
    retries: 0,
    missingTtlMs: 1000,
    now: () => clock,
  });
  const checked = () => registry.get('checked').sample([{ lat: 33.5, lon: -117.5 }], 'nearest'); // 4th source
  try {
    await expect(checked()).resolves.toEqual([null]);
    write('checked.vrt', vrt(FOUR));
    fs.utimesSync(path.join(root, 'checked.vrt'), 2000, 2000);
    const read = server.requests;
    clock = 999; // not checked yet: the VRT read at 0 answers, without a request
    await expect(checked()).resolves.toEqual([null]);
    expect(server.requests).toBe(read);

    server.failNext = 1; // the check at 1000 fails (503): the VRT read before stays until the next, at 2000
    clock = 1000;
    await expect(checked()).resolves.toEqual([null]);
    clock = 1999;
    await expect(checked()).resolves.toEqual([null]);
    expect(server.requests).toBe(read + 1);

    server.mode = 'forbidden'; // refused: this request fails, and the next checks again
    clock = 2000;
    await expect(checked()).rejects.toBeInstanceOf(DataSourceAccessDeniedError);
    await expect(checked()).rejects.toBeInstanceOf(DataSourceAccessDeniedError);
    expect(server.requests).toBe(read + 3);

    server.mode = 'ok'; // the check finds the VRT replaced: read again, its fourth source answers
    const [truth] = await registryOver(root)
      .get('tiles')
      .sample([{ lat: 33.5, lon: -117.5 }], 'nearest');
    expect(truth).not.toBeNull();
    await expect(checked()).resolves.toEqual([truth]);
  } finally {
    await server.close();
  }
});

it("places a VRT by its own <SRS> (gdalbuildvrt -a_srs), not by its sources' CRS", async () => {
  const registry = registryOver(root);
  expect((await registry.get('srs-dhdn').describe()).crs).toBe('EPSG:4314');
  // A diagonal a third of a pixel apart: DHDN's datum is ~500 m (a sixth of a pixel) off WGS 84's here.
  const diagonal = Array.from({ length: 200 }, (_, i) => ({
    lat: 33.05 + i * 0.0097,
    lon: -118.95 + i * 0.0093,
  }));
  const asSources = await registry.get('mosaic').sample(diagonal, 'nearest');
  const asDhdn = await registry.get('srs-dhdn').sample(diagonal, 'nearest');
  expect(asDhdn.filter((v, i) => v !== asSources[i]).length).toBeGreaterThan(20);
});

describe('VRTs that cannot be read exactly are refused with the reason', () => {
  const at = [{ lat: 34.5, lon: -118.5 }];
  it.each([
    ['windowed', /windowed or resampled \(SrcRect 4,0 28x32 -> DstRect 0,0 32x32\)/],
    ['windowed-down', /windowed or resampled \(SrcRect 0,4 32x32 -> DstRect 0,0 32x32\)/],
    ['narrower', /windowed or resampled \(SrcRect 0,0 16x32 -> DstRect 0,0 32x32\)/],
    ['shorter', /windowed or resampled \(SrcRect 0,0 32x16 -> DstRect 0,0 32x32\)/],
    ['scaled', /scaled \(<ScaleRatio>2<\/ScaleRatio>\)/],
    ['averaged', /<AveragedSource>; only SimpleSource and ComplexSource are read/],
    ['warped', /a VRTWarpedDataset VRT is not read/],
    ['misplaced', /does not sit on its VRT's grid/],
    ['srs-unknown', /srs-unknown\.vrt \(its <SRS>\): /],
    ['not-xml', /is not a readable VRT/],
  ])('%s', async (name, message) => {
    const answer = registryOver(root).get(name).sample(at, 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(message);
  });

  it('a source the VRT names but the store lacks: the dataset is unavailable (502), naming the file, not the store', async () => {
    const answer = registryOver(dataServer.url)
      .get('missing-source')
      .sample([{ lat: 34.5, lon: -118.5 }], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    // The client reads the file's name; the data layer's URL (a host, an S3 bucket) is only in the logged cause.
    const error = (await answer.catch((e: unknown) => e)) as DatasetUnavailableError;
    expect(error.publicMessage).toBe(
      "Dataset 'missing-source' is unavailable: its VRT names nowhere.tif, which is not in the data store.",
    );
    expect((error.cause as { url: string }).url).toBe(
      `${dataServer.url.replace(/\/$/, '')}/tiles/nowhere.tif`,
    );
  });
});
