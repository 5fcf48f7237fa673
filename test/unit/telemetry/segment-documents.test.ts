/**
 * subtreeDocuments over the X-Ray SDK's real Segment/Subsegment classes: one document when the tree fits, a split
 * when it does not, and in both cases every subsegment exactly once, under the right parent and trace.
 */
import { Segment, type Subsegment } from 'aws-xray-sdk-core';
import { rootWithSubtree, subtreeDocuments } from '../../../layers/telemetry/segment-documents';

type Doc = { id: string; name: string; trace_id?: string; parent_id?: string; subsegments?: Doc[] };

/** (name, parent name) for every subsegment in the documents, embedded ones included. */
function edges(documents: string[], names: Map<string, string>): [string, string][] {
  const found: [string, string][] = [];
  const walk = (doc: Doc, parentId: string | undefined) => {
    found.push([doc.name, names.get(parentId ?? '') ?? '?']);
    for (const child of doc.subsegments ?? []) walk(child, doc.id);
  };
  for (const text of documents) {
    const doc = JSON.parse(text) as Doc;
    walk(doc, doc.parent_id);
  }
  return found.sort();
}

function requestTree(blocks: number) {
  const root = new Segment('elevation-api-test-elevation');
  const handler = root.addNewSubsegment('## elevation');
  const parse = handler.addNewSubsegment('parse');
  parse.close();
  const sample = handler.addNewSubsegment('sample');
  const reads: Subsegment[] = [];
  for (let b = 0; b < blocks; b++) {
    const read = sample.addNewSubsegment(`read-block ${b}`);
    read.addAnnotation(
      'file',
      `s3://a-bucket/with/a/long/prefix/Copernicus_DSM_COG_10_N48_00_E009_00_DEM_${b}.tif`,
    );
    read.addAnnotation('block', b);
    read.close();
    reads.push(read);
  }
  sample.close();
  handler.close();
  const names = new Map<string, string>([[root.id, 'root']]);
  for (const s of [handler, parse, sample, ...reads]) names.set(s.id, s.name);
  const expected = [
    ['## elevation', 'root'],
    ['parse', '## elevation'],
    ['sample', '## elevation'],
    ...reads.map((r) => [r.name, 'sample']),
  ].sort();
  return { root, handler, names, expected };
}

it('sends a request that fits as one document with its children embedded', () => {
  const { root, handler, names, expected } = requestTree(3);
  const documents = subtreeDocuments(handler);
  expect(documents).toHaveLength(1);
  const doc = JSON.parse(documents[0]) as Doc;
  expect(doc).toMatchObject({ type: 'subsegment', parent_id: root.id, trace_id: root.trace_id });
  expect(edges(documents, names)).toEqual(expected);
});

it('splits a tree larger than a datagram, each piece naming its parent, nothing lost or repeated', () => {
  const { root, handler, names, expected } = requestTree(400);
  const maxBytes = 8 * 1024;
  const documents = subtreeDocuments(handler, maxBytes);
  expect(documents.length).toBeGreaterThan(2);
  const parsed = documents.map((text) => JSON.parse(text) as Doc);
  expect(new Set(parsed.map((doc) => doc.trace_id))).toEqual(new Set([root.trace_id]));
  // Only a lone leaf, which cannot be split further, may be over the limit.
  const oversized = documents.filter((text) => Buffer.byteLength(text) > maxBytes);
  expect(oversized.map((text) => (JSON.parse(text) as Doc).subsegments ?? [])).toEqual(
    oversized.map(() => []),
  );
  expect(edges(documents, names)).toEqual(expected);
  // The tree itself is left as it was.
  expect(handler.subsegments?.map((s) => s.name)).toEqual(['parse', 'sample']);
});

describe('rootWithSubtree', () => {
  const root = JSON.stringify({ name: 'fn', id: 'r1', trace_id: 't' });
  const subtree = JSON.stringify({
    name: '## v1',
    id: 'h1',
    parent_id: 'r1',
    subsegments: [{ name: 'parse' }],
  });

  it('embeds a subtree that fits into the root: one document per trace', () => {
    const documents = rootWithSubtree(root, [subtree]);
    expect(documents).toHaveLength(1);
    expect(JSON.parse(documents[0])).toEqual({ ...JSON.parse(root), subsegments: [JSON.parse(subtree)] });
  });

  // Root first: sent in one burst, the last datagrams are the likeliest to meet a full socket buffer, and a trace
  // without its root has no status, route or function.
  it('sends the root on its own first, then the subtree, when together they would not fit a datagram', () => {
    expect(rootWithSubtree(root, [subtree], root.length + 10)).toEqual([root, subtree]);
  });

  it('sends the root, then an already split subtree as it is', () => {
    expect(rootWithSubtree(root, ['{"a":1}', '{"b":2}'])).toEqual([root, '{"a":1}', '{"b":2}']);
    expect(rootWithSubtree(root, [])).toEqual([root]);
  });
});
