"""GDAL's own answers for points on a raster: the reference the elevation library is compared with.

- nearest: what `gdallocationinfo -valonly -wgs84 FILE` prints, all points through stdin in one process;
  an empty line (outside) or the nodata value (or NaN) becomes None.
- bilinear / cubic: GDAL's RasterIO resampling (GRIORA_Bilinear / GRIORA_Cubic) with a 1x1 buffer whose
  window is centred on the point. GDAL resamples in the band's data type (Int16 results would be rounded)
  and renormalises around nodata, so the pixels around the point are first read as Float64 into an in-memory
  raster without nodata and resampled there. Only points whose window lies inside the raster and holds no
  nodata get a value; others get None (not asserted).
"""

import math
import struct
import subprocess

import numpy as np
from osgeo import gdal, osr

RESAMPLE = {"bilinear": (gdal.GRIORA_Bilinear, 1), "cubic": (gdal.GRIORA_Cubic, 2)}


def wgs84_to(ds):
    """Transform (lon, lat) -> dataset CRS (x, y); GIS axis order on both sides."""
    wgs, dst = osr.SpatialReference(), osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    dst.ImportFromWkt(ds.GetProjection())
    for s in (wgs, dst):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(wgs, dst)
    return lambda lon, lat: ct.TransformPoint(lon, lat)[:2]


def is_nodata(value, nodata, float32):
    if value is None or math.isnan(value):
        return True
    if nodata is None or math.isnan(nodata):
        return False
    # gdallocationinfo prints 15 significant digits: compare -3.4028234663852886e38 in Float32.
    return value == nodata or (float32 and np.float32(value) == np.float32(nodata))


def nearest(path, lonlats, nodata, float32):
    stdin = "".join(f"{lon!r} {lat!r}\n" for lon, lat in lonlats)
    out = subprocess.run(["gdallocationinfo", "-valonly", "-wgs84", path], input=stdin,
                         capture_output=True, text=True, check=True).stdout
    lines = out.split("\n")
    if len(lines) < len(lonlats):
        raise RuntimeError(f"gdallocationinfo printed {len(lines)} lines for {len(lonlats)} points")
    values = [None if line.strip() == "" else float(line) for line in lines[: len(lonlats)]]
    return [None if is_nodata(v, nodata, float32) else v for v in values]


def resampled(ds, to_crs, lon, lat, alg):
    """GDAL's bilinear/cubic at one point, or None if the window holds nodata or leaves the raster (beyond
    what GDAL reads: at the edge, where the point's 1x1 read window is inside, see edge_resampled)."""
    gra, radius = RESAMPLE[alg]
    band = ds.GetRasterBand(1)
    gt = ds.GetGeoTransform()
    x, y = to_crs(lon, lat)
    px, py = (x - gt[0]) / gt[1], (y - gt[3]) / gt[5]
    c0, r0 = math.floor(px - 0.5) - (radius - 1), math.floor(py - 0.5) - (radius - 1)
    size = 2 * radius
    if c0 < 0 or r0 < 0 or c0 + size > ds.RasterXSize or r0 + size > ds.RasterYSize:
        return edge_resampled(ds, px, py, c0, r0, size, gra)
    pixels = band.ReadAsArray(c0, r0, size, size).astype(np.float64)
    nodata = band.GetNoDataValue()
    if np.isnan(pixels).any() or (nodata is not None and (pixels == nodata).any()):
        return None
    # Pad by 2 so GDAL's kernel never touches the MEM raster's edge, then resample at the same offset.
    pad = 2
    # An in-memory GTiff, not MEM: MEM's RasterIO ignores a fractional window when no scaling is asked.
    mem = gdal.GetDriverByName("GTiff").Create("/vsimem/ref.tif", size + 2 * pad, size + 2 * pad, 1,
                                               gdal.GDT_Float64)
    mem.GetRasterBand(1).WriteArray(np.pad(pixels, pad, mode="edge"))
    raw = mem.GetRasterBand(1).ReadRaster(px - c0 + pad - 0.5, py - r0 + pad - 0.5, 1, 1, buf_xsize=1,
                                          buf_ysize=1, buf_type=gdal.GDT_Float64, resample_alg=gra)
    mem = None
    gdal.Unlink("/vsimem/ref.tif")
    return struct.unpack("d", raw)[0]


def edge_resampled(ds, px, py, c0, r0, size, gra):
    """At the raster's edge GDAL's RasterIO clamps its kernel to the raster and renormalises the weights: read
    where the 1x1 window around the point is inside (RasterIO refuses it otherwise), from an in-memory copy whose
    edges are the raster's own edges on the sides the window leaves (Float64, so Int16 is not rounded)."""
    w, h = ds.RasterXSize, ds.RasterYSize
    if px - 0.5 < 0 or py - 0.5 < 0 or px + 0.5 > w or py + 0.5 > h:
        return None
    band = ds.GetRasterBand(1)
    x0, y0 = max(0, c0), max(0, r0)
    x1, y1 = min(w, c0 + size), min(h, r0 + size)
    pixels = band.ReadAsArray(x0, y0, x1 - x0, y1 - y0).astype(np.float64)
    nodata = band.GetNoDataValue()
    if np.isnan(pixels).any() or (nodata is not None and (pixels == nodata).any()):
        return None
    # Padded (edge values) only on the sides the window does not leave, so the kernel meets the copy's edge
    # exactly where it meets the raster's.
    pads = ((2 if r0 >= 0 else 0, 2 if r0 + size <= h else 0), (2 if c0 >= 0 else 0, 2 if c0 + size <= w else 0))
    mem = gdal.GetDriverByName("GTiff").Create("/vsimem/edge.tif", x1 - x0 + sum(pads[1]),
                                               y1 - y0 + sum(pads[0]), 1, gdal.GDT_Float64)
    mem.GetRasterBand(1).WriteArray(np.pad(pixels, pads, mode="edge"))
    raw = mem.GetRasterBand(1).ReadRaster(px - x0 + pads[1][0] - 0.5, py - y0 + pads[0][0] - 0.5, 1, 1,
                                          buf_xsize=1, buf_ysize=1, buf_type=gdal.GDT_Float64, resample_alg=gra)
    mem = None
    gdal.Unlink("/vsimem/edge.tif")
    return struct.unpack("d", raw)[0]


def numpy_bilinear(ds, to_crs, lon, lat):
    """The same bilinear written out in numpy, as an independent cross-check of GDAL's."""
    gt = ds.GetGeoTransform()
    x, y = to_crs(lon, lat)
    px, py = (x - gt[0]) / gt[1] - 0.5, (y - gt[3]) / gt[5] - 0.5
    c0, r0 = math.floor(px), math.floor(py)
    w = ds.GetRasterBand(1).ReadAsArray(c0, r0, 2, 2).astype(np.float64)
    fx, fy = px - c0, py - r0
    return float((w[0, 0] * (1 - fx) + w[0, 1] * fx) * (1 - fy) + (w[1, 0] * (1 - fx) + w[1, 1] * fx) * fy)


def renormalised_bilinear(ds, to_crs, lon, lat):
    """For a 2x2 window inside the raster that holds nodata: bilinear over the valid pixels with weights
    renormalised (the library's documented policy, GDAL-warper-like); None if no valid weight remains or the
    window leaves the raster. GDAL's RasterIO cannot serve as reference here (it propagates NaN)."""
    band = ds.GetRasterBand(1)
    gt = ds.GetGeoTransform()
    x, y = to_crs(lon, lat)
    px, py = (x - gt[0]) / gt[1] - 0.5, (y - gt[3]) / gt[5] - 0.5
    c0, r0 = math.floor(px), math.floor(py)
    if c0 < 0 or r0 < 0 or c0 + 2 > ds.RasterXSize or r0 + 2 > ds.RasterYSize:
        return None
    w = band.ReadAsArray(c0, r0, 2, 2).astype(np.float64)
    nodata = band.GetNoDataValue()
    if nodata is not None and not math.isnan(nodata):
        w[w == nodata] = np.nan
    fx, fy = px - c0, py - r0
    weights = np.array([[(1 - fx) * (1 - fy), fx * (1 - fy)], [(1 - fx) * fy, fx * fy]])
    valid = ~np.isnan(w)
    total = weights[valid].sum()
    if total <= 1e-9:
        return None
    return float((w[valid] * weights[valid]).sum() / total)
