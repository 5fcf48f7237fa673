/** Every range-read attempt is counted by how the data layer answered (ReadStats.dataAnswers), from a closed set. */
import {
  DataSourceAccessDeniedError,
  ObjectChangedError,
  SourceNotFoundError,
} from '../../../layers/elevation';
import {
  answerOf,
  RetryingSource,
  TransientSourceError,
  type RangeReader,
} from '../../../layers/elevation/data/byte-source';
import {
  RangeVerificationError,
  UNKNOWN_IDENTITY,
  type RangeAnswer,
} from '../../../layers/elevation/data/range-answer';
import { DATA_ANSWERS, newReadStats } from '../../../layers/elevation/types';

const timeout = Object.assign(new Error('The operation was aborted due to timeout'), {
  name: 'TimeoutError',
});

describe('answerOf', () => {
  it.each([
    [new SourceNotFoundError('u'), 'missing'],
    [new DataSourceAccessDeniedError('HTTP 403 from u'), 'denied'],
    [Object.assign(new Error('AccessDenied'), { $metadata: { httpStatusCode: 403 } }), 'denied'],
    [new TransientSourceError('HTTP 503 from u', 503), 'throttled'],
    [new TransientSourceError('S3 429 for u', 429), 'throttled'],
    [new TransientSourceError('HTTP 500 from u', 500), 'server_error'],
    [timeout, 'timeout'],
    [new RangeVerificationError('short'), 'verification_failed'],
    [new ObjectChangedError('u', 'changed'), 'verification_failed'],
    [new TransientSourceError('HTTP body cut short'), 'verification_failed'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'failed'],
  ])('names %p %p', (error, answer) => {
    expect(answerOf(error)).toBe(answer);
    expect(DATA_ANSWERS).toContain(answerOf(error));
  });
});

/** A reader that answers with the given script, one entry per attempt. */
function scripted(script: (Error | 'ok')[]): RangeReader {
  let attempt = 0;
  return {
    url: 'http://data.test/a.tif',
    readRange(offset: number, length: number): Promise<RangeAnswer> {
      const next = script[Math.min(attempt++, script.length - 1)];
      if (next !== 'ok') return Promise.reject(next);
      return Promise.resolve({
        bytes: new Uint8Array(length),
        start: offset,
        total: 1000,
        identity: UNKNOWN_IDENTITY,
      });
    },
  };
}

describe('RetryingSource counts answers', () => {
  it('counts each throttled attempt and the one that succeeded', async () => {
    const stats = newReadStats();
    const slowDown = new TransientSourceError('S3 503 for u', 503);
    const source = new RetryingSource(scripted([slowDown, slowDown, 'ok']), { timeoutMs: 1000, retries: 3 });
    await source.read(0, 10, { stats });
    expect(stats.dataAnswers).toEqual({ throttled: 2, ok: 1 });
    expect(stats.rangeRequests).toBe(3);
  });

  it('counts a missing object once (not retried)', async () => {
    const stats = newReadStats();
    const source = new RetryingSource(scripted([new SourceNotFoundError('u')]), {
      timeoutMs: 1000,
      retries: 3,
    });
    await expect(source.read(0, 10, { stats })).rejects.toBeInstanceOf(SourceNotFoundError);
    expect(stats.dataAnswers).toEqual({ missing: 1 });
  });
});
