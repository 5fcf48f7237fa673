#!/usr/bin/env bash
# Builds the bundled sample dataset layers/dem-sample/sample/stuttgart.tif from a real SRTM3 tile:
# pixel centres 9.0..9.3 E, 48.6..48.9 N (361 x 361 px of 3 arc-seconds), Int16 with voids -32768,
# a COG with 256-px blocks (point queries decode one small block per cache miss), DEFLATE + PREDICTOR=2.
# SRTM is NASA/USGS data in the public domain. Needs Debian's gdal-bin.
#
# Usage: scripts/make-sample-data.sh [SRC_HGT]   (default: ../shared/dem/srtm3-germany/N48E009.hgt)
set -euo pipefail
cd "$(dirname "$0")/.."
src="${1:-../shared/dem/srtm3-germany/N48E009.hgt}"
out=layers/dem-sample/sample/stuttgart.tif
[ -f "$src" ] || { echo "make-sample-data: $src not found (an SRTM3 N48E009.hgt tile is needed)" >&2; exit 1; }
# -srcwin in pixels, not -projwin: the .hgt grid is PixelIsPoint, so 9.0 E is a pixel centre and a
# -projwin edge at 9.0 would sit exactly half-way between two pixels. Column 0 = 9.0 E, row 120 = 48.9 N.
rm -f "$out"
gdal_translate -q -srcwin 0 120 361 361 -ot Int16 -a_nodata -32768 -of COG \
  -co BLOCKSIZE=256 -co COMPRESS=DEFLATE -co PREDICTOR=2 -co OVERVIEWS=NONE "$src" "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
