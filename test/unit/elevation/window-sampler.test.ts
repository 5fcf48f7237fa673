/**
 * The window sampler over in-memory rasters whose every pixel is known: which heights it answers (bilinear
 * and cubic across block boundaries, nodata in each corner of a window, a raster in another CRS), which block
 * rows it asks to be decoded (an undecoded row holds a poison value, so reading one shows in the answer), and
 * how a request's block budget splits it into batches that each fetch a block once.
 */
import { configureBlockCache, newReadStats } from '../../../layers/elevation';
import { crsFromEpsg, crsToCrs, type Crs } from '../../../layers/elevation/geo/crs';
import { bilinear, cubic } from '../../../layers/elevation/dataset/interpolation';
import type { Mosaic } from '../../../layers/elevation/dataset/mosaic';
import { sampleMosaic } from '../../../layers/elevation/dataset/window-sampler';
import type { BlockRows } from '../../../layers/elevation/raster/block-rows';
import type { Raster } from '../../../layers/elevation/raster/raster';
import type { Interpolation, ReadContext } from '../../../layers/elevation/types';
import { recordingTrace, type RecordedSpan } from '../../support/recording-trace';

const WGS84 = crsFromEpsg(4326);
/** What a row not yet decoded holds: no height a test expects is near it. */
const POISON = 1e6;
const BLOCK = 8;
const BLOCK_BYTES = BLOCK * BLOCK * 4;

interface TestRaster extends Raster {
  /** Block indexes in the order they were fetched. */
  readonly fetches: number[];
  /** Per block, the row lists it was asked to decode. */
  readonly asked: Map<number, number[][]>;
}

interface GridOptions {
  width?: number;
  height?: number;
  value?: (c: number, r: number) => number;
  nodata?: number | null;
  crs?: Crs;
  originX?: number;
  originY?: number;
  res?: number;
  /** GDAL's band scale/offset: value(c, r) is what is stored, the height is value × scale + offset. */
  scale?: number;
  offset?: number;
}

let rasters = 0;

/** A Float32 raster in 8x8 blocks; pixel (c, r) holds value(c, r), 1000 r + c by default (a plane). */
function gridRaster(options: GridOptions = {}): TestRaster {
  const { width = 64, height = 64, nodata = null, crs = WGS84, originX = 10, originY = 50 } = options;
  const { res = 1 / 64, value = (c: number, r: number) => 1000 * r + c, scale = 1, offset = 0 } = options;
  const across = width / BLOCK;
  const fetches: number[] = [];
  const asked = new Map<number, number[][]>();
  const readBlock = (index: number): Promise<BlockRows> => {
    fetches.push(index);
    const bx = index % across;
    const by = Math.floor(index / across);
    const data = new Float32Array(BLOCK * BLOCK).fill(POISON);
    return Promise.resolve({
      rowCount: BLOCK,
      bytesHeld: BLOCK_BYTES,
      onResize: null,
      rows: (rows: readonly number[]) => {
        asked.set(index, [...(asked.get(index) ?? []), [...rows]]);
        for (const row of rows)
          for (let k = 0; k < BLOCK; k++) data[row * BLOCK + k] = value(bx * BLOCK + k, by * BLOCK + row);
        return Promise.resolve(data);
      },
    });
  };
  return {
    url: `grid-${++rasters}`,
    cacheKey: `window-sampler-test-${rasters}`,
    grid: { width, height, originX, originY, resX: res, resY: -res, blockWidth: BLOCK, blockHeight: BLOCK },
    crs,
    nodata,
    scale,
    offset,
    pixelType: 'Float32',
    pixelIsPoint: false,
    verticalDatum: null,
    blocksAcross: across,
    blocksDown: height / BLOCK,
    samplesPerPixel: 1,
    blockBytes: BLOCK_BYTES,
    partialExtraBytes: () => 0,
    readBlock,
    fetches,
    asked,
  };
}

function mosaicOf(raster: Raster): Mosaic {
  const ids = ['only'];
  return { crs: WGS84, candidates: () => ids, open: () => Promise.resolve(raster) };
}

interface Run {
  heights: number[];
  spans: RecordedSpan[];
  ctx: ReadContext;
}

/** Samples the raster at fractional pixel positions [col, row] (the sampler's pixel-centre coordinates). */
async function sampleAt(
  raster: TestRaster,
  positions: readonly (readonly [number, number])[],
  interpolation: Interpolation,
  blockBudgetBytes?: number,
): Promise<Run> {
  const { originX, originY, resX, resY } = raster.grid;
  const xs = Float64Array.from(positions, ([c]) => originX + (c + 0.5) * resX);
  const ys = Float64Array.from(positions, ([, r]) => originY + (r + 0.5) * resY);
  const spans: RecordedSpan[] = [];
  const ctx: ReadContext = { stats: newReadStats(), trace: recordingTrace(spans), blockBudgetBytes };
  const heights = Array.from(await sampleMosaic(mosaicOf(raster), xs, ys, interpolation, ctx));
  return { heights, spans, ctx };
}

function batchesOf(run: Run): unknown {
  return run.spans.find((s) => s.name === 'sample')?.annotations.batches;
}

/** The position [col, row] at (dc, dr) inside block (bx, by) of a 64-px-wide raster: pixel centre + 0.25. */
function inBlock(index: number, dc = 3, dr = 3): [number, number] {
  return [(index % 8) * BLOCK + dc + 0.25, Math.floor(index / 8) * BLOCK + dr + 0.25];
}

beforeEach(() => configureBlockCache(64 * 1024 * 1024)); // cold, and large enough to keep every block

describe('what the sampler tells the trace', () => {
  it('opens resolve-tiles and sample spans, with the tiles, points, edge windows and batches', async () => {
    const run = await sampleAt(gridRaster(), [inBlock(0), inBlock(9), [0, 0]], 'bilinear');
    expect(run.spans.map((s) => s.name)).toEqual(['resolve-tiles', 'sample', 'read-block', 'read-block']);
    expect(run.spans[0].annotations).toEqual({ tiles: 1 });
    expect(run.spans[1].annotations).toEqual({ points: 3, edgeWindows: 0, batches: 1 });
  });
});

describe('a request within its block budget', () => {
  it('samples in batches of as many blocks as the budget holds, each block fetched once', async () => {
    const raster = gridRaster();
    const positions = Array.from({ length: 64 }, (_, index) => inBlock(index));
    const run = await sampleAt(raster, positions, 'bilinear', 3 * BLOCK_BYTES);
    expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
    expect(batchesOf(run)).toBe(22); // 21 batches of three blocks, then the last one
    expect([...raster.fetches].sort((a, b) => a - b)).toEqual(positions.map((_, index) => index));
  });

  it('without a budget takes one batch', async () => {
    const positions = Array.from({ length: 64 }, (_, index) => inBlock(index));
    expect(batchesOf(await sampleAt(gridRaster(), positions, 'bilinear'))).toBe(1);
  });

  it.each([
    ['columns and rows 5-6', 5, 2],
    ['columns and rows 1-2', 1, 3],
  ] as const)(
    'charges the point that starts a new batch with its own block (a window at %s)',
    async (_, at, batches) => {
      // Three blocks fill the budget; the 4th point starts a batch, charged one block whatever its place in it.
      const positions = [inBlock(0), inBlock(1), inBlock(2), inBlock(3, at, at), inBlock(4), inBlock(5)];
      if (batches === 3) positions.push(inBlock(6));
      const run = await sampleAt(gridRaster(), positions, 'bilinear', 3 * BLOCK_BYTES);
      expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
      expect(batchesOf(run)).toBe(batches);
    },
  );

  it('counts a window over two blocks as two', async () => {
    // Columns 7-8: blocks 0 and 1, then 2-3 (columns 23-24), then 4-5: with room for three, one pair a batch.
    const positions: [number, number][] = [
      [7.25, 3.25],
      [23.25, 3.25],
      [39.25, 3.25],
    ];
    const run = await sampleAt(gridRaster(), positions, 'bilinear', 3 * BLOCK_BYTES);
    expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
    expect(batchesOf(run)).toBe(3);
    const twoRows = await sampleAt(gridRaster(), [[3.25, 7.25]], 'bilinear', BLOCK_BYTES);
    expect(twoRows.heights).toEqual([7253.25]); // blocks 0 and 8: one point always fits, whatever the budget
    expect(batchesOf(twoRows)).toBe(1); // in one batch: no empty batch flushed before it
  });

  it('charges a window over a block the batch holds and a new one for the new block only', async () => {
    // Block 9 is held; the next window (columns 15-16 of block row 1) adds block 10: within two blocks' budget.
    const positions: [number, number][] = [inBlock(9), [15.25, 11.25]];
    const run = await sampleAt(gridRaster(), positions, 'bilinear', 2 * BLOCK_BYTES);
    expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
    expect(batchesOf(run)).toBe(1);
  });

  it('groups points by block whatever their order: a block is fetched once, no cache hits', async () => {
    const raster = gridRaster();
    // Two points in each of the 64 blocks, in an order that scatters them (37 is prime to 128).
    const inOrder = Array.from({ length: 128 }, (_, i) => inBlock(i % 64, i < 64 ? 2 : 4, 3));
    const positions = inOrder.map((_, i) => inOrder[(i * 37) % 128]);
    const run = await sampleAt(raster, positions, 'bilinear', 3 * BLOCK_BYTES);
    expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
    expect(batchesOf(run)).toBe(22);
    expect(raster.fetches).toHaveLength(64);
    expect([run.ctx.stats.blocksRead, run.ctx.stats.blockCacheHits]).toEqual([64, 0]);
  });
});

describe('the rows a block is asked to decode', () => {
  it('are the rows the windows read, and no others', async () => {
    const raster = gridRaster({ width: 16, height: 16 });
    // Bilinear at row 9.25 reads rows 9-10: rows 1-2 of block 2. Cubic at (11.5, 3.5) reads rows 2-5 of block 1.
    const run = await sampleAt(raster, [[3.25, 9.25]], 'bilinear');
    expect(run.heights).toEqual([9253.25]);
    expect(Object.fromEntries(raster.asked)).toEqual({ 2: [[1, 2]] });
    const cubicRun = await sampleAt(raster, [[11.5, 3.5]], 'cubic');
    expect(cubicRun.heights[0]).toBeCloseTo(3511.5, 9);
    expect(raster.asked.get(1)).toEqual([[2, 3, 4, 5]]);
  });

  it('are split between the blocks a window straddles, down and across', async () => {
    const raster = gridRaster({ width: 16, height: 16 });
    const run = await sampleAt(raster, [[7.25, 7.75]], 'bilinear');
    expect(run.heights[0]).toBeCloseTo(7757.25, 9);
    expect(Object.fromEntries(raster.asked)).toEqual({ 0: [[7]], 1: [[7]], 2: [[0]], 3: [[0]] });
  });

  it('of several points in one block are asked together, once', async () => {
    const raster = gridRaster({ width: 16, height: 16 });
    const positions: [number, number][] = [
      [9.25, 10.25],
      [12.25, 13.25],
      [10.5, 10.5],
    ];
    const run = await sampleAt(raster, positions, 'bilinear');
    expect(run.heights).toEqual(positions.map(([c, r]) => 1000 * r + c));
    expect(Object.fromEntries(raster.asked)).toEqual({ 3: [[2, 3, 5, 6]] });
  });
});

describe('heights read from the blocks', () => {
  /** Not a plane (cubic and bilinear differ on it), every pixel a different value. */
  const curved = (c: number, r: number): number => c * c + 7 * r * r - 3 * c * r;

  /** Cubic's answer from the 4x4 window of `curved` around (col, row), the kernel applied to known pixels. */
  function cubicOf(col: number, row: number): number {
    const c = Math.floor(col);
    const r = Math.floor(row);
    const w = new Float64Array(16);
    for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) w[j * 4 + k] = curved(c - 1 + k, r - 1 + j);
    return cubic(w, col - c, row - r);
  }

  it.each([
    ['inside a block', [11.25, 3.75]],
    ['across a block column edge', [7.5, 3.25]],
    ['across a block row edge', [3.25, 7.5]],
    ['ending on a block’s last row and column', [13.25, 21.75]],
    ['in a lower block row', [28.75, 44.25]],
  ] as const)('cubic %s is the kernel over the 16 pixels around the point', async (_, [col, row]) => {
    const run = await sampleAt(gridRaster({ value: curved }), [[col, row]], 'cubic');
    expect(run.heights[0]).toBeCloseTo(cubicOf(col, row), 6);
    expect(run.heights[0]).not.toBeCloseTo(
      bilinear(
        curved(Math.floor(col), Math.floor(row)),
        curved(Math.floor(col) + 1, Math.floor(row)),
        curved(Math.floor(col), Math.floor(row) + 1),
        curved(Math.floor(col) + 1, Math.floor(row) + 1),
        col - Math.floor(col),
        row - Math.floor(row),
      ),
      6,
    );
  });

  it('bilinear inside a block and at a block’s last column reads the right pixels', async () => {
    const positions: [number, number][] = [
      [10.25, 19.5],
      [15.5, 19.25],
      [47.75, 60.5],
    ];
    const run = await sampleAt(gridRaster({ value: curved }), positions, 'bilinear');
    const expected = positions.map(([col, row]) => {
      const [c, r] = [Math.floor(col), Math.floor(row)];
      return bilinear(
        curved(c, r),
        curved(c + 1, r),
        curved(c, r + 1),
        curved(c + 1, r + 1),
        col - c,
        row - r,
      );
    });
    run.heights.forEach((h, i) => expect(h).toBeCloseTo(expected[i], 6));
  });

  it.each([
    ['right', 1, 0],
    ['below', 0, 1],
    ['diagonal', 1, 1],
  ] as const)(
    'bilinear with the %s neighbour nodata weighs the other three (the containing pixel is valid)',
    async (_, dc, dr) => {
      const [c, r] = [10, 11];
      const raster = gridRaster({
        nodata: -9999,
        value: (x, y) => (x === c + dc && y === r + dr ? -9999 : 1000 * y + x),
      });
      const run = await sampleAt(raster, [[c + 0.25, r + 0.25]], 'bilinear');
      const v = (x: number, y: number): number => (x === c + dc && y === r + dr ? NaN : 1000 * y + x);
      const expected = bilinear(v(c, r), v(c + 1, r), v(c, r + 1), v(c + 1, r + 1), 0.25, 0.25);
      expect(run.heights[0]).toBeCloseTo(expected, 9);
      expect(run.heights[0]).not.toBeCloseTo(1000 * (r + 0.25) + c + 0.25, 3); // not the plane: a void is near
    },
  );

  it('bilinear whose containing pixel is nodata is nodata, at a block edge too', async () => {
    const raster = gridRaster({
      nodata: -9999,
      value: (x, y) => (x === 15 && y === 11 ? -9999 : 1000 * y + x),
    });
    const run = await sampleAt(
      raster,
      [
        [15.25, 11.25],
        [14.75, 11.25],
      ],
      'bilinear',
    );
    expect(run.heights[0]).toBeNaN();
    expect(run.heights[1]).toBeNaN();
  });

  it('bilinear on the outer edge of a lone raster weighs the pixels inside it (an edge window)', async () => {
    const run = await sampleAt(
      gridRaster(),
      [
        [-0.25, 10.5],
        [63.25, 20.25],
        [5.5, -0.5],
      ],
      'bilinear',
    );
    expect(run.heights).toEqual([10_500, 20_313, 5.5]);
    expect(run.spans[1].annotations).toMatchObject({ edgeWindows: 3 });
  });

  it('reads a raster in another CRS (UTM 32N) at the point projected into it', async () => {
    const utm = crsFromEpsg(32632);
    const raster = gridRaster({ crs: utm, originX: 500_000, originY: 5_540_000, res: 30 });
    const toWgs84 = crsToCrs(utm, WGS84);
    const positions: [number, number][] = [
      [20.25, 30.75],
      [40.5, 10.5],
    ];
    const xs = new Float64Array(positions.length);
    const ys = new Float64Array(positions.length);
    positions.forEach(([col, row], i) => {
      [xs[i], ys[i]] = toWgs84(500_000 + (col + 0.5) * 30, 5_540_000 - (row + 0.5) * 30);
    });
    const ctx: ReadContext = { stats: newReadStats(), trace: recordingTrace([]) };
    const heights = Array.from(await sampleMosaic(mosaicOf(raster), xs, ys, 'bilinear', ctx));
    heights.forEach((h, i) => expect(h).toBeCloseTo(1000 * positions[i][1] + positions[i][0], 4));
    // A point outside the UTM raster, though its candidate: not its owner. The next candidate that holds it is.
    const geo = gridRaster({ originX: 7.5, originY: 50.5 });
    const both: Mosaic = {
      crs: WGS84,
      candidates: () => ['utm', 'geo'],
      open: (id) => Promise.resolve(id === 'utm' ? raster : geo),
    };
    const [x, y] = [7.5 + 20.75 / 64, 50.5 - 30.75 / 64]; // pixel (20.25, 30.25) of geo
    expect(
      (await sampleMosaic(both, Float64Array.of(x), Float64Array.of(y), 'bilinear', ctx))[0],
    ).toBeCloseTo(30_270.25, 6);
    const outside = await sampleMosaic(
      mosaicOf(raster),
      Float64Array.of(8),
      Float64Array.of(49.9),
      'bilinear',
      ctx,
    );
    expect(outside[0]).toBeNaN();
  });
});

describe('a band with a scale and offset (GDAL metadata)', () => {
  /** Stores half the plane: with scale 2 and offset -7 its heights are the plane 1000 r + c, less 7. */
  const half = (c: number, r: number): number => 500 * r + c / 2;
  const height = ([col, row]: readonly [number, number]): number => 1000 * row + col - 7;

  it.each([
    ['nearest', [[10, 11]]],
    [
      'bilinear',
      [
        [10.25, 11.5],
        [7.5, 3.25],
      ],
    ], // inside a block, across blocks
    [
      'cubic',
      [
        [20.25, 30.75],
        [7.5, 3.25],
      ],
    ],
  ] as const)('%s answers stored × scale + offset', async (interpolation, positions) => {
    const run = await sampleAt(gridRaster({ value: half, scale: 2, offset: -7 }), positions, interpolation);
    run.heights.forEach((h, i) => expect(h).toBeCloseTo(height(positions[i]), 9));
  });

  it('an edge window scales the pixels inside the raster', async () => {
    // On the outer edge the window weighs column 0 only (see "bilinear on the outer edge" above).
    const run = await sampleAt(
      gridRaster({ value: half, scale: 2, offset: -7 }),
      [[-0.25, 10.5]],
      'bilinear',
    );
    expect(run.heights[0]).toBeCloseTo(10_500 - 7, 9);
  });

  it('a block view shorter than its rows reads nodata past its end, not a scaled height', async () => {
    const raster = gridRaster({ scale: 2, offset: -7 });
    const readBlock = raster.readBlock.bind(raster);
    const short: TestRaster = {
      ...raster,
      readBlock: async (index, ctx) => {
        const block = await readBlock(index, ctx);
        // Half the block's rows: what a corrupt or truncated block could leave (the reader refuses those first).
        return {
          ...block,
          rows: async (rows, c) => (await block.rows(rows, c)).subarray(0, (BLOCK * BLOCK) / 2),
        };
      },
    };
    const run = await sampleAt(
      short,
      [
        [3, 2],
        [3, 6],
      ],
      'nearest',
    );
    expect(run.heights[0]).toBe(2 * (1000 * 2 + 3) - 7);
    expect(run.heights[1]).toBeNaN();
  });

  it('tests nodata on the stored value, before scaling', async () => {
    // Stored -9999 is nodata; a height of -9999 (stored -4996) is a height.
    const raster = gridRaster({
      nodata: -9999,
      scale: 2,
      offset: -7,
      value: (c, r) => (c === 3 && r === 3 ? -9999 : c === 5 && r === 5 ? -4996 : half(c, r)),
    });
    const run = await sampleAt(
      raster,
      [
        [3, 3],
        [5, 5],
        [6, 6],
      ],
      'nearest',
    );
    expect(run.heights[0]).toBeNaN();
    expect(run.heights.slice(1)).toEqual([-9999, 6000 - 7 + 6]);
  });

  it('scales each pixel by its own raster: a window across two rasters of different scales is seamless', async () => {
    // West: the plane stored as is. East (the next 64 columns): the same plane stored as (plane - 10) × 4,
    // with scale 0.25 and offset 10. A window across the seam takes pixels from both.
    const west = gridRaster();
    const east = gridRaster({
      originX: 11,
      value: (c, r) => (1000 * r + c + 64 - 10) * 4,
      scale: 0.25,
      offset: 10,
    });
    const mosaic: Mosaic = {
      crs: WGS84,
      candidates: (x) => (x < 11 ? ['west', 'east'] : ['east', 'west']),
      open: (id) => Promise.resolve(id === 'west' ? west : east),
    };
    const positions = [
      [63.25, 20.5],
      [62.5, 30.75],
      [64.5, 12.25],
    ] as const;
    for (const interpolation of ['bilinear', 'cubic'] as const) {
      const xs = Float64Array.from(positions, ([c]) => 10 + (c + 0.5) / 64);
      const ys = Float64Array.from(positions, ([, r]) => 50 - (r + 0.5) / 64);
      const ctx: ReadContext = { stats: newReadStats(), trace: recordingTrace([]) };
      const heights = await sampleMosaic(mosaic, xs, ys, interpolation, ctx);
      positions.forEach(([c, r], i) => expect(heights[i]).toBeCloseTo(1000 * r + c, 6));
    }
  });
});
