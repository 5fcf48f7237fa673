/**
 * Re-records the fixtures beside this file from a real run of layers/telemetry (real Powertools,
 * real aws-xray-sdk-core) in offline mode: `npx tsx test/unit/bridge/recorded/record.ts`.
 * Captures the X-Ray daemon datagrams (UDP) and the stdout lines (EMF documents + JSON logs).
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HERE = __dirname;

const socket = createSocket('udp4');
const datagrams: string[] = [];
socket.on('message', (msg) => datagrams.push(msg.toString('utf8')));
socket.bind(0, '127.0.0.1', () => {
  const { port } = socket.address();
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'record-child.ts')], {
    cwd: join(HERE, '../../../..'),
    env: {
      ...process.env,
      IS_OFFLINE: 'true',
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${port}`,
      POWERTOOLS_LOG_LEVEL: 'INFO',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  // Powertools Logger writes WARN/ERROR lines to stderr, INFO/DEBUG and EMF to stdout.
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.on('exit', () => {
    setTimeout(() => {
      socket.close();
      writeFileSync(join(HERE, 'xray-datagrams.json'), `${JSON.stringify(datagrams, null, 1)}\n`);
      writeFileSync(join(HERE, 'stdout.jsonl'), stdout);
      writeFileSync(join(HERE, 'stderr.jsonl'), stderr);
      process.stdout.write(
        `recorded ${datagrams.length} datagrams, ${stdout.split('\n').length - 1} stdout lines\n`,
      );
    }, 200);
  });
});
