/**
 * What `npm start` prints: the functions' JSON log lines as they are, and serverless-offline's own text lines
 * ("GET /v1/sample?locations=48.7,9.1 (λ: elevation)", warnings, its banner) turned into JSON lines of the same
 * stream, without their query strings: those carry coordinates, which the JSON log stream never holds (the wide
 * line has the path template and the point count instead). START_RAW_OUTPUT=1 prints serverless-offline as it is.
 */

// Colour and cursor escapes serverless-offline writes to a terminal.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** A query string: from `?` to the next whitespace or closing bracket. */
const QUERY = /\?[^\s)\]"']*/g;

/** One output line as a JSON log line, or null for a blank one. JSON lines pass unchanged. */
export function offlineLine(line: string, now: Date): string | null {
  const text = line.replace(ANSI, '').trim();
  if (text === '') return null;
  if (text.startsWith('{') && text.endsWith('}')) return line;
  return JSON.stringify({
    level: /\b(error|failed|exception)\b/i.test(text)
      ? 'ERROR'
      : /\bwarn(ing)?\b/i.test(text)
        ? 'WARN'
        : 'INFO',
    message: text.replace(QUERY, '?…'),
    timestamp: now.toISOString(),
    source: 'serverless-offline',
  });
}

/** Splits chunks into lines (a line may span chunks) and writes each through `offlineLine`. */
export class OfflineLogWriter {
  private buffered = '';
  constructor(private readonly write: (line: string) => void) {}

  push(chunk: string): void {
    const lines = (this.buffered + chunk).split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) this.emit(line);
  }

  flush(): void {
    if (this.buffered !== '') this.emit(this.buffered);
    this.buffered = '';
  }

  private emit(line: string): void {
    const out = offlineLine(line, new Date());
    if (out !== null) this.write(`${out}\n`);
  }
}
