import { isLoopbackHost, TargetGuard } from '../../../loadtests/runner/target-guard';
import { runScript } from './harness';

describe('loopback-only targets', () => {
  it.each(['127.0.0.1', '127.9.8.7', 'localhost', 'api.localhost', '[::1]', '::1'])('accepts %s', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['10.0.0.1', '192.168.1.2', '8.8.8.8', 'example.com', '[2001:db8::1]', '128.0.0.1'])(
    'refuses %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('lets --allow-remote through', () => {
    expect(() => new TargetGuard(false).check('http://example.invalid')).toThrow(/--allow-remote/);
    expect(() => new TargetGuard(true).check('http://example.invalid')).not.toThrow();
  });

  it('refuses a non-loopback BASE_URL before sending anything (exit 104)', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export default async function () { await http.asyncRequest('GET', __ENV.BASE_URL); }`,
      [],
      { BASE_URL: 'http://elevation.example.invalid' },
    );
    expect(r.code).toBe(104);
    expect(r.stderr).toMatch(/refusing to send load to http:\/\/elevation\.example\.invalid/);
  }, 30_000);

  it('refuses a non-loopback URL built inside the script, failing those iterations', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 2 };
export default async function () { await http.asyncRequest('GET', 'http://elevation.example.invalid/v1/x'); }`,
    );
    expect(r.stderr).toMatch(/refusing to send load/);
    expect(r.summary.metrics.http_reqs).toBeUndefined();
  }, 30_000);
});
