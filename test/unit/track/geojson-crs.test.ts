/** GeoJSON's legacy `crs` member (GeoJSON 2008, as GDAL writes a projected layer): read, or refused saying why. */
import { InvalidRequestError } from '../../../layers/elevation';
import { crsConversion } from '../../../layers/elevation/track/geojson-crs';
import { readGeoJson } from '../../../layers/elevation/track/geojson';

const named = (name: string) => ({ type: 'name', properties: { name } });
const CONVERT = 'convert it with ogr2ogr -t_srs EPSG:4326 -lco RFC7946=YES out.geojson in.geojson';
/** `echo "48.742275 9.101177" | cs2cs -f %.4f EPSG:4326 EPSG:25832` (PROJ 9.1.1). */
const HDM_UTM32 = [507438.4476, 5398811.2967];

describe('crsConversion', () => {
  it.each([
    'urn:ogc:def:crs:OGC:1.3:CRS84',
    'urn:ogc:def:crs:OGC::CRS84',
    'OGC:CRS84',
    'CRS:84',
    'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
    'EPSG:4326',
    'urn:ogc:def:crs:EPSG::4326',
    'urn:ogc:def:crs:EPSG:6.6:4326',
    'http://www.opengis.net/def/crs/EPSG/0/4326',
    ' EPSG:4979 ',
  ])(
    'reads %j as WGS 84 longitude/latitude (nothing to convert; GDAL writes 4326 in that order too)',
    (name) => {
      expect(crsConversion(named(name))).toBeNull();
    },
  );

  it.each([
    'urn:ogc:def:crs:EPSG::25832',
    'EPSG:25832',
    'epsg::25832',
    'https://www.opengis.net/def/crs/EPSG/0/25832',
  ])('converts %j (UTM 32N) to the WGS 84 point PROJ gives', (name) => {
    const [lon, lat] = crsConversion(named(name))!(HDM_UTM32[0], HDM_UTM32[1]);
    expect(lon).toBeCloseTo(9.101177, 6);
    expect(lat).toBeCloseTo(48.742275, 6);
  });

  it('reads the pre-2008 form {"type": "EPSG", "properties": {"code": …}}', () => {
    const [lon] = crsConversion({ type: 'EPSG', properties: { code: 25832 } })!(HDM_UTM32[0], HDM_UTM32[1]);
    expect(lon).toBeCloseTo(9.101177, 6);
    expect(crsConversion({ type: 'EPSG', properties: { code: 4326 } })).toBeNull();
  });

  it.each([
    [named('EPSG:99999'), "The GeoJSON file's crs 'EPSG:99999' is an EPSG code this API does not know"],
    [
      named('EPSG:4267'),
      "The GeoJSON file's crs 'EPSG:4267' is one this API cannot place points in within metres",
    ],
    [
      named('urn:ogc:def:crs:EPSG::2263'),
      "crs 'urn:ogc:def:crs:EPSG::2263' is not measured in metres or degrees",
    ],
    [
      named('ESRI:102100'),
      "The GeoJSON file's crs 'ESRI:102100' is not a system this API reads (a named EPSG code or CRS84)",
    ],
    [null, "The GeoJSON file's crs is null, which says its coordinates are in no known system"],
    [
      { type: 'link', properties: { href: 'http://example.com/crs' } },
      'is not a named system (a link, or no name)',
    ],
    [{ type: 'name', properties: {} }, 'is not a named system (a link, or no name)'],
    [{ type: 'EPSG', properties: { code: '4326' } }, 'is not a named system (a link, or no name)'],
    ['EPSG:4326', 'is not a named system (a link, or no name)'],
  ])('refuses %j, saying how to convert the file', (crs, message) => {
    expect(() => crsConversion(crs)).toThrow(InvalidRequestError);
    expect(() => crsConversion(crs)).toThrow(message);
    expect(() => crsConversion(crs)).toThrow(CONVERT);
  });
});

describe('readGeoJson with a crs member', () => {
  const options = { maxCoordinates: 100, absoluteAltitude: false };
  const point = (crs: string, at: number[]) =>
    `{"type":"Feature","crs":${crs},"geometry":{"type":"Point","coordinates":[${at.join(',')}]},"properties":{}}`;

  it('places each position through the crs of the nearest object that has one, and writes it back as it was', () => {
    const utm = JSON.stringify(named('EPSG:25832'));
    const text = `{"type":"FeatureCollection","crs":${utm},"features":[${point(utm, HDM_UTM32)},${point(
      JSON.stringify(named('OGC:CRS84')),
      [9.2, 48.8],
    )},{"type":"Feature","geometry":{"type":"Point","coordinates":[${HDM_UTM32.join(',')}]},"properties":{}}]}`;
    const { slots } = readGeoJson(text, options);
    expect(slots.map((s) => [s.location.lat.toFixed(6), s.location.lon.toFixed(6)])).toEqual([
      ['48.742275', '9.101177'],
      ['48.800000', '9.200000'],
      ['48.742275', '9.101177'],
    ]);
    const edit = slots[0].write('456.9');
    expect(text.slice(0, edit.start)).toMatch(/\[507438\.4476,5398811\.2967$/);
    expect(edit.replacement).toBe(',456.9');
  });

  it('names a position its crs places off the globe, saying it was converted', () => {
    const text = `{"type":"Point","crs":${JSON.stringify(named('EPSG:3857'))},"coordinates":[1e9,1e9]}`;
    expect(() => readGeoJson(text, options)).toThrow(
      /^Invalid (latitude|longitude) .* \(offset \d+, converted from its crs\)/,
    );
  });

  it('refuses a crs it cannot read before reading any position', () => {
    const text = `{"type":"Point","crs":${JSON.stringify(named('EPSG:2263'))},"coordinates":[1,2]}`;
    expect(() => readGeoJson(text, options)).toThrow(/is not measured in metres or degrees/);
  });
});
