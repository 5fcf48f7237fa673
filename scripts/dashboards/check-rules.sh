#!/usr/bin/env bash
# Prometheus recording + SLO alert rules: syntax (promtool check rules) and behaviour (promtool test
# rules with the unit tests in stack/prometheus/rules/tests). promtool comes with Debian's
# `prometheus` package.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v promtool >/dev/null; then
  echo "check-rules: promtool not found (apt-get install prometheus)" >&2
  exit 1
fi
promtool check rules stack/prometheus/rules/*.rules.yml
promtool test rules stack/prometheus/rules/tests/*.test.yml
