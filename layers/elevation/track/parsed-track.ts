/** What a format module finds in a text document: the height slots, plus edits the options ask for. */
import type { HeightSlot } from './height-slot';
import type { TextEdit } from './text-edits';

export interface ParsedTrack {
  readonly slots: readonly HeightSlot[];
  /** Edits besides heights that an option asked for (KML altitude_mode=absolute). */
  readonly extraEdits: readonly TextEdit[];
}

export interface TrackReadOptions {
  maxCoordinates: number;
  /** KML: make every geometry's altitudeMode absolute, so Google Earth draws the heights. */
  absoluteAltitude: boolean;
}
