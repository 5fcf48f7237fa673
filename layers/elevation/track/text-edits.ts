/**
 * Edits to a document's text by span: everything outside the spans stays exactly as it was, which is how a
 * file comes back byte-identical except for its heights.
 */

/** Replace `text.slice(start, end)` with `replacement` (start === end inserts). Offsets are UTF-16 indices. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor || edit.end < edit.start || edit.end > text.length) {
      throw new RangeError(`Overlapping or invalid edit [${edit.start}, ${edit.end}) at cursor ${cursor}.`);
    }
    pieces.push(text.slice(cursor, edit.start), edit.replacement);
    cursor = edit.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}
