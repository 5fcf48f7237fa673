#!/usr/bin/env bash
# Converts PROJ's EGM96 geoid grid (Debian proj-data: /usr/share/proj/egm96_15.gtx, public domain) into the
# COG the API reads like any dataset: layers/dem-sample/geoid/egm96-15.tif.
#
# The GTX holds 1440 x 721 nodes (15' steps, lon -180..179.75, lat -90..90; GDAL reads it as pixels whose
# centres are the nodes); make-geoid-cog.sh appends the column at 180 (see there). The result is byte for byte
# the committed file (GDAL 3.6.2).
#
# Usage: bash scripts/geoid/make-egm96-cog.sh [input.gtx] [output.tif]   (needs gdal-bin)
set -euo pipefail
in=${1:-/usr/share/proj/egm96_15.gtx}
out=${2:-"$(dirname "$0")/../../layers/dem-sample/geoid/egm96-15.tif"}
[ -f "$in" ] || { echo "$in not found: apt-get install proj-data" >&2; exit 1; }
exec bash "$(dirname "$0")/make-geoid-cog.sh" "$in" "$out"
