/**
 * Vertical datums as users write them (config `vertical_datum`, the `datum=` option) and the height arithmetic
 * of a conversion: H' = H + N(source) - N(target), through the ellipsoid. The geoid grids are a stand-in with
 * fixed undulations so every sign shows; the real grids are pinned to PROJ in the real-data suite.
 */
import {
  convertHeights,
  InvalidRequestError,
  parseDatumParam,
  tryParseVerticalDatum,
  type GeoidGrids,
} from '../../../layers/elevation';
import { parseDatumOption } from '../../../layers/elevation/datum/vertical-datum';

describe('datum names', () => {
  it.each([
    ['EGM96', 'egm96'],
    [' egm2008 ', 'egm2008'],
    ['EGM08', 'egm2008'],
    ['Ellipsoid', 'ellipsoid'],
    ['WGS84', 'ellipsoid'],
  ])('reads %p as %p', (raw, datum) => {
    expect(tryParseVerticalDatum(raw)).toBe(datum);
    expect(parseDatumOption(raw)).toBe(datum);
    expect(parseDatumParam(raw)).toBe(datum);
  });

  it('reads nothing from other names or non-strings', () => {
    for (const raw of ['NAVD88', '', 'egm', 96, null, undefined, {}])
      expect(tryParseVerticalDatum(raw)).toBeNull();
  });

  it('takes an absent or blank option as "as the dataset has it"', () => {
    expect(parseDatumOption(undefined)).toBeNull();
    expect(parseDatumOption('  ')).toBeNull();
    expect(parseDatumParam(undefined)).toBeNull();
    expect(parseDatumParam(null)).toBeNull();
  });

  it('refuses other names and non-strings with a 400 listing the datums and their aliases', () => {
    expect(() => parseDatumOption('navd88')).toThrow(
      new InvalidRequestError(
        "Invalid datum 'navd88': use one of egm96, egm2008 (or egm08), ellipsoid (or wgs84).",
      ),
    );
    expect(() => parseDatumParam(96)).toThrow(
      new InvalidRequestError(
        'Invalid datum: expected one of egm96, egm2008 (or egm08), ellipsoid (or wgs84) as a string.',
      ),
    );
    // The value is echoed cut to 64 characters: a 16 KB one is not sent back whole.
    expect(() => parseDatumOption('x'.repeat(10_000))).toThrow(
      `Invalid datum '${'x'.repeat(64)}': use one of`,
    );
  });
});

describe('convertHeights', () => {
  const points = [
    { lat: 10, lon: 10 },
    { lat: 20, lon: 20 },
  ];
  /** N(EGM96) = 40 and 45 m, N(EGM2008) = 41.5 m and unknown (null) at the two points. */
  const undulation = { egm96: [40, 45], egm2008: [41.5, null] };
  function grids() {
    const read: string[] = [];
    const stub = {
      require: () => undefined, // both configured
      undulations: async (geoid: 'egm96' | 'egm2008') => {
        read.push(geoid);
        return undulation[geoid];
      },
    } as unknown as GeoidGrids;
    return { stub, read };
  }
  const datumOf = (dataset: string) =>
    ({ srtm: 'egm96', cop: 'egm2008', gnss: 'ellipsoid' })[dataset] as 'egm96' | 'egm2008' | 'ellipsoid';

  it('adds the source undulation to reach the ellipsoid', async () => {
    const { stub, read } = grids();
    const heights = { elevations: [300, 310], datasets: ['srtm', 'srtm'], points };
    await expect(convertHeights(heights, 'ellipsoid', datumOf, stub)).resolves.toEqual([340, 355]);
    expect(read).toEqual(['egm96']);
  });

  it('subtracts the target undulation to leave the ellipsoid', async () => {
    const { stub, read } = grids();
    const heights = { elevations: [340, 355], datasets: ['gnss', 'gnss'], points };
    await expect(convertHeights(heights, 'egm96', datumOf, stub)).resolves.toEqual([300, 310]);
    expect(read).toEqual(['egm96']);
  });

  it('goes through the ellipsoid between two geoids, null where an undulation is unknown', async () => {
    const { stub, read } = grids();
    const heights = { elevations: [300, 310], datasets: ['srtm', 'srtm'], points };
    await expect(convertHeights(heights, 'egm2008', datumOf, stub)).resolves.toEqual([300 + 40 - 41.5, null]);
    expect(read.sort()).toEqual(['egm2008', 'egm96']);
  });

  it('answers null where the source geoid is unknown, whatever the target', async () => {
    const { stub } = grids();
    // cop is EGM2008, whose undulation is unknown at the second point.
    const heights = { elevations: [300, 310], datasets: ['cop', 'cop'], points };
    await expect(convertHeights(heights, 'ellipsoid', datumOf, stub)).resolves.toEqual([341.5, null]);
  });

  it('leaves heights already in the target datum and nulls alone, reading no grid for them', async () => {
    const { stub, read } = grids();
    const heights = { elevations: [300, null], datasets: ['srtm', 'cop'], points };
    await expect(convertHeights(heights, 'egm96', datumOf, stub)).resolves.toEqual([300, null]);
    expect(read).toEqual([]);
  });

  it('converts each point from the datum of the dataset that answered it', async () => {
    const { stub } = grids();
    const heights = { elevations: [300, 355], datasets: ['srtm', 'gnss'], points };
    await expect(convertHeights(heights, 'ellipsoid', datumOf, stub)).resolves.toEqual([340, 355]);
  });

  it('asks only the datasets that answered a height: a chain member without a datum that answered null is no refusal', async () => {
    const { stub } = grids();
    const asked: string[] = [];
    const heights = { elevations: [null, 310], datasets: ['undeclared', 'srtm'], points };
    const of = (dataset: string) => {
      asked.push(dataset);
      return dataset === 'srtm' ? 'egm96' : null;
    };
    await expect(convertHeights(heights, 'ellipsoid', of, stub)).resolves.toEqual([null, 355]);
    expect(asked).toEqual(['srtm']);
  });

  it('refuses a dataset without a vertical datum, naming it and the setting', async () => {
    const { stub } = grids();
    const heights = { elevations: [300], datasets: ['unknown'], points: points.slice(0, 1) };
    await expect(convertHeights(heights, 'ellipsoid', () => null, stub)).rejects.toThrow(
      /Dataset 'unknown' declares no vertical datum, so its heights cannot be converted to ellipsoid\. An operator sets 'vertical_datum'/,
    );
  });
});
