/**
 * The module boundaries of eslint.boundaries.mjs (docs/architecture.md) catch what they are for: the library
 * importing handlers, telemetry or the Lambda runtime, and handlers importing the library's deep paths. Lints
 * snippets with exactly those rules; `npm run lint` applies them to the tree.
 */
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const { boundaries, handlerBoundary, libraryBoundary, telemetryBoundary } =
    await import('../../eslint.boundaries.mjs');
  expect(boundaries).toEqual([libraryBoundary, handlerBoundary, telemetryBoundary]); // all applied by npm run lint
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      libraryBoundary,
      handlerBoundary,
      telemetryBoundary,
    ],
  });
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.message);
}

describe('module boundaries', () => {
  it.each([
    ['functions/elevation', "import { getApp } from '../../functions/app';"],
    ['the telemetry layer', "import { logger } from '../../telemetry';"],
    ['telemetry internals', "import { BoundedValues } from '../../telemetry/request-record';"],
    ['the Lambda types', "import type { Context } from 'aws-lambda';"],
    ['Powertools', "import { Logger } from '@aws-lambda-powertools/logger';"],
    ['the X-Ray SDK', "import { setStreamingThreshold } from 'aws-xray-sdk-core';"],
  ])('the library may not import %s', async (_what, code) => {
    const errors = await boundaryErrors('layers/elevation/dataset/example.ts', code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/The elevation library/);
  });

  it('the library may import its own modules, node: builtins and its data-layer clients', async () => {
    const code = [
      "import { crsFromEpsg } from '../geo/crs';",
      "import { readFile } from 'node:fs/promises';",
      "import type { S3Client } from '@aws-sdk/client-s3';",
      "import proj4 from 'proj4';",
    ].join('\n');
    await expect(boundaryErrors('layers/elevation/data/example.ts', code)).resolves.toEqual([]);
  });

  it.each([
    ['the library', "import { blockCache } from '../elevation';"],
    ['library internals', "import { DATA_ANSWERS } from '../elevation/types';"],
    ['a handler', "import { route } from '../../functions/route';"],
  ])('telemetry may not import %s', async (_what, code) => {
    const errors = await boundaryErrors('layers/telemetry/example.ts', code);
    expect(errors).toEqual([expect.stringMatching(/Telemetry depends on its ports.ts/)]);
  });

  it('telemetry may import its own modules and its runtime', async () => {
    const code = [
      "import type { RequestCounters } from './ports';",
      "import { Logger } from '@aws-lambda-powertools/logger';",
      "import { setStreamingThreshold } from 'aws-xray-sdk-core';",
    ].join('\n');
    await expect(boundaryErrors('layers/telemetry/example.ts', code)).resolves.toEqual([]);
  });

  it('a handler may import the library and telemetry through their index only', async () => {
    await expect(
      boundaryErrors('functions/example.ts', "import { loadSettings } from '../layers/elevation';"),
    ).resolves.toEqual([]);
    await expect(
      boundaryErrors('functions/example.ts', "import { instrumentHandler } from '../layers/telemetry';"),
    ).resolves.toEqual([]);
    const deep = await boundaryErrors(
      'functions/example.ts',
      "import { parseLocations } from '../layers/elevation/request/locations';",
    );
    expect(deep).toEqual([expect.stringMatching(/Import the library and telemetry from their index/)]);
  });
});
