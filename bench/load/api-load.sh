#!/usr/bin/env bash
# Load test of the API adapter (OpenAI-compatible /v1/chat/completions) on a zero-latency engine, with wrk on
# loopback: whole and streamed completions at each connection count. Needs wrk (apt-get install -y wrk) and the
# upstream modules installed in ~/.m2. Usage, from the repository root:
#   bench/load/api-load.sh [seconds per run, default 20] [connection counts, default "1 16 64"]
# Environment: PORT (default 18080), SERVER_JVM (the server's JVM options, default "-Xms512m -Xmx512m"), SERVER_CP (run
# the server with java on this classpath instead of through Maven's bench profile).
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER_RUN=${1:-20}
CONNECTIONS=${2:-"1 16 64"}
PORT=${PORT:-18080}
SERVER_JVM=${SERVER_JVM:-"-Xms512m -Xmx512m"}
URL="http://127.0.0.1:${PORT}/v1/chat/completions"
LOG=bench/target/api-load-server.log
mkdir -p bench/target

# The server serves for a bounded time, so that it cannot outlive this script; it runs in its own process group,
# which the trap ends.
runs=$(( $(wc -w <<< "$CONNECTIONS") * 2 + 1 ))
SERVE_SECONDS=$(( runs * (SECONDS_PER_RUN + 5) + 120 ))
if [[ -n "${SERVER_CP:-}" ]]; then
  # A fixed classpath (for example a snapshot of bench/target/classes and the jars), when others rebuild meanwhile.
  # shellcheck disable=SC2086
  setsid java ${SERVER_JVM} -cp "$SERVER_CP" dev.pagantic.bench.ApiLoadServer "$PORT" 1024 "$SERVE_SECONDS" \
      > "$LOG" 2>&1 &
else
  setsid mvn -B -q -o -pl bench -Pbench exec:exec -Dbench.main="${SERVER_JVM} dev.pagantic.bench.ApiLoadServer" \
      -Dbench.args="${PORT} 1024 ${SERVE_SECONDS}" > "$LOG" 2>&1 &
fi
SERVER_GROUP=$!
trap 'kill -- -"$SERVER_GROUP" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:${PORT}/health" > /dev/null && break
  sleep 1
done
grep -m1 '^serving' "$LOG"

# Warm-up: one run's worth, not reported.
wrk -t2 -c16 -d"${SECONDS_PER_RUN}s" -s bench/load/chat.lua "$URL" > /dev/null
for stream in 0 1; do
  for c in $CONNECTIONS; do
    t=$(( c < 2 ? 1 : 2 ))
    echo "=== stream=${stream} connections=${c} threads=${t} duration=${SECONDS_PER_RUN}s"
    STREAM=$stream wrk -t"$t" -c"$c" -d"${SECONDS_PER_RUN}s" --latency -s bench/load/chat.lua "$URL"
  done
done
