/**
 * A VRT mosaic's sources, below the sampler: which sources a point can fall in (and in which order they are
 * tried), and what opening one checks and answers. The rasters here are stand-ins that carry only a grid, a CRS
 * and a nodata value: what the VRT compares against its own placement. Reading real mosaics end to end is in
 * test/integration/vrt-mosaic.test.ts.
 */
import { DatasetConfigError, DatasetUnavailableError } from '../../../layers/elevation';
import type { RasterOpener } from '../../../layers/elevation/dataset/raster-opener';
import {
  MAX_SOURCES_PER_CELL,
  VrtMosaic,
  type VrtSource,
  type VrtSpec,
} from '../../../layers/elevation/dataset/vrt-mosaic';
import { crsFromEpsg } from '../../../layers/elevation/geo/crs';
import type { Raster, RasterGrid } from '../../../layers/elevation/raster/raster';

const WGS84 = crsFromEpsg(4326);
const UTM32 = crsFromEpsg(32632);

/** A 3x3 mosaic of 10x10-pixel sources, a pixel being 1/8 degree (exact in binary), its north-west corner at (10 E, 50 N). */
function threeByThree(): VrtSpec {
  const sources: VrtSource[] = [];
  for (let row = 0; row < 3; row++)
    for (let col = 0; col < 3; col++)
      sources.push({
        location: `tiles/r${row}c${col}.tif`,
        dstX: col * 10,
        dstY: row * 10,
        width: 10,
        height: 10,
        nodata: null,
        transparent: false,
      });
  const geoTransform: VrtSpec['geoTransform'] = [10, 0.125, 0, 50, 0, -0.125];
  return {
    width: 30,
    height: 30,
    geoTransform,
    scale: 1,
    offset: 0,
    pixelType: null,
    srsEpsg: null,
    sources,
  };
}

/** Lon/lat of VRT pixel coordinates (px, py): the point candidates() maps back to them. */
const at = (px: number, py: number): [number, number] => [10 + px * 0.125, 50 - py * 0.125];

function stand(grid: Partial<RasterGrid>, extra: Partial<Raster> = {}): Raster {
  return {
    url: 'stand-in',
    cacheKey: 'stand-in',
    grid: {
      width: 10,
      height: 10,
      originX: 10,
      originY: 50,
      resX: 0.125,
      resY: -0.125,
      blockWidth: 10,
      blockHeight: 10,
      ...grid,
    },
    crs: WGS84,
    nodata: -9999,
    scale: 1,
    offset: 0,
    pixelType: 'Int16',
    ...extra,
  } as Raster;
}

/** An opener that answers `raster` for every location it is asked for, and records the locations. */
function openerOf(raster: Raster | null): { opener: RasterOpener; opened: string[] } {
  const opened: string[] = [];
  const opener = {
    open: async (location: string) => {
      opened.push(location);
      return raster;
    },
  } as unknown as RasterOpener;
  return { opener, opened };
}

describe('which sources a point of a VRT can fall in', () => {
  const mosaic = new VrtMosaic(WGS84, threeByThree(), openerOf(null).opener, 'm');
  const names = (px: number, py: number) =>
    mosaic.candidates(...at(px, py)).map((id) => threeByThree().sources[Number(id)].location);

  it('a point well inside a source: that source alone', () => {
    expect(names(15, 15)).toEqual(['tiles/r1c1.tif']);
    expect(names(5, 25)).toEqual(['tiles/r2c0.tif']);
    expect(names(25.5, 4.5)).toEqual(['tiles/r0c2.tif']);
  });

  it('a point within a pixel of a seam: both sources, the later one first (it paints over the earlier)', () => {
    expect(names(10.5, 15)).toEqual(['tiles/r1c1.tif', 'tiles/r1c0.tif']);
    expect(names(9.5, 15)).toEqual(['tiles/r1c1.tif', 'tiles/r1c0.tif']);
    expect(names(15, 19.5)).toEqual(['tiles/r2c1.tif', 'tiles/r1c1.tif']);
    expect(names(20.5, 20.5)).toEqual([
      'tiles/r2c2.tif',
      'tiles/r2c1.tif',
      'tiles/r1c2.tif',
      'tiles/r1c1.tif',
    ]);
  });

  it('the margin is exactly one pixel', () => {
    expect(names(9, 15)).toEqual(['tiles/r1c1.tif', 'tiles/r1c0.tif']);
    expect(names(21, 15)).toEqual(['tiles/r1c2.tif', 'tiles/r1c1.tif']);
    expect(names(15, 9)).toEqual(['tiles/r1c1.tif', 'tiles/r0c1.tif']);
    expect(names(15, 21)).toEqual(['tiles/r2c1.tif', 'tiles/r1c1.tif']);
    expect(names(8.9, 15)).toEqual(['tiles/r1c0.tif']);
  });

  it('a point on the outer edge: the edge source; beyond the VRT: none', () => {
    expect(names(29.9, 29.9)).toEqual(['tiles/r2c2.tif']);
    expect(names(0, 0)).toEqual(['tiles/r0c0.tif']);
    expect(names(35, 15)).toEqual([]);
    expect(names(15, 40)).toEqual([]);
    expect(names(-5, 15)).toEqual([]);
    expect(names(15, -5)).toEqual([]);
  });

  it('overlapping sources: every one that covers the point, last painted first', () => {
    const spec = threeByThree();
    // A 7x7 patch over source 4, ending a pixel short of the next source: its margin reaches into it.
    spec.sources.push({
      ...spec.sources[4],
      location: 'tiles/patch.tif',
      dstX: 12,
      dstY: 12,
      width: 7,
      height: 7,
    });
    const overlapping = new VrtMosaic(WGS84, spec, openerOf(null).opener, 'm');
    const names = (px: number, py: number) =>
      overlapping.candidates(...at(px, py)).map((id) => spec.sources[Number(id)].location);
    expect(names(13, 13)).toEqual(['tiles/patch.tif', 'tiles/r1c1.tif']);
    expect(names(20, 13)).toEqual(['tiles/patch.tif', 'tiles/r1c2.tif', 'tiles/r1c1.tif']);
    expect(names(13, 20)).toEqual(['tiles/patch.tif', 'tiles/r2c1.tif', 'tiles/r1c1.tif']);
  });

  it('sources of different sizes: a large one is found wherever it reaches', () => {
    const spec = threeByThree();
    spec.sources.push({
      location: 'tiles/wide.tif',
      dstX: 0,
      dstY: 14,
      width: 30,
      height: 2,
      nodata: null,
      transparent: false,
    });
    const mixed = new VrtMosaic(WGS84, spec, openerOf(null).opener, 'm');
    for (const px of [1, 12, 28]) {
      const ids = mixed.candidates(...at(px, 15)).map((id) => spec.sources[Number(id)].location);
      expect(ids[0]).toBe('tiles/wide.tif');
      expect(ids).toHaveLength(2);
    }
  });
});

describe('the bounds of a VRT index', () => {
  it(`reads ${MAX_SOURCES_PER_CELL} sources stacked over one place and refuses one more (20,000 took a worker past 3.5 GB)`, () => {
    const stacked = (count: number): VrtSpec => {
      const spec = threeByThree();
      spec.sources = Array.from({ length: count }, (_, i) => ({ ...spec.sources[0], location: `s${i}.tif` }));
      return spec;
    };
    const fits = new VrtMosaic(WGS84, stacked(MAX_SOURCES_PER_CELL), openerOf(null).opener, 'm');
    expect(fits.candidates(...at(5, 5))).toHaveLength(MAX_SOURCES_PER_CELL);
    expect(() => new VrtMosaic(WGS84, stacked(MAX_SOURCES_PER_CELL + 1), openerOf(null).opener, 'm')).toThrow(
      new DatasetConfigError(
        `m: its VRT stacks more than ${MAX_SOURCES_PER_CELL} sources over one place (source ${MAX_SOURCES_PER_CELL + 1} of ${MAX_SOURCES_PER_CELL + 1}); GDAL paints them all, this reader does not read such a VRT. Keep the sources that show (gdalbuildvrt over the tiles themselves).`,
      ),
    );
  });

  it('refuses sources so unequal that one would be listed in millions of cells, instead of building that index', () => {
    const spec = threeByThree();
    // The median source is 10 px: one of 2^31 px across would fill 2 × 10^8 cells.
    spec.sources.push({ ...spec.sources[0], location: 'huge.tif', width: 2 ** 31, height: 10 });
    spec.width = 2 ** 31;
    expect(() => new VrtMosaic(WGS84, spec, openerOf(null).opener, 'm')).toThrow(
      /^m: its VRT's sources differ too much in size to be indexed \(source 10 of 10 spans \d+ cells of the median source's size\)/,
    );
  });
});

describe('opening a source of a VRT', () => {
  const spec = threeByThree();
  /** Source 4 (row 1, column 1) sits at (11.25 E, 48.75 N). */
  const centre = { originX: 11.25, originY: 48.75 };

  it('answers the raster that sits where the VRT places it', async () => {
    const raster = stand(centre);
    const { opener, opened } = openerOf(raster);
    expect(await new VrtMosaic(WGS84, spec, opener, 'm').open('4')).toBe(raster);
    expect(opened).toEqual(['tiles/r1c1.tif']);
  });

  it('an id the VRT does not have: no raster, nothing opened', async () => {
    const { opener, opened } = openerOf(stand(centre));
    expect(await new VrtMosaic(WGS84, spec, opener, 'm').open('9')).toBeNull();
    expect(opened).toEqual([]);
  });

  it.each(['', ' 4', '4.0', '0x4', '04', '-0'])(
    'an id that only converts to a source index (%j): no raster',
    async (id) => {
      const { opener, opened } = openerOf(stand(centre));
      expect(await new VrtMosaic(WGS84, spec, opener, 'm').open(id)).toBeNull();
      expect(opened).toEqual([]);
    },
  );

  it('a source the store lacks: the dataset is unavailable, naming the file', async () => {
    const answer = new VrtMosaic(WGS84, spec, openerOf(null).opener, 'mosaic').open('4');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toThrow(
      /'mosaic' is unavailable: its VRT names r1c1\.tif, which is not in the data store\./,
    );
  });

  it('accepts a placement off by less than a millionth of a pixel', async () => {
    const raster = stand({ originX: 11.25 + 0.125 * 5e-7, originY: 48.75 - 0.125 * 5e-7 });
    expect(await new VrtMosaic(WGS84, spec, openerOf(raster).opener, 'm').open('4')).toBe(raster);
  });

  it.each<[string, Partial<RasterGrid>, Partial<Raster>]>([
    ['one pixel wider', { ...centre, width: 11 }, {}],
    ['one pixel taller', { ...centre, height: 11 }, {}],
    ['half the resolution across (same size in pixels)', { ...centre, resX: 0.0625 }, {}],
    ['half the resolution down', { ...centre, resY: -0.0625 }, {}],
    [
      'twice the pixels across at half the resolution (the same extent)',
      { ...centre, width: 20, resX: 0.0625 },
      {},
    ],
    ['twice the pixels down at half the resolution', { ...centre, height: 20, resY: -0.0625 }, {}],
    ['a pixel east of its place', { originX: 11.375, originY: 48.75 }, {}],
    ['a pixel south of its place', { originX: 11.25, originY: 48.625 }, {}],
    ['a hundred-thousandth of a pixel east', { originX: 11.25 + 0.125 * 1e-5, originY: 48.75 }, {}],
    ['in another CRS', centre, { crs: UTM32 }],
  ])('refuses a source %s', async (_what, grid, extra) => {
    const answer = new VrtMosaic(WGS84, spec, openerOf(stand(grid, extra)).opener, 'm').open('4');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(
      /tiles\/r1c1\.tif does not sit on its VRT's grid as the VRT places it/,
    );
  });

  const withNodata = (nodata: number | null): VrtSpec => ({
    ...spec,
    sources: spec.sources.map((s) => ({ ...s, nodata })),
  });

  it('the VRT declares no nodata: the source keeps its own', async () => {
    const raster = stand(centre, { nodata: -9999 });
    expect(
      (await new VrtMosaic(WGS84, withNodata(null), openerOf(raster).opener, 'm').open('4'))?.nodata,
    ).toBe(-9999);
  });

  it('the VRT’s nodata replaces the source’s, rounded to the pixel type as stored values are', async () => {
    const open = async (nodata: number, pixelType: string) =>
      (
        await new VrtMosaic(
          WGS84,
          withNodata(nodata),
          openerOf(stand(centre, { pixelType })).opener,
          'm',
        ).open('4')
      )?.nodata;
    expect(await open(-32768, 'Int16')).toBe(-32768);
    expect(await open(-9999.9, 'Float32')).toBe(Math.fround(-9999.9));
    expect(await open(-9999.9, 'Float64')).toBe(-9999.9);
  });

  it('answers one view of an opened source per request, and a new one once the file is opened again', async () => {
    const first = stand(centre);
    let current = first;
    const opener = { open: async () => current } as unknown as RasterOpener;
    const mosaic = new VrtMosaic(WGS84, withNodata(0), opener, 'm');
    const view = await mosaic.open('4');
    expect(view).not.toBe(first);
    expect(view?.nodata).toBe(0);
    expect(await mosaic.open('4')).toBe(view);
    current = stand(centre); // the opener read the file's header again (it changed)
    const reopened = await mosaic.open('4');
    expect(reopened).not.toBe(view);
    expect(reopened).toMatchObject({ nodata: 0, grid: current.grid });
  });

  it('two sources naming the same file with different nodata each keep their own', async () => {
    const twice: VrtSpec = {
      ...spec,
      sources: [...spec.sources, { ...spec.sources[4], nodata: 7 }].map((s, i) =>
        i === 4 ? { ...s, nodata: 5 } : s,
      ),
    };
    const mosaic = new VrtMosaic(WGS84, twice, openerOf(stand(centre)).opener, 'm');
    expect((await mosaic.open('4'))?.nodata).toBe(5);
    expect((await mosaic.open('9'))?.nodata).toBe(7);
    expect((await mosaic.open('4'))?.nodata).toBe(5);
  });

  const scaled: VrtSpec = { ...spec, scale: 0.5, offset: 10 };

  it.each([
    [0.5, 10],
    [0.5, 0],
    [1, 10],
  ])(
    'the VRT’s band scale %d and offset %d make the heights of a source that declares none',
    async (k, d) => {
      const vrt = { ...spec, scale: k, offset: d };
      const opened = await new VrtMosaic(WGS84, vrt, openerOf(stand(centre)).opener, 'm').open('4');
      expect(opened).toMatchObject({ scale: k, offset: d, nodata: -9999 });
    },
  );

  it('a source that declares the VRT’s scale and offset is answered as it is', async () => {
    const raster = stand(centre, { scale: 0.5, offset: 10 });
    expect(await new VrtMosaic(WGS84, scaled, openerOf(raster).opener, 'm').open('4')).toBe(raster);
  });

  it.each<[string, VrtSpec, Partial<Raster>, string]>([
    [
      'an unscaled VRT',
      spec,
      { scale: 0.5, offset: 10 },
      'scale 0.5 and offset 10, but its VRT scales band 1 by 1 with offset 0',
    ],
    [
      'another scale',
      scaled,
      { scale: 0.25, offset: 10 },
      'scale 0.25 and offset 10, but its VRT scales band 1 by 0.5 with offset 10',
    ],
    [
      'another offset',
      scaled,
      { scale: 0.5, offset: 0 },
      'scale 0.5 and offset 0, but its VRT scales band 1 by 0.5 with offset 10',
    ],
    ['an offset alone', spec, { offset: -100 }, 'scale 1 and offset -100, but its VRT'],
  ])('refuses a source whose own scale contradicts %s', async (_what, vrt, extra, message) => {
    const answer = new VrtMosaic(WGS84, vrt, openerOf(stand(centre, extra)).opener, 'm').open('4');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(`tiles/r1c1.tif declares its own ${message}`);
  });

  const typed = (pixelType: string | null): VrtSpec => ({ ...spec, pixelType });

  it.each([
    ['Int16', 'Int16'],
    ['Int16', 'UInt8'],
    ['Int32', 'UInt16'],
    ['UInt16', 'UInt8'],
    ['UInt32', 'UInt16'],
    ['Float32', 'Int16'],
    ['Float32', 'UInt16'],
    ['Float64', 'Int32'],
    ['Float64', 'Float32'],
  ])('a %s band holds %s samples exactly: the source is read as it is', async (band, pixelType) => {
    const raster = stand(centre, { pixelType });
    expect(await new VrtMosaic(WGS84, typed(band), openerOf(raster).opener, 'm').open('4')).toBe(raster);
  });

  it.each([
    ['Int16', 'Float32'],
    ['UInt8', 'Int16'],
    ['UInt16', 'Int16'],
    ['Int16', 'UInt16'],
    ['Int16', 'Int32'],
    ['Float32', 'Int32'],
    ['Float32', 'UInt32'],
    ['Float32', 'Float64'],
    ['CInt16', 'Int16'],
    ['Int64', 'Int32'],
  ])('refuses a %s band over %s samples, which GDAL rounds or clips', async (band, pixelType) => {
    const answer = new VrtMosaic(WGS84, typed(band), openerOf(stand(centre, { pixelType })).opener, 'm').open(
      '4',
    );
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(
      `tiles/r1c1.tif holds ${pixelType} samples, which its VRT's ${band} band does not hold exactly`,
    );
  });

  it("places a source by the VRT's own CRS (gdalbuildvrt -a_srs), whatever the source says", async () => {
    const dhdn = crsFromEpsg(4314);
    const vrt = { ...spec, srsEpsg: 4314 };
    const opened = await new VrtMosaic(dhdn, vrt, openerOf(stand(centre)).opener, 'm').open('4');
    expect(opened?.crs).toBe(dhdn);
    // Without a CRS of its own, a source in another CRS than the first's is refused (above).
    const same = stand(centre, { crs: dhdn });
    expect(await new VrtMosaic(dhdn, vrt, openerOf(same).opener, 'm').open('4')).toBe(same);
  });
});
