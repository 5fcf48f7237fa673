#!/usr/bin/python3
"""Prints the narrowest storage type that holds every value of a raster's first band exactly (npm run dem:optimize).

Usage: integer_fit.py RASTER

Prints one JSON object: {"type": "Int16" | "UInt16" | "Int32" | "Float32" | "Float64"}. An integer type is chosen
only when every value (nodata included) is a whole number inside its range and no value is NaN or infinite;
Float32 only when every value survives the Float64 -> Float32 -> Float64 round trip unchanged. Int64/UInt64, which
the API does not read, become the narrowest integer type that holds them, else Float64. The values judged are the
stored ones: a band scale/offset of the input is copied unchanged by gdal_translate (and applied by the API's
reader), so the heights stay. No scale is introduced: Float32(k * 0.1) differs from k * 0.1, so quantising floats
into a scaled integer type would change the heights answered (and a DEM in decimetres as Int16 rarely fits
anyway: 3,276.7 m is below the Alps).
"""
import json
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()
ROWS_PER_READ = 512  # ~15 MB of Float64 per read for a 3601-wide tile: big rasters never load whole
INTEGER_TYPES = (("Int16", -32768, 32767), ("UInt16", 0, 65535), ("Int32", -2147483648, 2147483647))


def narrowest(path):
    dataset = gdal.Open(path)
    band = dataset.GetRasterBand(1)
    declared = gdal.GetDataTypeName(band.DataType)
    if declared not in ("Float32", "Float64", "Int64", "UInt64"):
        return declared  # an integer type the API reads: nothing to narrow
    low, high, whole, float32_exact = np.inf, -np.inf, True, True
    nodata = band.GetNoDataValue()
    if nodata is not None:
        low, high = nodata, nodata
        whole = bool(np.isfinite(nodata) and float(nodata).is_integer())
    for row in range(0, dataset.RasterYSize, ROWS_PER_READ):
        rows = min(ROWS_PER_READ, dataset.RasterYSize - row)
        values = band.ReadAsArray(0, row, dataset.RasterXSize, rows).astype(np.float64)
        if not np.all(np.isfinite(values)):
            whole = False
            finite = values[np.isfinite(values)]
        else:
            finite = values
        if finite.size:
            low, high = min(low, float(finite.min())), max(high, float(finite.max()))
            whole = whole and bool(np.all(np.floor(finite) == finite))
        if declared != "Float32":
            float32_exact = float32_exact and bool(
                np.array_equal(values.astype(np.float32).astype(np.float64), values, equal_nan=True))
    if whole:
        for name, minimum, maximum in INTEGER_TYPES:
            if minimum <= low and high <= maximum:
                return name
    if declared in ("Int64", "UInt64"):
        # The API reads no 64-bit integers: Float64 holds every whole number up to 2^53 exactly (read above as
        # Float64, so a larger one would already have been rounded).
        if max(abs(low), abs(high)) > 2 ** 53:
            sys.exit(f"{path}: {declared} values beyond 2^53 cannot be stored exactly in a type the API reads")
        return "Float64"
    return "Float32" if declared == "Float32" or float32_exact else "Float64"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: integer_fit.py RASTER")
    print(json.dumps({"type": narrowest(sys.argv[1])}))
