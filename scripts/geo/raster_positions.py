"""Where GDAL puts WGS 84 points in the CRS it reads from a GeoTIFF's keys (as GDAL and OpenTopoData read the
file): one line of JSON per request read from stdin, {"file": ..., "points": [[lon, lat], ...]}, answered as
{"file", "xy": [[x, y], ...]} in GDAL's traditional GIS order (easting, northing), or {"file", "error"}."""
import json
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
osr.UseExceptions()

wgs84 = osr.SpatialReference()
wgs84.ImportFromEPSG(4326)
wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)

for line in sys.stdin:
    request = json.loads(line)
    try:
        srs = gdal.Open(request["file"]).GetSpatialRef()
        if srs is None:
            raise ValueError("no CRS")
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        transform = osr.CoordinateTransformation(wgs84, srs)
        xy = [list(transform.TransformPoint(lon, lat)[:2]) for lon, lat in request["points"]]
        print(json.dumps({"file": request["file"], "xy": xy, "proj4": srs.ExportToProj4()}))
    except Exception as error:  # noqa: BLE001 - any failure is reported per file
        print(json.dumps({"file": request["file"], "error": str(error)}))
