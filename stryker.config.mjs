// Mutation testing of the elevation library (issue 15): `npm run test:mutation` (scripts/mutation/run.ts) runs
// it shard by shard, each with its incremental results in test/mutation/<shard>.json (committed), so a rerun
// after a small change tests only the mutants whose code or covering tests changed. StrykerJS 9.6 because 10.x
// requires Node >= 22 (this project runs on 20). Measured on the 2-core machine over request/polyline.ts
// (77 mutants, covered by integration tests): 3 min 55 s of mutants at concurrency 2, 2 min 40 s at 4 (the test
// processes wait on servers and timers about half the time).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js' },
  coverageAnalysis: 'perTest',
  mutate: ['layers/elevation/**/*.ts', '!layers/elevation/types.ts', '!layers/elevation/index.ts'],
  concurrency: 4,
  incremental: true,
  // Ad-hoc `npx stryker run`; npm run test:mutation passes each shard's own file.
  incrementalFile: '.build/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html'],
  htmlReporter: { fileName: '.build/mutation/mutation.html' },
  tempDirName: '.build/stryker-tmp',
  cleanTempDir: 'always',
  // A mutant that loops forever is a Timeout (counted as detected). 15 s, not StrykerJS's 5 s: four test processes
  // on two cores, with other work beside them, made slow-but-correct runs time out and inflate the score.
  timeoutMS: 15000,
  // Mutants in module-level code (constants, tables) run every related test file: 17 % of the mutants, 72-89 %
  // of the time. Ignored, and counted in docs/testing.md.
  ignoreStatic: true,
  thresholds: { high: 90, low: 80, break: null },
  // The sandbox is a copy of what the tests read: sources, tests and their fixtures, configs.
  ignorePatterns: [
    '/*',
    '!/layers',
    '!/functions',
    '!/test',
    '!/package.json',
    // The settings tests read the README's settings table.
    '!/README.md',
    '!/tsconfig.json',
    '!/jest.base.config.js',
    '!/jest.config.js',
    '!/jest.mutation.config.js',
    '!/serverless.yml',
    '!/scripts',
    '!/stack',
    '!/loadtests',
  ],
};
