/** The live progress line: elapsed time, VUs, iterations, and a bar per scenario. */
import { formatDuration } from '../duration.ts';
import type { ScenarioRun } from '../test-run.ts';

export class ProgressLine {
  private timer?: NodeJS.Timeout;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly runs: ScenarioRun[],
    private readonly startedAt: number,
    private readonly maxVUs: number,
    private readonly enabled: boolean,
  ) {}

  start(): void {
    if (!this.enabled) return;
    // A terminal gets a line redrawn every second; a CI log a fresh line every 10 s.
    this.timer = setInterval(() => this.print(), this.tty ? 1000 : 10_000);
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.enabled) this.print(true);
  }

  line(): string {
    const active = this.runs.reduce((n, r) => n + r.activeVUs, 0);
    const completed = this.runs.reduce((n, r) => n + r.iterationsCompleted, 0);
    const interrupted = this.runs.reduce((n, r) => n + r.iterationsInterrupted, 0);
    const elapsed = formatDuration(performance.now() - this.startedAt);
    const bars = this.runs.map((r) => {
      const p = r.startedAt ? r.progress() : 0;
      const filled = Math.round(p * 20);
      return `${r.scenario.name} [${'='.repeat(filled)}${filled < 20 ? '>' : ''}${' '.repeat(Math.max(0, 19 - filled))}] ${Math.round(p * 100)}%`;
    });
    return `running (${elapsed}), ${active}/${this.maxVUs} VUs, ${completed} complete and ${interrupted} interrupted iterations | ${bars.join(' | ')}`;
  }

  private print(final = false): void {
    if (this.tty) process.stderr.write(`\r\x1b[K${this.line()}${final ? '\n' : ''}`);
    else process.stderr.write(`${this.line()}\n`);
  }
}
