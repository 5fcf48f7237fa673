/**
 * Listing a dataset's folder: a local folder (recursively), our data layer's /_list/ endpoint, and what happens
 * where nothing can be listed (names are computed then) or where the folder does not exist (a config error
 * naming it, never an empty dataset).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../scripts/data-server';
import { DatasetConfigError, DataSourceUnavailableError } from '../../layers/elevation';
import { listFolder } from '../../layers/elevation/data/folder-listing';

let root: string;
let dataServer: DataServer;
let plain: http.Server;
let plainUrl: string;
/** The paths the plain server was asked for. */
const asked: string[] = [];
const dataUrl = () => dataServer.url.replace(/\/$/, '');

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'listing-'));
  fs.mkdirSync(path.join(root, 'tiles', 'deeper'), { recursive: true });
  for (const name of ['N48E009.tif', 'N47E009.tif', 'deeper/N46E009.tif'])
    fs.writeFileSync(path.join(root, 'tiles', name), 'x');
  dataServer = await startDataServer({ root, port: 0 });
  // A web server that is not our data layer: HTML at /_list/, JSON without `files` at /json/.
  plain = http.createServer((request, response) => {
    asked.push(request.url ?? '');
    if (request.url?.startsWith('/_list/json/'))
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"entries":[]}');
    else if (request.url?.startsWith('/_list/mixed/'))
      response
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end('{"files":["b.tif",5,null,"a.tif",{"name":"c.tif"}]}');
    else if (request.url?.startsWith('/_list/untyped/')) response.writeHead(200).end('{"files":["a.tif"]}');
    else if (request.url?.startsWith('/_list/missing/')) response.writeHead(404).end('not found');
    else if (request.url?.startsWith('/_list/broken/')) response.writeHead(500).end('internal error');
    else if (request.url?.startsWith('/_list/busy/')) response.writeHead(503).end('busy');
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<html>index</html>');
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await dataServer.close();
  plain.closeAllConnections();
  await new Promise<void>((resolve) => plain.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

const TILES = ['N47E009.tif', 'N48E009.tif', 'deeper', 'deeper/N46E009.tif'];

describe('listFolder', () => {
  it('lists a local folder recursively, sorted, with / separators', async () => {
    await expect(listFolder(path.join(root, 'tiles'))).resolves.toEqual(TILES);
  });

  it('lists the same folder through the data layer, with or without the trailing slash', async () => {
    const files = await listFolder(`${dataUrl()}/tiles/`);
    expect(files).toEqual(expect.arrayContaining(['N47E009.tif', 'N48E009.tif', 'deeper/N46E009.tif']));
    await expect(listFolder(`${dataUrl()}/tiles`)).resolves.toEqual(files);
  });

  it('a folder that does not exist is a config error naming it, locally and in the data layer', async () => {
    await expect(listFolder(path.join(root, 'nowhere'))).rejects.toThrow(DatasetConfigError);
    await expect(listFolder(path.join(root, 'nowhere'))).rejects.toThrow(/Cannot list folder .*nowhere/);
    await expect(listFolder(`${dataUrl()}/nowhere/`)).rejects.toThrow(
      /Folder http:\/\/127\.0\.0\.1:\d+\/nowhere\/ does not exist in the data layer/,
    );
  });

  it('is null (names are computed) where the server has no listing: HTML, JSON of another shape, nothing listening', async () => {
    await expect(listFolder(`${plainUrl}/tiles/`)).resolves.toBeNull();
    await expect(listFolder(`${plainUrl}/json/`)).resolves.toBeNull();
    await expect(listFolder('http://127.0.0.1:1/tiles/')).resolves.toBeNull();
  });

  it('takes only the names of a listing, sorted, and only a JSON listing, from a server that is not our data layer', async () => {
    await expect(listFolder(`${plainUrl}/mixed/`)).resolves.toEqual(['a.tif', 'b.tif']);
    await expect(listFolder(`${plainUrl}/untyped/`)).resolves.toBeNull(); // no content type: not a listing
  });

  it('fails on a 5xx listing (a folder the data layer cannot read), never computing names that would answer null', async () => {
    await expect(listFolder(`${plainUrl}/broken/`)).rejects.toThrow(DataSourceUnavailableError);
    await expect(listFolder(`${plainUrl}/broken/`)).rejects.toThrow(/Cannot list .*\/broken\/: HTTP 500/);
    await expect(listFolder(`${plainUrl}/busy/`)).rejects.toThrow(/HTTP 503/);
  });

  it('reads a plain 404 (not our data layer saying "no such folder") as unlistable, not as an error', async () => {
    await expect(listFolder(`${plainUrl}/missing/`)).resolves.toBeNull();
  });

  it('refuses a data-layer listing cut short (more files than it names), as a truncated S3 listing', async () => {
    const small = await startDataServer({ root, port: 0, maxListedFiles: 2 });
    try {
      const url = small.url.replace(/\/$/, '');
      const listing = (await (await fetch(`${url}/_list/tiles/`)).json()) as {
        files: string[];
        truncated: boolean;
      };
      expect(listing.files).toHaveLength(2);
      expect(listing.truncated).toBe(true);
      await expect(listFolder(`${url}/tiles/`)).rejects.toThrow(
        new DatasetConfigError(
          `${url}/tiles/ holds more than 2 keys, more than a listing reads; set filename_tile_size and tile_template so tile names are computed instead of listed, or split the folder.`,
        ),
      );
      await expect(listFolder(`${url}/tiles/deeper/`)).resolves.toEqual(['N46E009.tif']);
    } finally {
      await small.close();
    }
  });

  it('asks for the folder with one trailing slash, whether the location has one or not', async () => {
    asked.length = 0;
    await listFolder(`${plainUrl}/json`);
    await listFolder(`${plainUrl}/json/`);
    await listFolder(`${plainUrl}/a/b`);
    expect(asked).toEqual(['/_list/json/', '/_list/json/', '/_list/a/b/']);
  });
});
