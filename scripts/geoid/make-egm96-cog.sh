#!/usr/bin/env bash
# Converts PROJ's EGM96 geoid grid (Debian proj-data: /usr/share/proj/egm96_15.gtx, public domain) into the
# COG the API reads like any dataset: layers/dem-sample/geoid/egm96-15.tif.
#
# The GTX holds 1440 x 721 nodes (15' steps, lon -180..179.75, lat -90..90; GDAL reads it as pixels whose
# centres are the nodes). A copy of its first column is appended as column 1441 (lon 180), so bilinear reads
# between 179.75 and 180 find both neighbours, as PROJ's longitude wrap does. Float32, DEFLATE with the
# floating-point predictor, 256 px blocks; no nodata (the geoid is defined everywhere; the GTX's -88.8888 marker
# does not occur in the data).
#
# Usage: bash scripts/geoid/make-egm96-cog.sh [input.gtx] [output.tif]   (needs gdal-bin)
set -euo pipefail
in=${1:-/usr/share/proj/egm96_15.gtx}
out=${2:-"$(dirname "$0")/../../layers/dem-sample/geoid/egm96-15.tif"}
command -v gdal_translate >/dev/null || { echo "gdal_translate not found: apt-get install gdal-bin" >&2; exit 1; }
[ -f "$in" ] || { echo "$in not found: apt-get install proj-data" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in_abs=$(readlink -f "$in")
cat > "$tmp/wrapped.vrt" <<VRT
<VRTDataset rasterXSize="1441" rasterYSize="721">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>-180.125, 0.25, 0, 90.125, 0, -0.25</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1">
    <SimpleSource>
      <SourceFilename relativeToVRT="0">$in_abs</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="1440" ySize="721"/>
      <DstRect xOff="0" yOff="0" xSize="1440" ySize="721"/>
    </SimpleSource>
    <SimpleSource>
      <SourceFilename relativeToVRT="0">$in_abs</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="1" ySize="721"/>
      <DstRect xOff="1440" yOff="0" xSize="1" ySize="721"/>
    </SimpleSource>
  </VRTRasterBand>
</VRTDataset>
VRT
mkdir -p "$(dirname "$out")"
gdal_translate -q -of COG -a_nodata none -co COMPRESS=DEFLATE -co PREDICTOR=FLOATING_POINT -co BLOCKSIZE=256 \
  -co OVERVIEWS=NONE "$tmp/wrapped.vrt" "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
