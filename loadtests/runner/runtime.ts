/**
 * What k6 modules see inside one JavaScript runtime (the main thread's init context, or one VU's
 * thread): a metrics registry, the current VU and iteration, and the abort switch.
 */
import { defineBuiltins, type BuiltinMetrics } from './metrics/builtin.ts';
import { Registry, tagKey, type Metric, type Tags } from './metrics/registry.ts';
import { TagCache, type KeyedTags } from './metrics/tag-cache.ts';
import type { K6CookieJar } from './modules/cookies.ts';

/** The VU and iteration a call runs as (k6/execution reads it). */
export interface VuContext {
  idInTest: number;
  idInInstance: number;
  iterationInInstance: number;
  iterationInScenario: number;
  /** Index of this iteration among all of the scenario's iterations (all VUs). */
  iterationInTest: number;
  scenario: { name: string; executor: string; startTime: number; progress: number };
  /** Tags every sample of this VU gets: global tags, scenario tags, `scenario`. */
  tags: Tags;
  instance: {
    vusActive: number;
    vusInitialized: number;
    iterationsCompleted: number;
    iterationsInterrupted: number;
  };
}

export class AbortError extends Error {
  override name = 'AbortError';
}

export class Runtime {
  readonly registry = new Registry();
  readonly builtins: BuiltinMetrics = defineBuiltins(this.registry);
  /** Undefined in the init context and in setup/teardown (k6's VU 0 has no scenario). */
  vu: VuContext | undefined;
  /** Current group path (`::outer::inner`); setup/teardown run in `::setup`/`::teardown`. */
  group = '';
  /** True while the script's top level (the init context) runs: no HTTP there, as in k6. */
  inInit = true;
  /** The VU's cookie jar (k6/http makes it on first use; a VU thread drops it at each call unless noCookiesReset). */
  cookieJar: K6CookieJar | undefined;
  private readonly tagCache = new TagCache();

  constructor(
    readonly env: Record<string, string>,
    readonly globalTags: Tags,
    readonly allowRemote: boolean,
    readonly scriptDir: string,
    /** Epoch ms when the test started, for currentTestRunDuration and log timestamps (set again at the start). */
    public testStartedAt: number,
    readonly options: Record<string, unknown>,
    /** test.abort(): the hosting thread tells the engine, then the call unwinds. */
    readonly onAbort: (reason: string) => void = () => undefined,
    /** test.fail(): the hosting thread tells the engine; the test goes on. */
    readonly onFail: (reason: string) => void = () => undefined,
  ) {}

  /** Tags the script set on this VU (`exec.vu.metrics.tags`), kept across its iterations, as in k6. */
  private readonly vuTags: Tags = {};
  /** vuTags as a cache-key part: the same tags give the same key, however often they are set. */
  private vuTagsKey = '';

  /** Sets (a value) or removes (undefined) one of the VU's own tags. */
  setVuTag(name: string, value: string | undefined): void {
    if (value === undefined) delete this.vuTags[name];
    else this.vuTags[name] = value;
    this.vuTagsKey = Object.keys(this.vuTags)
      .sort()
      .map((k) => `${k}\u0004${this.vuTags[k]}`)
      .join('\u0005');
  }

  /** The VU's own tags (a copy): the engine adds them to the iteration's samples. */
  ownVuTags(): Tags {
    return { ...this.vuTags };
  }

  /** Signature of the base tags (VU tags + group) for tag-cache lookups. */
  private baseSignature(): string {
    const vu = this.vu;
    const own = this.vuTagsKey;
    return vu ? `${vu.scenario.name}\u0001${this.group}\u0001${own}` : `\u0002${this.group}\u0001${own}`;
  }

  /** baseTags() plus `extra()` (built on a cache miss only), memoised by `signature`, which must determine it. */
  tagsFor(signature: string, extra?: () => Tags): KeyedTags {
    return this.tagCache.get(`${this.baseSignature()}\u0003${signature}`, () => ({
      ...this.baseTags(),
      ...extra?.(),
    }));
  }

  baseTags(): Tags {
    const vu = this.vu;
    return { ...(vu ? vu.tags : this.globalTags), ...this.vuTags, group: this.group };
  }

  record(metric: Metric, value: number, tags: Tags, key = tagKey(tags)): void {
    this.registry.add(metric, value, tags, key);
  }

  abort(reason: string): never {
    this.onAbort(reason);
    throw new AbortError(reason);
  }

  elapsedMs(): number {
    return Date.now() - this.testStartedAt;
  }
}
