/**
 * Little GeoTIFFs written by tests: tiled, uncompressed, little-endian (or big-endian when asked), with exactly the
 * tags asked for, so a test can hand the reader what GDAL would never write (a sheared transform, a missing tag, a
 * short tile).
 */

type TagValue = { type: 'ascii' | 'short' | 'long' | 'double'; values: readonly number[] };

const TYPE = {
  ascii: { code: 2, size: 1 },
  short: { code: 3, size: 2 },
  long: { code: 4, size: 4 },
  double: { code: 12, size: 8 },
};

export const short = (...values: number[]): TagValue => ({ type: 'short', values });
export const long = (...values: number[]): TagValue => ({ type: 'long', values });
export const double = (...values: number[]): TagValue => ({ type: 'double', values });
/** A NUL-terminated ASCII tag (GDAL_NODATA, 42113, is one). */
export const ascii = (text: string): TagValue => ({
  type: 'ascii',
  values: [...Buffer.from(text, 'latin1'), 0],
});

/** Geographic WGS84 (EPSG:4326), pixel-is-area: GeoKeyDirectory as GDAL writes it. */
export const WGS84_KEYS = short(1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326);

export interface TiffSpec {
  width: number;
  height: number;
  tile: number;
  /** One tile's bytes each, row-major tiles; their length is what TileByteCounts says unless `byteCounts`. */
  tiles: readonly Uint8Array[];
  byteCounts?: readonly number[];
  /** Every other tag (BitsPerSample, SampleFormat, ModelPixelScale, …) by number. */
  tags: Record<number, TagValue>;
  /** Directories chained after the tiles (a mask's, an overview's), of tags whose values fit in 4 bytes. */
  next?: readonly Record<number, TagValue>[];
  /** A big-endian ("MM") file: its header and tags; the tiles' bytes are written as given. */
  bigEndian?: boolean;
}

export function writeTiff(spec: TiffSpec): Uint8Array {
  const tileBytes = spec.tiles.reduce((n, t) => n + t.length, 0);
  const tags: Record<number, TagValue> = {
    256: long(spec.width),
    257: long(spec.height),
    262: short(1), // BlackIsZero
    322: long(spec.tile),
    323: long(spec.tile),
    324: long(...spec.tiles.map(() => 0)), // offsets, filled below
    325: long(...(spec.byteCounts ?? spec.tiles.map((t) => t.length))),
    ...spec.tags,
  };
  const ids = Object.keys(tags)
    .map(Number)
    .sort((a, b) => a - b);
  const ifdOffset = 8;
  const ifdSize = 2 + ids.length * 12 + 4;
  let extra = ifdOffset + ifdSize;
  const extraAt = new Map<number, number>();
  for (const id of ids) {
    const { type, values } = tags[id];
    const size = TYPE[type].size * values.length;
    if (size > 4) {
      extraAt.set(id, extra);
      extra += size + (size % 2);
    }
  }
  const tileStart = extra;
  const offsets: number[] = [];
  let at = tileStart;
  for (const tile of spec.tiles) {
    offsets.push(at);
    at += tile.length;
  }
  tags[324] = long(...offsets);
  const next = spec.next ?? [];
  for (const directory of next)
    for (const [id, { type, values }] of Object.entries(directory))
      if (TYPE[type].size * values.length > 4)
        throw new Error(`tag ${id} of a chained directory is over 4 bytes`);
  const nextIds = next.map((directory) =>
    Object.keys(directory)
      .map(Number)
      .sort((a, b) => a - b),
  );
  const nextOffsets: number[] = [];
  let end = tileStart + tileBytes + ((tileStart + tileBytes) % 2);
  for (const ids of nextIds) {
    nextOffsets.push(end);
    end += 2 + ids.length * 12 + 4;
  }
  const out = new Uint8Array(next.length > 0 ? end : tileStart + tileBytes);
  const view = new DataView(out.buffer);
  const little = spec.bigEndian !== true;
  out.set(little ? [0x49, 0x49, 42, 0] : [0x4d, 0x4d, 0, 42]);
  view.setUint32(4, ifdOffset, little);
  const writeEntries = (
    at: number,
    entries: Record<number, TagValue>,
    order: number[],
    extras: Map<number, number>,
  ) => {
    view.setUint16(at, order.length, little);
    order.forEach((id, i) => {
      const entry = at + 2 + i * 12;
      const { type, values } = entries[id];
      view.setUint16(entry, id, little);
      view.setUint16(entry + 2, TYPE[type].code, little);
      view.setUint32(entry + 4, values.length, little);
      const target = extras.get(id) ?? entry + 8;
      if (extras.has(id)) view.setUint32(entry + 8, target, little);
      values.forEach((v, k) => {
        const p = target + k * TYPE[type].size;
        if (type === 'ascii') view.setUint8(p, v);
        else if (type === 'short') view.setUint16(p, v, little);
        else if (type === 'long') view.setUint32(p, v, little);
        else view.setFloat64(p, v, little);
      });
    });
  };
  writeEntries(ifdOffset, tags, ids, extraAt);
  view.setUint32(ifdOffset + 2 + ids.length * 12, nextOffsets[0] ?? 0, little);
  spec.tiles.forEach((tile, i) => out.set(tile, offsets[i]));
  next.forEach((directory, i) => {
    writeEntries(nextOffsets[i], directory, nextIds[i], new Map());
    view.setUint32(nextOffsets[i] + 2 + nextIds[i].length * 12, nextOffsets[i + 1] ?? 0, little);
  });
  return out;
}

/**
 * A square, north-up WGS84 Float32 GeoTIFF of `size` x `size` pixels, uncompressed, in one tile or in `tile`-pixel
 * tiles: `value(col, row)` at each pixel, its corner at (west, north), pixels `res` degrees wide; `tags` adds or
 * replaces tags (GDAL_NODATA); `bigEndian` writes the file and its pixels big-endian; `float64` writes Float64.
 */
export function float32Grid(spec: {
  size: number;
  west: number;
  north: number;
  res: number;
  value: (col: number, row: number) => number;
  tags?: Record<number, TagValue>;
  tile?: number;
  bigEndian?: boolean;
  /** Float64 pixels instead (the name says the default). */
  float64?: boolean;
}): Uint8Array {
  const { size, west, north, res } = spec;
  const tile = spec.tile ?? size;
  const bytesPerPixel = spec.float64 === true ? 8 : 4;
  const across = Math.ceil(size / tile);
  const tiles: Uint8Array[] = [];
  for (let tileRow = 0; tileRow < across; tileRow++)
    for (let tileCol = 0; tileCol < across; tileCol++) {
      const bytes = new Uint8Array(tile * tile * bytesPerPixel);
      const view = new DataView(bytes.buffer);
      for (let r = 0; r < tile; r++)
        for (let c = 0; c < tile; c++) {
          const [col, row] = [tileCol * tile + c, tileRow * tile + r];
          // Pixels past the raster's edge (a partial last tile) are padding.
          const v = col < size && row < size ? spec.value(col, row) : 0;
          if (bytesPerPixel === 8) view.setFloat64((r * tile + c) * 8, v, spec.bigEndian !== true);
          else view.setFloat32((r * tile + c) * 4, v, spec.bigEndian !== true);
        }
      tiles.push(bytes);
    }
  return writeTiff({
    width: size,
    height: size,
    tile,
    tiles,
    bigEndian: spec.bigEndian,
    tags: {
      258: short(bytesPerPixel * 8), // BitsPerSample
      259: short(1), // no compression
      277: short(1),
      339: short(3), // IEEE float
      33550: double(res, res, 0),
      33922: double(0, 0, 0, west, north, 0),
      34735: WGS84_KEYS,
      ...spec.tags,
    },
  });
}
