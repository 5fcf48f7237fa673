/**
 * Suites that need something beyond Node (../shared/dem, GDAL, Prometheus, a built binary) declare it here.
 * Present: the suite runs. Absent on a developer's machine: the suite is skipped and jest counts its tests as
 * skipped (visible in the summary, never passed). Absent under CI=true: one failing test names what is missing,
 * because CI installs everything and a missing dependency there is a broken pipeline, not a pass.
 */
export interface Requirement {
  /** What is needed, as a person would name it: "../shared/dem", "GDAL (gdal-bin)". */
  what: string;
  available: boolean;
}

export function describeIfAvailable(name: string, requirements: Requirement[], fn: () => void): void {
  const missing = requirements.filter((r) => !r.available).map((r) => r.what);
  if (missing.length === 0) {
    describe(name, fn);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it(`has what it needs (${missing.join(', ')})`, () => {
        throw new Error(`${missing.join(', ')} missing under CI=true: .ci/run must install it`);
      });
    });
  } else {
    // A visible skip, counted by jest: the dependency is missing on this machine.
    describe.skip(`${name} [skipped: needs ${missing.join(', ')}]`, fn);
  }
}
