/** bench:profile-summary's arithmetic: self time by module and by function from a V8 CPU profile. */
import {
  formatSummary,
  moduleOf,
  summarizeProfile,
  type CpuProfile,
} from '../../scripts/bench/profile/summary';

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

/** Node 1: idle, 2: GC, 3: a dependency's function, 4 and 5: two functions of one repo file. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(idle)', '') },
    { id: 2, callFrame: frame('(garbage collector)', '') },
    { id: 3, callFrame: frame('run', 'file:///repo/node_modules/serverless-offline/src/Runner.js', 32) },
    { id: 4, callFrame: frame('parse', '/repo/layers/a.ts', 9) },
    { id: 5, callFrame: frame('', '/repo/layers/a.ts', 19) },
  ],
  samples: [1, 2, 3, 4, 4, 5, 1],
  timeDeltas: [4000, 2000, 1000, 500, 500, 1000, 1000],
  startTime: 0,
  endTime: 10_000,
};

describe('summarizeProfile', () => {
  it('sums self time by module and by function, largest first, idle counted apart from busy', () => {
    const summary = summarizeProfile(profile, '/repo');
    expect(summary.totalMs).toBe(10);
    expect(summary.busyMs).toBe(5);
    expect(summary.byModule.map((l) => [l.name, l.ms])).toEqual([
      ['(idle)', 5],
      ['(garbage collector)', 2],
      ['layers/a.ts', 2],
      ['serverless-offline', 1],
    ]);
    expect(summary.byFunction.map((l) => l.name)).toEqual([
      '(idle)',
      '(garbage collector)',
      'run serverless-offline:33',
      'parse layers/a.ts:10',
      '(anonymous) layers/a.ts:20',
    ]);
    expect(summary.byModule[1].share).toBeCloseTo(0.2, 10);
  });

  it('keeps only the top lines asked for', () => {
    expect(summarizeProfile(profile, '/repo', 2).byFunction).toHaveLength(2);
  });

  it('names scoped packages whole, built-ins as they are, and native frames as native', () => {
    expect(moduleOf('/x/node_modules/@aws-lambda-powertools/logger/lib/cjs/Logger.js', 'f')).toBe(
      '@aws-lambda-powertools/logger',
    );
    expect(moduleOf('node:dgram', 'doSend')).toBe('node:dgram');
    expect(moduleOf('', 'postMessage')).toBe('(native) postMessage');
    expect(moduleOf('/elsewhere/a.js', 'f', '/repo')).toBe('/elsewhere/a.js');
  });

  it('divides by the count given (ms per request)', () => {
    const text = formatSummary('p', summarizeProfile(profile, '/repo'), { count: 10, unit: 'request' });
    expect(text).toContain('10 ms sampled, 5 ms busy    0.500 ms/request');
    expect(text).toMatch(/2 ms\s+20\.0 %\s+0\.200 ms\/request {2}\(garbage collector\)/);
  });
});
