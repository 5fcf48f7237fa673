/**
 * The engine's side of a VU: starts its thread, sends it calls one at a time, and performs its
 * synchronous requests on the engine's keep-alive pools (then wakes the blocked VU thread).
 */
import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import type { Pools } from '../modules/http-transport.ts';
import {
  INTERRUPTED,
  RESPONSE_READY,
  type CallMessage,
  type DoneMessage,
  type FromVu,
  type IoRequest,
  type VuInit,
} from './protocol.ts';

export type VuSpec = Omit<VuInit, 'control' | 'io' | 'asyncIo'>;

let threadCode: string | undefined;

/**
 * The VU thread's code, bundled once per run: a thread then starts in milliseconds, where loading it
 * through tsx (transpiling every runner module again in every thread) cost ~0.1–0.3 s of CPU per VU.
 */
function vuThreadCode(): string {
  threadCode ??= buildSync({
    entryPoints: [path.join(__dirname, 'thread.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  }).outputFiles[0].text;
  return threadCode;
}

export class VuInitError extends Error {
  override name = 'VuInitError';
}

export class VuHandle {
  private pending?: (m: DoneMessage) => void;
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private worker!: Worker;
  private exited = false;

  private constructor(
    readonly idInTest: number,
    private readonly onAbort: (reason: string) => void,
    private readonly onFail: (reason: string) => void,
  ) {}

  /** Starts a VU thread and waits until its init context has run. */
  static async start(
    idInTest: number,
    spec: VuSpec,
    pools: Pools,
    onAbort: (reason: string) => void,
    onFail: (reason: string) => void = () => undefined,
  ): Promise<VuHandle> {
    const vu = new VuHandle(idInTest, onAbort, onFail);
    const sync = new MessageChannel();
    const async = new MessageChannel();
    const init: VuInit = {
      ...spec,
      control: vu.control.buffer as SharedArrayBuffer,
      io: sync.port2,
      asyncIo: async.port2,
    };
    vu.worker = new Worker(vuThreadCode(), {
      eval: true,
      workerData: init,
      transferList: [sync.port2, async.port2],
    });
    // All of a VU's HTTP runs on this thread's pools: one event loop doing I/O for every VU.
    sync.port1.on('message', (m: IoRequest) => {
      const answers = m.limits
        ? pools.exchangeAll(m.requests, m.limits)
        : Promise.all(m.requests.map((r) => pools.exchange(r)));
      void answers.then((responses) => {
        sync.port1.postMessage({ id: m.id, responses });
        Atomics.add(vu.control, RESPONSE_READY, 1);
        Atomics.notify(vu.control, RESPONSE_READY);
      });
    });
    async.port1.on('message', (m: IoRequest) => {
      void pools
        .exchange(m.requests[0])
        .then((response) => async.port1.postMessage({ id: m.id, responses: [response] }));
    });
    sync.port1.unref();
    async.port1.unref();
    await new Promise<void>((resolve, reject) => {
      vu.worker.on('message', (m: FromVu) => {
        if (m.kind === 'ready') resolve();
        else if (m.kind === 'init-error') reject(new VuInitError(m.error));
        else if (m.kind === 'abort') vu.onAbort(m.reason);
        else if (m.kind === 'fail') vu.onFail(m.reason);
        else vu.pending?.(m);
      });
      vu.worker.on('error', (err) => {
        reject(err);
        vu.pending?.({ kind: 'done', error: String(err.stack ?? err), interrupted: false, deltas: [] });
      });
      // A thread that ends on its own (process.exit in a script, a crash) must not leave a call waiting.
      vu.worker.on('exit', (code) => {
        vu.exited = true;
        reject(new VuInitError(`VU ${idInTest} thread exited (code ${code}) during init`));
        vu.pending?.({
          kind: 'done',
          error: `VU ${idInTest} thread exited (code ${code})`,
          interrupted: false,
          deltas: [],
        });
      });
    });
    return vu;
  }

  call(m: Omit<CallMessage, 'kind'>): Promise<DoneMessage> {
    if (this.exited)
      return Promise.resolve({
        kind: 'done',
        error: `VU ${this.idInTest} thread has exited`,
        interrupted: false,
        deltas: [],
      });
    return new Promise((resolve) => {
      this.pending = (done) => {
        this.pending = undefined;
        resolve(done);
      };
      this.worker.postMessage({ kind: 'call', ...m });
    });
  }

  /** Tells a VU initialised before the test started when it did. */
  markStarted(at: number): void {
    this.worker.postMessage({ kind: 'started', at });
  }

  setSetupData(data: unknown): void {
    this.worker.postMessage({ kind: 'setup-data', data });
  }

  /** Wakes a VU blocked in sleep() or a request; its current call ends as interrupted. */
  interrupt(): void {
    Atomics.store(this.control, INTERRUPTED, 1);
    Atomics.notify(this.control, INTERRUPTED);
    Atomics.notify(this.control, RESPONSE_READY);
  }

  async stop(): Promise<void> {
    this.exited = true;
    await this.worker.terminate();
  }
}
