/**
 * Lists the files under a dataset folder wherever listing exists: a local folder (recursive readdir, as
 * OpenTopoData does), this project's data layer (`GET /_list/<folder>/`, see scripts/data-server) and S3
 * (ListObjectsV2 under the prefix, paginated; needs s3:ListBucket). Other origins (plain HTTPS, S3 without
 * ListBucket) cannot be listed: null, and names are computed instead.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DatasetConfigError, DataSourceUnavailableError } from '../errors';
import { s3Client } from './s3-source';

/**
 * Most keys one listing reads: a folder of 1° tiles for the whole world has 64,800. A longer listing is an error,
 * not a cut: tiles past a cut would answer no data (null) as if the sea were there.
 */
export const MAX_LISTED_KEYS = 100_000;

/**
 * Most pages one listing asks for: S3 (and MinIO, R2, Ceph) gives 1,000 keys a page, so MAX_LISTED_KEYS takes 100;
 * 250 allows stores of 400 keys a page. One that pages more finely, or answers truncated pages without end (new
 * tokens, no keys), is stopped here: at the page timeout, a listing is bounded by 250 × 5 s.
 */
export const MAX_LISTING_PAGES = 250;

/** A store fault that ends a listing (502): never retried as a page, never a cut listing. */
class ListingFault extends Error {}

async function listS3(location: string): Promise<string[] | null> {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(location);
  if (!match) return null;
  const bucket = match[1];
  const prefix = match[2] === '' || match[2].endsWith('/') ? match[2] : `${match[2]}/`;
  const [{ client }, { ListObjectsV2Command }] = await Promise.all([
    s3Client(),
    import('@aws-sdk/client-s3'),
  ]);
  const files: string[] = [];
  const tokens = new Set<string>();
  let token: string | undefined;
  try {
    do {
      if (tokens.size >= MAX_LISTING_PAGES)
        throw new ListingFault(`the store answered more than ${MAX_LISTING_PAGES} pages`);
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        { abortSignal: AbortSignal.timeout(LISTING_TIMEOUT_MS) },
      );
      for (const object of page.Contents ?? []) if (object.Key) files.push(object.Key.slice(prefix.length));
      // Truncated without a token: where the rest is cannot be asked, and a cut listing would answer null for
      // the tiles past the cut.
      if (page.IsTruncated && !page.NextContinuationToken)
        throw new ListingFault('the store answered a page as truncated without a continuation token');
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (token !== undefined) {
        // A token answered before would page the same keys again, without end.
        if (tokens.has(token))
          throw new ListingFault(
            `the store answered the continuation token '${token}' twice (a listing that would never end)`,
          );
        tokens.add(token);
      }
      if (token && files.length >= MAX_LISTED_KEYS) throw tooManyKeys(location, MAX_LISTED_KEYS);
    } while (token);
  } catch (error) {
    if (error instanceof DatasetConfigError) throw error;
    if (error instanceof ListingFault)
      throw new DataSourceUnavailableError(`Cannot list ${location}: ${error.message}`, { cause: error });
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    // Without s3:ListBucket (403), or a store without listing: compute names instead, as for plain HTTPS.
    if (status === 403 || status === 405 || status === 501) return null;
    throw new DataSourceUnavailableError(`Cannot list ${location}: ${String(error)}`, { cause: error });
  }
  return files.filter((f) => f !== '').sort();
}

/** A listing cut after `listed` keys: refused, never read as the whole folder. */
function tooManyKeys(location: string, listed: number): DatasetConfigError {
  return new DatasetConfigError(
    `${location} holds more than ${listed.toLocaleString('en')} keys, more than a listing reads; set filename_tile_size and tile_template so tile names are computed instead of listed, or split the folder.`,
  );
}

/** What our data layer answers at `/_list/…`: `truncated` when the folder holds more files than it lists. */
interface Listing {
  files: string[];
  truncated?: boolean;
}

/** A listing must not hang a cold start: the data layer answers it from one readdir. */
const LISTING_TIMEOUT_MS = 5000;

/** Paths relative to the folder ('/'-separated), sorted; null when this kind of location cannot be listed. */
export async function listFolder(location: string): Promise<string[] | null> {
  if (/^s3:\/\//i.test(location)) return listS3(location);
  if (/^https?:\/\//i.test(location)) return listDataLayer(location);
  let entries: string[];
  try {
    entries = await readdir(location, { recursive: true });
  } catch (error) {
    throw new DatasetConfigError(`Cannot list folder ${location}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return entries.map((entry) => entry.split(path.sep).join('/')).sort();
}

async function listDataLayer(location: string): Promise<string[] | null> {
  const url = new URL(location);
  const folder = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  let response: Response;
  try {
    response = await fetch(`${url.origin}/_list${folder}`, {
      signal: AbortSignal.timeout(LISTING_TIMEOUT_MS),
    });
  } catch {
    return null; // no listing endpoint reachable: compute names
  }
  if (response.status === 404 && response.headers.get('x-listing') === 'no-such-folder') {
    await response.arrayBuffer();
    // Our data layer says the folder does not exist (a wrong DATA_ROOT or path): that is an error, not "unlistable".
    throw new DatasetConfigError(`Folder ${location} does not exist in the data layer`);
  }
  // A store fault is not "cannot list": computed names would miss tiles in subfolders or named otherwise, which
  // would answer null as if the sea were there. Our data layer answers 500 for a folder it cannot read.
  if (response.status >= 500 || response.status === 429) {
    await response.arrayBuffer();
    throw new DataSourceUnavailableError(
      `Cannot list ${location}: HTTP ${response.status} from the data layer`,
    );
  }
  if (!response.ok || !response.headers.get('content-type')?.includes('application/json')) {
    await response.arrayBuffer();
    return null;
  }
  const body = (await response.json()) as Partial<Listing>;
  if (!Array.isArray(body.files)) return null;
  if (body.truncated === true) throw tooManyKeys(location, body.files.length);
  return body.files.filter((f): f is string => typeof f === 'string').sort(); // sorted, as listFolder promises
}
