/**
 * subsegmentHooks over a stand-in for the X-Ray SDK's segment (its addNewSubsegment, addAnnotation, close): what
 * a span sends of its annotations and errors. A dataset URL may carry credentials (user:password@, sent as
 * Basic auth); a block read annotates its file, and a failed read closes its span with the error.
 */
import { subsegmentHooks, type XraySegment } from '../../../layers/telemetry/trace-spans';

function fakeSegment() {
  const annotations: [string, unknown][] = [];
  const closed: (Error | undefined)[] = [];
  const sub = {
    addAnnotation: (key: string, value: unknown) => annotations.push([key, value]),
    addErrorFlag: () => undefined,
    close: (error?: Error) => closed.push(error),
    addNewSubsegment: () => sub,
  };
  return { root: sub as unknown as XraySegment, annotations, closed };
}

describe('credentials in URLs on trace spans', () => {
  it('an annotation of a URL with user:password@ is sent as ***@; other values as they are', async () => {
    const { root, annotations } = fakeSegment();
    await subsegmentHooks(root).span('read-block', async (annotate) => {
      annotate('file', 'http://ops:S3cret@127.0.0.1:18410/a.tif');
      annotate('block', 3);
      annotate('cacheHit', false);
    });
    expect(annotations).toEqual([
      ['file', 'http://***@127.0.0.1:18410/a.tif'],
      ['block', 3],
      ['cacheHit', false],
    ]);
  });

  it("a failed span's exception shows ***@ in its message", async () => {
    const { root, closed } = fakeSegment();
    const failure = new Error('Reading https://ops:S3cret@data.example/a.tif failed');
    await expect(subsegmentHooks(root).span('read-block', () => Promise.reject(failure))).rejects.toBe(
      failure,
    ); // the caller still gets its own error
    expect(closed[0]?.message).toBe('Reading https://***@data.example/a.tif failed');
    expect(closed[0]?.stack).not.toContain('S3cret');
  });
});
