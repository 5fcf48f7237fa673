/**
 * A finished request's X-Ray subsegments as few daemon documents as fit in a datagram. In Lambda the SDK streams
 * every subsegment the moment it closes (streaming threshold 0): one serialisation, one more for a debug string
 * nobody reads, and a fresh UDP socket per send — ~0.7 ms of CPU per sampled POST-50 request here, 6 datagrams
 * each. With streaming turned off (index.ts), the handler subsegment is sent once when it closes, embedding its
 * children, which X-Ray and the bridge read the same way. A tree too large for one datagram is split: the node
 * alone, then each child's subtree, each child naming its parent (`format()` sets parent_id and trace_id).
 */

/** The part of the SDK's Subsegment used here. */
export interface SubsegmentNode {
  subsegments?: SubsegmentNode[];
  format(): string;
}

/** The daemon takes datagrams up to 64 KiB, header line included; keep clear of it. */
export const MAX_DOCUMENT_BYTES = 60 * 1024;

/**
 * Offline, the root segment and the handler's subtree as the daemon documents to send: one document with the
 * subtree embedded when it fits (one datagram per trace, and the whole trace arrives or none of it), else the
 * root followed by the subtree's documents. `rootJson` is a serialised JSON object.
 */
export function rootWithSubtree(
  rootJson: string,
  subtree: readonly string[],
  maxBytes = MAX_DOCUMENT_BYTES,
): string[] {
  // Split, the root goes first: of datagrams sent in one burst the last are the likeliest to meet a full socket
  // buffer, and a trace without its root has no status, route or function.
  if (subtree.length !== 1) return [rootJson, ...subtree];
  const embedded = `${rootJson.slice(0, -1)},"subsegments":[${subtree[0]}]}`;
  return Buffer.byteLength(embedded) <= maxBytes ? [embedded] : [rootJson, subtree[0]];
}

export function subtreeDocuments(node: SubsegmentNode, maxBytes = MAX_DOCUMENT_BYTES): string[] {
  const whole = node.format();
  const children = node.subsegments;
  if (Buffer.byteLength(whole) <= maxBytes || !children || children.length === 0) return [whole];
  node.subsegments = undefined;
  try {
    return [node.format(), ...children.flatMap((child) => subtreeDocuments(child, maxBytes))];
  } finally {
    node.subsegments = children;
  }
}
