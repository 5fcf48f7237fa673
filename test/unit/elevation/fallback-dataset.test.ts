/** A dataset of datasets (`/v1/a,b`, `child_datasets`): what /v1/datasets says about it. */
import { FallbackDataset } from '../../../layers/elevation/dataset/multi-dataset';
import { DatasetBase, type DatasetInfo, type LatLon } from '../../../layers/elevation/types';

class Child extends DatasetBase {
  constructor(
    readonly name: string,
    private readonly bounds: DatasetInfo['bounds'],
  ) {
    super();
  }
  async sampleAttributed(points: readonly LatLon[]) {
    return {
      elevations: points.map(() => null),
      datasets: points.map(() => this.name),
      nodataPixels: points.map(() => false),
    };
  }
  async describe(): Promise<DatasetInfo> {
    return {
      name: this.name,
      bounds: this.bounds,
      resolution: [1, 1],
      crs: 'EPSG:4326',
      pixelType: 'Float32',
      tileCount: 1,
      verticalDatum: null,
    };
  }
}

describe('FallbackDataset.describe', () => {
  it('bounds the union of its children, whichever child holds each extreme', async () => {
    const info = await new FallbackDataset('both', [
      new Child('west', [-10, 40, 5, 50]),
      new Child('unknown', null),
      new Child('east', [0, 35, 20, 45]),
    ]).describe();
    expect(info).toEqual({
      name: 'both',
      bounds: [-10, 35, 20, 50],
      resolution: null,
      crs: null,
      pixelType: null,
      tileCount: null,
      verticalDatum: null,
      children: ['west', 'unknown', 'east'],
    });
  });

  it('takes each extreme from any child, not only the first', async () => {
    const info = await new FallbackDataset('both', [
      new Child('inner', [0, 0, 1, 1]),
      new Child('outer', [-5, -6, 7, 8]),
    ]).describe();
    expect(info.bounds).toEqual([-5, -6, 7, 8]);
  });

  it('has no bounds when no child knows its own', async () => {
    const info = await new FallbackDataset('vague', [new Child('a', null), new Child('b', null)]).describe();
    expect(info.bounds).toBeNull();
  });
});
