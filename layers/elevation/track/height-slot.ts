/**
 * One place in a document that holds (or can hold) a height: a KML coordinate tuple, a GPX point's <ele>, a
 * GeoJSON position. Format modules find the slots; `fillHeights` decides what to write into each.
 */
import { InvalidRequestError } from '../errors';
import type { LatLon } from '../types';
import type { TextEdit } from './text-edits';

export interface HeightSlot {
  readonly location: LatLon;
  /** The height the file already holds there, or null when it holds none. */
  readonly height: number | null;
  /**
   * Whether the coordinate is a vertex of a line (a GPX track or route, a KML LineString or gx:Track, a GeoJSON
   * LineString, a TCX track): the path a profile follows. False for a place on its own (a GPX waypoint, a KML
   * or GeoJSON Point, a TCX course point or lap end) and for an area's outline (a KML LinearRing, a GeoJSON
   * Polygon), which a profile leaves out when the file has a line.
   */
  readonly onPath: boolean;
  /** The edit that writes a height (already formatted) into the document. */
  write(height: string): TextEdit;
  /** The edit for a point without data, or null to leave the point as it is. */
  clear(): TextEdit | null;
}

/**
 * A height of exactly 0 is what exports write when they know none (Google Earth's paths, phones without a fix):
 * a placeholder, not a measurement. `overwrite=false` replaces it, and a point without data loses it.
 */
export function isPlaceholderHeight(height: number | null): boolean {
  return height === 0;
}

/**
 * Checks a location read from a file; `where` names it for the message (e.g. "coordinate 12 at line 40"), and
 * is a function because finding a line number costs a scan that only an error should pay for.
 */
export function checkedLocation(lat: number, lon: number, where: () => string): LatLon {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw new InvalidRequestError(
      `Invalid latitude ${lat} at ${where()}: latitude must be between -90 and 90.`,
    );
  }
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) {
    throw new InvalidRequestError(
      `Invalid longitude ${lon} at ${where()}: longitude must be between -180 and 180.`,
    );
  }
  return { lat, lon };
}

/**
 * A height written in decimal that no double holds (`1e400` parses to ±Infinity): no placeholder but a damaged
 * number whose meaning we cannot know, which OGR and GPSBabel read as infinity. Read as no height, a point without
 * data kept it in a file answered as filled; kept (overwrite=false), it was counted as a height. `what` says where
 * and as written, e.g. "The <ele> at line 3 of <wpt> at line 2 holds 1e400".
 */
export class HeightOverflowError extends InvalidRequestError {
  constructor(what: string, { readers = 'OGR and GPSBabel read', fix = 'leave it out' } = {}) {
    super(
      `${what}, a number beyond any height readers can hold (${readers} it as infinity): write the height it should have, or ${fix}.`,
    );
  }
}

export class TooManyCoordinatesError extends InvalidRequestError {
  constructor(maxCoordinates: number) {
    super(
      `The file has more than ${maxCoordinates} coordinates, the limit per request (MAX_FILE_COORDINATES). Split it into smaller files.`,
    );
  }
}

/** Gathers a document's slots and stops at the coordinate limit before any more work (or memory) is spent. */
export class SlotCollector {
  readonly slots: HeightSlot[] = [];
  constructor(private readonly maxCoordinates: number) {}

  /** How many more slots may be added before the limit. */
  get remaining(): number {
    return this.maxCoordinates - this.slots.length;
  }

  add(slot: HeightSlot): void {
    if (this.slots.length >= this.maxCoordinates) {
      throw new TooManyCoordinatesError(this.maxCoordinates);
    }
    this.slots.push(slot);
  }
}
