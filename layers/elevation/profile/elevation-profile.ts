/** The domain operation behind `/v1/{dataset}/profile`: a path in, a resampled, summarised profile out. */
import type { HeightConversion } from '../datum/convert-heights';
import type { Dataset, LatLon, ReadContext } from '../types';
import { buildProfile, type Profile } from './profile';
import type { ProfileOptions } from './profile-options';
import { resamplePath } from './resample';

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
