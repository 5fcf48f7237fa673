# Sourced by stack/*.sh: default ports (override any of them in the environment) and run folders.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PROMETHEUS_PORT="${PROMETHEUS_PORT:-9090}"
export NODE_EXPORTER_PORT="${NODE_EXPORTER_PORT:-9100}"
export JAEGER_QUERY_PORT="${JAEGER_QUERY_PORT:-16686}"
export JAEGER_QUERY_GRPC_PORT="${JAEGER_QUERY_GRPC_PORT:-16685}"
export JAEGER_OTLP_GRPC_PORT="${JAEGER_OTLP_GRPC_PORT:-4317}"
export JAEGER_OTLP_HTTP_PORT="${JAEGER_OTLP_HTTP_PORT:-4318}"
export BRIDGE_METRICS_PORT="${BRIDGE_METRICS_PORT:-9464}"
export XRAY_PORT="${XRAY_PORT:-2000}"
# The collector's X-Ray sampling proxy (TCP) and its self-metrics (Prometheus scrapes them).
export XRAY_PROXY_PORT="${XRAY_PROXY_PORT:-2001}"
export COLLECTOR_METRICS_PORT="${COLLECTOR_METRICS_PORT:-8888}"
export JAEGER_METRICS_PORT="${JAEGER_METRICS_PORT:-8889}"
export EMF_PORT="${EMF_PORT:-25888}"
# Prometheus' scrape interval; `npm run report` reads the same variable for its rate windows.
export SCRAPE_INTERVAL_SECONDS="${SCRAPE_INTERVAL_SECONDS:-5}"
# One folder holds PID files, logs, generated config and Prometheus data (gitignored).
export STACK_RUN_DIR="${STACK_RUN_DIR:-$ROOT/.run}"
JAEGER_BIN="${JAEGER_BIN:-$ROOT/.bin/jaeger}"
OTELCOL_BIN="${OTELCOL_BIN:-$ROOT/.bin/otelcol-elevation}"
PROMETHEUS_BIN="${PROMETHEUS_BIN:-$(command -v prometheus || echo /usr/bin/prometheus)}"
NODE_EXPORTER_BIN="${NODE_EXPORTER_BIN:-$(command -v prometheus-node-exporter || echo /usr/bin/prometheus-node-exporter)}"
PIDS="$STACK_RUN_DIR/pids"
# The bridge charts CPU and memory of every process named by a PID file here (and its children): the stack's own,
# and any <name>.pid a run adds (report:smoke adds api and load-generator).
export STACK_PIDS_DIR="$PIDS"
LOGS="$STACK_RUN_DIR/logs"
# Stop order is the reverse of start order.
SERVICES=(node-exporter jaeger collector bridge prometheus)
