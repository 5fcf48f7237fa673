import { loadSettings } from '../../../layers/elevation/config/settings';
import { tryDetectTrackFormat } from '../../../layers/elevation/track/track-format';

describe('tryDetectTrackFormat', () => {
  it.each([
    ['<?xml version="1.0"?>\n<!-- exported --><kml xmlns="http://www.opengis.net/kml/2.2">', 'kml'],
    ['\uFEFF<kml:kml xmlns:kml="http://www.opengis.net/kml/2.2">', 'kml'],
    ['<?xml version="1.0"?><gpx version="1.1">', 'gpx'],
    ['  \n{"type":"FeatureCollection"}', 'geojson'],
    ['PK\u0003\u0004', 'kmz'],
    // GeoJSON Text Sequences (RFC 8142): read as GeoJSON, whose 400 says they are not supported.
    ['\u001e{"type":"Feature"}\n\u001e{"type":"Feature"}\n', 'geojson'],
    ['48.75000, 09.10000, W1\n48.76000, 09.15000, W2\n', 'csv'],
    ['latlng\n"48.7,9.1"\n', 'csv'],
    ['<svg/>', null],
    ['[1,2]', null],
    ['', null],
  ])('tells %j is %s', (text, format) => {
    expect(tryDetectTrackFormat(Buffer.from(text, 'utf8'))).toBe(format);
  });
});

describe('file limit settings', () => {
  it('has the documented defaults', () => {
    expect(loadSettings({})).toMatchObject({
      maxFileBytes: 4 * 1024 * 1024,
      maxFileCoordinates: 100_000,
      maxKmzUnzippedBytes: 32 * 1024 * 1024,
    });
  });

  it('fails naming the variable for an invalid value', () => {
    expect(() => loadSettings({ MAX_FILE_COORDINATES: '0' })).toThrow(/MAX_FILE_COORDINATES must be/);
  });
});
