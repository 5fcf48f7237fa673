#!/usr/bin/env bash
# npm run stack:up — starts node exporter, Jaeger v2, the OpenTelemetry Collector, the EMF bridge and Prometheus as user
# processes bound to 127.0.0.1, waits until each answers, and leaves PID files and logs in
# $STACK_RUN_DIR (default .run/). Idempotent: a service whose PID is alive is left alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
mkdir -p "$PIDS" "$LOGS" "$STACK_RUN_DIR/prometheus-data"

running() { [[ -f "$PIDS/$1.pid" ]] && kill -0 "$(cat "$PIDS/$1.pid")" 2>/dev/null; }

# setsid: each service leads its own process group, so stack:down can stop it with all children.
start() {
  local name="$1"; shift
  if running "$name"; then echo "stack: $name already running (pid $(cat "$PIDS/$name.pid"))"; return; fi
  setsid "$@" >"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! >"$PIDS/$name.pid"
}

# node, not curl: node is certain to be installed where this repo runs, curl is not on minimal Debian.
http_ok() {
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1"
}

wait_http() {
  local name="$1" url="$2" deadline=$((SECONDS + ${STACK_WAIT_SECONDS:-60}))
  until http_ok "$url"; do
    if ! running "$name"; then echo "stack: $name exited; last log lines:" >&2; tail -20 "$LOGS/$name.log" >&2; echo "stack: npm run stack:down stops what did start" >&2; exit 1; fi
    if ((SECONDS > deadline)); then echo "stack: $name not healthy at $url" >&2; tail -20 "$LOGS/$name.log" >&2; echo "stack: npm run stack:down stops what did start" >&2; exit 1; fi
    sleep 0.3
  done
  echo "stack: $name up ($url)"
}

for bin in "$PROMETHEUS_BIN" "$NODE_EXPORTER_BIN" "$JAEGER_BIN" "$OTELCOL_BIN"; do
  [[ -x "$bin" ]] || { echo "stack: $bin missing; run npm run stack:install" >&2; exit 1; }
done

sed -e "s|@RULES_DIR@|$ROOT/stack/prometheus/rules|" -e "s/@PROMETHEUS_PORT@/$PROMETHEUS_PORT/" -e "s/@BRIDGE_METRICS_PORT@/$BRIDGE_METRICS_PORT/" \
  -e "s/@NODE_EXPORTER_PORT@/$NODE_EXPORTER_PORT/" -e "s/@COLLECTOR_METRICS_PORT@/$COLLECTOR_METRICS_PORT/" -e "s/@JAEGER_METRICS_PORT@/$JAEGER_METRICS_PORT/" -e "s/@SCRAPE_INTERVAL_SECONDS@/$SCRAPE_INTERVAL_SECONDS/" "$ROOT/stack/prometheus/prometheus.yml.tmpl" >"$STACK_RUN_DIR/prometheus.yml"

start node-exporter "$NODE_EXPORTER_BIN" --web.listen-address="127.0.0.1:$NODE_EXPORTER_PORT"
start jaeger "$JAEGER_BIN" --config "$ROOT/stack/jaeger/config.yaml"
start collector "$OTELCOL_BIN" --config "$ROOT/stack/otelcol/config.yaml"
# node --import tsx (not the tsx CLI): one process, so the PID file names the process that listens.
start bridge node --import tsx "$ROOT/stack/bridge/main.ts"
start prometheus "$PROMETHEUS_BIN" \
  --config.file="$STACK_RUN_DIR/prometheus.yml" \
  --storage.tsdb.path="$STACK_RUN_DIR/prometheus-data" \
  --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" \
  --web.enable-remote-write-receiver \
  --web.enable-lifecycle \
  --enable-feature=native-histograms

wait_http node-exporter "http://127.0.0.1:$NODE_EXPORTER_PORT/metrics"
wait_http bridge "http://127.0.0.1:$BRIDGE_METRICS_PORT/health"
wait_http jaeger "http://127.0.0.1:$JAEGER_QUERY_PORT/api/services"
wait_http collector "http://127.0.0.1:$COLLECTOR_METRICS_PORT/metrics"
wait_http prometheus "http://127.0.0.1:$PROMETHEUS_PORT/-/ready"
cat <<INFO
stack: ready
  Prometheus   http://127.0.0.1:$PROMETHEUS_PORT
  Jaeger API   http://127.0.0.1:$JAEGER_QUERY_PORT/api/v3/services   (OTLP 127.0.0.1:$JAEGER_OTLP_GRPC_PORT grpc, :$JAEGER_OTLP_HTTP_PORT http)
  Collector    X-Ray udp 127.0.0.1:$XRAY_PORT → Jaeger OTLP; self-metrics http://127.0.0.1:$COLLECTOR_METRICS_PORT/metrics
  Bridge       http://127.0.0.1:$BRIDGE_METRICS_PORT/metrics  (EMF udp/tcp :$EMF_PORT)
  Functions    export AWS_XRAY_DAEMON_ADDRESS=127.0.0.1:$XRAY_PORT AWS_EMF_AGENT_ENDPOINT=udp://127.0.0.1:$EMF_PORT
  Logs, PIDs   $STACK_RUN_DIR
INFO
