/**
 * Lists the files under a dataset folder wherever listing exists: a local folder (recursive readdir, as
 * OpenTopoData does) or this project's data layer (`GET /_list/<folder>/`, see scripts/data-server). Other
 * origins (plain HTTPS, S3 without ListBucket) cannot be listed: null, and names are computed instead.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DatasetConfigError } from '../errors';

/** What our data layer answers at `/_list/…`. */
interface Listing {
  files: string[];
}

/** A listing must not hang a cold start: the data layer answers it from one readdir. */
const LISTING_TIMEOUT_MS = 5000;

/** Paths relative to the folder ('/'-separated), sorted; null when this kind of location cannot be listed. */
export async function listFolder(location: string): Promise<string[] | null> {
  if (/^s3:\/\//i.test(location)) return null;
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
  if (!response.ok || !response.headers.get('content-type')?.includes('application/json')) {
    await response.arrayBuffer();
    return null;
  }
  const body = (await response.json()) as Partial<Listing>;
  return Array.isArray(body.files) ? body.files.filter((f): f is string => typeof f === 'string') : null;
}
