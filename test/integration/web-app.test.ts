/** `GET /app` in-process: one self-contained page (the browser test is in test/e2e/app-page.test.ts). */
import { invoke } from './support/api-gateway';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

describe('GET /app', () => {
  it('serves an HTML page whose CSP allows this API only', async () => {
    const response = await invoke(handlers.app, { path: '/app' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(response.body).toMatch(/^<!doctype html>/);
  });

  it('loads nothing from elsewhere: no external script, style or URL (works offline)', async () => {
    const { body } = await invoke(handlers.app, { path: '/app' });
    expect(body).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|https?:\/\//);
    expect(body).toContain("fetch(base + '/v1/datasets')");
  });

  it('answers 405 for POST', async () => {
    const response = await invoke(handlers.app, { path: '/app', method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
  });
});
