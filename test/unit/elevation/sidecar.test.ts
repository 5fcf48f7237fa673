/**
 * GDAL's .aux.xml sidecars: what GDAL applies over a raster's own heights or placement is refused; what it writes by
 * itself (statistics, histograms) is read past. And a listed tile's sidecar is checked once per listing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError } from '../../../layers/elevation';
import {
  MAX_SIDECAR_BYTES,
  refuseAppliedSidecar,
  sidecarOverrides,
} from '../../../layers/elevation/dataset/sidecar';
import { ListedTileIndex } from '../../../layers/elevation/dataset/tile-index';

const band = (inner: string) => `<PAMDataset><PAMRasterBand band="1">${inner}</PAMRasterBand></PAMDataset>`;

describe('sidecarOverrides', () => {
  it.each([
    [band('<NoDataValue>-32768</NoDataValue>'), ['NoDataValue']],
    [band('<Offset>100</Offset><Scale>0.1</Scale>'), ['Offset', 'Scale']],
    [band('<UnitType>ft</UnitType>'), ['UnitType']],
    [
      '<PAMDataset><SRS>EPSG:4326</SRS><GeoTransform>8,1,0,50,0,-1</GeoTransform></PAMDataset>',
      ['SRS', 'GeoTransform'],
    ],
    [
      '<PAMDataset><GCPList Projection=""><GCP Id="1" Pixel="0" Line="0" X="8" Y="50"/></GCPList></PAMDataset>',
      ['GCPList'],
    ],
    ['<PAMDataset><Metadata><MDI key="AREA_OR_POINT">Point</MDI></Metadata></PAMDataset>', ['AREA_OR_POINT']],
    [
      '<PAMDataset><Metadata domain="RPC"><MDI key="LINE_OFF">1</MDI></Metadata></PAMDataset>',
      ['Metadata domain="RPC"'],
    ],
    [band('<Offset>1</Offset><Offset>2</Offset>'), ['Offset']],
    // In any case, as GDAL finds them (a lower-case sidecar passed the check: a helper's probe).
    [band('<scale>2</scale><offset>1000</offset>'), ['Scale', 'Offset']],
    [
      '<pamdataset><pamrasterband band="1"><nodatavalue>200</nodatavalue></pamrasterband></pamdataset>',
      ['NoDataValue'],
    ],
    ['<PAMDataset><Metadata><MDI Key="area_or_point">Point</MDI></Metadata></PAMDataset>', ['AREA_OR_POINT']],
    [
      '<PAMDataset><metadata Domain="rpc"><mdi key="LINE_OFF">1</mdi></metadata></PAMDataset>',
      ['Metadata domain="rpc"'],
    ],
    ['<PAMDataset><PAMRasterBand band="1"><Offset>100</Offset>', ['unreadable']],
    ['not xml at all', ['unreadable']],
  ])('%s -> %j', (xml, found) => {
    expect(sidecarOverrides(xml)).toEqual(found);
  });

  it.each([
    band(
      '<Metadata><MDI key="STATISTICS_MAXIMUM">1515</MDI><MDI key="STATISTICS_MINIMUM">100</MDI></Metadata>',
    ),
    band(
      '<Histograms><HistItem><HistMin>0</HistMin><HistMax>1</HistMax><BucketCount>2</BucketCount>' +
        '<IncludeOutOfRange>0</IncludeOutOfRange><Approximate>0</Approximate><HistCounts>1|2</HistCounts></HistItem></Histograms>',
    ),
    band('<Description>height</Description><ColorInterp>Gray</ColorInterp>'),
    '<PAMDataset><Metadata domain="IMAGE_STRUCTURE"><MDI key="COMPRESSION">DEFLATE</MDI></Metadata></PAMDataset>',
    '<PAMDataset/>',
  ])('reads past what changes no height: %s', (xml) => {
    expect(sidecarOverrides(xml)).toEqual([]);
  });
});

describe('refuseAppliedSidecar and the listed tiles', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sidecar-check-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const policy = { timeoutMs: 5000, retries: 0 };

  it('refuses a sidecar too large to check, names the file and what it holds, and passes a missing one', async () => {
    const raster = path.join(dir, 'dem.tif');
    await expect(refuseAppliedSidecar(raster, policy)).resolves.toBeUndefined(); // none
    fs.writeFileSync(`${raster}.aux.xml`, band('<Scale>0.1</Scale>'));
    await expect(refuseAppliedSidecar(raster, policy)).rejects.toThrow(
      `${raster}.aux.xml holds <Scale>, which GDAL and OpenTopoData apply over the file's own and this API does not read: write it into the raster (gdal_translate it to a new file) or remove the sidecar (statistics and histograms alone are fine).`,
    );
    fs.writeFileSync(`${raster}.aux.xml`, `<PAMDataset>${' '.repeat(MAX_SIDECAR_BYTES)}</PAMDataset>`);
    await expect(refuseAppliedSidecar(raster, policy)).rejects.toThrow(
      /is no well-formed XML \(or too large to check\)/,
    );
    fs.writeFileSync(`${raster}.aux.xml`, `<PAMDataset>${' '.repeat(MAX_SIDECAR_BYTES - 25)}</PAMDataset>`);
    await expect(refuseAppliedSidecar(raster, policy)).resolves.toBeUndefined();
  });

  it('checks a listed tile sidecar once per listing; a refusal is kept, a failed check is tried again', async () => {
    const checked: string[] = [];
    let outcome: Error | null = new Error('the store failed');
    const check = async (raster: string, sidecar: string) => {
      checked.push(`${path.basename(raster)} ${path.basename(sidecar)}`);
      if (outcome) throw outcome;
    };
    const files = ['N48E009.tif', 'N48E009.TIF.AUX.XML', 'N48E010.tif'];
    let now = 0;
    const index = new ListedTileIndex(dir, 1, files, 1000, () => now, check);
    await expect(index.locate({ ix: 10, iy: 48 })).resolves.toEqual([path.join(dir, 'N48E010.tif')]);
    expect(checked).toEqual([]); // no sidecar, no check
    await expect(index.locate({ ix: 9, iy: 48 })).rejects.toThrow('the store failed');
    outcome = new DatasetConfigError('refused');
    await expect(index.locate({ ix: 9, iy: 48 })).rejects.toThrow('refused');
    outcome = null;
    await expect(index.locate({ ix: 9, iy: 48 })).rejects.toThrow('refused'); // kept for this listing
    expect(checked).toEqual(['N48E009.tif N48E009.TIF.AUX.XML', 'N48E009.tif N48E009.TIF.AUX.XML']);
    fs.writeFileSync(path.join(dir, 'N48E009.tif'), '');
    fs.writeFileSync(path.join(dir, 'N48E009.TIF.AUX.XML'), '');
    now = 1001; // listed again: checked again
    await expect(index.locate({ ix: 9, iy: 48 })).resolves.toEqual([path.join(dir, 'N48E009.tif')]);
    await expect(index.locate({ ix: 9, iy: 48 })).resolves.toEqual([path.join(dir, 'N48E009.tif')]);
    expect(checked).toHaveLength(3);
  });
});
