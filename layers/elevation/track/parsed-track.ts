/** What a format module finds in a text document: the height slots, plus edits the options ask for. */
import type { HeightSlot } from './height-slot';
import type { TextEdit } from './text-edits';

export interface ParsedTrack {
  readonly slots: readonly HeightSlot[];
  /** Edits besides heights: what an option asked for (KML altitude_mode=absolute), a CSV's appended column. */
  readonly extraEdits: readonly ExtraEdit[];
  /** KML geometries whose altitudes are not heights above sea level but offsets (relativeGroups). */
  readonly relativeGroups?: readonly RelativeGroup[];
  /** Summaries of slots' heights the document keeps beside them (a GeoJSON `bbox`). */
  readonly extents?: readonly HeightExtent[];
}

/**
 * The lowest and highest height of slots [from, to) as the document states them beside the positions (a GeoJSON
 * `bbox`, RFC 7946 section 5): rewritten from the heights the slots end up holding, so that it neither contradicts
 * them nor, with heights added, has fewer dimensions than its positions.
 */
export interface HeightExtent {
  readonly slots: readonly [from: number, to: number];
  readonly edits: (lowest: number, highest: number) => readonly TextEdit[];
}

/** The extents' edits, given the height each slot ends up holding (null: none); one without heights is left. */
export function extentEdits(track: ParsedTrack, heightOf: (slot: number) => number | null): TextEdit[] {
  return (track.extents ?? []).flatMap(({ slots, edits }) => {
    let [lowest, highest] = [Infinity, -Infinity];
    for (let i = slots[0]; i < slots[1]; i++) {
      const height = heightOf(i);
      if (height === null) continue;
      lowest = Math.min(lowest, height);
      highest = Math.max(highest, height);
    }
    return lowest <= highest ? edits(lowest, highest) : [];
  });
}

/**
 * A KML geometry whose altitudes are offsets, not heights: `relativeToGround` (metres above the terrain) or
 * `gx:relativeToSeaFloor`. Its slots [from, to) hold the offsets. Writing a terrain height there would draw the
 * point that high above the terrain, so a 'ground' geometry is converted whole (terrain height + offset, its
 * altitudeMode made absolute by `modeEdits`) when every point has data, and left as it is otherwise; a
 * 'seaFloor' one is always left as it is (the dataset gives the terrain, not the sea floor).
 */
export interface RelativeGroup {
  readonly slots: readonly [from: number, to: number];
  readonly reference: 'ground' | 'seaFloor';
  readonly modeEdits: readonly TextEdit[];
}

/**
 * An edit besides a height. With `needsHeights` [from, to), it applies only if every one of those slots ends
 * up holding a height: a KML geometry made `absolute` with a point that has none would draw that point at sea
 * level (KML reads a missing altitude as 0), so such a geometry keeps the altitudeMode it had.
 */
export interface ExtraEdit {
  readonly edit: TextEdit;
  readonly needsHeights?: readonly [from: number, to: number];
}

/** The extra edits that apply, given which slots end up holding a height. */
export function applicableEdits(track: ParsedTrack, holdsHeight: (slot: number) => boolean): TextEdit[] {
  return track.extraEdits.flatMap(({ edit, needsHeights }) => {
    if (needsHeights) {
      for (let i = needsHeights[0]; i < needsHeights[1]; i++) if (!holdsHeight(i)) return [];
    }
    return [edit];
  });
}

export interface TrackReadOptions {
  maxCoordinates: number;
  /** KML: make every geometry's altitudeMode absolute, so Google Earth draws the heights. */
  absoluteAltitude: boolean;
}
