/**
 * A real S3 API on loopback: moto server (PyPI) with IAM authentication switched on after the setup calls, behind
 * a recording proxy that notes every request the functions send (method, key, Range header, status).
 */
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { freePort } from './lambda';
import { tools } from './tools';

export interface Recorded {
  method: string;
  path: string;
  range: string | undefined;
  status: number;
}

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
}

export class MotoS3 {
  private server: ChildProcess | null = null;
  private proxy: http.Server | null = null;
  private motoPort = 0;
  /** Requests that went through the proxy, in order. */
  readonly requests: Recorded[] = [];
  log = '';

  /** The endpoint functions use (the recording proxy), by host name, so path-style addressing is required. */
  get endpoint(): string {
    return `http://localhost:${(this.proxy?.address() as AddressInfo).port}`;
  }

  private get motoUrl(): string {
    return `http://127.0.0.1:${this.motoPort}`;
  }

  /** `setupActions`: how many requests moto serves unauthenticated before it starts checking IAM. */
  async start(setupActions: number): Promise<void> {
    this.motoPort = await freePort();
    this.server = spawn(tools.motoServer, ['-H', '127.0.0.1', '-p', String(this.motoPort)], {
      env: { ...process.env, INITIAL_NO_AUTH_ACTION_COUNT: String(setupActions) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.server.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.server.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    const until = Date.now() + 30_000;
    for (;;) {
      if (this.server.exitCode !== null) throw new Error(`moto exited:\n${this.log}`);
      // A TCP probe, not HTTP: every HTTP request would count against INITIAL_NO_AUTH_ACTION_COUNT.
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(this.motoPort, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) break;
      if (Date.now() > until) throw new Error(`moto did not start:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    this.proxy = http.createServer((request, response) => {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.motoPort,
          method: request.method,
          path: request.url,
          headers: request.headers, // Host unchanged: it is part of the SigV4 signature
        },
        (answer) => {
          this.requests.push({
            method: request.method ?? '',
            path: (request.url ?? '').split('?')[0],
            range: request.headers.range,
            status: answer.statusCode ?? 0,
          });
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.proxy?.listen(0, '127.0.0.1', resolve));
  }

  /** Setup calls straight to moto (not recorded), while it still serves them unauthenticated. */
  admin(): S3Client {
    return new S3Client({
      endpoint: this.motoUrl,
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'setup', secretAccessKey: 'setup' },
    });
  }

  async upload(bucket: string, files: Record<string, string>): Promise<number> {
    const s3 = this.admin();
    await s3.send(
      new CreateBucketCommand({
        Bucket: bucket,
        CreateBucketConfiguration: { LocationConstraint: 'eu-central-1' },
      }),
    );
    for (const [key, file] of Object.entries(files)) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: fs.readFileSync(file) }));
    }
    s3.destroy();
    return 1 + Object.keys(files).length;
  }

  /** An IAM user with the given inline policy and its access key: 3 setup calls (IAM Query API). */
  async userWithPolicy(name: string, statements: unknown[]): Promise<AccessKey> {
    await this.iam({ Action: 'CreateUser', UserName: name });
    await this.iam({
      Action: 'PutUserPolicy',
      UserName: name,
      PolicyName: `${name}-policy`,
      PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
    });
    const xml = await this.iam({ Action: 'CreateAccessKey', UserName: name });
    const accessKeyId = /<AccessKeyId>([^<]+)</.exec(xml)?.[1];
    const secretAccessKey = /<SecretAccessKey>([^<]+)</.exec(xml)?.[1];
    if (!accessKeyId || !secretAccessKey) throw new Error(`CreateAccessKey: ${xml}`);
    return { accessKeyId, secretAccessKey };
  }

  private async iam(params: Record<string, string>): Promise<string> {
    const response = await fetch(`${this.motoUrl}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // moto routes by the credential scope's service name; the signature is not checked during setup.
        authorization:
          'AWS4-HMAC-SHA256 Credential=setup/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: new URLSearchParams({ Version: '2010-05-08', ...params }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`IAM ${params.Action}: ${response.status} ${text}`);
    return text;
  }

  async stop(): Promise<void> {
    this.proxy?.closeAllConnections();
    await new Promise<void>((resolve) => (this.proxy ? this.proxy.close(() => resolve()) : resolve()));
    const server = this.server;
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }
}
