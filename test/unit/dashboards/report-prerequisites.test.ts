import { missingPrerequisites } from '../../../scripts/report/prerequisites';

const ok = {
  prometheusUrl: 'http://127.0.0.1:9090',
  prometheusAnswers: true,
  chromiumPath: '/usr/bin/chromium',
  chromiumPresent: true,
  wantPng: true,
};

describe('npm run report prerequisites', () => {
  it('needs nothing more when Prometheus answers and Chromium is there', () => {
    expect(missingPrerequisites(ok)).toEqual([]);
  });

  it('says in one line how to install a missing Chromium', () => {
    const [line, ...rest] = missingPrerequisites({ ...ok, chromiumPresent: false });
    expect(rest).toEqual([]);
    expect(line).toContain('apt-get install -y chromium');
    expect(line).toContain('stack:install');
  });

  it('does not need Chromium with --no-png, but always needs Prometheus', () => {
    expect(missingPrerequisites({ ...ok, chromiumPresent: false, wantPng: false })).toEqual([]);
    expect(missingPrerequisites({ ...ok, prometheusAnswers: false })).toEqual([
      expect.stringContaining('npm run stack:up'),
    ]);
  });
});
