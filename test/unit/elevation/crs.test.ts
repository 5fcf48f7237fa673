import { crsFromEpsg, crsFromGeoKeys, crsToCrs, wgs84Converter } from '../../../layers/elevation/geo/crs';
import { DatasetConfigError } from '../../../layers/elevation/errors';

/** PROJ's reference values are given to the millimetre. */
const MILLIMETRE = 1e-3;
/** Fixture coordinates are PROJ output rounded to 1e-3 m from lat/lon rounded to 1e-7 deg (~1 cm). */
const FIXTURE_TOLERANCE_M = 0.02;
/** 1e-8 degrees is about 1 mm: proj4's inverse LAEA is a series expansion, exact to ~0.3 mm. */
const ROUND_TRIP_DEGREES = 1e-8;
const HDM = { lat: 48.742275, lon: 9.101177 };
/** UTM zone 32N spelled out as a user-defined Transverse Mercator on WGS84, as some tools write it. */
const UTM32_KEYS = {
  GTModelTypeGeoKey: 1,
  ProjectedCSTypeGeoKey: 32767,
  ProjectionGeoKey: 32767,
  ProjCoordTransGeoKey: 1,
  GeographicTypeGeoKey: 4326,
  ProjNatOriginLongGeoKey: 9,
  ProjNatOriginLatGeoKey: 0,
  ProjFalseEastingGeoKey: 500000,
  ProjFalseNorthingGeoKey: 0,
  ProjScaleAtNatOriginGeoKey: 0.9996,
  ProjLinearUnitsGeoKey: 9001,
};

describe('CRS: EPSG:3035 (ETRS89-LAEA, EU-DEM)', () => {
  const laea = crsFromEpsg(3035);

  it('projects the HdM entrance to the PROJ reference within 1 mm (easting first, no axis swap)', () => {
    const [x, y] = wgs84Converter(laea).forward(HDM.lon, HDM.lat);
    expect(Math.abs(x - 4254872.092)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(y - 2848063.949)).toBeLessThan(MILLIMETRE);
  });

  it('drops +axis from the definition and keys the CRS by its EPSG code', () => {
    expect(laea.proj4).toBe(
      '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +a=6378137 +b=6356752.314140356 +pm=0 +no_defs',
    );
    expect(laea.key).toBe('EPSG:3035');
    expect(laea.isWgs84).toBe(false);
    expect(laea.isGeographic).toBe(false);
  });

  it('reads the same CRS from GeoTIFF keys', () => {
    const fromKeys = crsFromGeoKeys({ GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 3035 });
    const [x, y] = wgs84Converter(fromKeys).forward(HDM.lon, HDM.lat);
    expect(fromKeys.key).toBe('EPSG:3035');
    expect(Math.abs(x - 4254872.092)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(y - 2848063.949)).toBeLessThan(MILLIMETRE);
  });

  it('inverts back to the WGS84 point', () => {
    const converter = wgs84Converter(laea);
    const [lon, lat] = converter.inverse(...converter.forward(HDM.lon, HDM.lat));
    expect(Math.abs(lon - HDM.lon)).toBeLessThan(ROUND_TRIP_DEGREES);
    expect(Math.abs(lat - HDM.lat)).toBeLessThan(ROUND_TRIP_DEGREES);
  });

  it("agrees with the laea-pair fixture's PROJ coordinates", () => {
    const [x, y] = wgs84Converter(laea).forward(9.1785843, 48.3565473);
    expect(Math.abs(x - 4260100.004)).toBeLessThan(FIXTURE_TOLERANCE_M);
    expect(Math.abs(y - 2805122.999)).toBeLessThan(FIXTURE_TOLERANCE_M);
  });
});

describe('CRS: EPSG:25832 (ETRS89 / UTM 32N)', () => {
  it("agrees with the utm32 fixture's PROJ coordinates", () => {
    const [x, y] = wgs84Converter(crsFromEpsg(25832)).forward(9.1681879, 48.8238684);
    expect(Math.abs(x - 512345.003)).toBeLessThan(FIXTURE_TOLERANCE_M);
    expect(Math.abs(y - 5407890.005)).toBeLessThan(FIXTURE_TOLERANCE_M);
  });

  it('converts between two projected CRSs through WGS84', () => {
    const toUtm = crsToCrs(crsFromEpsg(3035), crsFromEpsg(25832));
    const [x, y] = toUtm(4254872.092, 2848063.949);
    const [ex, ey] = wgs84Converter(crsFromEpsg(25832)).forward(HDM.lon, HDM.lat);
    expect(Math.abs(x - ex)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(y - ey)).toBeLessThan(MILLIMETRE);
  });
});

describe('CRS: WGS84 and errors', () => {
  it('uses the identity for EPSG:4326', () => {
    const wgs84 = crsFromEpsg(4326);
    expect(wgs84.isWgs84).toBe(true);
    expect(wgs84Converter(wgs84).forward(9.1, 48.7)).toEqual([9.1, 48.7]);
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4326 }).isWgs84).toBe(true);
  });

  it('caches converters per CRS', () => {
    expect(wgs84Converter(crsFromEpsg(3035))).toBe(wgs84Converter(crsFromEpsg(3035)));
  });

  it('rejects an unknown EPSG code with a config error naming it', () => {
    expect(() => crsFromEpsg(999999)).toThrow(DatasetConfigError);
    expect(() => crsFromEpsg(999999)).toThrow('Unknown EPSG code 999999');
  });
});

describe('CRS: other geographic and user-defined systems', () => {
  it('reads a geographic EPSG code other than WGS84 (ETRS89, EPSG:4258) as geographic, converted by proj4', () => {
    const etrs89 = crsFromEpsg(4258);
    expect(etrs89).toMatchObject({ key: 'EPSG:4258', isGeographic: true, isWgs84: false });
    const [lon, lat] = wgs84Converter(etrs89).forward(HDM.lon, HDM.lat);
    expect(Math.abs(lon - HDM.lon)).toBeLessThan(1e-6); // the same datum to proj4: no shift
    expect(Math.abs(lat - HDM.lat)).toBeLessThan(1e-6);
  });

  it('keys a user-defined CRS by its proj4 definition', () => {
    const crs = crsFromGeoKeys(UTM32_KEYS);
    // Only the geographic base has a code; the CRS is not EPSG:4326 (so keyed, it was read as WGS84 itself).
    expect(crs.epsg).toBeNull();
    expect(crs.key).toBe(crs.proj4);
    expect(crs.proj4).toMatch(/\+proj=tmerc/);
    expect(crsToCrs(crsFromEpsg(4326), crs)(9, 48)[0]).toBeCloseTo(500000, 3);
    const [x] = wgs84Converter(crs).forward(9, 48);
    expect(Math.abs(x - 500000)).toBeLessThan(MILLIMETRE); // on the central meridian
  });

  it.each([
    ['no keys at all (a plain TIFF)', {}],
    [
      'a user-defined projection without its parameters',
      { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32767 },
    ],
    ['a geographic model on no datum', { GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 32767 }],
  ])('refuses %s instead of reading degrees on no datum', (_what, keys) => {
    expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
    expect(() => crsFromGeoKeys(keys)).toThrow(/no usable coordinate reference system/);
  });

  it('converts a CRS to itself without arithmetic', () => {
    const same = crsToCrs(crsFromEpsg(3035), crsFromEpsg(3035));
    expect(same(4321000.123, 3210000.456)).toEqual([4321000.123, 3210000.456]);
  });
});

describe('CRS: user-defined in the GeoKeys (no EPSG code)', () => {
  it('projects like the EPSG code it spells out, keyed by its definition, not by its base datum', () => {
    const custom = crsFromGeoKeys(UTM32_KEYS);
    expect(custom.epsg).toBeNull();
    // The key is what /v1/datasets shows as the CRS: the definition, without PROJ's axis order (+axis=en).
    expect(custom.key).toBe(
      '+proj=tmerc +lat_0=0 +lon_0=9 +k_0=0.9996 +x_0=500000 +y_0=0 +ellps=WGS84 +a=6378137 +b=6356752.314245179 +pm=0 +no_defs',
    );
    expect(custom.key).toBe(custom.proj4);
    expect(custom.isGeographic).toBe(false);
    const wgs84 = crsFromEpsg(4326);
    const [x, y] = crsToCrs(wgs84, custom)(HDM.lon, HDM.lat);
    const [ex, ey] = wgs84Converter(crsFromEpsg(32632)).forward(HDM.lon, HDM.lat);
    expect(Math.abs(x - ex)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(y - ey)).toBeLessThan(MILLIMETRE);
  });

  it('reads a user-defined geographic CRS from its datum', () => {
    const custom = crsFromGeoKeys({
      GTModelTypeGeoKey: 2,
      GeographicTypeGeoKey: 32767,
      GeogGeodeticDatumGeoKey: 6326,
      GeogAngularUnitsGeoKey: 9102,
    });
    expect(custom).toMatchObject({ epsg: null, isGeographic: true, isWgs84: false });
    expect(custom.proj4).toMatch(/^\+proj=longlat \+ellps=WGS84/);
    const [lon, lat] = wgs84Converter(custom).forward(HDM.lon, HDM.lat);
    expect(Math.abs(lon - HDM.lon)).toBeLessThan(ROUND_TRIP_DEGREES);
    expect(Math.abs(lat - HDM.lat)).toBeLessThan(ROUND_TRIP_DEGREES);
  });

  it.each([
    [
      'a projected model with a user-defined projection and no parameters',
      { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32767 },
    ],
    ['a user-defined geographic CRS with no datum', { GTModelTypeGeoKey: 1, GeographicTypeGeoKey: 32767 }],
  ])('refuses %s, saying how to assign one', (_what, keys) => {
    expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
    expect(() => crsFromGeoKeys(keys)).toThrow(/no usable coordinate reference system.*gdal_edit\.py -a_srs/);
  });

  it('resolves a geographic EPSG code other than WGS84 as degrees (NAD83)', () => {
    expect(crsFromEpsg(4269)).toMatchObject({
      key: 'EPSG:4269',
      epsg: 4269,
      isGeographic: true,
      isWgs84: false,
    });
    expect(() => crsFromEpsg(9999)).toThrow(
      new DatasetConfigError('Unknown EPSG code 9999: no projection definition is available for it.'),
    );
  });
});

describe('CRS: GeoKeys the converter cannot fully read', () => {
  it('reads an EPSG projection named with its base datum in its projection, not in the base', () => {
    // Tools other than GDAL write GeographicTypeGeoKey beside ProjectedCSTypeGeoKey; the projection decides.
    const both = crsFromGeoKeys({
      GTModelTypeGeoKey: 1,
      ProjectedCSTypeGeoKey: 3035,
      GeographicTypeGeoKey: 4258,
    });
    expect(both).toEqual(crsFromEpsg(3035));
    const [x, y] = wgs84Converter(both).forward(HDM.lon, HDM.lat);
    expect(Math.abs(x - 4254872.092)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(y - 2848063.949)).toBeLessThan(MILLIMETRE);
  });

  it.each([
    ['a projected', { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 999999 }],
    ['a geographic', { GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 999999 }],
  ])(
    'refuses %s EPSG code it has no definition for, instead of reading degrees on no datum',
    (_what, keys) => {
      expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
      expect(() => crsFromGeoKeys(keys)).toThrow('Unknown EPSG code 999999');
    },
  );

  it.each([
    ['an unknown EPSG projection', { ProjectionGeoKey: 99999 }, 'conversionNotSupported: 99999'],
    [
      'an unknown linear unit',
      { ProjCoordTransGeoKey: 1, ProjNatOriginLongGeoKey: 9, ProjLinearUnitsGeoKey: 12345 },
      'ProjLinearUnitsGeoKeyNotSupported: 12345',
    ],
    [
      'both',
      { ProjectionGeoKey: 99999, ProjLinearUnitsGeoKey: 12345 },
      'ProjLinearUnitsGeoKeyNotSupported: 12345, conversionNotSupported: 99999',
    ],
  ])('refuses a user-defined projection with %s, naming it', (_what, extra, named) => {
    const keys = { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32767, GeographicTypeGeoKey: 4326, ...extra };
    expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
    expect(() => crsFromGeoKeys(keys)).toThrow(
      `The GeoTIFF's coordinate reference system cannot be read (${named}); assign one with gdal_edit.py -a_srs EPSG:<code>.`,
    );
  });

  it('reads GeoTIFF 1.1 key names like the 1.0 ones', () => {
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 1, ProjectedCRSGeoKey: 3035 }).key).toBe('EPSG:3035');
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeodeticCRSGeoKey: 4326 }).isWgs84).toBe(true);
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4979 })).toMatchObject({
      key: 'EPSG:4979',
      isWgs84: true,
    });
  });

  it('ignores vertical keys, even ones the converter cannot read: they do not move a pixel', () => {
    const plain = crsFromGeoKeys(UTM32_KEYS);
    for (const vertical of [
      { VerticalCSTypeGeoKey: 999999 },
      { VerticalUnitsGeoKey: 12345 },
      { VerticalDatumGeoKey: 5171 },
    ]) {
      expect(crsFromGeoKeys({ ...UTM32_KEYS, ...vertical })).toEqual(plain);
    }
    expect(
      crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4326, VerticalCSTypeGeoKey: 999999 })
        .isWgs84,
    ).toBe(true);
  });
});

describe('CRS: datums off WGS 84 get the shift PROJ uses (datum-shifts.json)', () => {
  // `cs2cs -f %.3f EPSG:4326 EPSG:<code>` (PROJ 9.1.1, no grids for these datums installed: so it uses the same
  // Helmert transformation, named here as projinfo names it). Without a shift proj4 read DHDN, OSGB36 … as WGS 84:
  // 80–320 m off.
  it.each([
    [27700, 51.5, -0.12, 530591.166, 179571.065, 'OSGB36 to WGS 84 (6)'],
    [27700, 57.0, -4.0, 278609.563, 791649.75, 'OSGB36 to WGS 84 (6)'],
    [2056, 46.95, 7.44, 2600104.109, 1199879.628, 'CH1903+ to WGS 84 (1)'],
    [28992, 52.37, 4.9, 121819.365, 487013.762, 'Amersfoort to WGS 84'],
    [2100, 37.98, 23.73, 476138.586, 4203342.44, 'GGRS87 to WGS 84 (1): a GRS80 datum 324 m off WGS 84'],
    [2039, 31.77, 35.21, 219982.95, 630814.613, 'Israel 1993 to WGS 84 (2): GRS80, yet 78 m off WGS 84'],
    [29902, 53.35, -6.26, 315919.995, 234694.102, 'TM65 to WGS 84 (2)'],
    [31287, 48.2, 16.37, 625676.776, 482265.315, 'MGI to WGS 84 (3); cs2cs prints its northing first'],
  ])('EPSG:%i at %f, %f is where PROJ puts it (%s)', (code, lat, lon, x, y) => {
    const [ex, ny] = wgs84Converter(crsFromEpsg(code)).forward(lon, lat);
    expect(Math.abs(ex - x)).toBeLessThan(FIXTURE_TOLERANCE_M);
    expect(Math.abs(ny - y)).toBeLessThan(FIXTURE_TOLERANCE_M);
    const [back] = [wgs84Converter(crsFromEpsg(code)).inverse(x, y)];
    expect(Math.abs(back[0] - lon)).toBeLessThan(1e-6);
    expect(Math.abs(back[1] - lat)).toBeLessThan(1e-6);
  });

  it('adds the shift to the definition, in place of the one the definition table gave', () => {
    expect(crsFromEpsg(31467).proj4).toMatch(
      /\+ellps=bessel .*\+towgs84=598\.1,73\.7,418\.2,0\.202,0\.045,-2\.455,6\.7$/,
    );
    expect(crsFromEpsg(2100).proj4).toContain('+ellps=GRS80 +a=6378137');
    expect(crsFromEpsg(2100).proj4).toMatch(/\+towgs84=-199\.87,74\.79,246\.62$/);
    // The definition table gives Hito XVIII 1963 / Argentina 2 (MapInfo's) 16,196,93; PROJ uses 7 parameters.
    expect(crsFromEpsg(2083).proj4.match(/\+towgs84=\S+/g)).toEqual([
      '+towgs84=18.38,192.45,96.82,0.056,-0.142,-0.2,-0.0013',
    ]);
  });

  it('leaves GRS80 and WGS 84 datums that PROJ does not shift as they are (ETRS89, NAD83, Pseudo-Mercator)', () => {
    for (const code of [25832, 3035, 26917, 3857]) expect(crsFromEpsg(code).proj4).not.toContain('towgs84');
  });

  it.each([
    [4267, 20, 'NAD27'],
    [26717, 20, 'NAD27 / UTM zone 17N'],
    [23032, 10, 'ED50 / UTM zone 32N'],
    [5514, 6, 'S-JTSK / Krovak East North: 9.9 m from PROJ in Prague'],
  ])(
    'refuses EPSG:%i, whose best shift without a grid is accurate to %i m (%s), saying how to fix it',
    (code, metres) => {
      expect(() => crsFromEpsg(code)).toThrow(
        new DatasetConfigError(
          `EPSG:${code} is on a datum whose best shift to WGS 84 without a grid is accurate to ${metres} m, more than the 5 m this reader accepts; reproject the raster (gdalwarp -t_srs EPSG:4326, or to its datum's ETRS89 or NAD83 successor).`,
        ),
      );
    },
  );

  it("takes PROJ's own definition where the definition table's puts points elsewhere (EPSG:3031 had no lat_0)", () => {
    expect(crsFromEpsg(3031).proj4).toBe(
      '+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs',
    );
    // `echo "-75 45" | cs2cs -f %.3f EPSG:4326 EPSG:3031`
    const [x, y] = wgs84Converter(crsFromEpsg(3031)).forward(45, -75);
    expect(Math.abs(x - 1158794.741)).toBeLessThan(FIXTURE_TOLERANCE_M);
    expect(Math.abs(y - 1158794.741)).toBeLessThan(FIXTURE_TOLERANCE_M);
  });

  it('refuses a code whose definition PROJ places elsewhere, and one PROJ does not know, saying so', () => {
    expect(() => crsFromEpsg(3356)).toThrow(
      /^EPSG:3356 is defined here in a way that puts points \d+ m from where PROJ puts them \(checked at the centre of its area of use\)/,
    );
    expect(() => crsFromEpsg(10171)).toThrow(/^EPSG:10171 could not be checked against PROJ/);
  });

  it.each([
    [2098, 'Korean 1985: a Molodensky-Badekas transformation, which proj4 has not'],
    [2008, 'NAD27(CGQ77): PROJ has only a grid'],
  ])("refuses EPSG:%i, off WGS 84's ellipsoid with no shift proj4 can apply (%s)", (code) => {
    expect(() => crsFromEpsg(code)).toThrow(
      new DatasetConfigError(
        `EPSG:${code} is on a datum this reader cannot shift to WGS 84 (PROJ does it with a grid, or a transformation proj4 has not, or not at all): its pixels would be placed up to hundreds of metres off; reproject the raster (gdalwarp -t_srs EPSG:4326, or to its datum's ETRS89 or NAD83 successor).`,
      ),
    );
  });

  it('refuses a user-defined CRS on a datum with no shift, and takes one on GRS80 or with a shift', () => {
    const bessel = {
      ...UTM32_KEYS,
      GeographicTypeGeoKey: 32767,
      GeogGeodeticDatumGeoKey: 32767,
      GeogEllipsoidGeoKey: 7004,
    };
    expect(() => crsFromGeoKeys(bessel)).toThrow(/is on a datum with no known shift to WGS 84/);
    expect(crsFromGeoKeys(UTM32_KEYS).proj4).not.toContain('towgs84');
  });
});

/**
 * User-defined projections (a PROJ string without an EPSG code), with the GeoKeys GDAL 3.6 writes for them
 * (`gdal_translate -a_srs '<PROJ string>'`) and where PROJ puts a point (`gdaltransform -s_srs EPSG:4326 -t_srs
 * '<PROJ string>'`). geotiff-geokeys-to-proj4 alone placed each of these elsewhere (a helper's probe: heights of
 * other places answered as 200): 2,842 km for the polar stereographic, 2,044 km for the Mercator, 19 km for the
 * equirectangular, 9,477 km in US feet. test/realdata/user-defined-crs-matches-gdal.test.ts checks many more.
 */
describe('CRS: user-defined projections, read as GDAL reads them', () => {
  const WGS84_BASE = {
    GTModelTypeGeoKey: 1,
    GeographicTypeGeoKey: 32767,
    GeogGeodeticDatumGeoKey: 32767,
    GeogAngularUnitsGeoKey: 9102,
    GeogEllipsoidGeoKey: 7030,
    GeogSemiMajorAxisGeoKey: 6378137,
    GeogInvFlatteningGeoKey: 298.257223563,
    GeogPrimeMeridianLongGeoKey: 0,
    ProjectedCSTypeGeoKey: 32767,
    ProjectionGeoKey: 32767,
    ProjLinearUnitsGeoKey: 9001,
  };
  it.each([
    [
      'polar stereographic, variant B (EPSG:3413 without its code)',
      {
        ...WGS84_BASE,
        GeographicTypeGeoKey: 4326,
        ProjCoordTransGeoKey: 15,
        ProjNatOriginLatGeoKey: 70,
        ProjFalseEastingGeoKey: 0,
        ProjFalseNorthingGeoKey: 0,
        ProjScaleAtNatOriginGeoKey: 1,
        ProjStraightVertPoleLongGeoKey: -45,
      },
      [-40, 75],
      [142401.981162237, -1627662.0927012],
    ],
    [
      'polar stereographic, variant A (a scale at the pole, a meridian other than 0)',
      {
        ...WGS84_BASE,
        ProjCoordTransGeoKey: 15,
        ProjNatOriginLatGeoKey: 90,
        ProjFalseEastingGeoKey: 2000000,
        ProjFalseNorthingGeoKey: 2000000,
        ProjScaleAtNatOriginGeoKey: 0.994,
        ProjStraightVertPoleLongGeoKey: 10,
      },
      [15, 80],
      [2097000.08298316, 891283.978130343],
    ],
    [
      'Mercator with a standard parallel (variant B)',
      {
        ...WGS84_BASE,
        ProjCoordTransGeoKey: 7,
        ProjStdParallel1GeoKey: 48,
        ProjNatOriginLongGeoKey: 9,
        ProjNatOriginLatGeoKey: 0,
        ProjFalseEastingGeoKey: 0,
        ProjFalseNorthingGeoKey: 0,
      },
      [9.5, 48.5],
      [37312.6767812072, 4128429.27665653],
    ],
    [
      'equirectangular with a standard parallel',
      {
        ...WGS84_BASE,
        ProjCoordTransGeoKey: 17,
        ProjStdParallel1GeoKey: 30,
        ProjFalseEastingGeoKey: 100,
        ProjFalseNorthingGeoKey: 200,
        ProjCenterLongGeoKey: 5,
        ProjCenterLatGeoKey: 10,
      },
      [6, 31],
      [96505.5069633229, 2337909.30665874],
    ],
    [
      'transverse Mercator in US survey feet',
      {
        ...WGS84_BASE,
        GeogEllipsoidGeoKey: 7019,
        GeogInvFlatteningGeoKey: 298.257222101,
        ProjCoordTransGeoKey: 1,
        ProjLinearUnitsGeoKey: 9003,
        ProjNatOriginLongGeoKey: -120,
        ProjNatOriginLatGeoKey: 0,
        ProjFalseEastingGeoKey: 1640416.66666667,
        ProjFalseNorthingGeoKey: 0,
        ProjScaleAtNatOriginGeoKey: 0.9999,
      },
      [-119.5, 37],
      [1786418.81072735, 13439009.1538708],
    ],
  ])('%s', (_what, keys, [lon, lat], [x, y]) => {
    const crs = crsFromGeoKeys(keys);
    const [ourX, ourY] = wgs84Converter(crs).forward(lon, lat);
    expect(Math.abs(ourX - x)).toBeLessThan(MILLIMETRE);
    expect(Math.abs(ourY - y)).toBeLessThan(MILLIMETRE);
    const [backLon, backLat] = wgs84Converter(crs).inverse(x, y);
    expect(Math.abs(backLon - lon)).toBeLessThan(1e-8);
    expect(Math.abs(backLat - lat)).toBeLessThan(1e-8);
  });

  it.each([
    [
      'a south-oriented transverse Mercator (its axes point west and south)',
      { ...WGS84_BASE, ProjCoordTransGeoKey: 27, ProjNatOriginLongGeoKey: 29, ProjScaleAtNatOriginGeoKey: 1 },
      "The GeoTIFF's projection (GeoTIFF coordinate transformation 27) is not one this reader places where GDAL does; assign an EPSG code with gdal_edit.py -a_srs EPSG:<code>, or reproject it (gdalwarp -t_srs EPSG:4326).",
    ],
    [
      'an orthographic projection (proj4 computes it on a sphere, 84 m from PROJ)',
      { ...WGS84_BASE, ProjCoordTransGeoKey: 21, ProjCenterLatGeoKey: 48, ProjCenterLongGeoKey: 9 },
      'GeoTIFF coordinate transformation 21',
    ],
    [
      'a projection only in an ESRI PE string (GDAL writes a user-defined model type for a geostationary one)',
      {
        ...WGS84_BASE,
        GTModelTypeGeoKey: 32767,
        PCSCitationGeoKey: 'ESRI PE String = PROJCS["unknown",PROJECTION["Geostationary_Satellite"]]',
      },
      "The GeoTIFF's coordinate reference system is user-defined beyond what its GeoKeys can say (a projection named only in its citation: Geostationary_Satellite)",
    ],
    [
      'a polar stereographic with a scale at a latitude that is no pole',
      {
        ...WGS84_BASE,
        ProjCoordTransGeoKey: 15,
        ProjNatOriginLatGeoKey: 70,
        ProjScaleAtNatOriginGeoKey: 0.99,
      },
      'polar stereographic projection has a scale of 0.99 at latitude 70, which is no pole',
    ],
    [
      'a polar stereographic in grads',
      { ...WGS84_BASE, GeogAngularUnitsGeoKey: 9105, ProjCoordTransGeoKey: 15, ProjNatOriginLatGeoKey: 100 },
      'gives its angles in unit 9105, not degrees',
    ],
    [
      'longitudes and latitudes in grads',
      {
        GTModelTypeGeoKey: 2,
        GeographicTypeGeoKey: 32767,
        GeogAngularUnitsGeoKey: 9105,
        GeogEllipsoidGeoKey: 7030,
      },
      'gives its longitudes and latitudes in another unit than degrees',
    ],
  ])('refuses %s, saying how to fix it', (_what, keys, message) => {
    expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
    expect(() => crsFromGeoKeys(keys)).toThrow(message);
  });
});
