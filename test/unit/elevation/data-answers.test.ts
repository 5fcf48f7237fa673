/** Every range-read attempt is counted by how the data layer answered (ReadStats.dataAnswers), from a closed set. */
import {
  DataSourceAccessDeniedError,
  ObjectChangedError,
  ReadLimiter,
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
    [Object.assign(new Error('InvalidAccessKeyId'), { $metadata: { httpStatusCode: 401 } }), 'denied'],
    [Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }), 'timeout'],
    [null, 'failed'],
    ['a string', 'failed'],
  ])('names %p %p', (error, answer) => {
    expect(answerOf(error)).toBe(answer);
    expect(DATA_ANSWERS).toContain(answerOf(error));
  });
});

/** A reader that answers with the given script, one entry per attempt. */
function scripted(script: (Error | 'ok')[], identity = UNKNOWN_IDENTITY): RangeReader {
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
        identity,
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

describe('RetryingSource outcomes', () => {
  const policy = { timeoutMs: 1000, retries: 2 };

  it('knows the size and version only once a read has pinned them', async () => {
    const source = new RetryingSource(scripted(['ok']), policy);
    expect(source.size).toBeNull();
    expect(source.version).toBe('');
    await source.read(0, 10);
    expect(source.size).toBe(1000);
    expect(source.version).toBe('||1000');
  });

  it('versions an object by its ETag, Last-Modified and size', async () => {
    const identity = { etag: '"e1"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' };
    const source = new RetryingSource(scripted(['ok'], identity), policy);
    await source.read(0, 10);
    expect(source.version).toBe('"e1"|Tue, 01 Dec 2026 10:00:00 GMT|1000');
  });

  it('counts the time spent reading', async () => {
    const stats = newReadStats();
    await new RetryingSource(scripted(['ok']), policy).read(0, 10, { stats });
    expect(stats.rangeMs).toBeGreaterThan(0);
    expect(stats.rangeMs).toBeLessThan(1000);
  });

  it('reads nothing once the deadline has passed, and says so with its reason', async () => {
    const stats = newReadStats();
    const reason = new Error('deadline');
    const reader = scripted(['ok']);
    const readRange = jest.spyOn(reader, 'readRange');
    const answer = new RetryingSource(reader, policy).read(0, 10, {
      stats,
      signal: AbortSignal.abort(reason),
    });
    await expect(answer).rejects.toThrow('Deadline passed while reading http://data.test/a.tif');
    await expect(answer).rejects.toMatchObject({ cause: reason });
    expect([readRange.mock.calls.length, stats.rangeRequests]).toEqual([0, 0]);
  });

  it.each([
    ['a TypeError that is not a failed fetch', new TypeError('Cannot read properties of undefined')],
    ['a failed fetch that is not a TypeError', new Error('fetch failed')],
  ])('does not retry %s', async (_what, error) => {
    const stats = newReadStats();
    const source = new RetryingSource(scripted([error, 'ok']), policy);
    await expect(source.read(0, 10, { stats })).rejects.toThrow(
      /^Reading http:\/\/data\.test\/a\.tif failed: /,
    );
    expect(stats.rangeRequests).toBe(1);
  });

  it('retries an aborted attempt (its own timeout) like a timeout', async () => {
    const aborted = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    const stats = newReadStats();
    await expect(
      new RetryingSource(scripted([aborted, 'ok']), policy).read(0, 10, { stats }),
    ).resolves.toHaveLength(10);
    expect(stats.dataAnswers).toEqual({ timeout: 1, ok: 1 });
  });

  it('an object that vanishes after it was read is a changed object (its cached header is stale)', async () => {
    const source = new RetryingSource(scripted(['ok', new SourceNotFoundError('u')]), policy);
    await source.read(0, 10);
    await expect(source.read(10, 10)).rejects.toBeInstanceOf(ObjectChangedError);
  });

  it.each([
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a refused connection (cause)', Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } })],
    ['a failed fetch', new TypeError('fetch failed')],
  ])('retries %s, then answers', async (_what, error) => {
    const stats = newReadStats();
    const source = new RetryingSource(scripted([error, 'ok']), policy);
    await expect(source.read(0, 10, { stats })).resolves.toHaveLength(10);
    expect(stats.rangeRequests).toBe(2);
  });

  it('does not retry an error it does not know to be transient: a 502 naming the object', async () => {
    const stats = newReadStats();
    const source = new RetryingSource(scripted([new RangeError('bad offset')]), policy);
    await expect(source.read(0, 10, { stats })).rejects.toThrow(
      'Reading http://data.test/a.tif failed: RangeError: bad offset',
    );
    expect(stats.rangeRequests).toBe(1);
  });

  it('gives up after the retries: timeouts are a 504, other transient failures a 502', async () => {
    const timeouts = new RetryingSource(scripted([timeout]), policy);
    await expect(timeouts.read(0, 10)).rejects.toThrow(
      'Timed out reading http://data.test/a.tif after 3 attempts',
    );
    const resets = new RetryingSource(scripted([new TransientSourceError('HTTP 500', 500)]), policy);
    await expect(resets.read(0, 10)).rejects.toThrow(
      /Reading http:\/\/data\.test\/a\.tif failed: .*HTTP 500/,
    );
  });

  it('stops at the deadline: in a backoff, or waiting for a read slot', async () => {
    const deadline = new AbortController();
    const slow = new RetryingSource(scripted([new TransientSourceError('HTTP 503', 503)]), {
      timeoutMs: 1000,
      retries: 10,
    });
    const reading = slow.read(0, 10, { signal: deadline.signal });
    setTimeout(() => deadline.abort(new Error('deadline')), 30);
    await expect(reading).rejects.toThrow('Deadline passed while reading http://data.test/a.tif');

    const limiter = new ReadLimiter(1);
    const held = await limiter.acquire();
    const waiting = new AbortController();
    const queued = new RetryingSource(scripted(['ok']), policy).read(0, 10, {
      limiter,
      signal: waiting.signal,
    });
    waiting.abort(new Error('deadline'));
    await expect(queued).rejects.toThrow('Deadline passed while reading');
    held?.();
  });
});
