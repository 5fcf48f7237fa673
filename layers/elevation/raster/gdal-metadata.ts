/**
 * The GDAL_METADATA tag (TIFF 42112) read as GDAL's GTiff driver reads it for band 1: each `<Item>` of the
 * `<GDALMetadata>` root is found in any case, with its attributes in any case; an item with a name, sample 0 (read
 * as atoi reads it), no IMAGE_STRUCTURE domain, one text node for its value and a `role` of scale, offset or
 * unittype (in any case) sets that, whatever its name; a later item overrides an earlier one. geotiff.js's getGDALMetadata
 * keys items by `name` in one spelling: `<item …>`, `ROLE=`, or `role="scale"` under another name were skipped (the
 * stored values answered where GDAL scales them), and `name="SCALE"` without a role applied where GDAL does not.
 * Each case was checked against GDAL 3.6.2.
 */
import { SaxesParser } from 'saxes';
import { DatasetConfigError } from '../errors';

/** Band 1's scale, offset and unit type as written (SCALE, OFFSET, UNITTYPE), each absent where none is given. */
export type BandRoles = Partial<Record<'SCALE' | 'OFFSET' | 'UNITTYPE', string>>;

const ROLES = new Map([
  ['scale', 'SCALE'],
  ['offset', 'OFFSET'],
  ['unittype', 'UNITTYPE'],
] as const);

/**
 * The roles band 1 (sample 0) is given by a GDAL_METADATA text, or a DatasetConfigError where the text is no
 * well-formed XML (GDAL would then read the file unscaled; what it meant to say cannot be told).
 *
 * @example
 * ```ts
 * const xml = '<GDALMetadata><Item name="SCALE" sample="0" role="scale">0.1</Item></GDALMetadata>';
 * assert.deepEqual(bandRoles(xml, 'a.tif'), { SCALE: '0.1' });
 * ```
 */
export function bandRoles(xml: string | null, url: string): BandRoles {
  const roles: BandRoles = {};
  if (xml === null) return roles;
  const parser = new SaxesParser();
  // The Item being read (a child of a GDALMetadata root) and its content's nodes: GDAL takes a value only where
  // that is one text node (CPLGetXMLValue), so a comment or processing instruction in it drops the item.
  let item: { role: keyof BandRoles | undefined; text: string; nodes: number; other: boolean } | null = null;
  let depth = 0;
  let rooted = false;
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1) rooted = tag.name.toLowerCase() === 'gdalmetadata';
    if (depth === 3 && item) item.other = true;
    if (depth !== 2 || !rooted || tag.name.toLowerCase() !== 'item') return;
    const attributes = Object.fromEntries(
      Object.entries(tag.attributes as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    // GDAL's GTiff driver: an item needs a name; IMAGE_STRUCTURE items are not the band's; band 1 is sample 0.
    const sample = attributes.sample === undefined ? -1 : atoi(attributes.sample);
    const band1 =
      attributes.name !== undefined &&
      sample === 0 &&
      (attributes.domain ?? '').toUpperCase() !== 'IMAGE_STRUCTURE';
    const role = ROLES.get((attributes.role ?? '').toLowerCase() as 'scale');
    item = band1 && role !== undefined ? { role, text: '', nodes: 0, other: false } : null;
  });
  const node = (text: string) => {
    if (!item || depth !== 2) return;
    item.text += text;
    item.nodes++;
  };
  parser.on('text', node);
  parser.on('cdata', node);
  const other = () => {
    if (item && depth === 2) item.other = true;
  };
  parser.on('comment', other);
  parser.on('processinginstruction', other);
  parser.on('closetag', () => {
    if (depth === 2 && item) {
      if (item.role !== undefined && item.nodes === 1 && !item.other) roles[item.role] = item.text;
      item = null;
    }
    depth--;
  });
  try {
    // The tag is ASCII and NUL-terminated: the XML ends at its first NUL.
    parser.write(xml.split('\0', 1)[0]).close();
  } catch (error) {
    throw new DatasetConfigError(
      `${url}'s GDAL_METADATA is no well-formed XML, so whether GDAL scales its heights cannot be told: rewrite it with gdal_translate.`,
      { cause: error },
    );
  }
  return roles;
}

/** C's atoi: blanks, a sign and the digits that follow; 0 where there are none. */
function atoi(text: string): number {
  const match = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  return match ? Number(match[1]) : 0;
}
