import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { contentRange, decideRange, unsatisfiedContentRange, type RangeDecision } from './byte-range';
import { contentTypeOf, resolveFilePath } from './file-path';
import { RequestStats, type DataServerStats, type ServedKind } from './request-stats';

/**
 * The local data layer: a range-capable static file server standing in for S3, so the handlers read
 * DEM tiles through HTTP Range requests exactly as they would in AWS. Files are streamed from disk
 * (never buffered whole); directories are not listed (tile names are computed, as for a bucket).
 */
export interface DataServerOptions {
  root: string;
  /** 0 picks an ephemeral port. */
  port?: number;
  host?: string;
  /** Called with one line per request when given (off by default: it costs time under load). */
  log?: (line: string) => void;
  /** Most files one listing names (MAX_LISTED_FILES); tests set fewer. */
  maxListedFiles?: number;
}

export interface DataServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:4000/`. */
  url: string;
  port: number;
  stats(): DataServerStats;
  close(): Promise<void>;
}

export const STATS_PATH = '/_stats';
/**
 * `GET /_list/<folder>/`: the files under a folder, recursively, as JSON `{"files": ["a.tif", "sub/b.hgt"]}`
 * (paths relative to the folder, sorted). The data layer is ours, so `npm start` can discover datasets the way
 * a local folder (or S3 ListObjectsV2) would, instead of guessing file names.
 */
export const LIST_PREFIX = '/_list/';
/**
 * Most files one listing names: a folder of 1° tiles for the whole world has 64,800. A folder holding more is
 * answered with the first ones and `"truncated": true`, which the API refuses (as a truncated S3 listing): a tile
 * past the cut would answer no data (null), as if the sea were there.
 */
const MAX_LISTED_FILES = 100_000;

export async function startDataServer(options: DataServerOptions): Promise<DataServer> {
  const root = path.resolve(options.root);
  const rootStat = await fs.promises.stat(root);
  if (!rootStat.isDirectory()) throw new Error(`data layer root is not a folder: ${root}`);
  const host = options.host ?? '127.0.0.1';
  const stats = new RequestStats();

  const server = http.createServer((request, response) => {
    const started = process.hrtime.bigint();
    if (options.log) {
      const log = options.log;
      response.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const range = request.headers.range ? ` ${request.headers.range}` : '';
        log(`${request.method} ${request.url} ${response.statusCode}${range} ${ms.toFixed(1)}ms`);
      });
    }
    serve(root, stats, request, response, options.maxListedFiles ?? MAX_LISTED_FILES).catch(
      (error: unknown) => {
        // Only reachable on an unexpected fs error; answer rather than leave the client hanging. The error (with
        // the data folder's paths) goes to the operator's log, not to the client.
        process.stderr.write(`data layer: ${request.method} ${request.url}: ${String(error)}\n`);
        if (!response.headersSent) sendStatus(response, 500, 'internal error');
        else response.destroy();
      },
    );
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}/`,
    port,
    stats: () => stats.snapshot(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(
  root: string,
  stats: RequestStats,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  maxListedFiles: number,
): Promise<void> {
  const method = request.method ?? 'GET';
  const pathname = targetPath(request.url ?? '/');
  if (pathname === null) {
    stats.count('other');
    sendStatus(response, 400, 'the request target is no path (origin form /a/b.tif, or an absolute URL)');
    return;
  }

  if (pathname === STATS_PATH) {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify(stats.snapshot()));
    return;
  }
  if (pathname.startsWith(LIST_PREFIX) && method === 'GET') {
    await serveListing(root, pathname.slice(LIST_PREFIX.length - 1), response, maxListedFiles);
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    stats.count('other');
    response.setHeader('Allow', 'GET, HEAD');
    sendStatus(response, 405, 'only GET and HEAD are served');
    return;
  }

  const resolved = resolveFilePath(root, pathname);
  if (!('file' in resolved)) {
    stats.count('other');
    sendStatus(response, resolved.status, resolved.why);
    return;
  }
  const filePath = resolved.file;
  // A path ending in '/' names a folder: never a file (`config.yaml/` was served as the file, where S3 has no key).
  // The file is opened once, and its version (the ETag) read from what was opened: a file replaced between a
  // stat and an open by path would pair the old version with the new bytes.
  const opened = pathname.endsWith('/') ? null : await openFile(filePath);
  if (!opened) {
    stats.count('not-found');
    sendStatus(response, 404, `not found: ${pathname}`);
    return;
  }
  const { handle, stat: fileStat } = opened;
  let streaming = false;
  try {
    // Counted by the file served, not the path asked (`/a//b.tif` and `/a/b%2etif` are one file): the map stays
    // bounded by the data folder, as request-stats.ts says.
    const file = `/${path.relative(path.resolve(root), filePath).split(path.sep).join('/')}`;
    streaming = answerFile(request, response, pathname, file, handle, fileStat, stats);
  } finally {
    if (!streaming) await handle.close();
  }
}

/** Answers from an opened file; true when its bytes are being streamed (the stream closes the handle). */
function answerFile(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  pathname: string,
  file: string,
  handle: fs.promises.FileHandle,
  fileStat: fs.Stats,
  stats: RequestStats,
): boolean {
  const method = request.method ?? 'GET';
  // Size and mtime, and the inode and its change time: a tile copied over another with the same size and its
  // mtime kept (`cp -p`, `rsync -t`, as every SRTM tile has one size) is another version, as S3's content hash says.
  const version = [fileStat.size, fileStat.mtimeMs, fileStat.ino, fileStat.ctimeMs];
  const etag = `"${version.map((n) => Math.floor(n).toString(16)).join('-')}"`;
  const lastModified = fileStat.mtime.toUTCString();
  response.setHeader('Accept-Ranges', 'bytes');
  response.setHeader('ETag', etag);
  response.setHeader('Last-Modified', lastModified);
  response.setHeader('Content-Type', contentTypeOf(pathname));

  const ifRange = request.headers['if-range'];
  const rangeStillValid = ifRange === undefined || ifRange === etag || ifRange === lastModified;
  const decision: RangeDecision = rangeStillValid
    ? decideRange(request.headers.range, fileStat.size)
    : { kind: 'full' };
  if (decision.kind === 'unsatisfiable') {
    stats.count('unsatisfiable', file);
    response.setHeader('Content-Range', unsatisfiedContentRange(fileStat.size));
    sendStatus(response, 416, `range not satisfiable for ${fileStat.size} bytes`);
    return false;
  }

  const range = decision.kind === 'partial' ? decision.range : { start: 0, end: fileStat.size - 1 };
  const length = range.end - range.start + 1;
  response.setHeader('Content-Length', String(length));
  if (decision.kind === 'partial') response.setHeader('Content-Range', contentRange(range, fileStat.size));
  response.statusCode = decision.kind === 'partial' ? 206 : 200;

  const kind: ServedKind = method === 'HEAD' ? 'head' : decision.kind === 'partial' ? 'range' : 'full';
  stats.count(kind, file);
  if (method === 'HEAD' || length === 0) {
    response.end();
    return false;
  }
  streamFile(handle, range, response, (bytes) => stats.addBytes(file, bytes));
  return true;
}

async function serveListing(
  root: string,
  folderPath: string,
  response: http.ServerResponse,
  maxListedFiles: number,
): Promise<void> {
  const resolved = resolveFilePath(root, folderPath);
  const folder = 'file' in resolved ? resolved.file : null;
  const info = folder === null ? null : await fs.promises.stat(folder).catch(() => null);
  if (folder === null || !info?.isDirectory()) {
    // Tells a client that this server lists folders and this one does not exist (vs. a server without listing).
    response.setHeader('X-Listing', 'no-such-folder');
    sendStatus(response, 404, `not a folder: ${folderPath}`);
    return;
  }
  const files = await listFiles(folder, maxListedFiles + 1);
  const truncated = files.length > maxListedFiles;
  response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(truncated ? { files: files.slice(0, maxListedFiles), truncated } : { files }));
}

/**
 * The files under `folder`, recursively, as '/'-separated paths relative to it, sorted, at most `most`.
 * Symlinked files count (tile folders are often linked in); symlinked folders are not descended. A name that is
 * not UTF-8 (a Latin-1 "ä" from an old archive) is read as U+FFFD and cannot be opened by that name: such a file
 * is listed as read, so a tile so named fails when it is read (a 502 naming it, as the folder itself answers)
 * instead of leaving its area null; such a folder cannot be descended and is passed over, so the rest is still
 * listed (one recursive readdir threw on it, and the whole listing was a 500). A folder that cannot be read
 * otherwise (permissions) fails the listing.
 */
async function listFiles(folder: string, most: number): Promise<string[]> {
  const files: string[] = [];
  const pending = [folder];
  while (pending.length > 0 && files.length < most) {
    const dir = pending.pop() as string;
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
      // Only a name read lossily may be passed over; a folder that cannot be read (EACCES) fails the listing,
      // since the tiles in it would answer null as if the sea were there.
      if (dir.includes('\uFFFD') && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (files.length >= most) break;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile() || (await isFile(full)))
        files.push(path.relative(folder, full).split(path.sep).join('/'));
    }
  }
  return files.sort();
}

/** Whether `file` names a file (through a symlink too); false for a name that cannot be opened. */
async function isFile(file: string): Promise<boolean> {
  return (await fs.promises.stat(file).catch(() => null))?.isFile() === true;
}

function streamFile(
  handle: fs.promises.FileHandle,
  range: { start: number; end: number },
  response: http.ServerResponse,
  onBytes: (bytes: number) => void,
): void {
  // autoClose (the default): the handle is closed when the stream ends, fails or is destroyed.
  const stream = handle.createReadStream({
    start: range.start,
    end: range.end,
    highWaterMark: 1 << 20,
  });
  stream.on('data', (chunk) => onBytes(chunk.length));
  stream.on('error', () => response.destroy());
  response.on('close', () => stream.destroy());
  stream.pipe(response);
}

/** The file opened for reading with what it is, or null when it is missing or not a file. */
async function openFile(
  filePath: string,
): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats } | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(filePath, 'r');
  } catch {
    return null;
  }
  const stat = await handle.stat().catch(() => null);
  if (stat?.isFile()) return { handle, stat };
  await handle.close();
  return null;
}

/**
 * The path of a request target (RFC 9112 section 3.2): the origin form as it came (`//tiles/a.tif` is a path, not a
 * host, which a URL base read it as, and `//[` an invalid URL: a 500), or an absolute URL's; null for anything else.
 */
function targetPath(target: string): string | null {
  try {
    return target.startsWith('/') ? new URL(`http://data-layer${target}`).pathname : new URL(target).pathname;
  } catch {
    return null;
  }
}

function sendStatus(response: http.ServerResponse, status: number, message: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.end(`${message}\n`);
}
