/**
 * GDAL_NODATA texts as GDAL reads them: each expected value is what GDAL 3.6.2 answered for the text
 * (`GetNoDataValue()` of a Float32 GeoTIFF whose tag holds it; None where it answered none).
 */
import { gdalNodataValue } from '../../../layers/elevation/raster/gdal-nodata';

it.each([
  ['-32768\0', -32768],
  ['-32768', -32768],
  ['-32768 m\0', -32768],
  ['-32768\0junk\0', -32768],
  ['abc\0', 0],
  [' 12\0', 12],
  ['\t7\0', 7],
  ['1e400\0', Infinity],
  ['nan\0', NaN],
  ['NaN', NaN],
  ['Infinity\0', Infinity],
  ['-inf\0', -Infinity],
  ['+5\0', 5],
  ['5abc\0', 5],
  ['.5\0', 0.5],
  ['1,5\0', 1.5],
  ['\0', null],
  ['', null],
  ['-\0', 0],
  ['-abc\0', 0],
  ['0x1p3\0', 8],
  ['0X1A\0', 26],
  ['-0x10\0', -16],
  ['0x\0', 0],
  ['0x.8\0', 0.5],
  ['1e\0', 1],
  ['12e+\0', 12],
  ['2.5e-1x\0', 0.25],
  ['1_0\0', 1],
])('%j is %p', (text, expected) => {
  expect(Object.is(gdalNodataValue(text), expected)).toBe(true);
});
