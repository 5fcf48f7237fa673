/**
 * GDAL's sidecar of a raster, `<raster>.aux.xml` (its Persistent Auxiliary Metadata): GDAL, and so OpenTopoData
 * through rasterio, applies some of what it holds over the file's own (nodata, scale/offset, units, georeferencing),
 * which this reader does not read. Those are refused. What GDAL writes there by itself (`gdalinfo -stats`, QGIS
 * computing a histogram: statistics, histograms) changes no height, and is read past: refusing every sidecar made a
 * routine `gdalinfo -stats` over a served folder an outage of its dataset.
 */
import { SaxesParser } from 'saxes';
import { DataSourceAccessDeniedError, DatasetConfigError, SourceNotFoundError } from '../errors';
import { openByteSource, type RetryPolicy } from '../data/byte-source';

export const SIDECAR = '.aux.xml';

/** Largest sidecar read (statistics and a 256-bucket histogram per band are a few KB). */
export const MAX_SIDECAR_BYTES = 1024 * 1024;

/**
 * PAM elements GDAL applies over the raster's heights or placement (gdal/gcore/gdalpamdataset.cpp,
 * gdalpamrasterband.cpp), by their name in lower case: GDAL finds them in any case (CPLGetXMLNode), so
 * `<scale>2</scale>` is applied as `<Scale>` is (a helper's probe: a lower-case sidecar passed the check).
 */
const APPLIED = new Map(
  ['NoDataValue', 'Offset', 'Scale', 'UnitType', 'GeoTransform', 'SRS', 'GCPList'].map((n) => [
    n.toLowerCase(),
    n,
  ]),
);
/** Metadata domains GDAL georeferences by. */
const APPLIED_DOMAINS = new Set(['RPC', 'GEOLOCATION']);

/**
 * What of a sidecar GDAL applies over the raster's own: element names (and `AREA_OR_POINT`, which moves the
 * georeferencing by half a pixel, or the domain), in document order, each once; empty for statistics and histograms.
 * A sidecar that is no well-formed XML is refused as `unreadable` (GDAL would warn and read the file without it,
 * but it may mean to say something).
 *
 * @example
 * ```ts
 * assert.deepEqual(sidecarOverrides('<PAMDataset><PAMRasterBand band="1"><Offset>100</Offset></PAMRasterBand></PAMDataset>'), ['Offset']);
 * assert.deepEqual(sidecarOverrides('<PAMDataset><PAMRasterBand band="1"><Metadata><MDI key="STATISTICS_MAXIMUM">1</MDI></Metadata></PAMRasterBand></PAMDataset>'), []);
 * ```
 */
export function sidecarOverrides(xml: string): string[] {
  const found = new Set<string>();
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const attributes = Object.fromEntries(
      Object.entries(tag.attributes as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const name = tag.name.toLowerCase();
    const applied = APPLIED.get(name);
    if (applied !== undefined) found.add(applied);
    // Metadata keys and domains are matched in any case too (CSLFetchNameValue, CSLFindString).
    else if (name === 'mdi' && attributes.key?.toUpperCase() === 'AREA_OR_POINT') found.add('AREA_OR_POINT');
    else if (name === 'metadata' && APPLIED_DOMAINS.has((attributes.domain ?? '').toUpperCase())) {
      found.add(`Metadata domain="${attributes.domain}"`);
    }
  });
  try {
    parser.write(xml).close();
  } catch {
    return ['unreadable'];
  }
  return [...found];
}

export function sidecarError(sidecar: string, overrides: readonly string[]): DatasetConfigError {
  const what = overrides.includes('unreadable')
    ? 'is no well-formed XML (or too large to check), so what GDAL reads from it cannot be told'
    : `holds ${overrides.map((o) => `<${o}>`).join(', ')}, which GDAL and OpenTopoData apply over the file's own and this API does not read`;
  return new DatasetConfigError(
    `${sidecar} ${what}: write it into the raster (gdal_translate it to a new file) or remove the sidecar (statistics and histograms alone are fine).`,
  );
}

/**
 * Reads the raster's sidecar (`<raster>.aux.xml`, or the name a listing gave it) if the store holds one, and refuses
 * it when GDAL would apply any of it (sidecarError). Not the request's read: not counted in its stats (a sidecar is
 * no data), under the store's own timeouts.
 */
export async function refuseAppliedSidecar(
  raster: string,
  policy: RetryPolicy,
  sidecar = `${raster}${SIDECAR}`,
): Promise<void> {
  const source = openByteSource(sidecar, policy);
  try {
    // Its first byte tells its size (and whether it exists); then exactly that is read, never past its end (a
    // store that does not say an object's size could not verify a read that asks for more).
    await source.read(0, 1);
  } catch (error) {
    if (error instanceof SourceNotFoundError || error instanceof DataSourceAccessDeniedError) return;
    throw error;
  }
  const size = source.size;
  const overrides =
    size === null || size > MAX_SIDECAR_BYTES
      ? ['unreadable']
      : sidecarOverrides(new TextDecoder('utf-8').decode(await source.read(0, size)));
  if (overrides.length > 0) throw sidecarError(sidecar, overrides);
}
