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
    [
      'an unsupported projection method',
      { ProjCoordTransGeoKey: 999 },
      'coordinateTransformationNotSupported: 999',
    ],
    [
      'an unknown linear unit',
      { ProjCoordTransGeoKey: 1, ProjNatOriginLongGeoKey: 9, ProjLinearUnitsGeoKey: 12345 },
      'ProjLinearUnitsGeoKeyNotSupported: 12345',
    ],
    [
      'both',
      { ProjCoordTransGeoKey: 999, ProjLinearUnitsGeoKey: 12345 },
      'ProjLinearUnitsGeoKeyNotSupported: 12345, coordinateTransformationNotSupported: 999',
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
