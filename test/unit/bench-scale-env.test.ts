/**
 * The environment bench:scale and bench:request-cost give `npm start`: one definition, so the two benches measure
 * the same API (the same cache, log level and data layer) and a LOCAL_* setting reaches both.
 */
import { PASSED_LOCAL_SETTINGS, SCALE_BLOCK_CACHE_MB, scaleApiEnv } from '../../scripts/bench/scale/stack';

describe('scaleApiEnv', () => {
  it('reads through the data layer with the bench block cache, WARN logs and EMF to the listener', () => {
    expect(scaleApiEnv('http://127.0.0.1:4100/', '127.0.0.1:25888', {})).toEqual({
      DATA_ROOT: 'http://127.0.0.1:4100/',
      BLOCK_CACHE_MB: SCALE_BLOCK_CACHE_MB,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      AWS_EMF_AGENT_ENDPOINT: '127.0.0.1:25888',
    });
    expect(SCALE_BLOCK_CACHE_MB).toBe('128'); // issue 12's setting
  });

  it('passes on the LOCAL_* settings that are set, and only those', () => {
    const env = scaleApiEnv('http://d/', 'e:1', { LOCAL_QUEUE: '50', LOCAL_CONCURRENCY: '2', OTHER: 'x' });
    expect(env.LOCAL_QUEUE).toBe('50');
    expect(env.LOCAL_CONCURRENCY).toBe('2');
    expect('OTHER' in env).toBe(false);
    // Only settings npm start reads (scripts/start.ts, scripts/start/local-api.ts).
    expect([...PASSED_LOCAL_SETTINGS].sort()).toEqual(['LOCAL_CONCURRENCY', 'LOCAL_QUEUE']);
  });
});
