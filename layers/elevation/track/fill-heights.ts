/**
 * Files in, the same file out with heights: finds every height slot of a KML, KMZ, GPX, TCX, GeoJSON or CSV document
 * (any of them gzip-compressed, too), samples the dataset at all of them in one call, and rewrites only the
 * heights' text (plus what an option asks for), so everything else comes back byte for byte.
 */
import { roundElevation } from '../service/elevation-query';
import type { HeightConversion } from '../datum/convert-heights';
import type { VerticalDatum } from '../datum/vertical-datum';
import { InvalidRequestError } from '../errors';
import type { Dataset, Elevation, Interpolation, LatLon, ReadContext } from '../types';
import { isFit } from './fit';
import { readFitFile } from './fit-heights';
import { gunzipTrackFile, gzipTrackFile, isGzip } from './gzip-file';
import { readKmz, writeKmz } from './kmz';
import { isPlaceholderHeight } from './height-slot';
import { applicableEdits, extentEdits, type RelativeGroup, type TrackReadOptions } from './parsed-track';
import { FORMAT_NAMES, readTrackText } from './track-text';
import { encodeText, type TextEncodingName } from './text-encoding';
import { applyEdits, type TextEdit } from './text-edits';
import { detectTrackFormat, type FileFormat, type TrackFormat } from './track-format';

export interface FillOptions {
  interpolation: Interpolation;
  /** false: keep heights the file already has (non-zero ones; 0 is what exports write when they know none). */
  overwrite: boolean;
  /** KML/KMZ: set every geometry's altitudeMode to absolute. */
  absoluteAltitude: boolean;
  /**
   * Called with the counts once the heights are sampled and decided, before anything is written, encoded or
   * compressed again: to record them, or to refuse the file by throwing (a file where nothing would be filled:
   * `nothingFilledMessage`) without paying for the writing.
   */
  decided?: (report: FillReport) => void;
  /** The vertical datum the heights are converted to (absent: as the dataset has them), for formats that fix one. */
  datum?: VerticalDatum | null;
}

export interface FillLimits {
  maxCoordinates: number;
  maxUnzippedBytes: number;
}

export interface FillReport {
  format: FileFormat;
  coordinates: number;
  filled: number;
  /** Coordinates where the dataset has no data: a height is left as it was, a placeholder 0 removed. */
  nodata: number;
  /**
   * Coordinates left as they were though the dataset had data: an existing height kept (overwrite=false), or
   * a KML point above the ground or the sea floor whose geometry is not converted (RelativeGroup).
   */
  kept: number;
  /** Datasets that answered (for a chain "a,b"), in order of first use. */
  datasets: string[];
}

export interface FilledFile {
  format: FileFormat;
  bytes: Uint8Array;
  /** The text's encoding (a KMZ's: its KML's), the one it came in; `bom`: whether the text starts with one. */
  encoding: TextEncodingName;
  bom: boolean;
  /** The file came gzip-compressed (`track.gpx.gz`), and `bytes` are compressed again. */
  gzip: boolean;
  report: FillReport;
}

/**
 * Why a filled file would only look filled, or null. A file without a coordinate, or one where the dataset has data
 * at none of its coordinates (a file from elsewhere, latitude and longitude swapped), would come back unchanged (or
 * with only its placeholder zeros removed) under a 200 that reads as success in a browser's download or
 * `curl -o`: it is a 400 saying so instead. (`report=json` answers the counts, which say it themselves.)
 *
 * @example
 * ```ts
 * const report = { format: 'gpx' as const, coordinates: 3, filled: 0, nodata: 3, kept: 0, datasets: [] };
 * assert.match(nothingFilledMessage(report, 'srtm') ?? '', /^No elevation data in dataset 'srtm' at any of the GPX file's 3 coordinates/);
 * assert.equal(nothingFilledMessage({ ...report, filled: 1, nodata: 2, datasets: ['srtm'] }, 'srtm'), null);
 * assert.match(nothingFilledMessage({ ...report, format: 'csv', coordinates: 0, nodata: 0 }, 'srtm') ?? '', /needs rows below its header/);
 * ```
 */
export function nothingFilledMessage(report: FillReport, dataset: string): string | null {
  const name = FORMAT_NAMES[report.format];
  if (report.coordinates === 0) {
    const needs =
      report.format === 'csv'
        ? 'rows below its header with a latitude and a longitude'
        : 'a track, route, line or place with a position';
    return `The ${name} file has no coordinates, so there is nothing to fill: it needs ${needs}.`;
  }
  if (report.nodata < report.coordinates) return null;
  return (
    `No elevation data in dataset '${dataset}' at any of the ${name} file's ${report.coordinates} coordinates, so none was filled: ` +
    "check that they lie in the dataset's area (GET /v1/datasets gives its bounds) and that latitude and longitude are not swapped."
  );
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const gpx = '<gpx version="1.1"><wpt lat="49.9" lon="10.1"><ele>0</ele></wpt></gpx>';
 * const { bytes, report } = await fillFileHeights(new TextEncoder().encode(gpx), registry.get('plane-point'),
 *   { interpolation: 'nearest', overwrite: true, absoluteAltitude: false }, { maxCoordinates: 100, maxUnzippedBytes: 1e6 });
 * assert.equal(new TextDecoder().decode(bytes), '<gpx version="1.1"><wpt lat="49.9" lon="10.1"><ele>1036</ele></wpt></gpx>');
 * assert.equal(report.filled, 1);
 * ```
 */
export async function fillFileHeights(
  bytes: Uint8Array,
  dataset: Dataset,
  options: FillOptions,
  limits: FillLimits,
  ctx: Partial<ReadContext> = {},
  convert?: HeightConversion,
): Promise<FilledFile> {
  if (isGzip(bytes)) {
    const inner = await fillFileHeights(
      gunzipTrackFile(bytes, limits.maxUnzippedBytes),
      dataset,
      options,
      limits,
      ctx,
      convert,
    );
    return { ...inner, bytes: gzipTrackFile(inner.bytes), gzip: true };
  }
  if (isFit(bytes)) return fillFit(bytes, dataset, options, limits, ctx, convert);
  const format = detectTrackFormat(bytes);
  const readOptions = { maxCoordinates: limits.maxCoordinates, absoluteAltitude: options.absoluteAltitude };
  if (format === 'kmz') {
    const archive = readKmz(bytes, limits.maxUnzippedBytes);
    const kml = await fillText(
      archive.entries[archive.mainIndex].data,
      'kml',
      readOptions,
      dataset,
      options,
      ctx,
      convert,
      format,
    );
    return { ...kml, format, bytes: writeKmz(archive, kml.bytes), report: { ...kml.report, format } };
  }
  return fillText(bytes, format, readOptions, dataset, options, ctx, convert);
}

async function fillText(
  bytes: Uint8Array,
  format: Exclude<TrackFormat, 'kmz'>,
  readOptions: TrackReadOptions,
  dataset: Dataset,
  options: FillOptions,
  ctx: Partial<ReadContext>,
  convert: HeightConversion | undefined,
  /** The file's format as its sender sees it, for `decided`: 'kmz' for the KML inside one. */
  fileFormat: FileFormat = format,
): Promise<FilledFile> {
  if (format === 'kml' && options.datum === 'ellipsoid') {
    // KML 2.2: an absolute altitude is above sea level; Google Earth draws it over EGM96, ~-107..+85 m off the
    // ellipsoid. Ellipsoidal heights there would float or sink the track by that much where it is drawn.
    throw new InvalidRequestError(
      `KML altitudes are heights above sea level (KML 2.2; Google Earth draws them over EGM96), so datum=ellipsoid would draw the ${fileFormat.toUpperCase()} up to ~100 m off: leave datum out, or use datum=egm96.`,
    );
  }
  const { encoding, bom, text, track } = readTrackText(bytes, format, readOptions);
  const groups = track.relativeGroups ?? [];
  // A relative geometry's altitudes are offsets, not heights: overwrite=false has nothing to keep there.
  const offsets = new Map<number, number>();
  for (const { slots } of groups)
    for (let i = slots[0]; i < slots[1]; i++) offsets.set(i, track.slots[i].height ?? 0);
  const points = track.slots.map((slot, i) => (offsets.has(i) ? { ...slot, height: null } : slot));
  const { decisions, counts } = await decideHeights(points, dataset, options, ctx, convert);
  const { untouched, modeEdits } = settleRelativeGroups(groups, decisions, offsets, counts);
  options.decided?.({ format: fileFormat, ...counts });
  const edits = track.slots.flatMap((slot, i) => {
    const decision = decisions[i];
    const edit =
      decision === 'kept' || untouched.has(i)
        ? null
        : decision === 'nodata'
          ? slot.clear()
          : slot.write(String(decision));
    return edit ? [edit] : [];
  });
  const holdsHeight = (i: number) => !endsWithoutHeight(decisions[i], track.slots[i].height);
  const heightOf = (i: number) => {
    const decision = decisions[i];
    if (typeof decision === 'number' && !untouched.has(i)) return decision;
    return holdsHeight(i) ? track.slots[i].height : null;
  };
  const out = encodeText(
    bom +
      applyEdits(text, [
        ...edits,
        ...modeEdits,
        ...applicableEdits(track, holdsHeight),
        ...extentEdits(track, heightOf),
      ]),
    encoding,
  );
  return {
    format,
    bytes: out,
    encoding,
    bom: bom !== '',
    gzip: false,
    report: { format, ...counts },
  };
}

/**
 * KML geometries whose altitudes are offsets (parsed-track.ts's RelativeGroup). One above the ground where every
 * point has data becomes absolute: each decision turns into terrain height + offset (where Google Earth drew the
 * point before), with the geometry's altitudeMode edits. Any other is left as it is (its slots `untouched`), and
 * its points with data count as kept, not filled.
 */
function settleRelativeGroups(
  groups: readonly RelativeGroup[],
  decisions: Decision[],
  offsets: ReadonlyMap<number, number>,
  counts: { filled: number; kept: number },
): { untouched: Set<number>; modeEdits: TextEdit[] } {
  const untouched = new Set<number>();
  const modeEdits: TextEdit[] = [];
  for (const { slots, reference, modeEdits: edits } of groups) {
    let convertible = reference === 'ground';
    for (let i = slots[0]; i < slots[1] && convertible; i++) convertible = typeof decisions[i] === 'number';
    for (let i = slots[0]; i < slots[1]; i++) {
      const decision = decisions[i];
      if (typeof decision !== 'number') untouched.add(i);
      else if (convertible) decisions[i] = roundElevation(decision + (offsets.get(i) ?? 0));
      else {
        untouched.add(i);
        counts.filled--;
        counts.kept++;
      }
    }
    if (convertible) modeEdits.push(...edits);
  }
  return { untouched, modeEdits };
}

/** A FIT file's records with positions get their heights (fit-heights.ts); nothing else in it changes. */
async function fillFit(
  bytes: Uint8Array,
  dataset: Dataset,
  options: FillOptions,
  limits: FillLimits,
  ctx: Partial<ReadContext>,
  convert: HeightConversion | undefined,
): Promise<FilledFile> {
  const fit = readFitFile(bytes, limits.maxCoordinates);
  const { decisions, counts } = await decideHeights(fit.points, dataset, options, ctx, convert);
  options.decided?.({ format: 'fit', ...counts });
  return {
    format: 'fit',
    bytes: fit.write(
      decisions.map((d, i) =>
        typeof d === 'number' ? d : endsWithoutHeight(d, fit.points[i].height) ? 'invalid' : null,
      ),
    ),
    encoding: 'utf-8',
    bom: false,
    gzip: false,
    report: { format: 'fit', ...counts },
  };
}

/** What becomes of each point: 'kept' (overwrite=false: a non-zero height), 'nodata', or the height to write. */
type Decision = 'kept' | 'nodata' | number;

/**
 * Whether a point ends up without a height: the dataset has none there and the file had none, or only the
 * placeholder 0 (which the formats drop, FIT marks invalid). KML's `absolute` skips a geometry with such a point.
 */
function endsWithoutHeight(decision: Decision, height: number | null): boolean {
  return decision === 'nodata' && (height === null || isPlaceholderHeight(height));
}

/**
 * Samples the points (heights converted when asked) and decides each; counts the decisions and names the datasets
 * that answered (for a chain "a,b"), in order of first use. Text files and FIT files share it.
 */
async function decideHeights(
  points: readonly { location: LatLon; height: number | null }[],
  dataset: Dataset,
  options: FillOptions,
  ctx: Partial<ReadContext>,
  convert: HeightConversion | undefined,
): Promise<{ decisions: Decision[]; counts: Omit<FillReport, 'format'> }> {
  const { elevations, datasets } = await heightsOf(
    points.map((p) => p.location),
    dataset,
    options,
    ctx,
    convert,
  );
  const counts = { coordinates: points.length, filled: 0, nodata: 0, kept: 0 };
  const decisions = points.map((point, i): Decision => {
    const elevation = elevations[i];
    if (!options.overwrite && point.height !== null && !isPlaceholderHeight(point.height)) {
      counts.kept++;
      return 'kept';
    }
    if (elevation === null) {
      counts.nodata++;
      return 'nodata';
    }
    counts.filled++;
    return roundElevation(elevation);
  });
  const answered = [...new Set(datasets.filter((_, i) => elevations[i] !== null))];
  return { decisions, counts: { ...counts, datasets: answered } };
}

/** The heights of the locations (converted when asked), and the dataset that answered each; none for none. */
async function heightsOf(
  locations: LatLon[],
  dataset: Dataset,
  options: FillOptions,
  ctx: Partial<ReadContext>,
  convert: HeightConversion | undefined,
): Promise<{ elevations: readonly Elevation[]; datasets: readonly string[] }> {
  if (locations.length === 0) return { elevations: [], datasets: [] };
  const sampled = await dataset.sampleAttributed(locations, options.interpolation, ctx);
  return {
    elevations: convert ? await convert(sampled, locations) : sampled.elevations,
    datasets: sampled.datasets,
  };
}
