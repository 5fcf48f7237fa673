"""Where PROJ (through GDAL's osr, as GDAL and OpenTopoData place points) puts WGS 84 points in a CRS, in GDAL's
traditional GIS order (easting, northing; longitude, latitude).

Default: the centre of each EPSG CRS's area of use, one line of JSON per code read from stdin, answered as
{code, lat, lon, x, y} or {code, error}. Used by scripts/geo/datum-shifts.ts.

--rasters: the CRS GDAL reads from a raster's own keys (a GeoTIFF's user-defined CRS), one line of JSON per request
{"file", "points": [[lon, lat], ...]}, answered as {file, xy: [[x, y], ...], proj4} or {file, error}. Used by
test/realdata/user-defined-crs-matches-gdal.test.ts."""
import json
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
osr.UseExceptions()

wgs84 = osr.SpatialReference()
wgs84.ImportFromEPSG(4326)
wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)


def code_position(line):
    code = int(line)
    try:
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(code)
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        area = srs.GetAreaOfUse()
        if area is None:
            raise ValueError("no area of use")
        west, east = area.west_lon_degree, area.east_lon_degree
        lon = (west + east) / 2 if west <= east else ((west + east + 360) / 2 + 540) % 360 - 180
        lat = (area.south_lat_degree + area.north_lat_degree) / 2
        x, y = osr.CoordinateTransformation(wgs84, srs).TransformPoint(lon, lat)[:2]
        return {"code": code, "lat": lat, "lon": lon, "x": x, "y": y}
    except Exception as error:  # noqa: BLE001 - any failure is reported per code
        return {"code": code, "error": str(error)}


def raster_positions(line):
    request = json.loads(line)
    try:
        srs = gdal.Open(request["file"]).GetSpatialRef()
        if srs is None:
            raise ValueError("no CRS")
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        transform = osr.CoordinateTransformation(wgs84, srs)
        xy = [list(transform.TransformPoint(lon, lat)[:2]) for lon, lat in request["points"]]
        return {"file": request["file"], "xy": xy, "proj4": srs.ExportToProj4()}
    except Exception as error:  # noqa: BLE001 - any failure is reported per file
        return {"file": request["file"], "error": str(error)}


answer = raster_positions if sys.argv[1:] == ["--rasters"] else code_position
for line in sys.stdin:
    print(json.dumps(answer(line)), flush=False)
