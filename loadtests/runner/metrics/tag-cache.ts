/**
 * Memoised tag sets: a request's tags are the same few combinations thousands of times a second
 * (scenario, group, name, method, status), so building, sorting and keying them once per
 * combination keeps the per-request cost of metrics low. Bounded: it stops caching past the limit.
 */
import { tagKey, type Tags } from './registry.ts';

export interface KeyedTags {
  readonly tags: Tags;
  readonly key: string;
}

const MAX_ENTRIES = 10_000;

export class TagCache {
  private readonly entries = new Map<string, KeyedTags>();

  get(signature: string, build: () => Tags): KeyedTags {
    const hit = this.entries.get(signature);
    if (hit) return hit;
    const tags = build();
    const entry = { tags, key: tagKey(tags) };
    if (this.entries.size < MAX_ENTRIES) this.entries.set(signature, entry);
    return entry;
  }
}
