#!/usr/bin/env bash
# Batch benchmark (section (g) of scripts/bench.sh; also runs on its own):
#   (g1) rows per second for a BENCH_BATCH_ROWS-row CSV (default 100,000) through the fast stand-in
#        provider, embedded (`georesolver batch`, in-process resolver) and over HTTP (`batch --server`,
#        the batch API of a running resolver);
#   (g2) the resolver's peak resident memory while a BENCH_BATCH_BIG-row file (default 1,000,000) is
#        uploaded and stored, against its peak after the smaller upload (it must not grow with the file);
#   (g3) the live path's p50/p99 at BENCH_BATCH_LIVE_RATE req/s (default 200: about half the saturating
#        pass-through rate of (b) on the 2-core host; set it to bench.sh's HALF) with and without a batch
#        running against the same tier. Target: p99 with <= 1.2x p99 without.
#
#   scripts/bench-batch.sh [--no-build] [--out FILE]     (markdown to FILE, default stdout)
#
# Needs target/georesolver.jar and target/georesolver-bench.jar (built unless --no-build), curl, awk.
# Kills what it started on exit. Do not run it while others measure on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=1 OUT=/dev/stdout
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --out) OUT=$2; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench-batch.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
ROWS=${BENCH_BATCH_ROWS:-100000}
BIG=${BENCH_BATCH_BIG:-1000000}
LIVE_RATE=${BENCH_BATCH_LIVE_RATE:-200}
LIVE_S=${BENCH_BATCH_LIVE_S:-8}
RUN=$(mktemp -d /tmp/georesolver-bench-batch.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
if [ "$BUILD" = 1 ]; then mvn -q -DskipTests package -Pbench >&2; fi
[ -f target/georesolver.jar ] && [ -f target/georesolver-bench.jar ] || { echo "bench-batch.sh: build the jars first" >&2; exit 1; }
JAR=$RUN/resolver.jar TOOLS=$RUN/tools.jar
cp target/georesolver.jar "$JAR"; cp target/georesolver-bench.jar "$TOOLS"
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 1; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

P_PROV=$(port); P_RES=$(port)
java -jar "$TOOLS" provider --port "$P_PROV" >"$RUN/provider.log" 2>&1 & PIDS+=($!)
cat >"$RUN/manifest.yaml" <<YAML
routing:
  budget_ms: 2000
  idempotency: { deduplication_store: memory, ttl_seconds: 3600 }
  tiers:
    - { name: fast, adapter: generic, endpoint: "http://127.0.0.1:$P_PROV/fast", claim: exact, timeout_ms: 1000, typical_ms: 2, pool_size: 64 }
state: { path: "$RUN/state.db" }
reconcile: { enabled: false }
batch: { concurrency: 64, max_in_flight: 64 }
YAML
gen() { awk -v n="$1" -v tag="$2" 'BEGIN { print "id,address"; for (i = 0; i < n; i++) printf "%d,\"%d %s Street, Springfield\"\n", i, i, tag }' >"$3"; }
gen "$ROWS" embedded "$RUN/embedded.csv"
gen "$ROWS" http "$RUN/http.csv"
wait_http "http://127.0.0.1:$P_PROV/_ctl/count"

say "(g1) $ROWS rows embedded"
T0=$(date +%s.%N)
java -jar "$JAR" batch "$RUN/embedded.csv" -o "$RUN/embedded.out.csv" --manifest "$RUN/manifest.yaml" --progress none --concurrency 64 >&2 || true
T1=$(date +%s.%N)
EMB=$(awk -v a="$T0" -v b="$T1" -v n="$ROWS" 'BEGIN { printf "%.0f", n / (b - a) }')

java -jar "$JAR" --manifest "$RUN/manifest.yaml" --port "$P_RES" >"$RUN/resolver.log" 2>&1 & RES_PID=$!; PIDS+=($RES_PID)
wait_http "http://127.0.0.1:$P_RES/health/live"
R="http://127.0.0.1:$P_RES"
say "(g1) $ROWS rows over HTTP (batch --server)"
T0=$(date +%s.%N)
java -jar "$JAR" batch "$RUN/http.csv" -o "$RUN/http.out.csv" --server "$R" --progress none >&2 || true
T1=$(date +%s.%N)
HTTP=$(awk -v a="$T0" -v b="$T1" -v n="$ROWS" 'BEGIN { printf "%.0f", n / (b - a) }')
HWM_SMALL=$(hwm_kb "$RES_PID")

say "(g2) upload of $BIG rows: peak RSS"
gen "$BIG" big "$RUN/big.csv"
curl -fsS -o "$RUN/big.json" --data-binary @"$RUN/big.csv" "$R/v1/batches"
BIG_ID=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$RUN/big.json")
# The rows are stored after the 201: wait until the job is visible as running (its rows all stored), sampling RSS.
PEAK=0
for _ in $(seq 1 1200); do
  r=$(rss_kb "$RES_PID"); [ "$r" -gt "$PEAK" ] && PEAK=$r
  curl -fsS "$R/v1/batches/$BIG_ID" | grep -q '"state":"running"' && break
  sleep 0.25
done
HWM_BIG=$(hwm_kb "$RES_PID")

say "(g3) live p99 at $LIVE_RATE req/s with the $BIG-row batch running, then without"
java -jar "$TOOLS" loadgen rate --rate "$LIVE_RATE" --duration-s "$LIVE_S" --warmup-s 2 --rounds 1 --connections 128 --tag gwith \
  --target live "$R/v1/geocode?q=" '"status":"resolved"' >"$RUN/live-with.out" 2>&1 || true
curl -fsS -X DELETE -o /dev/null "$R/v1/batches/$BIG_ID"
sleep 3
java -jar "$TOOLS" loadgen rate --rate "$LIVE_RATE" --duration-s "$LIVE_S" --warmup-s 2 --rounds 1 --connections 128 --tag gwithout \
  --target live "$R/v1/geocode?q=" '"status":"resolved"' >"$RUN/live-without.out" 2>&1 || true

{
  echo "#### (i) Batch"
  echo
  echo "| figure | value |"
  echo "|---|---:|"
  echo "| $ROWS-row CSV, embedded (\`georesolver batch\`) | **$EMB rows/s** |"
  echo "| $ROWS-row CSV, over HTTP (\`batch --server\`, the batch API) | **$HTTP rows/s** |"
  echo "| resolver peak RSS after the $ROWS-row job | $((HWM_SMALL / 1024)) MB |"
  echo "| resolver peak RSS during the $BIG-row upload and store | $((HWM_BIG / 1024)) MB (sampled max RSS $((PEAK / 1024)) MB) |"
  echo
  echo "Live path at $LIVE_RATE req/s, with the $BIG-row batch running against the same tier, then without (LoadGen RESULT lines):"
  echo
  echo '```'
  grep -h '^RESULT' "$RUN/live-with.out" | sed 's/^/with:    /' || true
  grep -h '^RESULT' "$RUN/live-without.out" | sed 's/^/without: /' || true
  echo '```'
  echo
} >"$OUT"
say "batch: embedded $EMB rows/s, http $HTTP rows/s, peak RSS $((HWM_SMALL / 1024)) -> $((HWM_BIG / 1024)) MB (raw: $RUN)"
