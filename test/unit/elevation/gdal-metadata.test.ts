/**
 * Band 1's scale, offset and unit type from GDAL_METADATA, as GDAL reads them: each expectation is what GDAL
 * 3.6.2 answered (GetScale, GetOffset, GetUnitType) for a GeoTIFF whose GDAL_METADATA tag held that XML.
 */
import { DatasetConfigError } from '../../../layers/elevation';
import { bandRoles } from '../../../layers/elevation/raster/gdal-metadata';

const meta = (items: string, root = 'GDALMetadata') => `<${root}>${items}</${root}>\0`;

it.each([
  [
    'as gdal_translate -a_scale writes it',
    '<Item name="SCALE" sample="0" role="scale">2</Item>',
    { SCALE: '2' },
  ],
  ['by its role, whatever its name', '<Item name="X" sample="0" role="scale">2</Item>', { SCALE: '2' }],
  ['an <item> in lower case', '<item name="SCALE" sample="0" role="scale">2</item>', { SCALE: '2' }],
  ['a role in upper case', '<Item name="SCALE" sample="0" role="SCALE">2</Item>', { SCALE: '2' }],
  ['attributes in upper case', '<Item NAME="SCALE" SAMPLE="0" ROLE="scale">2</Item>', { SCALE: '2' }],
  [
    'the last of two',
    '<Item name="SCALE" sample="0" role="scale">2</Item><Item name="SCALE" sample="0" role="scale">3</Item>',
    { SCALE: '3' },
  ],
  ['a sample read as atoi reads it', '<Item name="SCALE" sample=" 0" role="scale">2</Item>', { SCALE: '2' }],
  ['an offset by its role', '<Item name="Y" sample="0" role="offset">7</Item>', { OFFSET: '7' }],
  ['a unit type', '<Item name="UNITTYPE" sample="0" role="unittype">ft</Item>', { UNITTYPE: 'ft' }],
  ['no role: plain metadata, no scale', '<Item name="SCALE" sample="0">2</Item>', {}],
  ['another band', '<Item name="SCALE" sample="1" role="scale">2</Item>', {}],
  ['the dataset (no sample)', '<Item name="SCALE" role="scale">2</Item>', {}],
])('reads a scale %s', (_what, items, expected) => {
  expect(bandRoles(meta(items), 'a.tif')).toEqual(expected);
});

it('finds the root in any case, and reads none without the tag', () => {
  expect(bandRoles(meta('<Item name="S" sample="0" role="scale">2</Item>', 'gdalmetadata'), 'a.tif')).toEqual(
    {
      SCALE: '2',
    },
  );
  expect(bandRoles(null, 'a.tif')).toEqual({});
});

// Items GDAL's GTiff driver skips (a review of the first version: each was applied here, a wrong height as 200).
it.each([
  ['without a name', '<Item sample="0" role="scale">2</Item>'],
  ['under another root', '<Foo><Item name="SCALE" sample="0" role="scale">2</Item></Foo>'],
  ['with a comment in its value', '<Item name="O" sample="0" role="offset">5<!-- x --></Item>'],
  ['with a processing instruction in its value', '<Item name="O" sample="0" role="offset">5<?pi x?>6</Item>'],
  [
    'in the IMAGE_STRUCTURE domain',
    '<Item name="O" sample="0" role="offset" domain="image_structure">5</Item>',
  ],
  ['empty', '<Item name="O" sample="0" role="offset"></Item>'],
])('skips an item %s, as GDAL does', (_what, items) => {
  const xml = items.startsWith('<Foo>') ? `${items}\0` : meta(items);
  expect(bandRoles(xml, 'a.tif')).toEqual({});
});

it('keeps the last item GDAL reads, not one it skips after it; reads a CDATA value', () => {
  const items =
    '<Item name="O" sample="0" role="offset">5</Item><Item sample="0" role="offset">7</Item>' +
    '<Item name="S" sample="0" role="scale"><![CDATA[3]]></Item>';
  expect(bandRoles(meta(items), 'a.tif')).toEqual({ OFFSET: '5', SCALE: '3' });
});

it('refuses a tag that is no well-formed XML: whether GDAL scales the heights cannot be told', () => {
  const refusal = () => bandRoles('<GDALMetadata><Item sample="0" role="scale">2</GDALMetadata>', 'a.tif');
  expect(refusal).toThrow(DatasetConfigError);
  expect(refusal).toThrow(
    "a.tif's GDAL_METADATA is no well-formed XML, so whether GDAL scales its heights cannot be told: rewrite it with gdal_translate.",
  );
});
