#!/usr/bin/env bash
# Converts a global geoid grid (PROJ's egm96_15.gtx, us_nga_egm08_25.tif, or any EPSG:4326 raster of N in
# metres whose pixel centres are the grid's nodes) into the COG the API reads like any dataset, as `geoids:` in
# the datasets file wants it: pixel centres spanning longitude -180..180 and latitude -90..90.
#
# PROJ's grids hold the nodes -180..180-step (PROJ wraps in longitude). A copy of the first column is appended as
# the column at 180, so bilinear reads between the last node and 180 find both neighbours; a grid that already
# has it is copied as it is. Anything else (a regional grid, 0..360, not reaching the poles, another CRS) is
# refused: the API would refuse it too. Float32, DEFLATE with the floating-point predictor, 256 px blocks, no
# overviews, no nodata (a geoid is defined everywhere).
#
# Usage: bash scripts/geoid/make-geoid-cog.sh INPUT OUTPUT.tif   (needs gdal-bin and python3)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 INPUT OUTPUT.tif" >&2; exit 2; }
in=$1
out=$2
command -v gdal_translate >/dev/null || { echo "gdal_translate not found: apt-get install gdal-bin" >&2; exit 1; }
[ -f "$in" ] || { echo "$in not found" >&2; exit 1; }
in_abs=$(readlink -f "$in")
# width height west north resX resY wrapped(0/1), checked.
read -r width height west north res_x res_y wrapped < <(gdalinfo -json "$in_abs" | python3 -c '
import json, sys
info = json.load(sys.stdin)
w, h = info["size"]
x0, rx, sx, y0, sy, ry = info["geoTransform"]
wkt = info.get("coordinateSystem", {}).get("wkt", "")
def fail(why):
    sys.exit(f"make-geoid-cog: {why}")
if sx != 0 or sy != 0 or ry >= 0:
    fail("not a north-up grid")
if "GEOGCRS[\"WGS 84\"" not in wkt and "GEOGCS[\"WGS 84\"" not in wkt:
    fail("not in WGS 84 geographic coordinates (EPSG:4326)")
close = lambda a, b: abs(a - b) < 1e-6 * abs(rx)
west, north = x0 + rx / 2, y0 + ry / 2
east, south = west + (w - 1) * rx, north + (h - 1) * ry
if not (close(west, -180) and close(north, 90) and close(south, -90)):
    fail(f"pixel centres span longitude {west}..{east}, latitude {south}..{north}: "
         "not a global grid from -180 and pole to pole")
if close(east, 180):
    wrapped = 1
elif close(east + rx, 180):
    wrapped = 0
else:
    fail(f"pixel centres end at longitude {east}: neither 180 nor one step before it")
print(w, h, x0, y0, rx, ry, wrapped)
')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$in_abs
if [ "$wrapped" = 0 ]; then
  src=$tmp/wrapped.vrt
  cat > "$src" <<VRT
<VRTDataset rasterXSize="$((width + 1))" rasterYSize="$height">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>$west, $res_x, 0, $north, 0, $res_y</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1">
    <SimpleSource>
      <SourceFilename relativeToVRT="0">$in_abs</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="$width" ySize="$height"/>
      <DstRect xOff="0" yOff="0" xSize="$width" ySize="$height"/>
    </SimpleSource>
    <SimpleSource>
      <SourceFilename relativeToVRT="0">$in_abs</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="1" ySize="$height"/>
      <DstRect xOff="$width" yOff="0" xSize="1" ySize="$height"/>
    </SimpleSource>
  </VRTRasterBand>
</VRTDataset>
VRT
fi
mkdir -p "$(dirname "$out")"
gdal_translate -q -of COG -ot Float32 -a_srs EPSG:4326 -a_nodata none -co COMPRESS=DEFLATE \
  -co PREDICTOR=FLOATING_POINT -co BLOCKSIZE=256 -co OVERVIEWS=NONE "$src" "$out"
how=$([ "$wrapped" = 0 ] && echo 'column at 180 appended' || echo 'already wrapped')
echo "wrote $out ($(stat -c %s "$out") bytes, $how)"
