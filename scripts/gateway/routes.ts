/**
 * The HTTP API's routes as serverless.yml declares them (`functions.*.events[].httpApi`), matched the way API
 * Gateway matches them: literal segments first, `{name}` for one segment, `{name+}` for the rest. The local
 * gateway uses this to answer unknown routes itself and to queue requests per function.
 */
import fs from 'node:fs';
import { parse } from 'yaml';

export interface ApiRoute {
  functionName: string;
  method: string; // upper case, or '*'
  path: string;
  segments: string[];
}

interface ServerlessFile {
  functions?: Record<string, { events?: { httpApi?: { method?: string; path?: string } | string }[] }>;
}

export function loadRoutes(serverlessYmlPath: string): ApiRoute[] {
  const doc = parse(fs.readFileSync(serverlessYmlPath, 'utf8')) as ServerlessFile;
  const routes: ApiRoute[] = [];
  for (const [functionName, fn] of Object.entries(doc.functions ?? {})) {
    for (const event of fn.events ?? []) {
      const api = event.httpApi;
      if (!api || typeof api === 'string') continue;
      if (!api.path) continue;
      routes.push({
        functionName,
        method: (api.method ?? '*').toUpperCase(),
        path: api.path,
        segments: splitPath(api.path),
      });
    }
  }
  return routes;
}

/**
 * A path's segments without its trailing slashes (`/v1/` is `/v1`, as API Gateway routes it). An empty segment
 * inside (`/v1//sample`, `//health`) stays, and matches no literal or `{param}`: such a path has no route (it was
 * matched, then forwarded as it came, and serverless-offline's own 404 listed its route table).
 */
function splitPath(path: string): string[] {
  return trimSlashes(path).split('/').slice(1);
}

/** The route for `method path`, most specific first (literal beats `{param}`); null when none matches. */
export function matchRoute(routes: readonly ApiRoute[], method: string, path: string): ApiRoute | null {
  const segments = splitPath(path);
  let best: ApiRoute | null = null;
  let bestScore = -1;
  for (const route of routes) {
    if (route.method !== '*' && route.method !== method && !(method === 'HEAD' && route.method === 'GET'))
      continue;
    const score = matchScore(route.segments, segments);
    if (score > bestScore || (score === bestScore && best?.method === '*' && route.method !== '*')) {
      best = route;
      bestScore = score;
    }
  }
  return best;
}

/** -1 when the pattern does not match; otherwise the count of literal segments (more is more specific). */
function matchScore(pattern: readonly string[], segments: readonly string[]): number {
  let literal = 0;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (/^\{.+\+\}$/.test(p)) return i < segments.length ? literal : -1;
    if (i >= segments.length || segments[i] === '') return -1;
    if (/^\{.+\}$/.test(p)) continue;
    if (p !== segments[i]) return -1;
    literal++;
  }
  return pattern.length === segments.length ? literal : -1;
}

export function describeRoutes(routes: readonly ApiRoute[]): string {
  return [
    ...new Set(
      routes
        .filter((r) => r.method !== 'OPTIONS')
        .map((r) => `${r.method === '*' ? 'ANY' : r.method} ${r.path}`),
    ),
  ].join(', ');
}

/** `path` without its trailing slashes, in one pass (/\/+$/ tries every slash of a run: n² on '////…x'). */
export function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}
