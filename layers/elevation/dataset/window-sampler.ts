/**
 * Samples many points from a mosaic in three phases, so the per-point work is synchronous arithmetic:
 *  1. owners: each point's most likely tile is opened (concurrently, cached), then the others that may hold
 *     the points it does not, and the owner chosen;
 *  2. blocks: every block the points' windows touch is fetched once (cached, concurrently); only the rows the
 *     windows read are decoded (the decompression stops after the deepest one);
 *  3. values: windows are read from the fetched blocks and interpolated.
 * A window that leaves its owner raster (a tile edge) takes the slow path: each outside pixel is looked up in
 * whichever raster holds that pixel centre, so bilinear and cubic are seamless across tiles that do not overlap.
 * So does a window that touches pixels another raster also paints (a VRT's overlapping sources, `layering`):
 * each of those is read through the rasters holding it, last painted first, as GDAL paints a VRT.
 */
import { crsToCrs } from '../geo/crs';
import {
  containsPoint,
  gdalPixel,
  isNodataValue,
  pixelCentre,
  type PixelArray,
  type Raster,
} from '../raster/raster';
import type { Interpolation, ReadContext } from '../types';
import { getBlock } from './block-store';
import { bilinear, cubic, cubicInside } from './interpolation';
import type { Mosaic } from './mosaic';

type ToRaster = (x: number, y: number) => [number, number];

interface RasterState {
  raster: Raster;
  toRaster: ToRaster | null; // null: same CRS as the mosaic
  /** Blocks the current batch needs: index -> a mask of the block's rows its windows read (only those decode). */
  needed: Map<number, Uint8Array>;
  /** Fetched blocks; only the rows asked for may be read (a block may hold other rows still undecoded). */
  blocks: Map<number, PixelArray>;
  /** Edge windows (slow path): rows decoded per fetched block, as asked for pixel by pixel. */
  edgeRows: Map<number, Set<number>>;
  /** The mosaic's `Layering` of this raster: its pixels other rasters also paint; empty for most mosaics. */
  shared: readonly number[];
  /** Its nodata pixels show the raster under it. */
  transparent: boolean;
}

/** Window geometry per interpolation: how far left/up of floor(col) it starts and its size. */
const WINDOW = {
  nearest: { before: 0, size: 1 },
  bilinear: { before: 0, size: 2 },
  cubic: { before: 1, size: 4 },
} as const;

export async function sampleMosaic(
  mosaic: Mosaic,
  xs: Float64Array,
  ys: Float64Array,
  interpolation: Interpolation,
  ctx: ReadContext,
  /** When given, set to 1 for every point some raster of the mosaic covers (its NaN is a nodata pixel). */
  covered?: Uint8Array,
): Promise<Float64Array> {
  const count = xs.length;
  const result = new Float64Array(count).fill(NaN);
  const states = new Map<string, RasterState | null>();
  await ctx.trace.span('resolve-tiles', async (annotate) => {
    // Each point's most likely tile first; the others only for points it does not hold (near an edge it may
    // not): a neighbour no point needs is not opened, so one that cannot be opened fails no request that does
    // not need it, and costs no header read.
    const ids = new Set<string>();
    let previous: readonly string[] | null = null;
    for (let i = 0; i < count; i++) {
      const candidates = mosaic.candidates(xs[i], ys[i]);
      if (candidates === previous) continue; // one raster: the same array every time
      previous = candidates;
      if (candidates.length > 0) ids.add(candidates[0]);
    }
    await openAll(mosaic, ids, states, ctx);
    const more = new Set<string>();
    for (let i = 0; i < count; i++) {
      // Strict: a point on an opened raster's far edge may belong to the raster beyond it (ownerOf).
      if (ownerOf(mosaic, states, xs[i], ys[i], true)) continue;
      for (const id of mosaic.candidates(xs[i], ys[i])) more.add(id);
      if (nearAntimeridian(mosaic, xs[i]))
        for (const id of mosaic.candidates(acrossAntimeridian(xs[i]), ys[i])) more.add(id);
    }
    await openAll(mosaic, more, states, ctx); // opens only those not opened above
    annotate('tiles', states.size);
  });

  const owners: (RasterState | null)[] = new Array(count);
  const cols = new Float64Array(count);
  const rows = new Float64Array(count);
  const slowPoints: number[] = [];
  const insidePoints: number[] = [];
  const ordinals = new Map<RasterState, number>();
  const sortKeys = new Float64Array(count);
  const { before, size } = WINDOW[interpolation];
  for (let i = 0; i < count; i++) {
    let state = ownerOf(mosaic, states, xs[i], ys[i]);
    if (!state && nearAntimeridian(mosaic, xs[i])) {
      // 180 E is 180 W: a point on or just past a tile's edge at the antimeridian belongs to the tile across it.
      state = ownerOf(mosaic, states, acrossAntimeridian(xs[i]), ys[i]);
      if (state) xs[i] = acrossAntimeridian(xs[i]);
    }
    owners[i] = state;
    if (!state) continue;
    if (covered) covered[i] = 1;
    const { grid } = state.raster;
    let x = xs[i];
    let y = ys[i];
    if (state.toRaster) [x, y] = state.toRaster(x, y);
    let col: number;
    let row: number;
    if (interpolation === 'nearest') {
      // GDAL's pixel (gdalPixel); clamped so points on the far outer edge read the edge pixel.
      col = Math.min(Math.max(gdalPixel(grid.originX, grid.resX, x), 0), grid.width - 1);
      row = Math.min(Math.max(gdalPixel(grid.originY, grid.resY, y), 0), grid.height - 1);
    } else {
      col = (x - grid.originX) / grid.resX - 0.5;
      row = (y - grid.originY) / grid.resY - 0.5;
    }
    cols[i] = col;
    rows[i] = row;
    const c0 = Math.floor(col) - before;
    const r0 = Math.floor(row) - before;
    const leaves = c0 < 0 || r0 < 0 || c0 + size > grid.width || r0 + size > grid.height;
    if (leaves || (state.shared.length > 0 && touchesShared(state.shared, c0, r0, size))) {
      slowPoints.push(i);
      continue;
    }
    insidePoints.push(i);
    let ordinal = ordinals.get(state);
    if (ordinal === undefined) ordinals.set(state, (ordinal = ordinals.size));
    sortKeys[i] = ordinal * BLOCKS_PER_RASTER_KEY + firstBlock(state.raster, c0, r0);
  }
  // Points sharing a block are sampled together, so each block is fetched and decoded once per request.
  insidePoints.sort((a, b) => sortKeys[a] - sortKeys[b]);

  await ctx.trace.span('sample', async (annotate) => {
    annotate('points', count);
    annotate('edgeWindows', slowPoints.length);
    const window = new Float64Array(16);
    let batches = 0;
    await forEachBatch(insidePoints, owners, cols, rows, before, size, ctx, (batch) => {
      batches++;
      for (const i of batch) {
        result[i] = sampleInside(owners[i] as RasterState, interpolation, cols[i], rows[i], window);
      }
    });
    annotate('batches', batches);
    for (const i of slowPoints) {
      result[i] = await edgeValue(
        mosaic,
        states,
        owners[i] as RasterState,
        cols[i],
        rows[i],
        interpolation,
        ctx,
      );
      releaseBlocks(states); // an edge window touches at most a few blocks; hold them no longer than needed
    }
  });
  return result;
}

/** Sort-key room per raster: block indexes stay below 2^26 (a 3601^2 tile in 1-px blocks would not). */
const BLOCKS_PER_RASTER_KEY = 2 ** 26;

function firstBlock(raster: Raster, c0: number, r0: number): number {
  const { blockWidth, blockHeight } = raster.grid;
  return Math.floor(r0 / blockHeight) * raster.blocksAcross + Math.floor(c0 / blockWidth);
}

/**
 * Runs `sample` over consecutive batches of points whose blocks together stay within the request's block budget:
 * a batch's blocks are fetched (concurrently, bounded by the request's read limiter), sampled, then released, so
 * one request holds at most `blockBudgetBytes` of decoded blocks beyond what the shared cache keeps. A single
 * point always fits (its window touches at most four blocks).
 */
async function forEachBatch(
  points: readonly number[],
  owners: readonly (RasterState | null)[],
  cols: Float64Array,
  rows: Float64Array,
  before: number,
  size: number,
  ctx: ReadContext,
  sample: (batch: number[]) => void,
): Promise<void> {
  const budget = ctx.blockBudgetBytes ?? Infinity;
  let batch: number[] = [];
  let batchBytes = 0;
  const touched = new Set<RasterState>();
  const flush = async (): Promise<void> => {
    await fetchBlocks(touched, ctx);
    sample(batch);
    for (const state of touched) state.blocks.clear();
    touched.clear();
    batch = [];
    batchBytes = 0;
  };
  for (const i of points) {
    const state = owners[i] as RasterState;
    const c0 = Math.floor(cols[i]) - before;
    const r0 = Math.floor(rows[i]) - before;
    if (!markInNeededBlock(state, c0, r0, size)) {
      let added = newBlocks(state, c0, r0, c0 + size - 1, r0 + size - 1);
      if (batch.length > 0 && batchBytes + heldBytes(state.raster, added) > budget) {
        await flush();
        added = newBlocks(state, c0, r0, c0 + size - 1, r0 + size - 1);
      }
      needRows(state, c0, r0, c0 + size - 1, r0 + size - 1);
      batchBytes += heldBytes(state.raster, added);
    }
    touched.add(state);
    batch.push(i);
  }
  if (batch.length > 0) await flush();
}

function releaseBlocks(states: Map<string, RasterState | null>): void {
  for (const state of states.values()) {
    state?.blocks.clear();
    state?.edgeRows.clear();
  }
}

/** The hot path: a window inside one raster whose blocks are fetched; same-block windows index directly. */
function sampleInside(
  state: RasterState,
  interpolation: Interpolation,
  col: number,
  row: number,
  w: Float64Array,
): number {
  if (interpolation === 'nearest') return pixel(state, col, row);
  const c = Math.floor(col);
  const r = Math.floor(row);
  const fx = col - c;
  const fy = row - r;
  if (interpolation === 'bilinear') {
    const { raster } = state;
    const { blockWidth, blockHeight } = raster.grid;
    const bx = (c / blockWidth) | 0;
    const by = (r / blockHeight) | 0;
    const lc = c - bx * blockWidth;
    const lr = r - by * blockHeight;
    if (lc + 1 < blockWidth && lr + 1 < blockHeight) {
      const block = state.blocks.get(by * raster.blocksAcross + bx) as PixelArray;
      const spp = raster.samplesPerPixel;
      const nodata = raster.nodata;
      const i0 = (lr * blockWidth + lc) * spp;
      const i1 = i0 + blockWidth * spp;
      const { scale, offset } = raster;
      let v00 = block[i0];
      let v10 = block[i0 + spp];
      let v01 = block[i1];
      let v11 = block[i1 + spp];
      if (nodata !== null) {
        const type = raster.pixelType;
        if (isNodataValue(v00, nodata, type)) v00 = NaN;
        if (isNodataValue(v10, nodata, type)) v10 = NaN;
        if (isNodataValue(v01, nodata, type)) v01 = NaN;
        if (isNodataValue(v11, nodata, type)) v11 = NaN;
      }
      // Most rasters store heights as they are: skip four multiply-adds, ~11 % of hot bilinear points/s (npm run bench).
      if (scale === 1 && offset === 0) return bilinear(v00, v10, v01, v11, fx, fy);
      return bilinear(
        v00 * scale + offset,
        v10 * scale + offset,
        v01 * scale + offset,
        v11 * scale + offset,
        fx,
        fy,
      );
    }
    return bilinear(
      pixel(state, c, r),
      pixel(state, c + 1, r),
      pixel(state, c, r + 1),
      pixel(state, c + 1, r + 1),
      fx,
      fy,
    );
  }
  for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) w[j * 4 + k] = pixel(state, c - 1 + k, r - 1 + j);
  return cubic(w, fx, fy);
}

function interpolate(
  interpolation: Interpolation,
  col: number,
  row: number,
  w: Float64Array,
  read: (c: number, r: number) => number,
): number {
  if (interpolation === 'nearest') return read(col, row);
  const c = Math.floor(col);
  const r = Math.floor(row);
  const fx = col - c;
  const fy = row - r;
  if (interpolation === 'bilinear')
    return bilinear(read(c, r), read(c + 1, r), read(c, r + 1), read(c + 1, r + 1), fx, fy);
  for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) w[j * 4 + k] = read(c - 1 + k, r - 1 + j);
  return cubic(w, fx, fy);
}

async function openAll(
  mosaic: Mosaic,
  ids: Set<string>,
  states: Map<string, RasterState | null>,
  ctx: ReadContext,
): Promise<void> {
  const missing = [...ids].filter((id) => !states.has(id));
  const rasters = await Promise.all(missing.map((id) => mosaic.open(id, ctx)));
  missing.forEach((id, n) => {
    const raster = rasters[n];
    const layering = raster && mosaic.layering?.(id);
    states.set(
      id,
      raster && {
        raster,
        toRaster: raster.crs.key === mosaic.crs.key ? null : crsToCrs(mosaic.crs, raster.crs),
        needed: new Map(),
        edgeRows: new Map(),
        blocks: new Map(),
        shared: layering?.shared ?? NO_SHARED,
        transparent: layering?.transparent ?? false,
      },
    );
  });
}

const NO_SHARED: readonly number[] = [];

/** Whether the window (c0, r0) of `size` pixels touches one of the `shared` rectangles (see `Layering`). */
function touchesShared(shared: readonly number[], c0: number, r0: number, size: number): boolean {
  for (let k = 0; k < shared.length; k += 4) {
    if (c0 < shared[k + 2] && c0 + size > shared[k] && r0 < shared[k + 3] && r0 + size > shared[k + 1])
      return true;
  }
  return false;
}

function ownerOf(
  mosaic: Mosaic,
  states: Map<string, RasterState | null>,
  x: number,
  y: number,
  strict = false,
): RasterState | null {
  // A point on the far (east or south) edge of one raster and the near edge of the next belongs to the next, as
  // GDAL's pixel of their mosaic does (gdalPixel): the first raster holding it only on its far edge is kept in
  // case none holds it otherwise (the mosaic's own outer edge), unless `strict`.
  let onFarEdge: RasterState | null = null;
  for (const id of mosaic.candidates(x, y)) {
    const state = states.get(id);
    if (!state) continue;
    const [rx, ry] = state.toRaster ? state.toRaster(x, y) : [x, y];
    const { grid } = state.raster;
    if (!containsPoint(grid, rx, ry)) continue;
    if (
      gdalPixel(grid.originX, grid.resX, rx) < grid.width &&
      gdalPixel(grid.originY, grid.resY, ry) < grid.height
    )
      return state;
    onFarEdge ??= state;
  }
  return strict ? null : onFarEdge;
}

/** What blocks hold while a batch reads them: their buffers, and while partly decoded their compressed bytes. */
function heldBytes(raster: Raster, blocks: readonly number[]): number {
  let bytes = 0;
  for (const index of blocks) bytes += raster.blockBytes + raster.partialExtraBytes(index);
  return bytes;
}

/**
 * The common case, kept cheap: a window inside one block the batch already needs marks its rows there and
 * adds no block (true); anything else goes through newBlocks and needRows (false).
 */
function markInNeededBlock(state: RasterState, c0: number, r0: number, size: number): boolean {
  const { blockWidth, blockHeight } = state.raster.grid;
  const bx = (c0 / blockWidth) | 0;
  const by = (r0 / blockHeight) | 0;
  const row = r0 - by * blockHeight;
  if (c0 + size > (bx + 1) * blockWidth || row + size > blockHeight) return false;
  const mask = state.needed.get(by * state.raster.blocksAcross + bx);
  if (!mask) return false;
  for (let r = row; r < row + size; r++) mask[r] = 1;
  return true;
}

/** Records, per block of the window (c0, r0)-(c1, r1), the block's rows the window reads. */
function needRows(state: RasterState, c0: number, r0: number, c1: number, r1: number): void {
  const { blockWidth, blockHeight } = state.raster.grid;
  const across = state.raster.blocksAcross;
  for (let by = Math.floor(r0 / blockHeight); by <= Math.floor(r1 / blockHeight); by++) {
    const first = Math.max(r0, by * blockHeight) - by * blockHeight;
    const last = Math.min(r1, (by + 1) * blockHeight - 1) - by * blockHeight;
    for (let bx = Math.floor(c0 / blockWidth); bx <= Math.floor(c1 / blockWidth); bx++) {
      const index = by * across + bx;
      let rows = state.needed.get(index);
      if (!rows) state.needed.set(index, (rows = new Uint8Array(blockHeight)));
      for (let row = first; row <= last; row++) rows[row] = 1;
    }
  }
}

/** Block indexes of the window (c0, r0)-(c1, r1) not yet needed by the current batch. */
function newBlocks(state: RasterState, c0: number, r0: number, c1: number, r1: number): number[] {
  const { blockWidth, blockHeight } = state.raster.grid;
  const across = state.raster.blocksAcross;
  const added: number[] = [];
  for (let by = Math.floor(r0 / blockHeight); by <= Math.floor(r1 / blockHeight); by++) {
    for (let bx = Math.floor(c0 / blockWidth); bx <= Math.floor(c1 / blockWidth); bx++) {
      const index = by * across + bx;
      if (!state.needed.has(index) && !added.includes(index)) added.push(index);
    }
  }
  return added;
}

async function fetchBlocks(states: Iterable<RasterState>, ctx: ReadContext): Promise<void> {
  const jobs: Promise<void>[] = [];
  for (const state of states) {
    // state.blocks is empty here: a batch's blocks are released after it (flush), edge windows come after all.
    for (const [index, mask] of state.needed) {
      const rows: number[] = [];
      for (let row = 0; row < mask.length; row++) if (mask[row] === 1) rows.push(row);
      jobs.push(
        getBlock(state.raster, index, rows, ctx).then((block) => void state.blocks.set(index, block)),
      );
    }
    state.needed.clear();
  }
  await Promise.all(jobs);
}

/**
 * Height of pixel (c, r) of a raster whose block is already fetched (its stored value scaled: each raster of a
 * window carries its own scale); NaN for nodata.
 */
function pixel(state: RasterState, c: number, r: number): number {
  const { raster } = state;
  const { blockWidth, blockHeight } = raster.grid;
  const bx = (c / blockWidth) | 0;
  const by = (r / blockHeight) | 0;
  const block = state.blocks.get(by * raster.blocksAcross + bx) as PixelArray;
  const value = block[((r - by * blockHeight) * blockWidth + (c - bx * blockWidth)) * raster.samplesPerPixel];
  // A NaN pixel is NaN as it is, and so is undefined (an index past the end of the block's view) once scaled.
  const { nodata } = raster;
  return nodata !== null && isNodataValue(value, nodata, raster.pixelType)
    ? NaN
    : value * raster.scale + raster.offset;
}

async function edgeValue(
  mosaic: Mosaic,
  states: Map<string, RasterState | null>,
  owner: RasterState,
  col: number,
  row: number,
  interpolation: Interpolation,
  ctx: ReadContext,
): Promise<number> {
  const { before, size } = WINDOW[interpolation];
  const c0 = Math.floor(col) - before;
  const r0 = Math.floor(row) - before;
  const values = new Map<string, number>();
  const outside: boolean[] = [];
  for (let r = r0; r < r0 + size; r++) {
    for (let c = c0; c < c0 + size; c++) {
      const value = await pixelAnywhere(mosaic, states, owner, c, r, ctx);
      values.set(`${c},${r}`, value ?? NaN);
      outside.push(value === undefined);
    }
  }
  const window = new Float64Array(16);
  const value = interpolate(interpolation, col, row, window, (c, r) => values.get(`${c},${r}`) ?? NaN);
  if (interpolation !== 'cubic' || !outside.includes(true)) return value;
  return cubicAtDataEdge(window, outside, col - Math.floor(col), row - Math.floor(row)) ?? value;
}

/**
 * Cubic where whole columns or rows of the window lie outside every raster (the outer edge of the data, not
 * nodata): renormalised over the rest, as GDAL's RasterIO reads there (cubicInside). Null when the outside part
 * is no such band (a missing tile's corner) or a pixel left in is nodata: the bilinear fallback stands.
 */
function cubicAtDataEdge(window: Float64Array, outside: boolean[], fx: number, fy: number): number | null {
  const columnInside = [0, 1, 2, 3].map((c) => [0, 1, 2, 3].some((r) => !outside[r * 4 + c]));
  const rowInside = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].some((c) => !outside[r * 4 + c]));
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const kept = columnInside[c] && rowInside[r];
      if (kept && (outside[r * 4 + c] || Number.isNaN(window[r * 4 + c]))) return null;
    }
  }
  return cubicInside(window, fx, fy, columnInside, rowInside);
}

/**
 * Pixel (c, r) of the owner's grid as the mosaic paints it: the owner's own where no other raster paints it;
 * else read through the rasters that hold that pixel centre, last painted first, where one whose nodata shows
 * what lies under it (`transparent`) passes a nodata pixel on, as GDAL paints a VRT. NaN for nodata, undefined
 * where no raster holds it.
 */
async function pixelAnywhere(
  mosaic: Mosaic,
  states: Map<string, RasterState | null>,
  owner: RasterState,
  c: number,
  r: number,
  ctx: ReadContext,
): Promise<number | undefined> {
  const { grid } = owner.raster;
  const inside = c >= 0 && r >= 0 && c < grid.width && r < grid.height;
  if (inside && (owner.shared.length === 0 || !touchesShared(owner.shared, c, r, 1)))
    return readPixel(owner, c, r, ctx);
  const centre = pixelCentre(grid, c, r);
  const [mx, my] = owner.toRaster
    ? crsToCrs(owner.raster.crs, mosaic.crs)(centre.x, centre.y)
    : [centre.x, centre.y];
  const places: [number, number][] = [[mx, my]];
  if (nearAntimeridian(mosaic, mx)) places.push([acrossAntimeridian(mx), my]);
  const candidates = places.map(([x, y]) => mosaic.candidates(x, y));
  await openAll(mosaic, new Set(candidates.flat()), states, ctx);
  let held = false; // by a raster whose nodata showed through
  for (const [p, [x, y]] of places.entries()) {
    for (const id of candidates[p]) {
      const state = states.get(id);
      if (!state) continue;
      const [rx, ry] = state.toRaster ? state.toRaster(x, y) : [x, y];
      if (!containsPoint(state.raster.grid, rx, ry)) continue;
      // Outside the owner's pixels, a centre that maps back into it (a CRS round trip) is nobody's.
      if (state === owner && !inside) return undefined;
      const g = state.raster.grid;
      const value =
        state === owner
          ? await readPixel(owner, c, r, ctx)
          : await readPixel(
              state,
              Math.min(Math.max(Math.floor((rx - g.originX) / g.resX), 0), g.width - 1),
              Math.min(Math.max(Math.floor((ry - g.originY) / g.resY), 0), g.height - 1),
              ctx,
            );
      if (!Number.isNaN(value) || !state.transparent) return value;
      held = true;
    }
  }
  return held ? NaN : undefined;
}

/** Longitudes this close to ±180 also look across the antimeridian (only in WGS84 mosaics). */
const ANTIMERIDIAN_BAND_DEG = 0.5;

function nearAntimeridian(mosaic: Mosaic, x: number): boolean {
  return mosaic.crs.isWgs84 && Math.abs(x) > 180 - ANTIMERIDIAN_BAND_DEG;
}

/** The same meridian written from the other side: 180.0001 -> -179.9999, -180 -> 180. */
function acrossAntimeridian(x: number): number {
  return x > 0 ? x - 360 : x + 360;
}

async function readPixel(state: RasterState, c: number, r: number, ctx: ReadContext): Promise<number> {
  const { raster } = state;
  const { blockWidth, blockHeight } = raster.grid;
  const by = Math.floor(r / blockHeight);
  const index = by * raster.blocksAcross + Math.floor(c / blockWidth);
  const row = r - by * blockHeight;
  let rows = state.edgeRows.get(index);
  if (!rows?.has(row)) {
    state.blocks.set(index, await getBlock(raster, index, [row], ctx));
    if (!rows) state.edgeRows.set(index, (rows = new Set()));
    rows.add(row);
  }
  return pixel(state, c, r);
}
