#!/usr/bin/env bash
# npm run stack:install — one-time setup for the local observability stack:
#  1. Debian's prometheus and prometheus-node-exporter packages (apt-get; needs root or sudo),
#  2. Jaeger v2 built from the Go module proxy at the version pinned in stack/jaeger/go.mod, into
#     .bin/jaeger (gitignored). Skipped when .bin/jaeger already reports that version.
# Go's module and build caches (GOMODCACHE, GOCACHE) make rebuilds fast; CI should cache them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

missing=()
command -v prometheus >/dev/null || missing+=(prometheus)
command -v prometheus-node-exporter >/dev/null || missing+=(prometheus-node-exporter)
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  echo "stack: installing ${missing[*]} with apt-get"
  $SUDO apt-get update -qq
  # The packages' own system services are not used (and not started here): stack:up runs them as user processes.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

version="$(sed -n 's#^\s*github.com/jaegertracing/jaeger \(v[0-9.]*\).*#\1#p' "$ROOT/stack/jaeger/go.mod" | head -1)"
stamp="$ROOT/.bin/jaeger.version"
if [[ -x "$JAEGER_BIN" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  echo "stack: jaeger $version already built ($JAEGER_BIN)"
  exit 0
fi
command -v go >/dev/null || { echo "stack: Go is needed to build Jaeger (https://go.dev/dl/)" >&2; exit 1; }
mkdir -p "$ROOT/.bin"
echo "stack: building jaeger $version from the Go module proxy (first build takes minutes)"
start=$SECONDS
(cd "$ROOT/stack/jaeger" && go build -trimpath -ldflags="-s -w" -o "$JAEGER_BIN" github.com/jaegertracing/jaeger/cmd/jaeger)
echo "$version" >"$stamp"
echo "stack: jaeger built in $((SECONDS - start)) s"
