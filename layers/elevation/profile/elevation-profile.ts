/** The domain operation behind `/v1/{dataset}/profile`: a path in, a resampled, summarised profile out. */
import type { HeightConversion } from '../datum/convert-heights';
import type { Dataset, LatLon, ReadContext } from '../types';
import { buildProfile, type Profile } from './profile';
import type { ProfileOptions } from './profile-options';
import { resamplePath } from './resample';

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const path = [{ lat: 49.9, lon: 10.1 }, { lat: 49.8, lon: 10.2 }];
 * const profile = await answerProfile(registry.get('plane-point'), path, parseProfileOptions({ samples: '10' }, 512), 512);
 * assert.equal(profile.points.length, 10);
 * assert.equal(profile.summary.samples, 10);
 * assert.ok(profile.summary.ascent > 0); // the plane rises to the south-east
 * ```
 */
export async function answerProfile(
  dataset: Dataset,
  path: readonly LatLon[],
  options: ProfileOptions,
  maxSamples: number,
  ctx: Partial<ReadContext> = {},
  convert?: HeightConversion,
): Promise<Profile> {
  const resampled = resamplePath(path, options.spacing, maxSamples);
  const sampled = await dataset.sampleAttributed(resampled.points, options.interpolation, ctx);
  const elevations = convert ? await convert(sampled, resampled.points) : sampled.elevations;
  return buildProfile(resampled, elevations, options.threshold);
}
