/** The 400 a /file upload gets when filling it would change nothing a user wanted: no coordinates, or no data. */
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import {
  fillFileHeights,
  InvalidRequestError,
  loadDatasetRegistry,
  nothingFilledMessage,
  type FillReport,
} from '../../../layers/elevation';

const report = (fields: Partial<FillReport>): FillReport => ({
  format: 'gpx',
  coordinates: 2,
  filled: 0,
  nodata: 2,
  kept: 0,
  datasets: [],
  ...fields,
});

describe('nothingFilledMessage', () => {
  it.each<[FillReport['format'], string]>([
    [
      'fit',
      'The FIT file has no coordinates, so there is nothing to fill: it needs a track, route, line or place with a position.',
    ],
    [
      'kmz',
      'The KMZ file has no coordinates, so there is nothing to fill: it needs a track, route, line or place with a position.',
    ],
    [
      'csv',
      'The CSV file has no coordinates, so there is nothing to fill: it needs rows below its header with a latitude and a longitude.',
    ],
  ])('names a %s file without coordinates and what it needs', (format, message) => {
    expect(nothingFilledMessage(report({ format, coordinates: 0, nodata: 0 }), 'srtm')).toBe(message);
  });

  it('names the dataset and the count where no coordinate has data, and is null once one has or kept one', () => {
    expect(nothingFilledMessage(report({ format: 'fit' }), 'a,b')).toBe(
      "No elevation data in dataset 'a,b' at any of the FIT file's 2 coordinates, so none was filled: check that they lie in the dataset's area (GET /v1/datasets gives its bounds) and that latitude and longitude are not swapped.",
    );
    expect(nothingFilledMessage(report({ filled: 1, nodata: 1 }), 'srtm')).toBeNull();
    expect(nothingFilledMessage(report({ kept: 1, nodata: 1 }), 'srtm')).toBeNull();
  });
});

describe("fillFileHeights' decided hook", () => {
  const dataset = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' }).get('plane-point');
  const limits = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
  const options = { interpolation: 'nearest' as const, overwrite: true, absoluteAltitude: false };
  // What the /file handler does with it: refuse a file where nothing would be filled.
  const refuse = (report: FillReport) => {
    const nothing = nothingFilledMessage(report, 'plane-point');
    if (nothing !== null) throw new InvalidRequestError(nothing);
  };
  // Latitude and longitude swapped: the dataset (around 49.7° N 10.3° E) has no data at 10.1° N 49.9° E.
  const swappedGpx = strToU8('<gpx version="1.1"><wpt lat="10.1" lon="49.9"><ele>0</ele></wpt></gpx>');
  const kml = (placemarks: string) =>
    strToU8(
      `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">${placemarks}</kml>`,
    );
  const point = (coordinates: string, mode = '') =>
    `<Placemark><Point>${mode}<coordinates>${coordinates}</coordinates></Point></Placemark>`;
  const swappedKml = kml(point('49.9,10.1,0')); // KML writes longitude first
  const noData = (name: string) =>
    `No elevation data in dataset 'plane-point' at any of the ${name} file's 1 coordinates, so none was filled`;

  it.each<[string, Uint8Array, string]>([
    ['a GPX file', swappedGpx, 'GPX'],
    ['a gzip-compressed GPX file by what is inside', gzipSync(swappedGpx), 'GPX'],
    ['the KML inside a KMZ as the KMZ it came in', zipSync({ 'doc.kml': swappedKml }), 'KMZ'],
  ])('refuses %s where nothing would be filled, naming its format', async (_, bytes, name) => {
    const refused = fillFileHeights(bytes, dataset, { ...options, decided: refuse }, limits);
    await expect(refused).rejects.toThrow(InvalidRequestError);
    await expect(refused).rejects.toThrow(noData(name));
  });

  it('refuses a file without coordinates', async () => {
    const empty = strToU8('<gpx version="1.1"><trk><trkseg/></trk></gpx>');
    await expect(fillFileHeights(empty, dataset, { ...options, decided: refuse }, limits)).rejects.toThrow(
      'The GPX file has no coordinates, so there is nothing to fill',
    );
  });

  it('gets the counts the answer reports, after relative geometries are settled', async () => {
    const reports: FillReport[] = [];
    const text = kml(
      point('10.1,49.9,0') +
        point('10.1,49.9,30', '<gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode>') + // kept, not filled
        point('0,0,0'),
    );
    const filled = await fillFileHeights(
      text,
      dataset,
      { ...options, decided: (r) => reports.push(r) },
      limits,
    );
    expect(filled.report).toEqual({
      format: 'kml',
      coordinates: 3,
      filled: 1,
      nodata: 1,
      kept: 1,
      datasets: ['plane-point'],
    });
    expect(reports).toEqual([filled.report]);
    expect(new TextDecoder().decode(filled.bytes)).toContain('<coordinates>10.1,49.9,1036</coordinates>');
  });

  it('without it, answers the file and the counts that say nothing was filled', async () => {
    const filled = await fillFileHeights(swappedGpx, dataset, options, limits);
    expect(filled.report).toMatchObject({ format: 'gpx', coordinates: 1, filled: 0, nodata: 1 });
    expect(new TextDecoder().decode(filled.bytes)).toBe(
      '<gpx version="1.1"><wpt lat="10.1" lon="49.9"></wpt></gpx>',
    );
  });
});
