#!/usr/bin/env bash
# npm run stack:install — one-time setup for the local observability stack:
#  1. Debian's prometheus and prometheus-node-exporter packages (apt-get; needs root or sudo),
#  2. Jaeger v2 built from the Go module proxy at the version pinned in stack/jaeger/go.mod, into
#     .bin/jaeger (gitignored). Skipped when .bin/jaeger already reports that version.
#  3. The OpenTelemetry Collector for traces (awsxray receiver → OTLP to Jaeger), built by the collector builder
#     (ocb) from stack/otelcol/builder-config.yaml at the release line Jaeger uses, into .bin/otelcol-elevation.
#     Skipped when the binary was built from the same builder-config.yaml (its hash is the stamp). About 1-2 min
#     once Jaeger's modules are in the cache; module download is retried once with GOSUMDB=off, which some contrib
#     modules needed on other machines (not on this one: the checksum database answered for all of them).
# Go's module and build caches (GOMODCACHE, GOCACHE) make rebuilds fast; CI should cache them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

missing=()
command -v prometheus >/dev/null || missing+=(prometheus)
command -v prometheus-node-exporter >/dev/null || missing+=(prometheus-node-exporter)
# Headless Chromium renders the run report's PNGs (npm run report); Debian's package, no browser download.
command -v chromium >/dev/null || missing+=(chromium)
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  echo "stack: installing ${missing[*]} with apt-get"
  $SUDO apt-get update -qq
  # The packages' own system services are not used (and not started here): stack:up runs them as user processes.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_otelcol() {
  local manifest="$ROOT/stack/otelcol/builder-config.yaml"
  local stamp="$ROOT/.bin/otelcol-elevation.version" want
  want="$(sha256sum "$manifest" | cut -d' ' -f1)"
  if [[ -x "$OTELCOL_BIN" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "stack: collector already built ($OTELCOL_BIN)"
    return
  fi
  command -v go >/dev/null || { echo "stack: Go is needed to build the collector (https://go.dev/dl/)" >&2; exit 1; }
  local ocb_version
  ocb_version="$(sed -n 's#^\s*version: \([0-9.]*\)#\1#p' "$manifest" | head -1)"
  mkdir -p "$ROOT/.bin" "$ROOT/.build"
  echo "stack: building the collector (ocb v$ocb_version) from the Go module proxy"
  local start=$SECONDS
  if [[ ! -x "$ROOT/.bin/builder" ]] || ! "$ROOT/.bin/builder" version 2>/dev/null | grep -q "$ocb_version"; then
    GOBIN="$ROOT/.bin" go install "go.opentelemetry.io/collector/cmd/builder@v$ocb_version" ||
      GOSUMDB=off GOBIN="$ROOT/.bin" go install "go.opentelemetry.io/collector/cmd/builder@v$ocb_version"
  fi
  # output_path in the manifest is relative to stack/otelcol: ../../.build/otelcol (gitignored).
  (cd "$ROOT/stack/otelcol" && { "$ROOT/.bin/builder" --config builder-config.yaml ||
    GOSUMDB=off "$ROOT/.bin/builder" --config builder-config.yaml; })
  cp "$ROOT/.build/otelcol/otelcol-elevation" "$OTELCOL_BIN"
  echo "$want" >"$stamp"
  echo "stack: collector built in $((SECONDS - start)) s"
}
build_otelcol

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
