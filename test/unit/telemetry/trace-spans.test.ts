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

describe('spans past the cap', () => {
  interface Node {
    name: string;
    parent: string;
    error?: Error;
    start_time?: number;
    addAnnotation(): void;
    addMetadata(): void;
    addErrorFlag(): void;
    close(error?: Error): void;
    addNewSubsegment(name: string): Node;
  }
  function tree() {
    const nodes: Node[] = [];
    const node = (name: string, parent: string): Node => {
      const n: Node = {
        name,
        parent,
        addAnnotation: () => undefined,
        addMetadata: () => undefined,
        addErrorFlag: () => undefined,
        close: (error?: Error) => {
          n.error = error;
        },
        addNewSubsegment: (child: string) => {
          const made = node(child, name);
          nodes.push(made);
          return made;
        },
      };
      return n;
    };
    return { root: node('handler', '') as unknown as XraySegment, nodes };
  }

  it('runs the spans inside an untraced span untraced too, never under another parent', async () => {
    const { root, nodes } = tree();
    const hooks = subsegmentHooks(root);
    await hooks.span('sample', async () => {
      for (let i = 0; i < MAX_SPANS_PER_NAME; i++) await hooks.span('read-block', async () => undefined);
      // Past the cap: each read decodes, and its decode (the first of that name) must not land under `sample`.
      for (let i = 0; i < 3; i++)
        await hooks.span('read-block', () => hooks.span('decode', async () => undefined));
    });
    const edges = new Set(nodes.map((n) => `${n.parent} > ${n.name}`));
    expect(edges).toEqual(new Set(['handler > sample', 'sample > read-block']));
  });

  it('records an untraced span that fails (a server error), under its traced parent, from when it started', async () => {
    const { root, nodes } = tree();
    const hooks = subsegmentHooks(root);
    const before = Date.now() / 1000;
    const failure = Object.assign(new Error('HTTP 500 from https://ops:S3cret@data.example/a.tif'), {
      statusCode: 502,
    });
    const refused = Object.assign(new Error('bad location'), { statusCode: 400 });
    await hooks.span('sample', async () => {
      for (let i = 0; i < MAX_SPANS_PER_NAME; i++) await hooks.span('read-block', async () => undefined);
      await expect(hooks.span('read-block', () => Promise.reject(failure))).rejects.toBe(failure);
      await expect(hooks.span('read-block', () => Promise.reject(refused))).rejects.toBe(refused);
    });
    const reads = nodes.filter((n) => n.name === 'read-block');
    expect(reads).toHaveLength(MAX_SPANS_PER_NAME + 1); // the server error, not the client's
    const failed = reads[MAX_SPANS_PER_NAME];
    expect(failed.parent).toBe('sample');
    expect(failed.error?.message).toBe('HTTP 500 from https://***@data.example/a.tif');
    expect(failed.start_time).toBeGreaterThanOrEqual(before);
  });

  it(`records at most ${MAX_SPANS_PER_NAME} such failures of one name`, async () => {
    const { root, nodes } = tree();
    const hooks = subsegmentHooks(root);
    const failure = new Error('HTTP 500');
    for (let i = 0; i < 3 * MAX_SPANS_PER_NAME; i++)
      await expect(hooks.span('read-block', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(nodes).toHaveLength(2 * MAX_SPANS_PER_NAME);
  });
});
