// serverless-offline must not hold an invocation's answer once it is answered. Up to 14.8.2 each invocation raced
// the handler against a `setTimeout(timeout)` promise that was never cancelled, and that pending timer kept the
// race's result (the whole answer) reachable for the function's timeout (28 s here): under `npm start` the main
// isolate of serverless-offline grew with request rate x answer size x 28 s (a heap snapshot taken during a
// bench:scale cell of POST-512 held 4,560 answers, ~200 MB). 14.8.5 cancels the timer when the invocation
// settles. This runs serverless-offline's own LambdaFunction with its worker-thread runner (what `npm start` uses)
// in a child node process (serverless-offline is ESM) and counts the timers still active after the invocation.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const LAMBDA_FUNCTION = path.join(
  REPO_ROOT,
  'node_modules',
  'serverless-offline',
  'src',
  'lambda',
  'LambdaFunction.js',
);

const SCRIPT = `
import LambdaFunction from ${JSON.stringify(LAMBDA_FUNCTION)};
const dir = process.argv[2];
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
const serverless = {
  service: { service: 'timer-test', provider: { runtime: 'nodejs20.x', timeout: 28, region: 'us-east-1' } },
  config: { serverlessPath: dir, servicePath: dir },
  serviceDir: dir,
};
const fn = new LambdaFunction('answer', { handler: 'handler.handler', name: 'timer-test-answer' }, serverless, {});
const before = timers();
const results = [];
for (let i = 0; i < 3; i += 1) {
  fn.setEvent({ i });
  const result = await fn.runHandler();
  results.push(result.body.length);
}
const after = timers();
await fn.cleanup();
console.log(JSON.stringify({ before, after, results }));
process.exit(0);
`;

describe("serverless-offline's invocation timeout timer", () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'offline-timer-'));
    fs.writeFileSync(path.join(dir, 'run.mjs'), SCRIPT);
    fs.writeFileSync(
      path.join(dir, 'handler.js'),
      "exports.handler = async (event) => ({ statusCode: 200, body: 'x'.repeat(100000 + event.i) });\n",
    );
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is cancelled once an invocation has answered, so no answer stays reachable until the timeout', () => {
    const output = execFileSync(process.execPath, [path.join(dir, 'run.mjs'), dir], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, SLS_LOG_LEVEL: 'error' },
    });
    const last = output.trim().split('\n').pop() as string;
    const { before, after, results } = JSON.parse(last) as {
      before: number;
      after: number;
      results: number[];
    };
    expect(results).toEqual([100000, 100001, 100002]);
    // 14.8.2 left one 28 s timer per invocation: after - before === 3.
    expect(after - before).toBe(0);
  });
});
