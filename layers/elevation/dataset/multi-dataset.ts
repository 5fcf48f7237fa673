/**
 * `/v1/a,b` and config `child_datasets`: each point answered by the first dataset that has a value there (as
 * OpenTopoData's documentation states it: "the first non-null dataset elevation"). A point that is null in every
 * child counts as a nodata pixel when any child had a nodata pixel there, so `nodata_value` still applies to it,
 * and is labelled by the last child that had one (OpenTopoData labels it by the last child whose `wgs84_bounds`
 * hold it, else by the last child).
 */
import {
  DatasetBase,
  type Dataset,
  type CountedReads,
  type DatasetInfo,
  type Elevation,
  type Interpolation,
  type LatLon,
  type ReadContext,
  type SampleResult,
} from '../types';

export class FallbackDataset extends DatasetBase {
  constructor(
    readonly name: string,
    private readonly children: readonly Dataset[],
  ) {
    super();
  }

  async sampleAttributed(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<SampleResult> {
    const elevations: Elevation[] = new Array<Elevation>(points.length).fill(null);
    const nodataPixels: boolean[] = new Array<boolean>(points.length).fill(false);
    const datasets: string[] = [];
    let pending = points.map((_, i) => i);
    for (const child of this.children) {
      if (pending.length === 0) break;
      const answer = await child.sampleAttributed(
        pending.map((i) => points[i]),
        interpolation,
        ctx,
      );
      const stillMissing: number[] = [];
      pending.forEach((pointIndex, k) => {
        elevations[pointIndex] = answer.elevations[k];
        // A point without a value is labelled by the last child with a nodata pixel there (what `nodata_value`
        // stands for), not by a later one that does not cover it; with none, by the last child.
        const uncovered = answer.elevations[k] === null && !answer.nodataPixels[k];
        if (!(uncovered && nodataPixels[pointIndex])) datasets[pointIndex] = answer.datasets[k];
        if (answer.nodataPixels[k]) nodataPixels[pointIndex] = true;
        if (answer.elevations[k] === null) stillMissing.push(pointIndex);
      });
      pending = stillMissing;
    }
    for (let i = 0; i < points.length; i++) if (elevations[i] !== null) nodataPixels[i] = false;
    return { elevations, datasets, nodataPixels };
  }

  async describe(counted?: CountedReads): Promise<DatasetInfo> {
    const infos = await Promise.all(this.children.map((c) => c.describe(counted)));
    const boxes = infos.map((i) => i.bounds).filter((b): b is [number, number, number, number] => b !== null);
    return {
      name: this.name,
      bounds:
        boxes.length === 0
          ? null
          : [
              Math.min(...boxes.map((b) => b[0])),
              Math.min(...boxes.map((b) => b[1])),
              Math.max(...boxes.map((b) => b[2])),
              Math.max(...boxes.map((b) => b[3])),
            ],
      resolution: null,
      crs: null,
      pixelType: null,
      tileCount: null,
      verticalDatum: null,
      children: this.children.map((c) => c.name),
    };
  }
}
