#!/usr/bin/env bash
# Runs a k6 script: with a real k6 when one is on the PATH (a user's machine), else with this project's
# k6-compatible runner (k6 is AGPL and is never installed here). Extra arguments go to `run`, e.g.
#   bash loadtests/k6.sh loadtests/baseline.ts -e RATE=50
# Both engines get the same `--tag testid=…` (every dashboard filters on it; TESTID to choose it) and
# write the profile's JSON summary through its handleSummary (SUMMARY_FILE, default results/load/).
# With K6_PROMETHEUS_RW_SERVER_URL set, results are also pushed to Prometheus (k6's metric names).
# K6_RUNNER=ours forces this project's runner even when k6 is installed. Works with macOS's bash 3.2
# (no "${array[@]}" of a possibly empty array under set -u).
set -euo pipefail
script="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
profile="$(basename "$script" .ts)"
testid="${TESTID:-$profile-$(date +%s)-$$}"
set -- --tag "testid=$testid" -e "TESTID=$testid" "$@"
if [ -n "${K6_PROMETHEUS_RW_SERVER_URL:-}" ]; then
  set -- -o experimental-prometheus-rw "$@"
  # The stats the standard k6 Prometheus dashboards chart (k6 alone would send only p99).
  export K6_PROMETHEUS_RW_TREND_STATS="${K6_PROMETHEUS_RW_TREND_STATS:-p(50),p(90),p(95),p(99),min,max,avg}"
fi
# handleSummary writes into results/load; k6 does not create folders.
mkdir -p results/load
if command -v k6 >/dev/null 2>&1 && [ "${K6_RUNNER:-}" != "ours" ]; then
  exec k6 run "$@" "$script"
fi
exec node --import tsx "$here/runner/cli.ts" run "$@" "$script"
