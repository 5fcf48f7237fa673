#!/usr/bin/env bash
# npm run stack:down — stops what stack:up started (by PID file, whole process group): SIGTERM to all,
# then waits for each (SIGKILL after STACK_STOP_SECONDS) and removes the PID files. Data and logs stay.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
status=0
declare -A pids=()
for name in "${SERVICES[@]}"; do
  pidfile="$PIDS/$name.pid"
  [[ -f "$pidfile" ]] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
    pids[$name]=$pid
  else
    rm -f "$pidfile"
  fi
done
deadline=$((SECONDS + ${STACK_STOP_SECONDS:-15}))
for name in "${!pids[@]}"; do
  pid=${pids[$name]}
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "stack: $name (pid $pid) ignored SIGTERM; killing" >&2
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    status=1
  fi
  # Anything the service left behind in its process group goes too.
  kill -0 -- "-$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null
  rm -f "$PIDS/$name.pid"
  echo "stack: $name stopped"
done
exit $status
