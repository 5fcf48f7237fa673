/**
 * The mutation shards (scripts/mutation/shards.ts) partition what StrykerJS mutates: a file in no shard would
 * never be tested and one in two would be counted twice in the score.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { LIB, SHARDS } from '../../scripts/mutation/shards';

const ROOT = path.resolve(__dirname, '../..');
/** stryker.config.mjs's `mutate`: all of the library but these. */
const NOT_MUTATED = new Set([`${LIB}/types.ts`, `${LIB}/index.ts`]);

function libraryFiles(dir = LIB): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return libraryFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.d.ts') && !NOT_MUTATED.has(file) ? [file] : [];
  });
}

/** The two forms shards use: a folder's `<dir>/**\/*.ts`, or one file. */
function matches(pattern: string, file: string): boolean {
  const folder = /^(.*)\/\*\*\/\*\.ts$/.exec(pattern);
  return folder ? file.startsWith(`${folder[1]}/`) && file.endsWith('.ts') : file === pattern;
}

describe('mutation shards', () => {
  it('name only files and folders that exist', () => {
    const files = new Set(libraryFiles());
    const unmatched = Object.values(SHARDS)
      .flat()
      .filter((pattern) => ![...files].some((f) => matches(pattern, f)));
    expect(unmatched).toEqual([]);
  });

  it('put every mutated file of the library in exactly one shard', () => {
    const files = libraryFiles();
    expect(files.length).toBeGreaterThan(60);
    const owners = files.map((file) => [
      file,
      Object.keys(SHARDS).filter((shard) => SHARDS[shard].some((p) => matches(p, file))),
    ]);
    expect(owners.filter(([, shards]) => shards.length !== 1)).toEqual([]);
  });
});
