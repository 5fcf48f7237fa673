/** Shared jest settings: @swc/jest transform (fast; typechecking is a separate `tsc --noEmit` step). */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(quick-lru|geotiff|xml-utils|zstddec|lerc|@petamoriken|web-worker|jsonc-parser)/)',
  ],
  // .build holds generated datasets and the mutation-testing sandboxes (copies of the repository).
  modulePathIgnorePatterns: ['<rootDir>/.build/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};
