/** Test harness: a local node:http server, and the runner CLI run on a k6 script written to a temp dir. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'loadtests', 'runner', 'cli.ts');

export interface LocalServer {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

/** Starts `server` on a free loopback port; its base URL (`http://127.0.0.1:<port>`). */
export async function listenLocal(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes `server`, its kept-alive HTTP connections first. */
export function closeServer(server: Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Answers `{"status":"OK"}`, after `latencyMs` when given. */
export async function startServer(
  latencyMs = 0,
  onRequest?: (req: http.IncomingMessage, body: Buffer) => void,
): Promise<LocalServer> {
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      onRequest?.(req, Buffer.concat(chunks));
      const reply = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"OK"}');
      };
      if (latencyMs > 0) setTimeout(reply, latencyMs);
      else reply();
    });
  });
  return {
    url: await listenLocal(server),
    requests: () => count,
    close: () => closeServer(server),
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
  summary: Summary;
}

export interface Summary {
  exitCode: number;
  abortReason: string | null;
  thresholds: { metric: string; threshold: string; observed: number; ok: boolean }[];
  metrics: Record<string, { type: string; values: Record<string, number> }>;
  root_group: { checks: { name: string; passes: number; fails: number }[] };
}

/** Runs `cli.ts run` on `script` (k6 script source) with extra flags and env; parses its run record. */
export async function runScript(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: {
    fileName?: string;
    files?: Record<string, string>;
    interruptAfterMs?: number;
    /** With interruptAfterMs: counted from the first output holding this text, not from the start. */
    interruptAfterOutput?: string;
  } = {},
): Promise<CliResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'k6runner-'));
  const file = path.join(dir, options.fileName ?? 'script.ts');
  for (const [name, content] of Object.entries(options.files ?? {}))
    writeFileSync(path.join(dir, name), content);
  writeFileSync(file, script);
  return runFile(file, args, env, options.interruptAfterMs, options.interruptAfterOutput);
}

/** Runs `cli.ts run` on a script file (e.g. one of loadtests/) with extra flags and env. */
export async function runFile(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
  /** Sends SIGINT (Ctrl-C) this long after the start. */
  interruptAfterMs?: number,
  /**
   * Counts interruptAfterMs from the first output holding this text: on a loaded machine the CLI's start alone took
   * over 4 s, and a SIGINT before its handler is installed ends the process (exit by signal, not k6's 105).
   */
  interruptAfterOutput?: string,
): Promise<CliResult> {
  const summaryFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'k6record-')), 'record.json');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'run', '-q', '--run-record', summaryFile, ...args, file],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  let interrupting = false;
  const interrupt = () => {
    if (interrupting || interruptAfterMs === undefined) return;
    interrupting = true;
    setTimeout(() => child.kill('SIGINT'), interruptAfterMs);
  };
  if (interruptAfterOutput === undefined) interrupt();
  let stdout = '';
  let stderr = '';
  const seen = () => {
    if (interruptAfterOutput !== undefined && (stdout + stderr).includes(interruptAfterOutput)) interrupt();
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    seen();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    seen();
  });
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  let summary = {} as Summary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  } catch {
    // No record (e.g. refused before the run): callers assert on code and stderr.
  }
  return { code, stdout, stderr, elapsedMs: Date.now() - started, summary };
}

export const count = (s: Summary, metric: string): number => s.metrics[metric]?.values.count ?? 0;
