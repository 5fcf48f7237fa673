/** Loads the recorded real Powertools output (see recorded/README.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, 'recorded');

export function recordedDatagrams(): string[] {
  return JSON.parse(readFileSync(join(DIR, 'xray-datagrams.json'), 'utf8')) as string[];
}

/** Every stdout and stderr line of the recorded run: EMF documents and JSON log lines mixed, as printed. */
export function recordedOutputLines(): string[] {
  const text =
    readFileSync(join(DIR, 'stdout.jsonl'), 'utf8') + readFileSync(join(DIR, 'stderr.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '');
}
