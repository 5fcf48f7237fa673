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

  it.each(['stuttgart.tif', 'README.md', 'N48.tif', 'E009N48'])('returns null for %s', (name) => {
    expect(tryParseTileCorner(name)).toBeNull();
  });

  it('maps a corner to its grid key by the tile size (degrees and metres)', () => {
    expect(tileKeyOfCorner({ x: -118, y: 33 }, 1)).toEqual({ ix: -118, iy: 33 });
    expect(tileKeyOfCorner({ x: 4000000, y: 2000000 }, 1000000)).toEqual({ ix: 4, iy: 2 });
    expect(tileKeyOfCorner({ x: 4250000, y: 2800000 }, 10000)).toEqual({ ix: 425, iy: 280 });
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

  it('accepts only templates with all four placeholders', () => {
    expect(isValidTemplate(COPERNICUS_TEMPLATE)).toBe(true);
    expect(isValidTemplate('{NS}{lat:02}{EW}{lon:03}.tif')).toBe(true);
    expect(isValidTemplate('{lat}{lon}.tif')).toBe(false);
    expect(isValidTemplate('{NS}{lat}{EW}.tif')).toBe(false);
  });
});
