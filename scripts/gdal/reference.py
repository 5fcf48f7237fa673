#!/usr/bin/python3
"""GDAL reference elevations for the real-data suite (test/realdata): JSON spec on stdin, JSON on stdout.

stdin:  {"cases": [{"id": "srtm3", "files": ["/abs/a.tif", ...], "count": 300, "seed": 1,
                    "extraPoints": [{"lat": 34.0, "lon": -118.0, "kind": "corner"}],
                    "extraProjected": [{"x": 4000100.0, "y": 2500000.0, "kind": "seam"}],
                    "tileCells": {"size": 1000000, "lowerLeft": [[3000000, 2000000]]}}]}
stdout: {"cases": [{"id": ..., "raster": {...}, "points": [{"lat", "lon", "kind", "nearest",
                    "bilinear"?, "cubic"?}], "bilinearNumpyMaxDiff": ...}]}

Several files are mosaicked through a VRT (how a tiled dataset must behave: seamless across tile edges).
With "tileCells" (tiles named by their lower-left corner, in the rasters' CRS units), points outside the
named cells but inside a tile's buffer get "nullAllowed": a tiled dataset may pick tiles by name (null
there, as OpenTopoData does) or by raster extent (GDAL's value); bilinear/cubic windows reaching beyond the
named cells are not asserted.
Points are made in pixel space so the kinds are exact: pixel centres, random, within half a pixel inside
and outside each outer edge, corners, next to block edges, and nodata pixels; then projected to WGS84.
nearest = gdallocationinfo -valonly -wgs84 (null for nodata/outside); bilinear/cubic = GDAL RasterIO
resampling where the window is inside the raster and holds no nodata (absent otherwise), with the bilinear
one cross-checked against numpy (its largest difference is reported). Where the 2x2 window is inside but
holds nodata and the point's own pixel is valid, "bilinearNextToNodata" is the renormalised bilinear of
the valid pixels (the library's documented nodata policy), computed in numpy from GDAL-read pixels.

Run with Debian's python3 (python3-gdal, numpy): /usr/bin/python3 scripts/gdal/reference.py < spec.json
"""

import json
import math
import os
import random
import sys
import tempfile

import numpy as np
from osgeo import gdal, osr

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gdal_reference as ref  # noqa: E402

gdal.UseExceptions()
MIN_FRACTION = 1e-4  # keep points this far (in pixels) from pixel edges, so float noise cannot flip a pixel


def to_wgs84(ds):
    src, wgs = osr.SpatialReference(), osr.SpatialReference()
    src.ImportFromWkt(ds.GetProjection())
    wgs.ImportFromEPSG(4326)
    for s in (src, wgs):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(src, wgs)
    return lambda x, y: ct.TransformPoint(x, y)[:2]


def pixel_points(ds, count, rng):
    """(px, py, kind) in GDAL pixel space (pixel (0,0) spans [0,1) x [0,1))."""
    w, h = ds.RasterXSize, ds.RasterYSize
    bw, bh = ds.GetRasterBand(1).GetBlockSize()
    u = lambda a, b: rng.uniform(a, b)  # noqa: E731
    pts = [(rng.randrange(w) + 0.5, rng.randrange(h) + 0.5, "centre") for _ in range(count // 8)]
    pts += [(u(0, w), u(0, h), "random") for _ in range(count // 2)]
    for _ in range(max(2, count // 40)):
        for d in (u(0.05, 0.45), -u(0.05, 0.45)):  # inside, then outside
            kind = "edge-inside" if d > 0 else "edge-outside"
            pts += [(d, u(0, h), kind), (w - d, u(0, h), kind), (u(0, w), d, kind), (u(0, w), h - d, kind)]
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h)):
        for d in (0.25, -0.25):
            pts.append((cx + (d if cx == 0 else -d), cy + (d if cy == 0 else -d), "corner"))
    for _ in range(count // 16):  # windows that straddle block edges
        if w > bw:
            pts.append((bw * rng.randrange(1, math.ceil(w / bw)) + u(-0.9, 0.9), u(0, h), "block-edge"))
        if h > bh:
            pts.append((u(0, w), bh * rng.randrange(1, math.ceil(h / bh)) + u(-0.9, 0.9), "block-edge"))
    return pts + nodata_points(ds, rng, count // 10)


def nodata_points(ds, rng, limit):
    band = ds.GetRasterBand(1)
    nodata = band.GetNoDataValue()
    values = band.ReadAsArray()
    mask = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    if nodata is not None and not math.isnan(nodata):
        mask |= values == nodata
    rows, cols = np.nonzero(mask)
    picks = rng.sample(range(len(rows)), min(limit, len(rows)))
    pts = []
    for i in sorted(picks):
        pts.append((cols[i] + 0.5, rows[i] + 0.5, "nodata"))
        pts.append((cols[i] + 0.5 + rng.choice((-1, 1)) * 0.7, rows[i] + 0.5, "next-to-nodata"))
    return pts


def edge_points(ds, count, rng, lonlat):
    """Points exactly on inner pixel edges and corners (x = gt0 + col * gt1, as rasterio and GDAL place them), on
    geographic rasters only: there WGS84 degrees are the raster's own coordinates, so both sides meet the same tie
    (through a projection, an ulp of PROJ against proj4 decides it). gdallocationinfo floors the inverse
    geotransform; the library must pick the same pixel. Single files only: on a mosaic GDAL disagrees with
    itself (its VRT's origin is another float than the tile's, so a tie can land in the other pixel: 240.0
    through gdalbuildvrt's VRT of the Los Angeles crops, 230.2 from the tile, which is what the library and
    OpenTopoData read)."""
    srs = ds.GetSpatialRef()
    if srs is None or not srs.IsGeographic():
        return []
    w, h = ds.RasterXSize, ds.RasterYSize
    gt = ds.GetGeoTransform()
    pts = []
    for _ in range(max(3, count // 30)):
        col, row = rng.randrange(1, w), rng.randrange(1, h)
        for px, py in ((col, row + 0.5), (col + 0.5, row), (col, row)):  # west edge, north edge, corner
            lon, lat = lonlat(gt[0] + px * gt[1], gt[3] + py * gt[5])
            pts.append({"lat": lat, "lon": lon, "kind": "pixel-edge"})
    return pts


def away_from_edges(p):
    def ok(v):
        f = v - math.floor(v)
        return MIN_FRACTION < f < 1 - MIN_FRACTION

    return ok(p[0]) and ok(p[1])


def cell_test(cells):
    """(x, y) in the rasters' CRS -> is it inside a named tile cell? Always true without tileCells."""
    if not cells:
        return lambda x, y: True
    size, named = cells["size"], {tuple(c) for c in cells["lowerLeft"]}
    return lambda x, y: (math.floor(x / size) * size, math.floor(y / size) * size) in named


def window_in_cells(in_cells, gt, x, y, radius):
    """Whether every pixel centre of the 2x2 (radius 1) or 4x4 (radius 2) window lies in a named cell."""
    px, py = (x - gt[0]) / gt[1] - 0.5, (y - gt[3]) / gt[5] - 0.5
    c0, r0 = math.floor(px) - (radius - 1), math.floor(py) - (radius - 1)
    return all(in_cells(gt[0] + (c + 0.5) * gt[1], gt[3] + (r + 0.5) * gt[5])
               for c in range(c0, c0 + 2 * radius) for r in range(r0, r0 + 2 * radius))


def run_case(case, tmp):
    files = case["files"]
    path = files[0]
    if len(files) > 1:
        path = os.path.join(tmp, case["id"] + ".vrt")
        gdal.BuildVRT(path, files)
    ds = gdal.Open(path)
    band = ds.GetRasterBand(1)
    gt = ds.GetGeoTransform()
    lonlat = to_wgs84(ds)
    rng = random.Random(case.get("seed", 1))
    points = []
    for px, py, kind in filter(away_from_edges, pixel_points(ds, case.get("count", 300), rng)):
        lon, lat = lonlat(gt[0] + px * gt[1], gt[3] + py * gt[5])
        points.append({"lat": lat, "lon": lon, "kind": kind})
    if len(files) == 1:
        points += edge_points(ds, case.get("count", 300), rng, lonlat)
    points += [dict(p) for p in case.get("extraPoints", [])]
    for p in case.get("extraProjected", []):  # x/y in the rasters' CRS, e.g. along a tile seam
        lon, lat = lonlat(p["x"], p["y"])
        points.append({"lat": lat, "lon": lon, "kind": p["kind"]})
    float32 = band.DataType in (gdal.GDT_Float32, gdal.GDT_Float64)
    nodata = band.GetNoDataValue()
    nearest = ref.nearest(path, [(p["lon"], p["lat"]) for p in points], nodata, float32)
    to_crs = ref.wgs84_to(ds)
    max_diff = 0.0
    in_cells = cell_test(case.get("tileCells"))
    for p, value in zip(points, nearest):
        p["nearest"] = value
        x, y = to_crs(p["lon"], p["lat"])
        if not in_cells(x, y):
            p["kind"], p["nullAllowed"] = p["kind"] + ":outside-named-tiles", True
        for alg, radius in (("bilinear", 1), ("cubic", 2)):
            v = ref.resampled(ds, to_crs, p["lon"], p["lat"], alg)
            # A window reaching into a tile's buffer beyond the named cells: library-defined, not asserted.
            if v is not None and window_in_cells(in_cells, gt, x, y, radius):
                p[alg] = v
        if "bilinear" not in p and p["nearest"] is not None and window_in_cells(in_cells, gt, x, y, 1):
            v = ref.renormalised_bilinear(ds, to_crs, p["lon"], p["lat"])
            if v is not None and v != p.get("bilinear"):
                p["bilinearNextToNodata"] = v
        if "bilinear" in p:
            max_diff = max(max_diff, abs(p["bilinear"] - ref.numpy_bilinear(ds, to_crs, p["lon"], p["lat"])))
    raster = {"path": path, "size": [ds.RasterXSize, ds.RasterYSize], "geotransform": list(gt),
              "nodata": None if nodata is None or math.isnan(nodata) else nodata,
              "areaOrPoint": ds.GetMetadataItem("AREA_OR_POINT")}
    return {"id": case["id"], "raster": raster, "points": points, "bilinearNumpyMaxDiff": max_diff}


def main():
    spec = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        out = {"gdalVersion": gdal.__version__, "cases": [run_case(c, tmp) for c in spec["cases"]]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
