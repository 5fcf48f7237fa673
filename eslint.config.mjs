// One linter for the whole repo: typed rules where they catch real bugs (floating promises),
// bans on ts-ignore and on focused/skipped tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';
import { boundaries } from './eslint.boundaries.mjs';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      '.build',
      '.esbuild',
      '.esbuild-package',
      '.serverless',
      'coverage',
      '.run',
      '.bin',
      'results',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-nocheck': true, 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['test/**/*.ts'],
    ...jest.configs['flat/recommended'],
    rules: {
      ...jest.configs['flat/recommended'].rules,
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'assert*', 'fc.assert'] }],
    },
  },
  {
    // Support code builds suites (describeIfAvailable): it exports and calls describe with computed titles.
    files: ['test/support/**/*.ts'],
    rules: {
      'jest/no-export': 'off',
      'jest/valid-title': 'off',
      'jest/valid-describe-callback': 'off',
      'jest/expect-expect': 'off',
      'jest/no-disabled-tests': 'off',
    },
  },
  ...boundaries,
);
