#!/usr/bin/python3
"""Builds the large synthetic dataset `npm run bench:scale` measures (called by scripts/bench/scale-dataset.ts).

Usage: scale_dataset.py SRTM_DIR OUT_DIR TILES_ACROSS

TILES_ACROSS^2 one-degree tiles N45E006.tif ... laid out as Copernicus GLO-30 ships them: 3601x3601 Float32
(1 arc-second, pixel-is-point, pixel centres on whole degrees as SRTM 1"), DEFLATE with PREDICTOR=3, 1024-px
blocks, overviews. Terrain with real-DEM statistics: each tile is one of the real SRTM3 tiles from
../shared/dem/srtm3-germany, turned or mirrored (so neighbours differ), re-scaled in relief, cubic-upsampled 3x
and given ~0.6 m of Gaussian sensor noise, which is what makes 1" DEM floats nearly incompressible (a smooth
upsample alone would compress 3-4x better than real data and flatter every byte figure). Seeded: the same
command writes the same values. A tile is written under a temporary name and renamed, so an interrupted build
resumes where it stopped.
"""
import os
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()

SIZE = 3601  # 1 arc-second with both edge rows, as SRTM 1" (.hgt) tiles
NOISE_M = 0.6  # Copernicus GLO-30's height noise is of this order (its spec: < 4 m absolute, ~1 m relative)
SOUTH, WEST = 45, 6  # the first tile's south-west corner: central Europe, as the SRTM sources


def source_tiles(srtm_dir):
    tiles = []
    for name in ("N48E009.hgt", "N48E010.hgt"):
        values = gdal.Open(os.path.join(srtm_dir, name)).ReadAsArray().astype(np.float32)
        voids = values == -32768
        values[voids] = float(np.median(values[~voids]))  # a few dozen voids: fill, never write nodata
        tiles.append(values)
    return tiles


def terrain(sources, index, rng):
    values = sources[index % len(sources)]
    values = np.rot90(values, k=(index // 2) % 4)
    if (index // 8) % 2:
        values = np.fliplr(values)
    base = float(values.min())
    relief = rng.uniform(0.6, 2.5)  # flatlands to low mountains
    values = (values - base) * relief + base + rng.uniform(-100.0, 400.0)
    source = gdal.GetDriverByName("MEM").Create("", values.shape[1], values.shape[0], 1, gdal.GDT_Float32)
    source.GetRasterBand(1).WriteArray(np.ascontiguousarray(values, dtype=np.float32))
    upsampled = gdal.Translate("", source, format="MEM", width=SIZE, height=SIZE, resampleAlg="cubic")
    heights = upsampled.GetRasterBand(1).ReadAsArray()
    heights += rng.normal(0.0, NOISE_M, heights.shape).astype(np.float32)
    return heights


def write_tile(path, heights, lat, lon):
    step = 1.0 / (SIZE - 1)
    mem = gdal.GetDriverByName("MEM").Create("", SIZE, SIZE, 1, gdal.GDT_Float32)
    # Corner of the first pixel's area: its centre sits on the whole degree (pixel-is-point below).
    mem.SetGeoTransform((lon - step / 2, step, 0.0, lat + 1 + step / 2, 0.0, -step))
    mem.SetProjection('GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
                      'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]')
    mem.SetMetadataItem("AREA_OR_POINT", "Point")
    mem.GetRasterBand(1).WriteArray(heights)
    temporary = path + ".partial"
    gdal.Translate(temporary, mem, format="COG", creationOptions=[
        "COMPRESS=DEFLATE", "PREDICTOR=YES", "BLOCKSIZE=1024", "NUM_THREADS=2"])
    os.replace(temporary, path)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: scale_dataset.py SRTM_DIR OUT_DIR TILES_ACROSS")
    srtm_dir, out_dir, across = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(out_dir, exist_ok=True)
    sources = source_tiles(srtm_dir)
    for row in range(across):
        for col in range(across):
            index = row * across + col
            lat, lon = SOUTH + row, WEST + col
            path = os.path.join(out_dir, f"N{lat:02d}E{lon:03d}.tif")
            rng = np.random.default_rng(1000 + index)  # per tile, so a resumed build writes the same values
            if os.path.exists(path):
                continue
            write_tile(path, terrain(sources, index, rng), lat, lon)
            print(f"  {os.path.basename(path)} {os.path.getsize(path) / 1e6:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
