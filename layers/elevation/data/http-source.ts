/** HTTP(S) Range requests: the local data-layer server, a CDN, or a public bucket over HTTPS. */
import { DataSourceUnavailableError, SourceNotFoundError } from '../errors';
import { TransientSourceError, type RangeReader } from './byte-source';

export class HttpSource implements RangeReader {
  constructor(readonly url: string) {}

  async readRange(offset: number, length: number, signal: AbortSignal): Promise<Uint8Array> {
    const response = await fetch(this.url, {
      headers: { Range: `bytes=${offset}-${offset + length - 1}` },
      signal,
    });
    if (response.status === 206) return new Uint8Array(await response.arrayBuffer());
    if (response.status === 416) {
      await response.body?.cancel();
      return new Uint8Array(0);
    }
    if (response.status === 200) {
      // A server that ignores Range sends the whole file: correct, but slow; keep only what was asked.
      const all = new Uint8Array(await response.arrayBuffer());
      return all.subarray(offset, offset + length);
    }
    await response.body?.cancel();
    if (response.status === 404) throw new SourceNotFoundError(this.url);
    if (response.status >= 500 || response.status === 429) {
      throw new TransientSourceError(`HTTP ${response.status} from ${this.url}`);
    }
    throw new DataSourceUnavailableError(`HTTP ${response.status} from ${this.url}`);
  }
}
