#!/usr/bin/python3
"""Prints the OpenTopoData config entry for a folder of COG tiles (used by scripts/make-cog-dataset.sh).

filename_epsg / filename_tile_size are inferred from the tile names, the way the API parses them:
  N48E009.tif, Copernicus_DSM_COG_10_N48_00_E009_00_DEM.tif -> EPSG:4326, 1-degree tiles;
  N2800000E4250000.tif (lower-left corner in projected units) -> the raster's EPSG, tile size = the
  smallest step between corners (or, for a single tile, its width).
A folder holding one raster that matches no pattern becomes a single-file dataset.

Usage: dataset_entry.py FOLDER NAME
"""

import os
import re
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
DEGREE = re.compile(r"^[NS]\d{2}[EW]\d{3}")
COPERNICUS = re.compile(r"^Copernicus_DSM_COG_\d{2}_[NS]\d{2}_00_[EW]\d{3}_00_DEM")
PROJECTED = re.compile(r"^N(\d{4,})E(\d{4,})")


def raster_epsg(path):
    srs = osr.SpatialReference(wkt=gdal.Open(path).GetProjection())
    srs.AutoIdentifyEPSG()
    code = srs.GetAuthorityCode(None)
    if code is None:
        raise SystemExit(f"{path}: CRS has no EPSG code; set filename_epsg by hand")
    return int(code)


def tile_size(corners, path):
    steps = {abs(a - b) for a in corners for b in corners if a != b}
    if steps:
        return min(steps)
    ds = gdal.Open(path)
    return round(ds.RasterXSize * ds.GetGeoTransform()[1])


def entry(folder, name):
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith((".tif", ".tiff")))
    if not files:
        raise SystemExit(f"no GeoTIFFs in {folder}")
    lines = [f"  - name: {name}", f"    path: {folder.rstrip('/')}/"]
    if all(DEGREE.match(f) or COPERNICUS.match(f) for f in files):
        return lines + ["    filename_epsg: 4326", "    filename_tile_size: 1"]
    matches = [PROJECTED.match(f) for f in files]
    if all(matches):
        first = os.path.join(folder, files[0])
        xs = {int(m.group(2)) for m in matches}
        ys = {int(m.group(1)) for m in matches}
        size = min(tile_size(xs, first), tile_size(ys, first))
        return lines + [f"    filename_epsg: {raster_epsg(first)}", f"    filename_tile_size: {size}"]
    if len(files) == 1:
        return [f"  - name: {name}", f"    path: {os.path.join(folder, files[0])}"]
    raise SystemExit(f"{folder}: tile names match no known pattern (N48E009, Copernicus_DSM_COG_…, N2000000E4000000)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: dataset_entry.py FOLDER NAME")
    print("\n".join(entry(sys.argv[1], sys.argv[2])))
