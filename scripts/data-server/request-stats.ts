/**
 * Counters served at `/_stats`, so tests and benchmarks can assert how the API reads data
 * ("a cold point costs 1 range request") by diffing two snapshots. Per-file counters are kept only
 * for files that exist, so the map is bounded by the size of the data folder.
 */
export interface FileStats {
  requests: number;
  rangeRequests: number;
  bytes: number;
}

export interface DataServerStats {
  requests: number;
  rangeRequests: number;
  fullRequests: number;
  headRequests: number;
  notFound: number;
  unsatisfiable: number;
  bytesSent: number;
  files: Record<string, FileStats>;
}

export type ServedKind = 'range' | 'full' | 'head' | 'not-found' | 'unsatisfiable' | 'other';

export class RequestStats {
  private readonly totals = {
    requests: 0,
    rangeRequests: 0,
    fullRequests: 0,
    headRequests: 0,
    notFound: 0,
    unsatisfiable: 0,
    bytesSent: 0,
  };
  private readonly files = new Map<string, FileStats>();

  count(kind: ServedKind, file?: string): void {
    this.totals.requests += 1;
    if (kind === 'range') this.totals.rangeRequests += 1;
    if (kind === 'full') this.totals.fullRequests += 1;
    if (kind === 'head') this.totals.headRequests += 1;
    if (kind === 'not-found') this.totals.notFound += 1;
    if (kind === 'unsatisfiable') this.totals.unsatisfiable += 1;
    if (file === undefined) return;
    const fileStats = this.fileStats(file);
    fileStats.requests += 1;
    if (kind === 'range') fileStats.rangeRequests += 1;
  }

  addBytes(file: string, bytes: number): void {
    this.totals.bytesSent += bytes;
    this.fileStats(file).bytes += bytes;
  }

  snapshot(): DataServerStats {
    const files: Record<string, FileStats> = {};
    for (const [name, fileStats] of this.files) files[name] = { ...fileStats };
    return { ...this.totals, files };
  }

  private fileStats(file: string): FileStats {
    let fileStats = this.files.get(file);
    if (!fileStats) {
      fileStats = { requests: 0, rangeRequests: 0, bytes: 0 };
      this.files.set(file, fileStats);
    }
    return fileStats;
  }
}
