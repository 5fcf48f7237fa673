"""Where PROJ (through GDAL's osr, as GDAL and OpenTopoData place points) puts the centre of each EPSG CRS's
area of use: one line of JSON per code read from stdin, {code, lat, lon, x, y} in GDAL's traditional GIS order
(easting, northing; longitude, latitude), or {code, error}. Used by scripts/geo/datum-shifts.ts."""
import json
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
osr.UseExceptions()

wgs84 = osr.SpatialReference()
wgs84.ImportFromEPSG(4326)
wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)

for line in sys.stdin:
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
        print(json.dumps({"code": code, "lat": lat, "lon": lon, "x": x, "y": y}), flush=False)
    except Exception as error:  # noqa: BLE001 - any failure is reported per code
        print(json.dumps({"code": code, "error": str(error)}))
