/** Local files as a data layer (FileSource under RetryingSource): what is missing, what is broken, what changed. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ObjectChangedError, SourceNotFoundError } from '../../../layers/elevation';
import { openByteSource } from '../../../layers/elevation/data/byte-source';
import { FileSource } from '../../../layers/elevation/data/file-source';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-source-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const policy = { timeoutMs: 5000, retries: 0 };

describe('FileSource', () => {
  it('reads the asked range, and fewer bytes where the file ends', async () => {
    const file = path.join(dir, 'bytes.bin');
    fs.writeFileSync(file, Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
    const middle = await new FileSource(file).readRange(10, 5);
    expect([...middle.bytes]).toEqual([10, 11, 12, 13, 14]);
    expect([middle.start, middle.total]).toEqual([10, 100]);
    const end = await new FileSource(file).readRange(97, 10);
    expect([...end.bytes]).toEqual([97, 98, 99]);
    const past = await new FileSource(file).readRange(200, 10);
    expect(past.bytes.byteLength).toBe(0);
  });

  it('a missing file is missing (no data); a file that cannot be opened otherwise is an error', async () => {
    await expect(new FileSource(path.join(dir, 'absent.tif')).readRange(0, 10)).rejects.toBeInstanceOf(
      SourceNotFoundError,
    );
    const loop = path.join(dir, 'loop.tif');
    fs.symlinkSync(loop, loop); // a symlink loop: ELOOP, a broken data folder, not a tile of the sea
    const answer = new FileSource(loop).readRange(0, 10);
    await expect(answer).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(answer).rejects.not.toBeInstanceOf(SourceNotFoundError);
  });

  it('versions a file by its modification time and size: a file replaced in place is noticed', async () => {
    const file = path.join(dir, 'tile.tif');
    fs.writeFileSync(file, Buffer.alloc(64, 1));
    fs.utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const source = openByteSource(file, policy);
    await source.read(0, 8);
    const info = fs.statSync(file);
    expect(source.version).toBe(
      `${info.ino}-${info.ctimeMs}|${new Date('2026-01-01T00:00:00Z').getTime()}|64`,
    );
    fs.writeFileSync(file, Buffer.alloc(64, 2)); // same size, new content and time
    fs.utimesSync(file, new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    await expect(source.read(8, 8)).rejects.toBeInstanceOf(ObjectChangedError);
  });

  it('notices a file replaced by one of the same size whose modification time was kept (cp -p, rsync -t)', async () => {
    const file = path.join(dir, 'kept-time.tif');
    const then = new Date('2026-01-01T00:00:00Z');
    fs.writeFileSync(file, Buffer.alloc(64, 1));
    fs.utimesSync(file, then, then);
    const source = openByteSource(file, policy);
    await source.read(0, 8);
    // Copied over in place (same inode), its time set back: only the change time tells.
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(file, Buffer.alloc(64, 2));
    fs.utimesSync(file, then, then);
    expect(fs.statSync(file).mtimeMs).toBe(then.getTime());
    await expect(source.read(8, 8)).rejects.toBeInstanceOf(ObjectChangedError);
    // Replaced by renaming another file over it (a new inode), its time set back too.
    const fresh = openByteSource(file, policy);
    await fresh.read(0, 8);
    const other = path.join(dir, 'kept-time.tmp');
    fs.writeFileSync(other, Buffer.alloc(64, 3));
    fs.utimesSync(other, then, then);
    fs.renameSync(other, file);
    await expect(fresh.read(8, 8)).rejects.toBeInstanceOf(ObjectChangedError);
  });
});
