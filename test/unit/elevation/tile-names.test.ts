import {
  COPERNICUS_TEMPLATE,
  defaultTemplate,
  formatTileName,
  isValidTemplate,
  parseTileKeyId,
  tileKeyId,
  tileKeyOfCorner,
  tryParseTileCorner,
} from '../../../layers/elevation/dataset/tile-names';

describe('tile names: lower-left corner from the file name', () => {
  it.each([
    ['N48E009.tif', { x: 9, y: 48 }],
    ['N48E009.hgt', { x: 9, y: 48 }],
    ['n48e009.tif', { x: 9, y: 48 }],
    ['S12W077.tif', { x: -77, y: -12 }],
    ['s12w077.hgt', { x: -77, y: -12 }],
    ['N00W001.tif', { x: -1, y: 0 }],
    ['N2000000E4000000.TIF', { x: 4000000, y: 2000000 }],
    ['N2800000E4250000.tif', { x: 4250000, y: 2800000 }],
    ['Copernicus_DSM_COG_10_N48_00_E009_00_DEM.tif', { x: 9, y: 48 }],
    ['Copernicus_DSM_COG_10_S34_00_W118_00_DEM.tif', { x: -118, y: -34 }],
    ['Copernicus_DSM_COG_30_N64_00_W148_00_DEM.tif', { x: -148, y: 64 }],
  ])('parses %s', (name, corner) => {
    expect(tryParseTileCorner(name)).toEqual(corner);
  });

  // OpenTopoData's pattern [NS][\dx]+_?[WE][\dx]+ (case-insensitive) with x read as the decimal point.
  it.each([
    ['N48x5E009x5.tif', { x: 9.5, y: 48.5 }],
    ['N48x5E009.tif', { x: 9, y: 48.5 }],
    ['n48X5e009X25.tif', { x: 9.25, y: 48.5 }],
    ['S0x1W120x7.hgt', { x: -120.7, y: -0.1 }],
    ['N48_E009.tif', { x: 9, y: 48 }],
    ['N48x5_E009x5.tif', { x: 9.5, y: 48.5 }],
    ['N48xE009x.tif', { x: 9, y: 48 }], // Python's Decimal('48.') is 48
    ['Nx5Ex25.tif', { x: 0.25, y: 0.5 }], // and Decimal('.5') is 0.5
    ['dem_N48x50E009x50_v2.tif', { x: 9.5, y: 48.5 }],
  ])('parses %s with x as the decimal point, as OpenTopoData does', (name, corner) => {
    expect(tryParseTileCorner(name)).toEqual(corner);
  });

  // OpenTopoData's Decimal() fails on these (an unhandled error); no corner is read from them here.
  it.each(['N4x8x5E009.tif', 'NxE009.tif', 'N48E0x0x9.tif'])(
    'reads no corner from %s (two points, or none but x)',
    (name) => {
      expect(tryParseTileCorner(name)).toBeNull();
    },
  );

  it.each(['stuttgart.tif', 'README.md', 'N48.tif', 'E009N48'])('returns null for %s', (name) => {
    expect(tryParseTileCorner(name)).toBeNull();
  });

  it('maps a corner to its grid key by the tile size (degrees and metres)', () => {
    expect(tileKeyOfCorner({ x: -118, y: 33 }, 1)).toEqual({ ix: -118, iy: 33 });
    expect(tileKeyOfCorner({ x: 4000000, y: 2000000 }, 1000000)).toEqual({ ix: 4, iy: 2 });
    expect(tileKeyOfCorner({ x: 4250000, y: 2800000 }, 10000)).toEqual({ ix: 425, iy: 280 });
  });

  it('maps fractional corners to their key exactly, as decimals (0.3 / 0.1 is 3, not 2.9999999999999996)', () => {
    expect(tileKeyOfCorner({ x: 9.5, y: 48.5 }, 0.5)).toEqual({ ix: 19, iy: 97 });
    expect(tileKeyOfCorner({ x: -120.7, y: -0.1 }, 0.1)).toEqual({ ix: -1207, iy: -1 });
    expect(tileKeyOfCorner({ x: 0.3, y: 0.7 }, 0.1)).toEqual({ ix: 3, iy: 7 });
    expect(tileKeyOfCorner({ x: 9.25, y: 48 }, 0.25)).toEqual({ ix: 37, iy: 192 });
  });

  it('returns null for a corner off the grid of the tile size (48.5 with 1-degree tiles)', () => {
    expect(tileKeyOfCorner({ x: 9, y: 48.5 }, 1)).toBeNull();
    expect(tileKeyOfCorner({ x: 9.25, y: 48 }, 0.5)).toBeNull();
    expect(tileKeyOfCorner({ x: 0.35, y: 0.3 }, 0.1)).toBeNull();
    expect(tileKeyOfCorner({ x: 4250000, y: 2800000 }, 1000000)).toBeNull();
  });

  it('round-trips tile key ids, negative keys included', () => {
    for (const key of [
      { ix: 0, iy: 0 },
      { ix: -118, iy: 33 },
      { ix: 425, iy: -280 },
    ])
      expect(parseTileKeyId(tileKeyId(key))).toEqual(key);
  });
});

describe('tile names: computed from a template (remote buckets are never listed)', () => {
  it('formats the Copernicus GLO-30 key, zero-padded, with W for negative longitudes', () => {
    expect(formatTileName(COPERNICUS_TEMPLATE, { ix: -118, iy: 33 }, 1)).toBe(
      'Copernicus_DSM_COG_10_N33_00_W118_00_DEM/Copernicus_DSM_COG_10_N33_00_W118_00_DEM.tif',
    );
    expect(formatTileName(COPERNICUS_TEMPLATE, { ix: 9, iy: 48 }, 1)).toBe(
      'Copernicus_DSM_COG_10_N48_00_E009_00_DEM/Copernicus_DSM_COG_10_N48_00_E009_00_DEM.tif',
    );
    expect(formatTileName(COPERNICUS_TEMPLATE, { ix: -5, iy: -1 }, 1)).toBe(
      'Copernicus_DSM_COG_10_S01_00_W005_00_DEM/Copernicus_DSM_COG_10_S01_00_W005_00_DEM.tif',
    );
  });

  it('uses SRTM names for degrees and EU-DEM names for metres by default', () => {
    expect(formatTileName(defaultTemplate(4326), { ix: 9, iy: 48 }, 1)).toBe('N48E009.tif');
    expect(formatTileName(defaultTemplate(4326), { ix: -118, iy: -34 }, 1)).toBe('S34W118.tif');
    expect(formatTileName(defaultTemplate(3035), { ix: 4, iy: 2 }, 1000000)).toBe('N2000000E4000000.tif');
  });

  it('formats names that parse back to the same key', () => {
    for (const key of [
      { ix: -118, iy: 33 },
      { ix: 179, iy: -90 },
      { ix: 0, iy: 0 },
    ]) {
      const name = formatTileName(COPERNICUS_TEMPLATE, key, 1).split('/')[1];
      const corner = tryParseTileCorner(name);
      expect(corner && tileKeyOfCorner(corner, 1)).toEqual(key);
    }
  });

  it('writes a fractional corner with x as its decimal point, the integer part padded, as OpenTopoData reads it', () => {
    expect(formatTileName(defaultTemplate(4326), { ix: 19, iy: 97 }, 0.5)).toBe('N48x5E009x5.tif');
    expect(formatTileName(defaultTemplate(4326), { ix: 18, iy: 97 }, 0.5)).toBe('N48x5E009.tif');
    expect(formatTileName(defaultTemplate(4326), { ix: -1207, iy: -1 }, 0.1)).toBe('S00x1W120x7.tif');
    expect(formatTileName(defaultTemplate(4326), { ix: 3, iy: 7 }, 0.1)).toBe('N00x7E000x3.tif');
    expect(formatTileName(defaultTemplate(4326), { ix: 37, iy: 193 }, 0.25)).toBe('N48x25E009x25.tif');
  });

  it('formats 0.1-degree names that parse back to the same key, for every tenth of a degree in range', () => {
    for (let i = -1800; i < 1800; i += 7) {
      const key = { ix: i, iy: Math.floor(i / 2) };
      const corner = tryParseTileCorner(formatTileName(defaultTemplate(4326), key, 0.1));
      expect(corner && tileKeyOfCorner(corner, 0.1)).toEqual(key);
    }
  });

  it('accepts only templates with all four placeholders', () => {
    expect(isValidTemplate(COPERNICUS_TEMPLATE)).toBe(true);
    expect(isValidTemplate('{NS}{lat:02}{EW}{lon:03}.tif')).toBe(true);
    expect(isValidTemplate('{lat}{lon}.tif')).toBe(false);
    expect(isValidTemplate('{NS}{lat}{EW}.tif')).toBe(false);
  });
});
