/**
 * subsegmentHooks over a stand-in for the X-Ray SDK's segment (its addNewSubsegment, addAnnotation, close): what
 * a span sends of its annotations and errors. A dataset URL may carry credentials (user:password@, sent as
 * Basic auth); a block read annotates its file, and a failed read closes its span with the error.
 */
import {
  MAX_SPAN_ANNOTATIONS,
  MAX_SPANS_PER_NAME,
  subsegmentHooks,
  type XraySegment,
} from '../../../layers/telemetry/trace-spans';

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

describe('bounds per trace', () => {
  function recordingSegment() {
    const subsegments: string[] = [];
    const annotations: [string, unknown][] = [];
    const metadata: [string, unknown][] = [];
    const segment = {
      addAnnotation: (key: string, value: unknown) => annotations.push([key, value]),
      addMetadata: (key: string, value: unknown) => metadata.push([key, value]),
      addErrorFlag: () => undefined,
      close: () => undefined,
      addNewSubsegment: (name: string) => {
        subsegments.push(name);
        return segment;
      },
    };
    return { root: segment as unknown as XraySegment, subsegments, annotations, metadata };
  }

  it(`records ${MAX_SPANS_PER_NAME} spans of one name, runs the rest untraced and counts them on the handler`, async () => {
    const { root, subsegments, metadata } = recordingSegment();
    const hooks = subsegmentHooks(root);
    const ran: number[] = [];
    await hooks.span('sample', () =>
      Promise.all(
        Array.from({ length: MAX_SPANS_PER_NAME + 5 }, (_, i) =>
          hooks.span('read-block', async () => {
            ran.push(i);
            await hooks.span('decode', async () => undefined);
          }),
        ),
      ),
    );
    expect(ran).toHaveLength(MAX_SPANS_PER_NAME + 5); // every read ran, traced or not
    expect(subsegments.filter((n) => n === 'read-block')).toHaveLength(MAX_SPANS_PER_NAME);
    expect(subsegments.filter((n) => n === 'decode')).toHaveLength(MAX_SPANS_PER_NAME);
    expect(subsegments.filter((n) => n === 'sample')).toHaveLength(1);
    expect(metadata.at(-1)).toEqual(['untracedSpans', { 'read-block': 5, decode: 5 }]);
  });

  it(`annotates ${MAX_SPAN_ANNOTATIONS} facts a trace, then writes them as metadata (X-Ray indexes 50)`, async () => {
    const { root, annotations, metadata } = recordingSegment();
    const hooks = subsegmentHooks(root);
    for (let i = 0; i < 12; i++)
      await hooks.span(`read-block ${i}`, async (annotate) => {
        for (const key of ['file', 'block', 'cacheHit', 'bytes']) annotate(key, i);
      });
    expect(annotations).toHaveLength(MAX_SPAN_ANNOTATIONS);
    expect(metadata).toHaveLength(12 * 4 - MAX_SPAN_ANNOTATIONS);
    expect(metadata[0]).toEqual(['file', 10]);
  });
});
