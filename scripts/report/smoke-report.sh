#!/usr/bin/env bash
# npm run report:smoke — the dashboards issue's acceptance in one command, on its own ports so it
# never meets a developer's running stack: stack:up, the API (npm start) wired to the bridge, the
# baseline load profile at its smoke setting pushing k6 metrics to Prometheus, then every panel's
# query checked for data (dashboards:verify-live) and the run report written to results/report/.
# Everything it started is stopped on exit. Exit code: the panel check's (1 = some panel empty).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
export STACK_RUN_DIR="${STACK_RUN_DIR:-$ROOT/.run/report-smoke}"
# Uncommon defaults (the stack's are 9090/9100/16686/…); any can be overridden from the environment.
export PROMETHEUS_PORT="${PROMETHEUS_PORT:-19490}" NODE_EXPORTER_PORT="${NODE_EXPORTER_PORT:-19400}"
export JAEGER_QUERY_PORT="${JAEGER_QUERY_PORT:-19486}" JAEGER_QUERY_GRPC_PORT="${JAEGER_QUERY_GRPC_PORT:-19485}"
export JAEGER_OTLP_GRPC_PORT="${JAEGER_OTLP_GRPC_PORT:-19417}" JAEGER_OTLP_HTTP_PORT="${JAEGER_OTLP_HTTP_PORT:-19418}"
export BRIDGE_METRICS_PORT="${BRIDGE_METRICS_PORT:-19464}" XRAY_PORT="${XRAY_PORT:-19420}" EMF_PORT="${EMF_PORT:-19488}"
export XRAY_PROXY_PORT="${XRAY_PROXY_PORT:-19421}" COLLECTOR_METRICS_PORT="${COLLECTOR_METRICS_PORT:-19478}"
export JAEGER_METRICS_PORT="${JAEGER_METRICS_PORT:-19489}"
API_PORT="${API_PORT:-19430}"
# A 15-s run sampled every 5 s has three samples: its charts could not read the run's own rate (a random request mix
# makes any 5-s slice differ from the whole by ~12%). Scrapes and the load generator's pushes every second instead.
export SCRAPE_INTERVAL_SECONDS="${SCRAPE_INTERVAL_SECONDS:-1}" K6_PROMETHEUS_RW_PUSH_INTERVAL="${K6_PROMETHEUS_RW_PUSH_INTERVAL:-1s}"
export PROMETHEUS_URL="http://127.0.0.1:$PROMETHEUS_PORT" JAEGER_URL="http://127.0.0.1:$JAEGER_QUERY_PORT"
STACK_PIDS_DIR="$STACK_RUN_DIR/pids" # as stack/env.sh sets it
mkdir -p "$STACK_RUN_DIR/logs" "$STACK_PIDS_DIR" results/load
api_pid=""

stop_all() {
  if [[ -n "$api_pid" ]] && kill -0 "$api_pid" 2>/dev/null; then
    kill -TERM -- "-$api_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$api_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$api_pid" 2>/dev/null || true
  fi
  bash stack/down.sh || true
  rm -f "$STACK_PIDS_DIR/data-layer.pid" "$STACK_PIDS_DIR/load-generator.pid"
}
trap stop_all EXIT

bash stack/up.sh

# The API in its own process group (setsid), so stop_all ends serverless-offline and its workers too.
AWS_XRAY_DAEMON_ADDRESS="127.0.0.1:$XRAY_PORT" AWS_EMF_AGENT_ENDPOINT="udp://127.0.0.1:$EMF_PORT" \
  PORT="$API_PORT" DATA_PORT=0 setsid node --import tsx scripts/start.ts >"$STACK_RUN_DIR/logs/api.log" 2>&1 </dev/null &
api_pid=$!
# The bridge charts CPU and memory of every process a PID file names (stack/bridge/process-table.ts): npm start's
# own process serves the data layer and the local gateway; serverless-offline below it is labelled api.
echo "$api_pid" >"$STACK_PIDS_DIR/data-layer.pid"
deadline=$((SECONDS + 120))
# node, not curl (not on minimal Debian), as in stack/up.sh.
http_ok() {
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1"
}
until http_ok "http://127.0.0.1:$API_PORT/health"; do
  if ! kill -0 "$api_pid" 2>/dev/null || ((SECONDS > deadline)); then
    echo "report:smoke: the API did not come up; last log lines:" >&2
    tail -30 "$STACK_RUN_DIR/logs/api.log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "report:smoke: API up on 127.0.0.1:$API_PORT"

summary="results/load/report-smoke-$(date -u +%Y%m%dT%H%M%SZ).json"
SMOKE=1 BASE_URL="http://127.0.0.1:$API_PORT" K6_PROMETHEUS_RW_SERVER_URL="$PROMETHEUS_URL/api/v1/write" \
  bash loadtests/k6.sh loadtests/baseline.ts -e SUMMARY_FILE="$summary" &
load_pid=$!
echo "$load_pid" >"$STACK_PIDS_DIR/load-generator.pid"
wait "$load_pid"

# Two scrapes of the bridge and the collector's trace batches (1 s) reach Prometheus and Jaeger.
sleep "$((2 * SCRAPE_INTERVAL_SECONDS + 2))"
status=0
npx tsx scripts/dashboards/panel-data.ts --summary "$summary" || status=$?
npx tsx scripts/report/main.ts --summary "$summary"
exit "$status"
