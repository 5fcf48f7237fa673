/**
 * A VU: one worker thread running the script's init context and then, on the engine's request, one
 * call (an iteration, setup, teardown, handleSummary) at a time. Synchronous HTTP and sleep block this
 * thread with Atomics.wait while the engine's thread performs the exchange, so k6's synchronous scripts
 * run unchanged; `await http.asyncRequest()` works too (the engine's thread performs it meanwhile).
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { takeDeltas } from '../metrics/delta.ts';
import type { BatchLimits, WireRequest, WireResponse } from '../modules/http-transport.ts';
import { runInitContext } from '../init-context.ts';
import { setToughCookiePath } from '../modules/cookies.ts';
import { setCheerioPath } from '../modules/html.ts';
import { checkOptions } from '../options.ts';
import { AbortError, Runtime } from '../runtime.ts';
import { installConsole } from './console.ts';
import { writeStderr } from './stderr.ts';
import { TrackedTimers } from './timers.ts';
import {
  INTERRUPTED,
  RESPONSE_READY,
  type CallMessage,
  type FromVu,
  type IoResponse,
  type ToVu,
  type VuInit,
} from './protocol.ts';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';

class InterruptedError extends Error {
  override name = 'InterruptedError';
}

const init = workerData as VuInit;
const port = parentPort;
if (!port) throw new Error('vu/thread.ts runs as a worker thread');
const send = (m: FromVu) => port.postMessage(m);
const control = new Int32Array(init.control);
const runtime = new Runtime(
  init.env,
  init.globalTags,
  init.allowRemote,
  path.dirname(path.resolve(init.scriptPath)),
  init.testStartedAt,
  init.options,
  (reason) => send({ kind: 'abort', reason }),
  (reason) => send({ kind: 'fail', reason }),
);
const timers = new TrackedTimers();
let nextIoId = 1;
/** k6 gives every call (iteration, setup, teardown) an empty cookie jar unless noCookiesReset. */
const resetCookies = !checkOptions(init.options).settings.noCookiesReset;

function checkInterrupted(): void {
  if (Atomics.load(control, INTERRUPTED) === 1) throw new InterruptedError('the VU was interrupted');
}

function syncIo(requests: WireRequest[], limits?: BatchLimits): WireResponse[] {
  checkInterrupted();
  const id = nextIoId++;
  // The engine bumps RESPONSE_READY after posting each answer: wait until it moves past `seen`.
  let seen = Atomics.load(control, RESPONSE_READY);
  init.io.postMessage({ id, requests, limits });
  for (;;) {
    Atomics.wait(control, RESPONSE_READY, seen, 250);
    seen = Atomics.load(control, RESPONSE_READY);
    for (let m = receiveMessageOnPort(init.io); m; m = receiveMessageOnPort(init.io)) {
      const answer = m.message as IoResponse;
      // An interrupted call's late answer is skipped.
      if (answer.id === id) return answer.responses;
    }
    checkInterrupted();
  }
}

const awaiting = new Map<number, (r: WireResponse) => void>();
init.asyncIo.on('message', (m: IoResponse) => {
  awaiting.get(m.id)?.(m.responses[0]);
  awaiting.delete(m.id);
});
init.asyncIo.unref();

function asyncIo(request: WireRequest): Promise<WireResponse> {
  const id = nextIoId++;
  return new Promise((resolve) => {
    awaiting.set(id, resolve);
    init.asyncIo.postMessage({ id, requests: [request] });
  });
}

function block(ms: number): void {
  checkInterrupted();
  Atomics.wait(control, INTERRUPTED, 0, ms);
  checkInterrupted();
}

/** The bundle's inline source map (esbuild writes one), to name the script's own lines in stack traces. */
const sourceMap = ((): SourceMap | undefined => {
  const m = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(init.code);
  if (!m) return undefined;
  try {
    return new SourceMap(JSON.parse(Buffer.from(m[1], 'base64').toString()) as SourceMapPayload);
  } catch {
    return undefined;
  }
})();
const FRAME = /^(\s+at (?:.*? \()?)(.+):(\d+):(\d+)(\)?)$/;

/**
 * A stack trace as k6 shows one: the script's frames at their lines in the script's own files (the
 * bundle's positions mapped back), without the runner's frames (its bundled thread code, node internals).
 */
function scriptStack(stack: string): string {
  const lines = stack.split('\n');
  const out = [lines[0]];
  for (const line of lines.slice(1)) {
    const m = FRAME.exec(line);
    if (!m || m[2] !== init.scriptPath) {
      if (!/\[worker eval\]|node:internal|MessagePort|<anonymous>/.test(line)) out.push(line);
      continue;
    }
    const entry = sourceMap?.findEntry(Number(m[3]) - 1, Number(m[4]) - 1) as
      { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
    if (entry?.originalSource === undefined || entry.originalLine === undefined) out.push(line);
    else
      out.push(
        `${m[1]}${path.resolve(entry.originalSource)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}${m[5]}`,
      );
  }
  return out.join('\n');
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ? scriptStack(err.stack) : `${err.name}: ${err.message}`;
  return String(err);
}

installConsole(runtime, init.stderrIsTTY, init.verbose);
setToughCookiePath(init.toughCookiePath);
setCheerioPath(init.cheerioPath);
let setupData: unknown = init.setupData?.value;
let exports: Record<string, unknown>;
try {
  exports = runInitContext(
    runtime,
    { io: { sync: syncIo, async: asyncIo }, block, timers: timers.api, sharedArrays: init.sharedArrays },
    init.code,
    init.scriptPath,
  ).exports;
} catch (err) {
  send({ kind: 'init-error', error: describe(err) });
  throw err;
}

async function call(m: CallMessage): Promise<void> {
  runtime.vu = m.vu;
  runtime.group = m.group;
  if (resetCookies) runtime.cookieJar = undefined;
  Atomics.store(control, INTERRUPTED, 0);
  let result: unknown;
  let error: string | undefined;
  let interrupted = false;
  try {
    const fn = exports[m.fn] as (arg: unknown) => unknown;
    result = fn(m.useSetupData ? setupData : m.arg);
    if (result instanceof Promise) result = await result;
    await timers.idle();
    // A result crosses as JSON, as k6 hands setup() data to VUs.
    if (m.wantResult)
      result = result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown);
  } catch (err) {
    // A rejected async call's result is still its promise, which cannot cross to the main thread: without this
    // the answer failed to send (DataCloneError), and setup() "timed out" with the script's error lost.
    result = undefined;
    if (err instanceof InterruptedError || err instanceof AbortError) interrupted = true;
    else error = describe(err);
    timers.clearAll();
  }
  runtime.group = '';
  send({
    kind: 'done',
    result: m.wantResult ? result : undefined,
    error,
    interrupted,
    deltas: takeDeltas(runtime.registry),
    vuTags: runtime.ownVuTags(),
  });
}

process.on('unhandledRejection', (reason) => {
  writeStderr(`ERRO[${Math.round(runtime.elapsedMs() / 1000)}] Uncaught (in promise) ${describe(reason)}\n`);
});

port.on('message', (m: ToVu) => {
  if (m.kind === 'setup-data') setupData = m.data;
  else if (m.kind === 'started') runtime.testStartedAt = m.at;
  else void call(m);
});
send({ kind: 'ready' });
