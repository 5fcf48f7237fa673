/**
 * Correctness on the committed fixtures (test/fixtures/README.md): every documented point for every
 * interpolation, then the classic bugs one by one, each with a test that fails when the bug is present.
 */
import expected from '../../fixtures/expected.json';
import {
  configureBlockCache,
  DatasetNotFoundError,
  InvalidRequestError,
  loadDatasetRegistry,
  newReadStats,
} from '../../../layers/elevation';
import type { Interpolation, LatLon } from '../../../layers/elevation';

/** Expected values come from analytic planes written in each fixture's pixel type and PROJ coordinates rounded to 1e-7 deg. */
const VALUE_TOLERANCE_M = 1e-3;
/** Far below Float32's spacing near 1000 m (6e-5 m): a Float64 value read through Float32 misses it. */
const FLOAT64_TOLERANCE_M = 1e-9;
const INTERPOLATIONS: Interpolation[] = ['nearest', 'bilinear', 'cubic'];

interface FixturePoint {
  lat: number;
  lon: number;
  note: string;
  nearest: number | null;
  bilinear: number | null;
  cubic: number | null;
  tie?: number[];
  x?: number;
  y?: number;
}
interface Fixture {
  fixture: string;
  dataset: string;
  points: FixturePoint[];
}
const fixtures = (expected as unknown as { fixtures: Fixture[] }).fixtures;

const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });

/** The documented points of one fixture (test/fixtures/README.md). */
function pointsOf(name: string): FixturePoint[] {
  const fixture = fixtures.find((f) => f.fixture === name);
  if (!fixture) throw new Error(`No fixture ${name} in expected.json`);
  return fixture.points;
}

/** Null matches null; a number matches any accepted number within the tolerance. */
function matchesOneOf(value: number | null, accepted: (number | null)[]): boolean {
  return accepted.some((a) =>
    a === null || value === null ? a === value : Math.abs(value - a) < VALUE_TOLERANCE_M,
  );
}

async function sampleOne(dataset: string, lat: number, lon: number, interpolation: Interpolation) {
  return (await registry.get(dataset).sample([{ lat, lon }], interpolation))[0];
}

const cases = fixtures.flatMap((fixture) =>
  fixture.points.flatMap((point) =>
    INTERPOLATIONS.map((interpolation) => ({
      name: `${fixture.fixture} ${interpolation} at ${point.lat},${point.lon} (${point.note.slice(0, 70)})`,
      fixture,
      point,
      interpolation,
    })),
  ),
);

describe('every documented fixture point', () => {
  it.each(cases)('$name', async ({ fixture, point, interpolation }) => {
    const value = await sampleOne(fixture.dataset, point.lat, point.lon, interpolation);
    const wanted = point[interpolation];
    // At an exact tie between two pixel centres either neighbour is equally near (README: accept both).
    const accepted = interpolation === 'nearest' && point.tie ? point.tie : [wanted];
    expect(matchesOneOf(value, accepted)).toBe(true);
  });

  it('answers a whole fixture in one call, in input order, exactly as point by point', async () => {
    for (const fixture of fixtures) {
      const points: LatLon[] = fixture.points.map((p) => ({ lat: p.lat, lon: p.lon })).reverse();
      const batch = await registry.get(fixture.dataset).sample(points, 'bilinear');
      const single = await Promise.all(
        points.map((p) => sampleOne(fixture.dataset, p.lat, p.lon, 'bilinear')),
      );
      expect(batch).toEqual(single);
    }
  });
});

describe('pixel-is-point vs pixel-is-area', () => {
  // 0.7 px right of and below the shared tiepoint (README "The half-pixel shift").
  const lat = 49.9890625;
  const lon = 10.0109375;

  it('shifts a PixelIsPoint raster half a pixel up-left like GDAL (pixel (1,1) = 1006, not (0,0) = 1000)', async () => {
    expect(await sampleOne('plane-point', lat, lon, 'nearest')).toBe(1006);
  });

  it('does not shift a PixelIsArea raster (pixel (0,0) = 1003, not (1,1) = 1009)', async () => {
    expect(await sampleOne('plane-area', lat, lon, 'nearest')).toBe(1003);
  });

  it('gives both files the same bilinear value, because both hold the same plane', async () => {
    const point = await sampleOne('plane-point', lat, lon, 'bilinear');
    const area = await sampleOne('plane-area', lat, lon, 'bilinear');
    expect(Math.abs((point as number) - 1004.2)).toBeLessThan(VALUE_TOLERANCE_M);
    expect(Math.abs((area as number) - 1004.2)).toBeLessThan(VALUE_TOLERANCE_M);
  });

  it('reads half a pixel beyond the tiepoint inside a Point raster but not inside an Area raster', async () => {
    expect(await sampleOne('plane-point', 50.005, 10.3, 'nearest')).toBe(1190);
    expect(await sampleOne('plane-area', 50.005, 10.3, 'nearest')).toBeNull();
  });
});

describe('nodata', () => {
  it.each(INTERPOLATIONS)(
    'Int16 GDAL_NODATA -32768 at a nodata pixel centre is null (%s)',
    async (interpolation) => {
      expect(await sampleOne('int16-nodata', 49.921875, 10.078125, interpolation)).toBeNull();
    },
  );

  it.each(INTERPOLATIONS)('Float32 NaN at a NaN pixel centre is null (%s)', async (interpolation) => {
    expect(await sampleOne('float32-nan', 49.8671875, 10.1328125, interpolation)).toBeNull();
  });

  it.each(INTERPOLATIONS)(
    'next to nodata the value stays within the valid neighbours; -32768 never leaks in (%s)',
    async (interpolation) => {
      // Pixel (6,5) = 1040; its windows reach nodata pixel (5,5). Valid neighbours lie in 1000..1100.
      const value = await sampleOne('int16-nodata', 49.921875, 10.0875, interpolation);
      expect(value).toBeGreaterThan(1000);
      expect(value).toBeLessThan(1100);
    },
  );

  it('cubic next to a nodata hole falls back to the clean bilinear value, not null and not a wild value', async () => {
    const bilinear = await sampleOne('float32-nan', 49.5203125, 10.4109375, 'bilinear');
    const cubic = await sampleOne('float32-nan', 49.5203125, 10.4109375, 'cubic');
    expect(Math.abs((bilinear as number) - 1140.2)).toBeLessThan(VALUE_TOLERANCE_M);
    expect(cubic).toBe(bilinear);
  });

  it('a 2x2 nodata hole across a block edge is null for every interpolation', async () => {
    for (const interpolation of INTERPOLATIONS)
      expect(await sampleOne('int16-nodata', 49.755, 10.245, interpolation)).toBeNull();
  });
});

describe('pixel types and byte order', () => {
  const points: LatLon[] = [
    { lat: 49.9, lon: 10.1 },
    { lat: 49.755, lon: 10.245 },
    { lat: 49.39, lon: 10.61 },
  ];

  it.each(INTERPOLATIONS)(
    'big-endian Int16 reads the same values as little-endian Float32 (%s)',
    async (interpolation) => {
      const big = await registry.get('big-endian').sample(points, interpolation);
      const little = await registry.get('plane-point').sample(points, interpolation);
      expect(big).toEqual(little);
      expect(big[0]).not.toBeNull();
    },
  );

  it('reports pixel types from the files', async () => {
    expect((await registry.get('int16-nodata').describe()).pixelType).toBe('Int16');
    expect((await registry.get('float32-nan').describe()).pixelType).toBe('Float32');
    expect((await registry.get('float64-plane').describe()).pixelType).toBe('Float64');
    expect((await registry.get('uint16-nodata').describe()).pixelType).toBe('UInt16');
    expect((await registry.get('int32-nodata').describe()).pixelType).toBe('Int32');
  });

  it('reads Float64 pixels at full precision, not through Float32', async () => {
    const documented = pointsOf('float64-plane').filter((p) => p.nearest !== null);
    const values = await registry.get('float64-plane').sample(documented, 'nearest');
    for (const [i, p] of documented.entries()) {
      const wanted = p.nearest as number;
      // The fixture holds fractions Float32 cannot: this check would pass for a Float32 read otherwise.
      expect(Math.abs(Math.fround(wanted) - wanted)).toBeGreaterThan(100 * FLOAT64_TOLERANCE_M);
      expect(Math.abs((values[i] as number) - wanted)).toBeLessThan(FLOAT64_TOLERANCE_M);
    }
  });

  it('reads UInt16 heights above 32767 unsigned and Int32 heights below -32768 whole', async () => {
    // Pixel (6,6) of each (README): 40036 in UInt16 (Int16 would read -25500), -96100 in Int32.
    expect(await sampleOne('uint16-nodata', 49.9, 10.1, 'nearest')).toBe(40036);
    expect(await sampleOne('int32-nodata', 49.9, 10.1, 'nearest')).toBe(-96100);
  });

  it.each(INTERPOLATIONS)(
    'LZW with the floating-point predictor reads the same values as DEFLATE (%s)',
    async (interpolation) => {
      const points = pointsOf('lzw-plane');
      const lzw = await registry.get('lzw-plane').sample(points, interpolation);
      expect(lzw).toEqual(await registry.get('plane-point').sample(points, interpolation));
      expect(lzw.filter((v) => v !== null).length).toBeGreaterThan(5);
    },
  );
});

describe('sparse blocks (TileByteCounts 0, written by GDAL with SPARSE_OK=TRUE)', () => {
  // Centres of pixels in empty blocks (README): sparse-nodata (24,8), sparse-nan (36,24), sparse-zero (24,24).
  it.each(INTERPOLATIONS)(
    'an empty block of a raster with nodata -32768 is null (%s)',
    async (interpolation) => {
      expect(await sampleOne('sparse-nodata', 49.875, 10.375, interpolation)).toBeNull();
    },
  );

  it.each(INTERPOLATIONS)(
    'an empty block of a raster with NaN nodata is null, not 0 (%s)',
    async (interpolation) => {
      expect(await sampleOne('sparse-nan', 49.6171875, 10.5703125, interpolation)).toBeNull();
    },
  );

  it.each(INTERPOLATIONS)(
    'an empty block of a raster without nodata reads as 0, as GDAL does, not null (%s)',
    async (interpolation) => {
      expect(await sampleOne('sparse-zero', 49.625, 10.375, interpolation)).toBe(0);
    },
  );

  it('reads an empty block without a range request', async () => {
    configureBlockCache(16 * 1024 * 1024); // cold: the empty block must come from the raster, not the cache
    const fresh = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    await fresh.get('sparse-zero').sample([{ lat: 49.9, lon: 10.1 }], 'nearest'); // opens the file
    const stats = newReadStats();
    expect(
      await fresh.get('sparse-zero').sample([{ lat: 49.625, lon: 10.375 }], 'nearest', { stats }),
    ).toEqual([0]);
    expect(stats.blockCacheMisses).toBe(1);
    expect(stats.rangeRequests).toBe(0);
  });
});

describe('seamless tile edges (laea-pair, EPSG:3035, tiles that do not overlap)', () => {
  /** z = 100 + 0.01 (x - 4250000) + 0.004 (y - 2800000): the plane both tiles sample. */
  const plane = (x: number, y: number) => 100 + 0.01 * (x - 4250000) + 0.004 * (y - 2800000);
  const seamPoints = fixtures
    .find((f) => f.fixture === 'laea-pair')
    ?.points.filter((p) => p.note.includes('seam')) as FixturePoint[];

  it('has fixture points on both sides of the seam', () => {
    expect(seamPoints).toHaveLength(2);
  });

  it.each(['bilinear', 'cubic'] as const)(
    'a %s window that crosses the seam reads the neighbouring tile and equals the plane',
    async (interpolation) => {
      for (const p of seamPoints) {
        const value = await sampleOne('laea-pair', p.lat, p.lon, interpolation);
        expect(Math.abs((value as number) - plane(p.x as number, p.y as number))).toBeLessThan(
          VALUE_TOLERANCE_M,
        );
      }
    },
  );

  it('has no seam: values along a line across the edge change linearly', async () => {
    // A west-east line of points 2 km long centred on the seam, all at the same y, read by bilinear.
    const lats = seamPoints.map((p) => p.lat);
    const lat = (lats[0] + lats[1]) / 2;
    const lons = Array.from({ length: 21 }, (_, i) => 9.165 + i * 0.0013);
    const values = (await registry.get('laea-pair').sample(
      lons.map((lon) => ({ lat, lon })),
      'bilinear',
    )) as number[];
    const steps = values.slice(1).map((v, i) => v - values[i]);
    const meanStep = steps.reduce((a, b) => a + b, 0) / steps.length;
    for (const step of steps) expect(Math.abs(step - meanStep)).toBeLessThan(0.01);
  });
});

describe('Copernicus tile choice', () => {
  it('reads lat 34.0, lon -118.0 from tile N33 W118, pixel (0,0)', async () => {
    expect(await sampleOne('copernicus', 34.0, -118.0, 'nearest')).toBe(1000);
  });

  it('keeps a point 0.4 px beyond a tile edge in the tile that owns it (the half-pixel margin)', async () => {
    expect(await sampleOne('copernicus', 34.0125, -118.3, 'nearest')).toBe(980);
    expect(await sampleOne('copernicus', 33.7, -118.0125, 'nearest')).toBe(990);
  });

  it('answers null for the dropped south row (lat 33.0 belongs to the absent N32) rather than failing', async () => {
    expect(await sampleOne('copernicus', 33.0, -118.5, 'bilinear')).toBeNull();
  });

  it('reads the narrower high-latitude tile (N64: 16 columns of 1/16 deg, 32 rows of 1/32 deg)', async () => {
    expect(await sampleOne('copernicus', 64.5, -147.5, 'nearest')).toBe(88);
    expect(await sampleOne('copernicus', 64.5, -147.04, 'nearest')).toBe(116);
    expect(await sampleOne('copernicus', 64.5, -147.02, 'nearest')).toBeNull();
  });
});

describe('missing tiles and outside points', () => {
  it('answers null, not an error, for a point in a tile that does not exist', async () => {
    await expect(registry.get('copernicus').sample([{ lat: -40, lon: 170 }], 'bilinear')).resolves.toEqual([
      null,
    ]);
    await expect(
      registry.get('laea-pair').sample([{ lat: 48.356393, lon: 9.318866 }], 'cubic'),
    ).resolves.toEqual([null]);
  });

  it('answers null for a point outside a single-file dataset', async () => {
    await expect(registry.get('utm32').sample([{ lat: 0, lon: 0 }], 'nearest')).resolves.toEqual([null]);
  });
});

describe('multi-dataset fallback', () => {
  // 50.005,10.3 lies outside plane-area (north of its top edge) but inside plane-point.
  const points: LatLon[] = [
    { lat: 49.9, lon: 10.1 },
    { lat: 50.005, lon: 10.3 },
    { lat: 0, lon: 0 },
  ];

  it('answers each point from the first dataset that has a value there and names it per point', async () => {
    const result = await registry.resolve('plane-area,plane-point').sampleAttributed(points, 'nearest');
    expect(result.elevations).toEqual([1039, 1190, null]);
    expect(result.datasets.slice(0, 2)).toEqual(['plane-area', 'plane-point']);
  });

  it('follows the order given', async () => {
    const result = await registry.resolve('plane-point,plane-area').sampleAttributed(points, 'nearest');
    expect(result.elevations.slice(0, 2)).toEqual([1036, 1190]);
    expect(result.datasets.slice(0, 2)).toEqual(['plane-point', 'plane-point']);
  });

  it('rejects an unknown dataset in the chain, naming the available ones', () => {
    expect(() => registry.resolve('plane-point,nope')).toThrow(DatasetNotFoundError);
    expect(() => registry.resolve('nope')).toThrow(
      "Dataset 'nope' not in config. Available datasets: plane-point",
    );
  });

  it('rejects chains of more than 10 datasets as a bad request (400)', () => {
    expect(() => registry.resolve(new Array(11).fill('plane-point').join(','))).toThrow(
      'At most 10 datasets may be chained with commas, got 11.',
    );
    expect(() => registry.resolve(new Array(11).fill('plane-point').join(','))).toThrow(InvalidRequestError);
  });

  it('accepts a chain of exactly 10 datasets, and spaces around the names', () => {
    const ten = registry.names().slice(0, 10);
    expect(ten).toHaveLength(10);
    expect(registry.resolve(ten.join(', ')).name).toBe(ten.join(','));
    expect(registry.resolve(' plane-point , plane-area ').name).toBe('plane-point,plane-area');
  });

  it('quotes at most 100 characters of an unknown dataset name', () => {
    const long = `x${'y'.repeat(200)}`;
    expect(() => registry.get(long)).toThrow(`Dataset '${long.slice(0, 100)}' not in config.`);
  });

  it("names every unknown dataset of a chain in OpenTopoData's words, each quoted to 100 characters", () => {
    const long = `z${'y'.repeat(200)}`;
    expect(() => registry.resolve(`nope,plane-point,${long}`)).toThrow(
      `Datasets 'nope, ${long.slice(0, 100)}' not in config. Available datasets: plane-point, plane-area,`,
    );
    expect(() => registry.resolve('plane-point,nope')).toThrow("Dataset 'nope' not in config.");
    expect(() => registry.resolve(`${long},${long}`)).toThrow(
      `Duplicate dataset names provided. '${long.slice(0, 100)}' is named twice.`,
    );
  });

  it('drops empty names in a chain (a trailing, leading or double comma), as OpenTopoData does', () => {
    expect(registry.resolve('plane-point,plane-area,').name).toBe('plane-point,plane-area');
    expect(registry.resolve(',plane-point,, plane-area').name).toBe('plane-point,plane-area');
    expect(registry.resolve('plane-point,').name).toBe('plane-point');
    expect(registry.resolve('plane-point,')).toBe(registry.get('plane-point'));
  });

  it('rejects a chain of no names as a bad request (400)', () => {
    for (const spec of ['', ',', ' , ,']) {
      expect(() => registry.resolve(spec)).toThrow(InvalidRequestError);
      expect(() => registry.resolve(spec)).toThrow('No valid dataset names provided.');
    }
  });

  it('rejects a chain that names a dataset twice as a bad request (400)', () => {
    expect(() => registry.resolve('plane-point,plane-area,plane-point')).toThrow(
      "Duplicate dataset names provided. 'plane-point' is named twice",
    );
  });
});

describe('dataset descriptions', () => {
  it('describes a single file: WGS84 corner bounds, resolution, CRS, pixel type, one tile', async () => {
    expect(await registry.get('plane-area').describe()).toEqual({
      name: 'plane-area',
      bounds: [10, 49.375, 10.625, 50],
      resolution: [0.015625, 0.015625],
      crs: 'EPSG:4326',
      pixelType: 'Float32',
      tileCount: 1,
      verticalDatum: null,
    });
  });

  it('describes tiled and projected datasets', async () => {
    const laea = await registry.get('laea-pair').describe();
    expect(laea).toMatchObject({ crs: 'EPSG:3035', resolution: [500, 500], tileCount: 2 });
    // The WGS84 box of the tiles' union (E4250000-4270000, N2800000-2810000 in metres, 10 km tiles), as a
    // dense walk of its edges through proj4 gives it (1,000 steps an edge; the API walks 16).
    expect(laea.bounds).toEqual([9.041535, 48.309365, 9.312735, 48.401333]);
    const utm = await registry.get('utm32').describe();
    expect(utm).toMatchObject({
      crs: 'EPSG:25832',
      resolution: [100, 100],
      pixelType: 'Int16',
      tileCount: 1,
    });
    expect(utm.bounds).toEqual([9.136194, 48.806831, 9.190807, 48.842892]); // E510000-514000, N5406000-5410000
    const copernicus = await registry.get('copernicus').describe();
    expect(copernicus).toMatchObject({
      tileCount: 5,
      bounds: [-148, 33, -117, 65],
      resolution: [0.03125, 0.03125],
    });
  });
});

describe('read statistics', () => {
  it('counts the blocks a request touches and serves a repeat from the block cache', async () => {
    const fresh = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    const points = [{ lat: 48.8238684, lon: 9.1681879 }];
    const first = newReadStats();
    await fresh.get('utm32').sample(points, 'nearest', { stats: first });
    const second = newReadStats();
    await fresh.get('utm32').sample(points, 'nearest', { stats: second });
    expect(second.blockCacheMisses).toBe(0);
    expect(second.blockCacheHits).toBe(1);
    expect(second.rangeRequests).toBe(0);
    expect(first.blockCacheHits + first.blockCacheMisses).toBe(1);
  });
});

describe('header prefetch smaller than the header', () => {
  it('reads the same values when the header needs more reads than the prefetch', async () => {
    const wanted = await Promise.all(
      fixtures.map((f) =>
        registry.get(f.dataset).sample(
          f.points.map((p) => ({ lat: p.lat, lon: p.lon })),
          'bilinear',
        ),
      ),
    );
    configureBlockCache(16 * 1024 * 1024); // cold blocks: offsets must come from the tiny-prefetch header
    const tiny = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml', headerPrefetchBytes: 16 });
    for (const [i, fixture] of fixtures.entries()) {
      const points = fixture.points.map((p) => ({ lat: p.lat, lon: p.lon }));
      expect(await tiny.get(fixture.dataset).sample(points, 'bilinear')).toEqual(wanted[i]);
    }
  });
});
