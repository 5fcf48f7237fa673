/** `GET /app`: the page for people (functions/web/app-page.ts). Its CSP allows this API and nothing else. */
import { route } from './route';
import { APP_PAGE } from './web/app-page';

const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' blob: data:", // blob: the chart; data: the empty favicon (no request for /favicon.ico)
].join('; ');

export const handler = route('app', ['GET'], async () => ({
  statusCode: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP },
  body: APP_PAGE,
}));
