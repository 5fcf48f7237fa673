/**
 * The VRT parser: what it reads from gdalbuildvrt's XML (grid, sources, nodata, where sources live), and every
 * VRT it refuses, with the reason an operator needs. Reading whole mosaics is pinned in
 * test/integration/vrt-mosaic.test.ts and against GDAL in the real-data suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError, DatasetUnavailableError, SourceNotFoundError } from '../../../layers/elevation';
import { RasterOpener } from '../../../layers/elevation/dataset/raster-opener';
import { MAX_VRT_BYTES, parseVrt, readVrt } from '../../../layers/elevation/dataset/vrt-mosaic';

const GT = '<GeoTransform>10, 0.5, 0, 50, 0, -0.5</GeoTransform>';

function source(file: string, extra = '', kind = 'SimpleSource', relative = 1): string {
  return `<${kind}><SourceFilename relativeToVRT="${relative}">${file}</SourceFilename><SourceBand>1</SourceBand>
    <SrcRect xOff="0" yOff="0" xSize="4" ySize="4"/><DstRect xOff="4" yOff="0" xSize="4" ySize="4"/>${extra}</${kind}>`;
}

const vrt = (band: string, head = GT, attributes = 'rasterXSize="8" rasterYSize="4"') =>
  `<VRTDataset ${attributes}>${head}<VRTRasterBand dataType="Int16" band="1">${band}</VRTRasterBand></VRTDataset>`;

describe('parseVrt', () => {
  it('reads the grid and each source: placement, size, location relative to the VRT', () => {
    expect(parseVrt(vrt(source('tiles/a.tif')), '/data/m.vrt')).toEqual({
      width: 8,
      height: 4,
      geoTransform: [10, 0.5, 0, 50, 0, -0.5],
      scale: 1,
      offset: 0,
      pixelType: 'Int16',
      srsEpsg: null,
      sources: [
        {
          location: '/data/tiles/a.tif',
          dstX: 4,
          dstY: 0,
          width: 4,
          height: 4,
          nodata: null,
          transparent: false,
        },
      ],
    });
  });

  it("reads band 1's data type as the reader names pixel types (GDAL's Byte is UInt8), and none when absent", () => {
    expect(parseVrt(vrt(source('a.tif')).replace('Int16', 'Byte'), 'm.vrt').pixelType).toBe('UInt8');
    expect(parseVrt(vrt(source('a.tif')).replace('dataType="Int16" ', ''), 'm.vrt').pixelType).toBeNull();
  });

  const WKT1_DHDN =
    'GEOGCS["DHDN",DATUM["Deutsches_Hauptdreiecksnetz",SPHEROID["Bessel 1841",6377397.155,299.1528128,AUTHORITY["EPSG","7004"]],AUTHORITY["EPSG","6314"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4314"]]';

  it.each([
    ['a WKT1 CRS (as gdalbuildvrt -a_srs writes it): its outermost AUTHORITY', WKT1_DHDN, 4314],
    [
      'a WKT2 CRS: its outermost ID',
      'PROJCRS["ETRS89-extended / LAEA Europe",BASEGEOGCRS["ETRS89",ID["EPSG",4258]],UNIT["metre",1],ID["EPSG",3035]]',
      3035,
    ],
    ['EPSG:n (trimmed as every element’s text)', ' EPSG:25832 ', 25832],
    ['a WKT1 CRS written with spaces', 'GEOGCS["DHDN", AUTHORITY[ "EPSG" , "4314" ] ]', 4314],
    ['a CRS without a code of its own', WKT1_DHDN.replace(',AUTHORITY["EPSG","4314"]]', ']'), null],
    [
      'a compound CRS',
      `COMPD_CS["DHDN + DHHN92",${WKT1_DHDN},VERT_CS["DHHN92"],AUTHORITY["EPSG","5783"]]`,
      null,
    ],
    [
      'a WKT2 compound CRS',
      'COMPOUNDCRS["ETRS89 + EVRF2007",GEOGCRS["ETRS89",ID["EPSG",4258]],ID["EPSG",7423]]',
      null,
    ],
  ])("reads the EPSG code of the VRT's <SRS>: %s", (_what, srs, code) => {
    const text = vrt(source('a.tif'), `<SRS dataAxisToSRSAxisMapping="2,1">${srs}</SRS>${GT}`);
    expect(parseVrt(text, 'm.vrt').srsEpsg).toBe(code);
  });

  it('reads a source named .vrt.tif as the raster it is, not as a nested VRT', () => {
    expect(parseVrt(vrt(source('a.vrt.tif')), 'm.vrt').sources[0].location).toBe('a.vrt.tif');
  });

  it('takes a DstRect a float rounding away from whole pixels as those pixels', () => {
    const text = vrt(source('a.tif').replace('<DstRect xOff="4"', '<DstRect xOff="4.0000000000007"'));
    expect(parseVrt(text, 'm.vrt').sources[0]).toMatchObject({ dstX: 4, dstY: 0 });
  });

  // GDAL looks elements and attributes up in any case and takes the first of repeated ones (CPLGetXMLNode): read
  // otherwise, each of these answered another height than GDAL's with 200 (a helper's probe of hostile VRTs).
  it('reads elements and attributes in any case, as GDAL does', () => {
    const lower =
      '<vrtrasterband datatype="Int16"><offset>5</offset><scale>2</scale><nodatavalue>-1</nodatavalue>' +
      '<simplesource><sourcefilename relativetovrt="1">a.tif</sourcefilename><sourceband>1</sourceband>' +
      '<srcrect xoff="0" yoff="0" xsize="4" ysize="4"/><dstrect xoff="4" yoff="0" xsize="4" ysize="4"/>' +
      '</simplesource></vrtrasterband>';
    const spec = parseVrt(
      `<VRTDataset rasterxsize="8" rasterysize="4"><geotransform>10, 0.5, 0, 50, 0, -0.5</geotransform>` +
        `<srs>EPSG:32632</srs>${lower}</VRTDataset>`,
      '/data/m.vrt',
    );
    expect(spec).toMatchObject({ width: 8, scale: 2, offset: 5, pixelType: 'Int16', srsEpsg: 32632 });
    expect(spec.sources).toEqual([
      { location: '/data/a.tif', dstX: 4, dstY: 0, width: 4, height: 4, nodata: -1, transparent: false },
    ]);
    expect(() =>
      parseVrt(vrt(source('a.tif', '<scaleratio>2</scaleratio>', 'ComplexSource')), 'm.vrt'),
    ).toThrow('m.vrt: a source is scaled (<scaleratio>2</scaleratio>); only unscaled mosaics are read.');
  });

  it('refuses a number written in binary or octal (Number() reads 0b11 as 3, GDAL as 0)', () => {
    expect(() => parseVrt(vrt(`<Scale>0b11</Scale>${source('a.tif')}`), 'm.vrt')).toThrow(
      "m.vrt: Scale is not a number ('0b11').",
    );
  });

  it('takes the first of repeated elements, as GDAL does', () => {
    const band = `<Scale>1</Scale><Scale>2</Scale><NoDataValue>200</NoDataValue><NoDataValue>-32768</NoDataValue>`;
    const twice = `<SimpleSource><SourceFilename relativeToVRT="1">c.tif</SourceFilename>
      <SourceFilename relativeToVRT="0">/elsewhere/d.tif</SourceFilename><SourceBand>1</SourceBand>
      <DstRect xOff="4" yOff="0" xSize="4" ySize="4"/><DstRect xOff="0" yOff="0" xSize="8" ySize="4"/></SimpleSource>`;
    const head = `${GT}<GeoTransform>0, 1, 0, 0, 0, -1</GeoTransform>`;
    const spec = parseVrt(vrt(`${band}${twice}`, head), '/data/m.vrt');
    expect(spec).toMatchObject({ scale: 1, geoTransform: [10, 0.5, 0, 50, 0, -0.5] });
    expect(spec.sources).toEqual([
      { location: '/data/c.tif', dstX: 4, dstY: 0, width: 4, height: 4, nodata: 200, transparent: false },
    ]);
  });

  it('reads band 1’s <Scale> and <Offset> (gdalbuildvrt copies them from scaled sources)', () => {
    const spec = parseVrt(vrt(`<Offset>-50</Offset><Scale>0.1</Scale>${source('a.tif')}`), 'm.vrt');
    expect(spec).toMatchObject({ scale: 0.1, offset: -50 });
  });

  it.each([
    ['http://host/data/vrt/m.vrt', '../tiles/a.tif', 'http://host/data/tiles/a.tif'],
    ['s3://bucket/dem/vrt/m.vrt', './../tiles/a.tif', 's3://bucket/dem/tiles/a.tif'],
    ['m.vrt', 'a.tif', 'a.tif'],
  ])('resolves a relative source of %s (%s) to %s', (at, file, expected) => {
    expect(parseVrt(vrt(source(file)), at).sources[0].location).toBe(expected);
  });

  it.each([
    ['/vsicurl/https://dem.example/a.tif', 'https://dem.example/a.tif'],
    ['/vsis3/bucket/dem/a.tif', 's3://bucket/dem/a.tif'],
    ['https://dem.example/a.tif', 'https://dem.example/a.tif'],
    ['/srv/dem/a.tif', '/srv/dem/a.tif'], // an absolute path in a local VRT
  ])('reads the absolute source %s as %s', (file, expected) => {
    expect(parseVrt(vrt(source(file, '', 'SimpleSource', 0)), '/data/m.vrt').sources[0].location).toBe(
      expected,
    );
  });

  it('takes the nodata of a ComplexSource, else the band’s NoDataValue; NaN means the source’s own', () => {
    const band = (extra: string) =>
      `<NoDataValue>-9999</NoDataValue>${source('a.tif', extra, 'ComplexSource')}`;
    expect(parseVrt(vrt(band('<NODATA>-32768</NODATA>')), 'm.vrt').sources[0].nodata).toBe(-32768);
    expect(parseVrt(vrt(band('')), 'm.vrt').sources[0].nodata).toBe(-9999);
    expect(parseVrt(vrt(band('<NODATA>nan</NODATA>')), 'm.vrt').sources[0].nodata).toBeNull();
    expect(
      parseVrt(
        vrt(source('a.tif', '<ScaleRatio>1</ScaleRatio><ScaleOffset>0</ScaleOffset>', 'ComplexSource')),
        'm.vrt',
      ).sources,
    ).toHaveLength(1); // an identity scale is no scale
  });

  it('a ComplexSource with <NODATA> (any, nan too) lets what lies under its nodata show; other sources do not', () => {
    const transparent = (xml: string) => parseVrt(vrt(xml), 'm.vrt').sources[0].transparent;
    expect(transparent(source('a.tif', '<NODATA>-32768</NODATA>', 'ComplexSource'))).toBe(true);
    expect(transparent(source('a.tif', '<NODATA>nan</NODATA>', 'ComplexSource'))).toBe(true);
    expect(transparent(source('a.tif', '', 'ComplexSource'))).toBe(false);
    expect(transparent(`<NoDataValue>-9999</NoDataValue>${source('a.tif', '', 'ComplexSource')}`)).toBe(
      false,
    );
    expect(transparent(source('a.tif'))).toBe(false); // a SimpleSource paints every pixel
  });

  it('reads band 1 only; later bands may be anything', () => {
    const two = vrt(source('a.tif')).replace(
      '</VRTDataset>',
      '<VRTRasterBand band="2"><AveragedSource/></VRTRasterBand></VRTDataset>',
    );
    expect(parseVrt(two, 'm.vrt').sources).toHaveLength(1);
  });

  it('a mask band (<MaskBand>) of the dataset or of band 1 is not read as band 1', () => {
    const mask = `<MaskBand><VRTRasterBand dataType="Byte">${source('mask.tif')}</VRTRasterBand></MaskBand>`;
    const after = vrt(source('a.tif')).replace('</VRTDataset>', `${mask}</VRTDataset>`);
    const before = vrt(source('a.tif')).replace('<VRTRasterBand', `${mask}<VRTRasterBand`);
    // A per-band mask sits inside band 1 itself: its sources are the mask's pixels, not heights.
    const inside = vrt(`${source('a.tif')}${mask}`);
    for (const text of [after, before, inside])
      expect(parseVrt(text, '/data/m.vrt').sources.map((s) => s.location)).toEqual(['/data/a.tif']);
  });

  it('reads a band NoDataValue of nan (any case) as "the source’s own", and trims what elements hold', () => {
    const band = (nodata: string) => `<NoDataValue>${nodata}</NoDataValue>${source('a.tif')}`;
    expect(parseVrt(vrt(band('nan')), 'm.vrt').sources[0].nodata).toBeNull();
    expect(parseVrt(vrt(band(' NaN ')), 'm.vrt').sources[0].nodata).toBeNull();
    expect(parseVrt(vrt(band(' -9999 ')), 'm.vrt').sources[0].nodata).toBe(-9999);
    const identity = `<Offset>0</Offset><Scale>1</Scale>${source('a.tif')}`;
    expect(parseVrt(vrt(identity), 'm.vrt').sources).toHaveLength(1); // an identity scale is no scale
    const spaced = source('\n      tiles/a.tif\n    ', '<NODATA> NAN </NODATA>', 'ComplexSource');
    expect(parseVrt(vrt(spaced), '/data/m.vrt').sources[0]).toMatchObject({
      location: '/data/tiles/a.tif',
      nodata: null,
    });
  });

  it('resolves a source relative to a VRT at the root of the file system', () => {
    expect(parseVrt(vrt(source('a.tif')), '/m.vrt').sources[0].location).toBe('/a.tif');
  });

  it('keeps an absolute URL source of a VRT read from a URL', () => {
    for (const file of ['http://dem.example/a.tif', 'https://dem.example/a.tif', 's3://bucket/a.tif'])
      expect(
        parseVrt(vrt(source(file, '', 'SimpleSource', 0)), 'http://data/m.vrt').sources[0].location,
      ).toBe(file);
  });

  it('a refusal names the VRT and the reason, nothing more', () => {
    expect(() => parseVrt('<PAMDataset/>', 'dem/m.vrt')).toThrow(
      new DatasetConfigError('dem/m.vrt: not a GDAL VRT (root element <PAMDataset>).'),
    );
  });

  it.each([
    [
      'rasterXSize',
      vrt(source('a.tif'), GT, 'rasterXSize="8x" rasterYSize="4"'),
      "rasterXSize is not a number ('8x')",
    ],
    [
      'rasterYSize',
      vrt(source('a.tif'), GT, 'rasterXSize="8" rasterYSize="four"'),
      "rasterYSize is not a number ('four')",
    ],
    [
      'DstRect',
      vrt(source('a.tif').replace('<DstRect xOff="4"', '<DstRect xOff="x"')),
      "DstRect xOff is not a number ('x')",
    ],
    [
      'SrcRect',
      vrt(source('a.tif').replace('<SrcRect xOff="0" yOff="0"', '<SrcRect xOff="0" yOff=""')),
      "SrcRect yOff is not a number ('')",
    ],
    [
      'SourceBand',
      vrt(source('a.tif').replace('<SourceBand>1', '<SourceBand>one')),
      "SourceBand is not a number ('one')",
    ],
    [
      'NODATA',
      vrt(source('a.tif', '<NODATA>none</NODATA>', 'ComplexSource')),
      "NODATA is not a number ('none')",
    ],
    [
      'NoDataValue',
      vrt(`<NoDataValue>-</NoDataValue>${source('a.tif')}`),
      "NoDataValue is not a number ('-')",
    ],
  ])('names the element of a value that is not a number: %s', (_what, text, message) => {
    expect(() => parseVrt(text, 'm.vrt')).toThrow(`m.vrt: ${message}.`);
  });

  it.each([
    ['a root that is not VRTDataset', '<PAMDataset/>', /not a GDAL VRT \(root element <PAMDataset>\)/],
    ['no size', vrt(source('a.tif'), GT, ''), /rasterXSize is not a number/],
    [
      'a zero size',
      vrt(source('a.tif'), GT, 'rasterXSize="0" rasterYSize="4"'),
      /rasterXSize\/rasterYSize missing/,
    ],
    ['no geotransform', vrt(source('a.tif'), ''), /no <GeoTransform> with six numbers/],
    ['a short geotransform', vrt(source('a.tif'), '<GeoTransform>1, 2</GeoTransform>'), /six numbers/],
    [
      'a bad number',
      vrt(source('a.tif'), '<GeoTransform>1, x, 0, 1, 0, -1</GeoTransform>'),
      /GeoTransform is not a number \('x'\)/,
    ],
    ['a rotation', vrt(source('a.tif'), '<GeoTransform>10, 0.5, 0.1, 50, 0, -0.5</GeoTransform>'), /rotated/],
    [
      'a rotation down',
      vrt(source('a.tif'), '<GeoTransform>10, 0.5, 0, 50, 0.1, -0.5</GeoTransform>'),
      /rotated/,
    ],
    [
      'a zero height',
      vrt(source('a.tif'), GT, 'rasterXSize="8" rasterYSize="0"'),
      /rasterXSize\/rasterYSize missing/,
    ],
    ['no band', `<VRTDataset rasterXSize="8" rasterYSize="4">${GT}</VRTDataset>`, /no <VRTRasterBand>/],
    ['no source', vrt('<ColorInterp>Gray</ColorInterp>'), /band 1 has no sources/],
    [
      'a derived band',
      vrt(source('a.tif')).replace('band="1"', 'band="1" subClass="VRTDerivedRasterBand"'),
      /band 1 is a VRTDerivedRasterBand/,
    ],
    [
      'a kernel filter',
      vrt(source('a.tif', '', 'KernelFilteredSource')),
      /<KernelFilteredSource>; only SimpleSource/,
    ],
    [
      'another band of a source',
      vrt(source('a.tif').replace('<SourceBand>1', '<SourceBand>2')),
      /reads band 2/,
    ],
    ['no file name', vrt(source('')), /source 1 \(\?\) has no <SourceFilename>/],
    ['no DstRect', vrt(source('a.tif').replace(/<DstRect[^>]*>/, '')), /has no <DstRect>/],
    [
      'a resampled source',
      vrt(source('a.tif').replace('xSize="4" ySize="4"/><Dst', 'xSize="2" ySize="2"/><Dst')),
      /windowed or resampled \(SrcRect 0,0 2x2 -> DstRect 4,0 4x4\)/,
    ],
    [
      'a scale offset',
      vrt(source('a.tif', '<ScaleOffset>10</ScaleOffset>', 'ComplexSource')),
      /scaled \(<ScaleOffset>10<\/ScaleOffset>\)/,
    ],
    ['a lookup table', vrt(source('a.tif', '<LUT>0:0,1:10</LUT>', 'ComplexSource')), /<LUT>; only unscaled/],
    [
      'a band scale of 0',
      vrt(`<Scale>0</Scale>${source('a.tif')}`),
      /band 1 has <Scale>0<\/Scale>, which makes every pixel the same height/,
    ],
    [
      'a band scale that is no number',
      vrt(`<Scale>a tenth</Scale>${source('a.tif')}`),
      /Scale is not a number/,
    ],
    ['an empty band offset', vrt(`<Offset> </Offset>${source('a.tif')}`), /Offset is not a number \(''\)/],
    [
      'an exponent',
      vrt(source('a.tif', '<Exponent>2</Exponent>', 'ComplexSource')),
      /<Exponent>; only unscaled/,
    ],
    ['malformed XML', '<VRTDataset rasterXSize="8"', /is not a readable VRT/],
    [
      'a source off the VRT grid (gdalbuildvrt -te off the sources’ grid)',
      vrt(source('a.tif').replace('<DstRect xOff="4"', '<DstRect xOff="3.4999999999993"')),
      /source 1 \(a\.tif\) is placed off the VRT's pixel grid \(DstRect 3\.4999999999993,0 4x4\), so GDAL resamples it/,
    ],
    [
      'a source reaching beyond the VRT',
      vrt(source('a.tif').replace('<DstRect xOff="4"', '<DstRect xOff="5"')),
      /source 1 \(a\.tif\) reaches beyond the VRT's 8x4 pixels \(DstRect 5,0 4x4\)/,
    ],
    [
      'a source west of the VRT’s first column',
      vrt(source('a.tif').replace('<DstRect xOff="4"', '<DstRect xOff="-1"')),
      /reaches beyond the VRT's 8x4 pixels \(DstRect -1,0 4x4\)/,
    ],
    [
      'a source below the VRT’s last row',
      vrt(source('a.tif').replace('<DstRect xOff="4" yOff="0"', '<DstRect xOff="4" yOff="1"')),
      /reaches beyond the VRT's 8x4 pixels \(DstRect 4,1 4x4\)/,
    ],
    [
      'a source before the VRT’s first row',
      vrt(source('a.tif').replace('<DstRect xOff="4" yOff="0"', '<DstRect xOff="4" yOff="-1"')),
      /reaches beyond the VRT's 8x4 pixels/,
    ],
    [
      'a source windowed by its offset alone',
      vrt(source('a.tif').replace('<SrcRect xOff="0"', '<SrcRect xOff="1"')),
      /windowed or resampled \(SrcRect 1,0 4x4 -> DstRect 4,0 4x4\)/,
    ],
    [
      'a nested VRT',
      vrt(source('tiles/b.VRT')),
      /source 1 \(tiles\/b\.VRT\) is itself a VRT; nested VRTs are not read/,
    ],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseVrt(text, 'm.vrt')).toThrow(DatasetConfigError);
    expect(() => parseVrt(text, 'm.vrt')).toThrow(message);
  });

  it('refuses an absolute source path in a VRT read from a URL: the store cannot serve it', () => {
    expect(() => parseVrt(vrt(source('/srv/dem/a.tif', '', 'SimpleSource', 0)), 'http://data/m.vrt')).toThrow(
      /source 1 \(\/srv\/dem\/a\.tif\) is an absolute path the data store cannot serve/,
    );
  });

  it.each([
    ['/vsizip//data/x.zip/a.hgt', "GDAL's /vsizip/ file system, which the data store does not serve"],
    [
      '/vsizip/sub/x.zip/a.hgt',
      '/vsizip/ file system, relative to the folder gdalbuildvrt ran in (GDAL itself',
    ],
    ['/vsigzip//data/a.tif.gz', "GDAL's /vsigzip/ file system, which"],
    ['/vsicurl?url=http://x/a.tif', "GDAL's /vsicurl/ file system, which"],
  ])('refuses a source read through another GDAL file system (%s), saying which', (file, message) => {
    expect(() => parseVrt(vrt(source(file, '', 'SimpleSource', 0)), '/data/m.vrt')).toThrow(message);
  });
});

describe('readVrt', () => {
  let dir: string;
  const opener = new RasterOpener({
    headerPrefetchBytes: 65536,
    missingTtlMs: 0,
    timeoutMs: 1000,
    retries: 0,
  });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrt-read-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a VRT larger than its first read whole', async () => {
    const many = Array.from({ length: 400 }, (_, i) => source(`tiles/tile-${i}.tif`)).join('\n');
    const file = path.join(dir, 'big.vrt');
    fs.writeFileSync(file, vrt(many));
    expect(fs.statSync(file).size).toBeGreaterThan(64 * 1024);
    expect((await readVrt(file, opener, 'big')).sources).toHaveLength(400);
  });

  it('refuses a VRT over the size limit without reading it all', async () => {
    const file = path.join(dir, 'huge.vrt');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_VRT_BYTES + 1);
    await expect(readVrt(file, opener, 'huge')).rejects.toThrow(/VRTs over 16777216 bytes are not read/);
  });

  it('reads a VRT of exactly the size limit', async () => {
    const file = path.join(dir, 'limit.vrt');
    const text = vrt(source('a.tif'));
    fs.writeFileSync(file, text + ' '.repeat(MAX_VRT_BYTES - text.length));
    expect(fs.statSync(file).size).toBe(MAX_VRT_BYTES);
    expect((await readVrt(file, opener, 'limit')).sources).toHaveLength(1);
  });

  it('a VRT that cannot be read for another reason than absence is not called missing', async () => {
    const answer = readVrt(dir, opener, 'folder'); // a directory: EISDIR
    await expect(answer).rejects.toThrow();
    await expect(answer).rejects.not.toBeInstanceOf(DatasetUnavailableError);
  });

  it('a missing VRT file: the dataset is unavailable, naming it', async () => {
    const answer = readVrt(path.join(dir, 'nowhere.vrt'), opener, 'lost');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toThrow(
      "Dataset 'lost' is unavailable: its VRT file was not found in the data store.",
    );
    await expect(answer).rejects.toHaveProperty('cause', expect.any(SourceNotFoundError));
  });
});
