/**
 * A packaged function run as Lambda runs it: its zip unzipped as the task root, the `dem` layer unzipped as its
 * /opt (CONFIG_PATH points there, as no private mount namespace is needed), started by aws-lambda-ric under Node
 * 24 behind the Runtime Interface Emulator, invoked over the emulator's Invoke API with API Gateway v2 events.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PACKAGE_DIR, tools } from './tools';

export interface LambdaAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

export function unzip(zip: string, into: string): string {
  fs.mkdirSync(into, { recursive: true });
  // node has no unzip; python3 is there wherever the tier runs (its tools live in a venv).
  const result = spawnSync('python3', ['-m', 'zipfile', '-e', zip, into], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`unzip ${zip}: ${result.stderr}`);
  return into;
}

/** The packaged `dem` layer, unzipped once per test file into a temporary "/opt". */
export function unzipLayer(workDir: string): string {
  return unzip(path.join(PACKAGE_DIR, 'dem.zip'), path.join(workDir, 'opt'));
}

/** Ports handed out in this process: emulators started side by side never get the same one. */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** A port found free can be taken before the emulator binds it (another process, another emulator): retried. */
const START_ATTEMPTS = 3;

export class PackagedFunction {
  private process: ChildProcess | null = null;
  private port = 0;
  /** Everything the emulator and the function printed (START/END/REPORT lines, the wide log line). */
  log = '';

  constructor(
    readonly name: string,
    private readonly handler: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(workDir: string): Promise<void> {
    const taskRoot = unzip(path.join(PACKAGE_DIR, `${this.name}.zip`), path.join(workDir, this.name));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOn(taskRoot);
      } catch (error) {
        if (attempt >= START_ATTEMPTS || !/address already in use/.test(this.log)) throw error;
        this.log = '';
      }
    }
  }

  private async startOn(taskRoot: string): Promise<void> {
    this.port = await freePort();
    const runtimePort = await freePort();
    this.process = spawn(
      tools.rie,
      [
        '--runtime-interface-emulator-address',
        `127.0.0.1:${this.port}`,
        '--runtime-api-address',
        `127.0.0.1:${runtimePort}`,
        tools.node24,
        tools.ric,
        this.handler,
      ],
      {
        cwd: taskRoot,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          LAMBDA_TASK_ROOT: taskRoot,
          NODE_PATH: tools.runtimeModules,
          AWS_LAMBDA_FUNCTION_NAME: `elevation-api-deploytest-${this.name}`,
          AWS_LAMBDA_FUNCTION_TIMEOUT: '28',
          AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1769',
          AWS_REGION: 'eu-central-1',
          AWS_DEFAULT_REGION: 'eu-central-1',
          TZ: ':UTC',
          POWERTOOLS_SERVICE_NAME: 'elevation-api',
          POWERTOOLS_METRICS_NAMESPACE: 'ElevationAPI',
          POWERTOOLS_DEV: 'true', // no EMF lines in the test output
          POWERTOOLS_TRACE_ENABLED: 'false', // no X-Ray daemon here
          ...this.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.process.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.process.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    await this.waitForEmulator();
  }

  private async waitForEmulator(): Promise<void> {
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      if (this.process?.exitCode !== null) throw new Error(`${this.name}: emulator exited\n${this.log}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = net.connect(this.port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (open) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.name}: emulator did not listen on ${this.port}\n${this.log}`);
  }

  /** One invocation through the emulator (the same path as Lambda's Invoke API). */
  async invoke(event: APIGatewayProxyEventV2): Promise<LambdaAnswer> {
    const { status, text } = await post(
      `http://127.0.0.1:${this.port}/2015-03-31/functions/function/invocations`,
      JSON.stringify(event),
    );
    if (status !== 200) throw new Error(`${this.name}: invoke answered ${status}: ${text}`);
    const result = JSON.parse(text) as Partial<LambdaAnswer> & { errorType?: string };
    if (result.statusCode === undefined) throw new Error(`${this.name}: not an HTTP answer: ${text}`);
    const body = String(result.body ?? '');
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return { statusCode: result.statusCode, headers: result.headers ?? {}, body, json };
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

export function makeWorkDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** One POST on its own connection (no keep-alive pool left open when the suite ends). */
function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
