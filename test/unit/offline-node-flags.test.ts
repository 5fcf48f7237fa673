import { DEFAULT_OFFLINE_NODE_FLAGS, nodeFlags } from '../../scripts/start/serverless-offline';

describe('OFFLINE_NODE_FLAGS: node flags for serverless-offline', () => {
  it('defaults to single-threaded GC when unset', () => {
    expect(nodeFlags(undefined)).toEqual(['--single-threaded-gc']);
    expect(DEFAULT_OFFLINE_NODE_FLAGS).toEqual(['--single-threaded-gc']);
  });

  it('replaces the default: empty means none, several are split on whitespace', () => {
    expect(nodeFlags('')).toEqual([]);
    expect(nodeFlags('  --max-old-space-size=512   --max_semi_space_size=32 ')).toEqual([
      '--max-old-space-size=512',
      '--max_semi_space_size=32',
    ]);
  });

  it.each(['single-threaded-gc', '-e', '--require ./x', 'script.js', '--=1', '--Flag'])(
    'refuses %j with a message naming it',
    (value) => {
      // The first word that is not a flag is the one named (for '--require ./x' it is './x').
      const offending = value.split(' ').find((f) => !/^--[a-z0-9][a-z0-9_-]*(=\S+)?$/.test(f)) as string;
      expect(() => nodeFlags(value)).toThrow(
        `OFFLINE_NODE_FLAGS holds node flags like --single-threaded-gc, got "${offending}"`,
      );
    },
  );
});
