/**
 * Total ascent and descent with a noise threshold, as GPS tools count them: a climb is added once the height
 * has risen at least `threshold` metres above the last counted height (a descent likewise), so DEM and
 * sampling noise smaller than the threshold is not summed up into phantom climbing. With threshold 0 this is
 * the plain sum of rises and of drops. Heights without data are skipped.
 */
export interface AscentDescent {
  ascent: number;
  descent: number;
}

export function ascentDescent(heights: readonly (number | null)[], threshold: number): AscentDescent {
  let ascent = 0;
  let descent = 0;
  let reference: number | null = null;
  for (const height of heights) {
    if (height === null) continue;
    if (reference === null) {
      reference = height;
      continue;
    }
    const change = height - reference;
    // threshold >= 0; with 0, a flat step adds nothing either way.
    if (change >= threshold) {
      ascent += change;
      reference = height;
    } else if (-change >= threshold) {
      descent -= change;
      reference = height;
    }
  }
  return { ascent, descent };
}
