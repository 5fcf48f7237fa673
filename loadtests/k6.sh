#!/usr/bin/env bash
# Runs a k6 script: with a real k6 when one is on the PATH (a user's machine), else with this project's
# k6-compatible runner (k6 is AGPL and is never installed here). Extra arguments go to `run`, e.g.
#   bash loadtests/k6.sh loadtests/baseline.ts -e RATE=50
# With K6_PROMETHEUS_RW_SERVER_URL set, results are also pushed to Prometheus (k6's metric names).
# K6_RUNNER=ours forces this project's runner even when k6 is installed.
set -euo pipefail
script="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
args=()
if [ -n "${K6_PROMETHEUS_RW_SERVER_URL:-}" ]; then
  args+=(-o experimental-prometheus-rw)
  # The stats the standard k6 Prometheus dashboards chart (k6 alone would send only p99).
  export K6_PROMETHEUS_RW_TREND_STATS="${K6_PROMETHEUS_RW_TREND_STATS:-p(50),p(90),p(95),p(99),min,max,avg}"
fi
if command -v k6 >/dev/null 2>&1 && [ "${K6_RUNNER:-}" != "ours" ]; then
  exec k6 run "${args[@]}" "$@" "$script"
fi
exec node --import tsx "$here/runner/cli.ts" run "${args[@]}" "$@" "$script"
