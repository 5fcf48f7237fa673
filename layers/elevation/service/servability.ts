/**
 * Whether every dataset and geoid grid of a datasets file can be served: each dataset opened (a header read or a
 * folder listing) and each geoid grid sampled at 0,0 (which opens it and checks that it covers the globe). Used by
 * `GET /health?deep=1` (503 naming each) and by `npm start` (refuses to report ready), so both check the same list.
 */
import type { DatasetRegistry } from '../dataset/registry';
import type { GeoidGrids } from '../datum/geoid-grids';
import type { Geoid } from '../datum/vertical-datum';
import type { CountedReads } from '../types';

export interface ServabilityCheck {
  /** The dataset's name, or `geoids.<geoid>` for a geoid grid (`geoids` when the grids could not be built). */
  readonly name: string;
  readonly kind: 'dataset' | 'geoid';
  readonly check: () => Promise<unknown>;
}

export interface Unservable {
  readonly name: string;
  readonly kind: ServabilityCheck['kind'];
  readonly reason: unknown;
}

/**
 * @example
 * ```ts
 * const config = 'layers/dem-sample/config.yaml';
 * const registry = loadDatasetRegistry({ configPath: config });
 * const grids = () => new GeoidGrids(readGeoidPaths(config), {
 *   dataRoot: 'layers/dem-sample', headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 2, missingTtlMs: 0,
 * });
 * const checks = servabilityChecks(registry, grids);
 * assert.deepEqual(checks.map((c) => c.name), ['sample', 'geoids.egm96']);
 * assert.deepEqual(await unservable(checks), []);
 * ```
 */
export function servabilityChecks(
  registry: DatasetRegistry,
  geoids: () => GeoidGrids,
  /** Where the checks' reads are counted and traced (`/health?deep=1`: its request). */
  counted: CountedReads = {},
): ServabilityCheck[] {
  const datasets = registry.names().map((name) => ({
    name,
    kind: 'dataset' as const,
    check: (): Promise<unknown> => registry.get(name).describe(counted),
  }));
  let grids: GeoidGrids;
  try {
    grids = geoids();
  } catch (error) {
    // A geoids: section that cannot be read (a blank or repeated grid): one failing check that names it.
    return [...datasets, { name: 'geoids', kind: 'geoid', check: () => Promise.reject(error as Error) }];
  }
  return [
    ...datasets,
    ...(Object.keys(grids.paths) as Geoid[]).map((geoid) => ({
      name: `geoids.${geoid}`,
      kind: 'geoid' as const,
      check: (): Promise<unknown> => grids.undulations(geoid, [{ lat: 0, lon: 0 }], counted),
    })),
  ];
}

/**
 * Runs every check at once; the ones that failed, in the order of `checks`, with the error each failed with.
 *
 * @example
 * ```ts
 * const failing = { name: 'broken', kind: 'dataset' as const, check: () => Promise.reject(new Error('gone')) };
 * const ok = { name: 'fine', kind: 'dataset' as const, check: () => Promise.resolve() };
 * const [failed, ...rest] = await unservable([ok, failing]);
 * assert.equal(failed.name, 'broken');
 * assert.equal(rest.length, 0);
 * ```
 */
export async function unservable(checks: readonly ServabilityCheck[]): Promise<Unservable[]> {
  const settled = await Promise.allSettled(checks.map(({ check }) => check()));
  return checks.flatMap(({ name, kind }, i) => {
    const outcome = settled[i];
    return outcome.status === 'rejected' ? [{ name, kind, reason: outcome.reason as unknown }] : [];
  });
}
