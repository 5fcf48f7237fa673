// Module boundaries (docs/architecture.md), enforced by eslint's no-restricted-imports. Kept in their own module
// so test/unit/lint-boundaries.test.ts lints examples against exactly these rules.
//  - layers/elevation, the domain library, imports nothing from the handlers, the telemetry layer, the Lambda
//    runtime (aws-lambda types, Powertools, the X-Ray SDK) or an HTTP framework. The S3 client is its data
//    layer's transport and stays allowed (data/s3-source.ts, data/folder-listing.ts).
//  - functions/ imports the library and the telemetry layer only through their index.ts.
//  - layers/telemetry imports nothing from the library or the handlers: it depends on the small interfaces of its
//    ports.ts, which the library's types satisfy; functions/route.ts wires the two.

const RUNTIME = [
  'aws-lambda',
  '@aws-lambda-powertools/*',
  'aws-xray-sdk*',
  'express',
  'fastify',
  '@hapi/*',
  'koa',
];

export const libraryBoundary = {
  files: ['layers/elevation/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/functions', '**/functions/*', '**/telemetry', '**/telemetry/*'],
            message: 'The elevation library must not depend on handlers or telemetry (docs/architecture.md).',
          },
          {
            group: RUNTIME,
            message:
              'The elevation library knows no Lambda runtime or HTTP framework: handlers adapt events to it.',
          },
        ],
      },
    ],
  },
};

export const handlerBoundary = {
  files: ['functions/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/layers/elevation/*', '**/layers/telemetry/*'],
            message:
              "Import the library and telemetry from their index ('../layers/elevation', '../layers/telemetry').",
          },
        ],
      },
    ],
  },
};

export const telemetryBoundary = {
  files: ['layers/telemetry/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/elevation', '**/elevation/*', '**/functions', '**/functions/*'],
            message:
              'Telemetry depends on its ports.ts interfaces, not on the library or handlers (docs/architecture.md).',
          },
        ],
      },
    ],
  },
};

export const boundaries = [libraryBoundary, handlerBoundary, telemetryBoundary];
