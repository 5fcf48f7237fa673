/** `/v1/a,b` and config `child_datasets`: each point answered by the first dataset that has a value there. */
import {
  DatasetBase,
  type Dataset,
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
        datasets[pointIndex] = answer.datasets[k];
        if (answer.elevations[k] === null) stillMissing.push(pointIndex);
      });
      pending = stillMissing;
    }
    return { elevations, datasets };
  }

  async describe(): Promise<DatasetInfo> {
    const infos = await Promise.all(this.children.map((c) => c.describe()));
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
