/**
 * Line-level EMF intake shared by stdin, TCP and UDP: every line is counted by result, EMF lines feed
 * the registry, everything else is dropped. A bad line can never throw out of here.
 */
import { Counter, type Registry } from 'prom-client';
import { parseEmfLine } from './emf';
import type { EmfRegistry } from './emf-registry';

export type LineResult = 'emf' | 'not_emf' | 'malformed';

/** Longer lines are not EMF from our functions (one document is ~1 KB); refuse before parsing. */
export const MAX_LINE_BYTES = 256 * 1024;

export class EmfIngest {
  private readonly lines: Counter<'result' | 'source'>;

  constructor(
    private readonly metrics: EmfRegistry,
    registry: Registry,
  ) {
    this.lines = new Counter({
      name: 'telemetry_bridge_emf_lines_total',
      help: 'Lines received on the EMF intake, by source and result (emf, not_emf, malformed)',
      labelNames: ['source', 'result'],
      registers: [registry],
    });
  }

  line(text: string, source: string): LineResult {
    const result = this.classify(text);
    this.lines.inc({ source, result });
    return result;
  }

  /** A UDP datagram or stdin chunk may hold several newline-separated documents. */
  text(chunk: string, source: string): void {
    for (const line of chunk.split('\n')) if (line.trim() !== '') this.line(line, source);
  }

  private classify(text: string): LineResult {
    if (text.length > MAX_LINE_BYTES) return 'malformed';
    const parsed = parseEmfLine(text);
    if (parsed.kind === 'not-emf') return 'not_emf';
    if (parsed.kind === 'malformed') return 'malformed';
    for (const sample of parsed.samples) this.metrics.record(sample);
    return 'emf';
  }
}
