/**
 * The packaged elevation function reading its tiles from a real S3 API (moto server on loopback, IAM checked) with
 * DATA_ROOT=s3://…, AWS_ENDPOINT_URL_S3 and S3_FORCE_PATH_STYLE, against the same function over local files.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describeIfAvailable } from '../support/requirements';
import { httpEvent } from '../integration/support/api-gateway';
import { makeWorkDir, PackagedFunction } from './support/lambda';
import { MotoS3 } from './support/moto';
import { deployRequirements } from './support/tools';

const BUCKET = 'elevation-dem';
const PREFIX = 'dem/';
const SAMPLE = path.resolve('layers/dem-sample/sample/stuttgart.tif');
const COPERNICUS = path.resolve('test/fixtures/copernicus-2x2');
const TILES = fs.readdirSync(COPERNICUS).filter((f) => f.endsWith('.tif'));
const TEMPLATE = 'Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif';

// Points in the sample, across the four Copernicus tiles meeting at 34N 118W (bilinear windows that cross tile
// edges read the neighbours), and in the sea of tiles (no object: no data, never an error).
const SAMPLE_POINTS = '48.742275,9.101177|48.8,9.2|48.65,9.05';
const TILE_POINTS = '34.5,-118.5|33.99,-117.99|34.0,-118.0|33.5,-118.51|64.5,-147.5';
const SEA = '-40.5,170.5';

/**
 * The role the functions get: serverless.yml's own statements (GetObject under the prefix, ListBucket with an
 * s3:prefix condition), its params and the partition filled in as CloudFormation would, not a copy of them.
 */
function functionPolicy(): unknown[] {
  const config = YAML.parse(fs.readFileSync('serverless.yml', 'utf8')) as {
    provider: { iam: { role: { statements: unknown[] } } };
  };
  const text = JSON.stringify(config.provider.iam.role.statements)
    .replaceAll('${param:dataBucket}', BUCKET)
    .replaceAll('${param:dataPrefix}', PREFIX)
    .replaceAll('${AWS::Partition}', 'aws');
  const subs = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(subs)
      : value !== null && typeof value === 'object'
        ? 'Fn::Sub' in value
          ? (value as { 'Fn::Sub': string })['Fn::Sub']
          : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, subs(v)]))
        : value;
  const statements = subs(JSON.parse(text)) as unknown[];
  expect(JSON.stringify(statements)).not.toMatch(/\$\{|Fn::/); // everything filled in
  return statements;
}

function config(root: 's3' | 'local'): string {
  const outside =
    root === 's3' ? `\n  - name: outside\n    path: s3://${BUCKET}/private/plane-point.tif` : '';
  return `datasets:
  - name: sample
    path: sample/stuttgart.tif
  - name: copernicus
    path: copernicus/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "${TEMPLATE}"${outside}
`;
}

describeIfAvailable(
  'packaged elevation function over a real S3 API (moto)',
  deployRequirements('rie', 'node24', 'ric', 'motoServer', 'runtimeModules'),
  () => {
    const moto = new MotoS3();
    let workDir: string;
    let overS3: PackagedFunction;
    let overFiles: PackagedFunction;
    let badKeys: PackagedFunction;

    beforeAll(async () => {
      workDir = makeWorkDir('deploy-s3-');
      const files: Record<string, string> = {
        [`${PREFIX}sample/stuttgart.tif`]: SAMPLE,
        'private/plane-point.tif': path.resolve('test/fixtures/plane-point.tif'),
      };
      for (const tile of TILES) files[`${PREFIX}copernicus/${tile}`] = path.join(COPERNICUS, tile);
      // Setup calls are served unauthenticated; every request after them is checked against IAM.
      await moto.start(1 + Object.keys(files).length + 3);
      await moto.upload(BUCKET, files);
      const key = await moto.userWithPolicy('elevation-function', functionPolicy());

      fs.writeFileSync(path.join(workDir, 's3.yaml'), config('s3'));
      const local = path.join(workDir, 'local');
      fs.mkdirSync(path.join(local, 'sample'), { recursive: true });
      fs.copyFileSync(SAMPLE, path.join(local, 'sample/stuttgart.tif'));
      fs.cpSync(COPERNICUS, path.join(local, 'copernicus'), { recursive: true });
      fs.writeFileSync(path.join(local, 'config.yaml'), config('local'));

      const s3Env = {
        CONFIG_PATH: path.join(workDir, 's3.yaml'),
        DATA_ROOT: `s3://${BUCKET}/${PREFIX}`,
        AWS_ENDPOINT_URL_S3: moto.endpoint, // http://localhost:…: virtual-hosted style would resolve bucket.localhost
        S3_FORCE_PATH_STYLE: 'true',
        RANGE_RETRIES: '0',
      };
      overS3 = new PackagedFunction('elevation', 'functions/elevation.handler', {
        ...s3Env,
        AWS_ACCESS_KEY_ID: key.accessKeyId,
        AWS_SECRET_ACCESS_KEY: key.secretAccessKey,
      });
      badKeys = new PackagedFunction('elevation', 'functions/elevation.handler', {
        ...s3Env,
        AWS_ACCESS_KEY_ID: 'AKIAWRONGWRONGWRONG1',
        AWS_SECRET_ACCESS_KEY: 'not-the-secret',
      });
      overFiles = new PackagedFunction('elevation', 'functions/elevation.handler', {
        CONFIG_PATH: path.join(local, 'config.yaml'),
      });
      await Promise.all([
        overS3.start(path.join(workDir, 'fn-s3')),
        badKeys.start(path.join(workDir, 'fn-bad')),
        overFiles.start(path.join(workDir, 'fn-files')),
      ]);
    }, 90_000);

    afterAll(async () => {
      // DEPLOY_LOG=1 prints what the functions and moto said (START/REPORT lines, wide log lines, errors).
      if (process.env.DEPLOY_LOG) console.log(overS3?.log, badKeys?.log, moto.log);
      await Promise.all([overS3, overFiles, badKeys].map((fn) => fn?.stop()));
      await moto.stop();
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    const ask = (fn: PackagedFunction, dataset: string, locations: string, interpolation = 'bilinear') =>
      fn.invoke(
        httpEvent({
          path: `/v1/${dataset}`,
          pathParameters: { dataset },
          query: { locations, interpolation },
        }),
      );
    const heights = (json: unknown) =>
      (json as { results: { elevation: number | null }[] }).results.map((r) => r.elevation);

    it.each([
      ['sample', SAMPLE_POINTS, 'bilinear'],
      ['sample', SAMPLE_POINTS, 'cubic'],
      ['copernicus', TILE_POINTS, 'bilinear'],
      ['copernicus', TILE_POINTS, 'nearest'],
    ])(
      'answers %s (%s, %s) from S3 with the same heights as from local files',
      async (dataset, points, interp) => {
        const [fromS3, fromFiles] = await Promise.all([
          ask(overS3, dataset, points, interp),
          ask(overFiles, dataset, points, interp),
        ]);
        expect(fromS3.statusCode).toBe(200);
        expect(fromFiles.statusCode).toBe(200);
        expect(heights(fromS3.json)).toEqual(heights(fromFiles.json));
        expect(heights(fromS3.json).every((h) => typeof h === 'number')).toBe(true);
      },
    );

    it('sends every GetObject as a ranged GET, path-style, to the bucket under the data prefix', () => {
      const gets = moto.requests.filter((r) => r.method === 'GET');
      expect(gets.length).toBeGreaterThan(0);
      for (const request of gets) {
        expect(request.range).toMatch(/^bytes=\d+-\d+$/);
        expect(request.path.startsWith(`/${BUCKET}/`)).toBe(true);
      }
    });

    // moto answers a missing key 404 whatever the policy (it does not model S3's 403 without s3:ListBucket), so
    // this shows what a 404 becomes, not that the policy's ListBucket statement gets real S3 to answer one.
    it('answers null for a tile with no object (a 404), and asks S3 once per TTL', async () => {
      const before = moto.requests.length;
      const first = await ask(overS3, 'copernicus', `${SEA}|34.5,-118.5`);
      expect(first.statusCode).toBe(200);
      expect(heights(first.json)).toEqual([null, expect.any(Number)]);
      const missing = moto.requests.slice(before).filter((r) => r.path.includes('S41_00_E170'));
      expect(missing).toEqual([expect.objectContaining({ status: 404 })]);
      // Cached as missing for MISSING_TTL_S (60 s): the next request does not ask again.
      const again = await ask(overS3, 'copernicus', SEA);
      expect(heights(again.json)).toEqual([null]);
      expect(moto.requests.slice(before).filter((r) => r.path.includes('S41_00_E170'))).toHaveLength(1);
    });

    it('answers a 502 that says access was denied for an object the policy does not cover (403 AccessDenied)', async () => {
      const answer = await ask(overS3, 'outside', '49.9,10.1');
      expect(answer.statusCode).toBe(502);
      expect((answer.json as { error: string }).error).toMatch(/denied access/);
      expect(moto.requests.filter((r) => r.path.includes('/private/')).map((r) => r.status)).toContain(403);
    });

    it('answers a 502 that says access was denied, not "please retry", when the credentials are wrong', async () => {
      const answer = await ask(badKeys, 'sample', SAMPLE_POINTS);
      expect(answer.statusCode).toBe(502);
      expect((answer.json as { error: string }).error).toBe(
        'The elevation data store denied access to its files; an operator must fix its permissions.',
      );
      expect(answer.body).not.toMatch(/retry/i);
    });
  },
);
