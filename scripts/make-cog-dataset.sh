#!/usr/bin/env bash
# Turns a folder of DEM tiles (GeoTIFF, SRTM .hgt, .hgt.zip) into Cloud-Optimized GeoTIFFs for the
# elevation API and prints the matching OpenTopoData config entry. Needs Debian's gdal-bin and python3-gdal.
#
# Usage: scripts/make-cog-dataset.sh SRC_DIR OUT_DIR [--block 256|512] [--name NAME]
#
# - Names are kept (N48E009.hgt -> N48E009.tif, Copernicus_..._DEM.tif -> same), so tile names stay computable.
# - Block size defaults to 512: a point query decodes one whole block per cache miss, and a 512x512 block
#   (about 1 MB as Float32) decodes in a few ms while keeping the tile index small; 256 suits very random,
#   sparse queries; Copernicus' own 1024 costs about 4x more per miss.
# - DEFLATE with PREDICTOR=3 for floating-point and 2 for integer rasters; no overviews (point queries only
#   ever read full resolution). Data type, nodata, CRS and PixelIsPoint/Area are kept as they are.
set -euo pipefail

usage() { echo "usage: $0 SRC_DIR OUT_DIR [--block 256|512] [--name NAME]" >&2; exit 2; }
[ $# -ge 2 ] || usage
src=$1 out=$2
shift 2
block=512 name=""
while [ $# -gt 0 ]; do
  case $1 in
    --block) block=${2:-}; shift 2 ;;
    --name) name=${2:-}; shift 2 ;;
    *) usage ;;
  esac
done
case $block in 256 | 512) ;; *) echo "--block must be 256 or 512 (got '$block')" >&2; exit 2 ;; esac
[ -d "$src" ] || { echo "source folder '$src' not found" >&2; exit 2; }
command -v gdal_translate >/dev/null || { echo "gdal_translate missing: apt-get install gdal-bin" >&2; exit 2; }
name=${name:-$(basename "$out")}
mkdir -p "$out"

shopt -s nullglob nocaseglob
count=0
for file in "$src"/*.tif "$src"/*.tiff "$src"/*.geotiff "$src"/*.hgt "$src"/*.hgt.zip; do
  base=$(basename "$file")
  case ${base,,} in
    *.hgt.zip) input="/vsizip/$file/${base:0:-4}"; stem=${base:0:-8} ;;
    *.tiff) input=$file; stem=${base:0:-5} ;;
    *.geotiff) input=$file; stem=${base:0:-8} ;;
    *) input=$file; stem=${base:0:-4} ;;
  esac
  type=$(gdalinfo "$input" | grep -o 'Type=[A-Za-z0-9]*' | head -n1 | cut -d= -f2)
  case $type in Float*) predictor=3 ;; *) predictor=2 ;; esac
  target="$out/$stem.tif"
  rm -f "$target"
  gdal_translate -q -of COG -co BLOCKSIZE="$block" -co COMPRESS=DEFLATE -co PREDICTOR="$predictor" \
    -co OVERVIEWS=NONE "$input" "$target"
  echo "  $base -> $target ($type, PREDICTOR=$predictor, $(stat -c %s "$target") bytes)" >&2
  count=$((count + 1))
done
[ "$count" -gt 0 ] || { echo "no .tif/.tiff/.geotiff/.hgt/.hgt.zip files in '$src'" >&2; exit 1; }
echo "converted $count file(s) into $out; add this entry under datasets: in your config.yaml" \
  "(make path relative to the config file's folder or to DATA_ROOT if you move the files):" >&2
/usr/bin/python3 "$(dirname "$0")/gdal/dataset_entry.py" "$out" "$name"
