/** The 400 a /file upload gets when filling it would change nothing a user wanted: no coordinates, or no data. */
import { nothingFilledMessage, type FillReport } from '../../../layers/elevation';

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
