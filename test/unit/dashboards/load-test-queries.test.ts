// The load-test dashboard's shares are over all requests or checks, not an average of per-tag-set rates: a scenario
// whose checks all failed weighs by how many checks it made (a spike run read 73.1 % checks passed, truly 41.7 %).
import { loadTestPanels } from '../../../dashboards/queries/load-test';

describe('the load-test dashboard', () => {
  it('weights each tag set’s checks rate by its number of checks', () => {
    const [query] = loadTestPanels.checks.queries;
    // passes / all checks: Σ(rate × samples) / Σ samples, per run.
    expect(query.expr).toMatch(
      /^sum by \(testid\) \(last_over_time\(k6_checks_rate\{[^}]*\}\[\$__rate_interval\]\) \* last_over_time\(k6_checks_samples_total\{[^}]*\}\[\$__rate_interval\]\)\) \/ sum by \(testid\) \(last_over_time\(k6_checks_samples_total\{[^}]*\}\[\$__rate_interval\]\)\)/,
    );
    // Without the count (a real k6 pushes none) it falls back to the unweighted mean, rather than no line.
    expect(query.expr).toMatch(/ or avg by \(testid\) \(last_over_time\(k6_checks_rate/);
  });
});
