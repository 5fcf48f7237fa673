/**
 * Google's answer: a height in every result, and `resolution` only where the answering dataset's pixel size is
 * known. Google documents that the property is missing when the resolution is unknown; a `null` there would be a
 * value its typed clients (Go's `float64`, Java's `double`) read as 0 m.
 */
import { loadDatasetRegistry } from '../../../layers/elevation';
import { answerGoogleQuery } from '../../../layers/elevation/google/google-answer';
import { googleAnswerXml } from '../../../layers/elevation/google/google-xml';
import { readGoogleXml } from '../../support/google-xml';

const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
const POINT = { lat: 49.9, lon: 10.1 };

it('gives the pixel size in metres where the dataset knows it', async () => {
  const answer = await answerGoogleQuery(registry, registry.resolve('plane-point'), [POINT], {});
  expect(answer.status).toBe('OK');
  const [result] = answer.results;
  expect(result.resolution).toBeGreaterThan(0);
  expect(Object.keys(result)).toEqual(['elevation', 'location', 'resolution']);
});

it('leaves resolution out, in JSON and in XML, where the dataset cannot say it (a tile set it cannot list)', async () => {
  const dataset = registry.get('plane-area');
  const known = await dataset.describe();
  jest.spyOn(dataset, 'describe').mockResolvedValue({ ...known, resolution: null });
  const answer = await answerGoogleQuery(registry, dataset, [POINT], {});
  expect(answer.status).toBe('OK');
  const json = JSON.parse(JSON.stringify(answer)) as { results: Record<string, unknown>[] };
  expect(Object.keys(json.results[0])).toEqual(['elevation', 'location']);
  expect(json.results[0].elevation).toEqual(expect.any(Number));
  const xml = googleAnswerXml(answer);
  expect(xml).not.toContain('resolution');
  expect(readGoogleXml(xml).results[0]).toEqual(json.results[0]);
});
