/**
 * All configured datasets by name, built once at cold start without I/O (rasters open lazily). A request names
 * one dataset or several separated by commas (`/v1/srtm,etopo`): the latter is a fallback chain.
 */
import path from 'node:path';
import type { ApiConfig, DatasetDefinition } from '../config/dataset-config';
import { isRemote, type RetryPolicy } from '../data/byte-source';
import { DatasetNotFoundError, InvalidDatasetChainError } from '../errors';
import type { Raster } from '../raster/raster';
import type { Dataset } from '../types';
import { FallbackDataset } from './multi-dataset';
import { RasterDataset } from './raster-dataset';
import { RasterOpener } from './raster-opener';
import { joinLocation } from './tile-index';

export interface RegistryOptions extends RetryPolicy {
  /** Base for relative paths: a folder or URL prefix. */
  dataRoot: string;
  headerPrefetchBytes: number;
  /** See Settings.partialDecode. */
  partialDecode?: boolean;
  missingTtlMs: number;
  /** See RasterOpenerOptions.accept. */
  accept?: (raster: Raster) => void;
  /** Milliseconds clock of every cache expiry (the opener's, listings', VRT checks'); tests pass their own. */
  now?: () => number;
}

/** Most datasets a single request may chain with commas. */
const MAX_CHAIN = 10;

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const chain = registry.resolve('int16-nodata,plane-point'); // each point from the first with a value
 * const { datasets } = await chain.sampleAttributed([{ lat: 49.921875, lon: 10.078125 }], 'nearest');
 * assert.deepEqual(datasets, ['plane-point']);
 * assert.throws(() => registry.resolve('no-such-dataset'), DatasetNotFoundError);
 * ```
 */
export class DatasetRegistry {
  private readonly datasets = new Map<string, Dataset>();

  constructor(
    readonly config: ApiConfig,
    options: RegistryOptions,
  ) {
    const opener = new RasterOpener(options);
    for (const def of config.datasets.filter((d) => !d.childDatasets)) {
      this.datasets.set(def.name, rasterDataset(def, options, opener));
    }
    for (const def of config.datasets.filter((d) => d.childDatasets)) {
      this.datasets.set(
        def.name,
        new FallbackDataset(
          def.name,
          (def.childDatasets ?? []).map((c) => this.get(c)),
        ),
      );
    }
  }

  names(): string[] {
    return this.config.datasets.map((d) => d.name);
  }

  get(name: string): Dataset {
    const dataset = this.datasets.get(name);
    if (!dataset) this.notFound([name]);
    return dataset;
  }

  /** OpenTopoData's message (every unknown name), then the names there are. */
  private notFound(names: string[]): never {
    const listed = names.map((n) => n.slice(0, 100)).join(', ');
    throw new DatasetNotFoundError(
      `${names.length === 1 ? 'Dataset' : 'Datasets'} '${listed}' not in config. Available datasets: ${this.names().join(', ')}.`,
    );
  }

  /** "a" or "a,b,c" (fallback order). */
  resolve(spec: string): Dataset {
    // Empty names ("srtm,etopo,", "srtm,,etopo") are dropped, as OpenTopoData drops them.
    const names = spec
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    if (names.length === 0) {
      throw new InvalidDatasetChainError(
        `No valid dataset names provided. Name one in the path ('/v1/<dataset>'), or several with commas.`,
      );
    }
    if (names.length > MAX_CHAIN) {
      throw new InvalidDatasetChainError(
        `At most ${MAX_CHAIN} datasets may be chained with commas, got ${names.length}.`,
      );
    }
    const repeated = names.find((n, i) => names.indexOf(n) !== i);
    if (repeated !== undefined) {
      throw new InvalidDatasetChainError(
        `Duplicate dataset names provided. '${repeated.slice(0, 100)}' is named twice.`,
      );
    }
    const unknown = names.filter((n) => !this.datasets.has(n));
    if (unknown.length > 0) this.notFound(unknown);
    if (names.length === 1) return this.get(names[0]);
    this.refuseRepeatedChildren(names);
    return new FallbackDataset(
      names.join(','),
      names.map((n) => this.get(n)),
    );
  }

  /**
   * A chain naming a dataset twice once config `child_datasets` are expanded (`/v1/multi,srtm` where `multi`
   * holds `srtm`): the same 400 as one naming it twice outright (OpenTopoData answers a 500 config error).
   */
  private refuseRepeatedChildren(names: readonly string[]): void {
    const members = (name: string) =>
      this.config.datasets.find((d) => d.name === name)?.childDatasets ?? [name];
    const expanded = names.flatMap(members);
    const repeated = expanded.find((n, i) => expanded.indexOf(n) !== i);
    if (repeated === undefined) return;
    const sources = names
      .filter((n) => members(n).includes(repeated))
      .map((n) => (n === repeated ? `'${n}'` : `a child of '${n}'`));
    throw new InvalidDatasetChainError(
      `Duplicate dataset names provided. '${repeated}' is named twice, as ${sources.join(' and ')}.`,
    );
  }
}

function rasterDataset(
  def: DatasetDefinition,
  options: RegistryOptions,
  opener: RasterOpener,
): RasterDataset {
  const { dataRoot } = options;
  const rawPath = def.path ?? '';
  const location = isRemote(rawPath) || path.isAbsolute(rawPath) ? rawPath : joinLocation(dataRoot, rawPath);
  return new RasterDataset({
    name: def.name,
    location,
    tiling: def.filenameTileSize
      ? { filenameEpsg: def.filenameEpsg, tileSize: def.filenameTileSize, template: def.tileTemplate }
      : null,
    verticalDatum: def.verticalDatum,
    wgs84Bounds: def.wgs84Bounds,
    opener,
    filenameEpsg: def.filenameEpsg,
    relistMs: options.missingTtlMs,
    now: options.now,
  });
}
