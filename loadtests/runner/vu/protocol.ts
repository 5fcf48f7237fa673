/** Messages between the engine and a VU's thread. */
import type { MessagePort } from 'node:worker_threads';
import type { SeriesDelta } from '../metrics/delta.ts';
import type { BatchLimits, WireRequest, WireResponse } from '../modules/http-transport.ts';
import type { VuContext } from '../runtime.ts';

export interface VuInit {
  code: string;
  scriptPath: string;
  env: Record<string, string>;
  globalTags: Record<string, string>;
  allowRemote: boolean;
  /** Epoch ms the test started; for a VU initialised before the start, replaced by a 'started' message. */
  testStartedAt: number;
  options: Record<string, unknown>;
  sharedArrays: Record<string, unknown[]>;
  /** Present when setup() has already run (VUs initialised during the test). */
  setupData?: { value: unknown };
  stderrIsTTY: boolean;
  /** k6's --verbose: console.debug() is printed. */
  verbose: boolean;
  /** tough-cookie's main file, loaded on the VU's first cookie (modules/cookies.ts). */
  toughCookiePath: string;
  /** cheerio's parse5 loader, loaded on the VU's first parseHTML() (modules/html.ts). */
  cheerioPath: string;
  /** Int32 [0]: count of synchronous answers posted; [1]: the VU is interrupted (hard stop, abort). */
  control: SharedArrayBuffer;
  /** Synchronous requests go out here; their responses are read back with receiveMessageOnPort. */
  io: MessagePort;
  /** asyncRequest()s go out here; their responses arrive as messages. */
  asyncIo: MessagePort;
}

/** Control slots in `VuInit.control`. */
export const RESPONSE_READY = 0;
export const INTERRUPTED = 1;

export interface CallMessage {
  kind: 'call';
  fn: string;
  /** setup() data (the VU's own copy) or `arg` as the argument. */
  useSetupData: boolean;
  arg?: unknown;
  /** Return the (JSON) result: setup() and handleSummary(). */
  wantResult: boolean;
  vu?: VuContext;
  group: string;
}

export type ToVu =
  | CallMessage
  | { kind: 'setup-data'; data: unknown }
  /** The test has started (after the VUs' init, before setup()): epoch ms, for the test-run duration. */
  | { kind: 'started'; at: number };

export interface DoneMessage {
  kind: 'done';
  result?: unknown;
  /** The exception that ended the call, as k6 prints it. */
  error?: string;
  interrupted: boolean;
  deltas: SeriesDelta[];
  /** Tags the script set on its VU (exec.vu.metrics.tags), for the samples the engine records. */
  vuTags?: Record<string, string>;
}

export type FromVu =
  | { kind: 'ready' }
  | { kind: 'init-error'; error: string }
  | { kind: 'abort'; reason: string }
  | { kind: 'fail'; reason: string }
  | DoneMessage;

export interface IoRequest {
  id: number;
  requests: WireRequest[];
  /** An http.batch() call's parallelism; absent for a single request. */
  limits?: BatchLimits;
}
export interface IoResponse {
  id: number;
  responses: WireResponse[];
}
