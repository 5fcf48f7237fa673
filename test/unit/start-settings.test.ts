/**
 * npm start checks the functions' settings before it starts anything: a bad one made every function fail at its
 * first request, so npm start waited out its 120 s start-up for a /health that never came (concurrency probe).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const START = path.resolve(__dirname, '../../scripts/start.ts');

it.each([
  ['REQUEST_BLOCK_BUDGET_MB', '1', "REQUEST_BLOCK_BUDGET_MB must be an integer between 4 and 4096, got '1'."],
  ['MAX_CONCURRENT_READS', 'lots', "MAX_CONCURRENT_READS must be an integer between 1 and 256, got 'lots'."],
  // Read by the telemetry layer as each function loads, and GOOGLE_DATASET by the Google routes: npm start checks
  // them too (a helper's probe: 120 s of stack traces, or every Google request the client's 400).
  ['XRAY_SAMPLE_RATE', 'abc', 'XRAY_SAMPLE_RATE must be a number from 0 to 1, got "abc"'],
  [
    'RUNTIME_METRICS_INTERVAL_S',
    'abc',
    'RUNTIME_METRICS_INTERVAL_S must be a number of seconds >= 0, got "abc"',
  ],
  ['CORS_ORIGIN', 'https://a.example\nx: 1', "CORS_ORIGIN must be '*' or one origin"],
  ['GOOGLE_DATASET', 'nope', "GOOGLE_DATASET 'nope': Dataset 'nope' not in config"],
])(
  'refuses %s=%s at once, naming it',
  (name, value, message) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', START], {
      encoding: 'utf8',
      env: { ...process.env, [name]: value, PORT: '0', DATA_PORT: '0' },
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`npm start failed: ${message}`);
    expect(run.stdout).not.toContain('data layer listening');
  },
  60_000,
);

it('refuses config paths that lead out of DATA_DIR (or out and back in), naming each (the data layer folded `..` away: "not found")', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
  try {
    const configPath = path.join(dir, 'config.yaml');
    fs.writeFileSync(
      configPath,
      [
        'datasets:',
        '  - name: inside',
        '    path: sample/stuttgart.tif',
        '  - name: sibling',
        '    path: ../elsewhere/',
        '  - name: folded',
        '    path: sample/../../sample/stuttgart.tif',
        '  - name: reentering',
        '    path: ../dem-sample/sample/stuttgart.tif',
        '  - name: absolute',
        `    path: ${path.join(dir, 'x.tif')}`,
        '  - name: remote',
        '    path: https://dem.example/../x.tif',
        'geoids:',
        '  egm96: ../geoid/egm96-15.tif',
        '',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', START], {
      encoding: 'utf8',
      env: { ...process.env, CONFIG_PATH: configPath, PORT: '0', DATA_PORT: '0' },
      timeout: 60_000,
    });
    const dataDir = path.resolve(__dirname, '../../layers/dem-sample');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `npm start failed: ${configPath} names paths the data layer cannot serve (it serves DATA_DIR only: set ` +
        'DATA_DIR to a folder holding them, or give absolute paths):\n' +
        `  - dataset 'sibling': path '../elsewhere/' leads out of DATA_DIR ${dataDir}\n` +
        `  - dataset 'folded': path 'sample/../../sample/stuttgart.tif' leads out of DATA_DIR ${dataDir}\n` +
        `  - dataset 'reentering': path '../dem-sample/sample/stuttgart.tif' leads out of DATA_DIR ${dataDir} and back in: write it as 'sample/stuttgart.tif'\n` +
        `  - geoid grid egm96: path '../geoid/egm96-15.tif' leads out of DATA_DIR ${dataDir}\n`,
    );
    expect(run.stdout).not.toContain('data layer listening');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
