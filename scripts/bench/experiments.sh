#!/usr/bin/env bash
# What-if runs behind the proposals in docs/benchmarks.md: the same resolver, manifest and load as
# scripts/bench.sh, under other deployments or JVM flags, to see what a proposed change would buy
# before anyone makes it. Main code is not changed: the variants differ in JVM flags, or use the
# bench launcher (`georesolver-bench.jar resolver`) that deploys GeoResolver on a chosen event-loop pool.
#
#   scripts/bench/experiments.sh [--no-build] [--rounds N (default 3)] [VARIANT...]
#
# Variants (default: all, in this order):
#   main-g1        java -jar georesolver.jar, G1 (what scripts/bench.sh measures)
#   main-zgc       java -jar georesolver.jar, ZGC
#   loop1-g1       bench launcher, 1 event loop, 1 chain and 1 ingress instance, G1
#   loop1-zgc      bench launcher, 1 event loop, 1 chain and 1 ingress instance, ZGC
#   shadow-off     main-g1 on the bench manifest plus a second open_data rung below fast (the shadow
#                  rung every describe answer would be asked of), shadow sampling off
#   shadow-1pct    the same manifest with shadow: { sample_rate: 0.01, max_per_s: 1000 }: every
#                  sampled answer becomes a shadow call (the default ceiling, 2 a second, would drop
#                  most of them and hide their cost)
#   shadow-100pct  the same at sample_rate 1.0: every answer is shadowed, to state a sample's own cost
# (not in the default list: run them by name, e.g. experiments.sh shadow-off shadow-1pct shadow-off shadow-1pct)
# For each: warm-up (2 × 10 s replay and pass-through), then per round wrk replay, wrk pass-through
# (8 s each) and the open-loop generator on pass-through at BENCH_RATE req/s (default 7500; generator
# pre-warm 5 s, warm-up 3 s, then 8 s measured). Placement as in bench.sh: resolver on CPU 1,
# wrk, LoadGen and the provider on CPU 0.
# Prints a Markdown table. Kills what it started on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=1 ROUNDS=3 VARIANTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --rounds) ROUNDS=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) VARIANTS+=("$1") ;;
  esac
  shift
done
[ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=(main-g1 main-zgc loop1-g1 loop1-zgc)
SERVER_CPUS=${BENCH_SERVER_CPUS:-1}
CLIENT_CPUS=${BENCH_CLIENT_CPUS:-0}
RATE=${BENCH_RATE:-7500}
COMMON="-Xms256m -Xmx1g"

die() { echo "experiments.sh: $*" >&2; exit 1; }
command -v wrk >/dev/null || die "wrk is missing (apt-get install -y wrk)"
RUN=$(mktemp -d "${TMPDIR:-/tmp}/georesolver-exp.XXXXXX")
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -f "$RUN"/*.jar
  rm -rf "$ROOT/target/experiments-last" && cp -r "$RUN" "$ROOT/target/experiments-last" && rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$BUILD" = 1 ]; then
  mvn -q -B -DskipTests package
  mvn -q -B -DskipTests -Pbench package
fi
cp target/georesolver.jar "$RUN/resolver.jar"
cp target/georesolver-bench.jar "$RUN/tools.jar"

port() { echo $((20000 + RANDOM % 20000)); }
wait_http() { for _ in $(seq 1 150); do curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0; sleep 0.2; done; die "no answer on $1"; }
P_PROV=$(port); P_RES=$(port)
sed -e "s/PROVIDER_PORT/$P_PROV/g" -e "s|STATE_PATH|$RUN/state.db|" "$ROOT/scripts/bench/manifest.yaml" >"$RUN/manifest.yaml"
taskset -c "$CLIENT_CPUS" java -Xmx512m -jar "$RUN/tools.jar" provider --port "$P_PROV" >"$RUN/provider.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$P_PROV/_ctl/count"

# The shadow variants' manifests: a second open_data rung (same stand-in lane) below fast.
shadow_manifest() { # RATE FILE
  awk '/^intents:/ { print "    - name: \"second\""; print "      adapter: \"generic\"";
        print "      endpoint: \"http://127.0.0.1:'"$P_PROV"'/fast\""; print "      claim: \"open_data\"";
        print "      timeout_ms: 2000"; print "      typical_ms: 5"; print "      retry_budget: 0"; print "      pool_size: 16" }
       { print }' "$RUN/manifest.yaml" | sed "s|$RUN/state.db|$RUN/state-shadow-$1.db|" >"$2"
  echo "shadow: { sample_rate: $1, max_per_s: 1000 }" >>"$2"
}
shadow_manifest 0 "$RUN/manifest-shadow-off.yaml"
shadow_manifest 0.01 "$RUN/manifest-shadow-1pct.yaml"
shadow_manifest 1.0 "$RUN/manifest-shadow-100pct.yaml"

REPLAY="/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
MARK='"status":"resolved"'
wrk_rps() { # URL SCRIPT [TAG]
  taskset -c "$CLIENT_CPUS" wrk -t1 -c64 -d"$WRK_S"s --timeout 5s -s "$ROOT/scripts/bench/$2" "$1" -- "$MARK" ${3:+"$3"} \
    | awk '/^Requests\/sec:/ {printf "%.0f", $2} /Non-2xx/ {bad = 1} /^bench-bad-bodies: [1-9]/ {bad = 1} END {if (bad) printf "!"}'
}

echo "| variant | round | replay req/s | pass-through req/s | open loop $RATE req/s p50 / p99 ms | resolver GC in the open loop |"
echo "|---|---:|---:|---:|---|---|"
for v in "${VARIANTS[@]}"; do
  case "$v" in
    main-g1) CMD=(java $COMMON -XX:+UseG1GC -Xlog:gc:file="$RUN/gc-$v.log":uptime -jar "$RUN/resolver.jar" --manifest "$RUN/manifest.yaml" --port "$P_RES") ;;
    main-zgc) CMD=(java $COMMON -XX:+UseZGC -Xlog:gc,gc+phases:file="$RUN/gc-$v.log":uptime -jar "$RUN/resolver.jar" --manifest "$RUN/manifest.yaml" --port "$P_RES") ;;
    loop1-g1) CMD=(java $COMMON -XX:+UseG1GC -Xlog:gc:file="$RUN/gc-$v.log":uptime -jar "$RUN/tools.jar" resolver --manifest "$RUN/manifest.yaml" --port "$P_RES" --event-loops 1 --chain-instances 1 --ingress-instances 1) ;;
    loop1-zgc) CMD=(java $COMMON -XX:+UseZGC -Xlog:gc,gc+phases:file="$RUN/gc-$v.log":uptime -jar "$RUN/tools.jar" resolver --manifest "$RUN/manifest.yaml" --port "$P_RES" --event-loops 1 --chain-instances 1 --ingress-instances 1) ;;
    shadow-off|shadow-1pct|shadow-100pct) CMD=(java $COMMON -XX:+UseG1GC -Xlog:gc:file="$RUN/gc-$v.log":uptime -jar "$RUN/resolver.jar" --manifest "$RUN/manifest-$v.yaml" --port "$P_RES") ;;
    *) die "unknown variant $v" ;;
  esac
  taskset -c "$SERVER_CPUS" "${CMD[@]}" >"$RUN/resolver-$v.log" 2>&1 &
  RPID=$!
  PIDS+=("$RPID")
  wait_http "http://127.0.0.1:$P_RES/health/live"
  WRK_S=10
  for w in 1 2; do wrk_rps "http://127.0.0.1:$P_RES$REPLAY" wrk-check.lua >/dev/null; wrk_rps "http://127.0.0.1:$P_RES/v1/geocode?q=" wrk-unique.lua "w$w$v" >/dev/null; done
  WRK_S=8
  for r in $(seq 1 "$ROUNDS"); do
    replay=$(wrk_rps "http://127.0.0.1:$P_RES$REPLAY" wrk-check.lua)
    pass=$(wrk_rps "http://127.0.0.1:$P_RES/v1/geocode?q=" wrk-unique.lua "r$r$v")
    t0=$(jcmd "$RPID" VM.uptime | awk '/ s$/ {print $1}')
    taskset -c "$CLIENT_CPUS" java -Xmx512m -jar "$RUN/tools.jar" loadgen rate --rate "$RATE" --duration-s 8 --warmup-s 3 \
      --prewarm-s 5 --rounds 1 --connections 128 --tag "o$r$v$RANDOM" \
      --target pass "http://127.0.0.1:$P_RES/v1/geocode?q=" "$MARK" >"$RUN/open-$v-$r.out" 2>&1 || true
    t1=$(jcmd "$RPID" VM.uptime | awk '/ s$/ {print $1}')
    lat=$(awk '/^RESULT/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } printf "%s / %s%s", f["p50_ms"], f["p99_ms"], (f["good"] == f["sent"] ? "" : " (" f["sent"] - f["good"] " bad)") }' "$RUN/open-$v-$r.out")
    gc=$(awk -v t0="$t0" -v t1="$t1" '/Pause/ && /ms$/ { t = $1; gsub(/[\[\]s]/, "", t); ms = $NF; sub("ms", "", ms)
        if (t + 0 >= t0 + 0 && t + 0 <= t1 + 0) { n++; s += ms; if (ms + 0 > m) m = ms + 0 } }
        END { printf "%d pauses, mean %.2f ms, max %.2f ms", n, (n ? s / n : 0), m }' "$RUN/gc-$v.log")
    echo "| $v | $r | $replay | $pass | $lat | $gc |"
  done
  case "$v" in shadow-*) echo "<!-- $v: $(curl -fsS "http://127.0.0.1:$P_RES/v1/shadow" | head -c 600) -->" ;; esac
  kill "$RPID"; wait "$RPID" 2>/dev/null || true
done
