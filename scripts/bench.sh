#!/usr/bin/env bash
# Benchmarks the resolver against baselines run side by side, and writes the figures into
# docs/benchmarks.md (between the "bench:begin" and "bench:end" markers; the prose around them stays).
#
#   scripts/bench.sh [--no-build] [--quick] [--no-jmh] [--no-profile] [--doc FILE]
#   scripts/bench.sh --jvm-matrix [--no-build] [--quick] [--doc FILE]
#
# (a) replay: one address repeated (answered from the dedupe store) vs a bare Vert.x endpoint
#     serving the same JSON, wrk, throughput ratio; in the same rounds the compatible paths
#     (Nominatim /search?format=jsonv2 and Google /maps/api/geocode/json) replaying the same answer,
#     throughput ratio against the /v1 replay;
# (b) pass-through: a new address per request through one tier vs the stand-in provider called
#     directly, wrk, throughput ratio; then p50/p99/p99.9 added at half the saturating rate, measured
#     with the open-loop generator (LoadGen) against both; and the open-loop sweep: the same at 10 %,
#     25 % and 75 % of the saturating rate (50 % is the half-load point), drawn as a PNG
#     (bench-sweep.png next to the doc: docs/bench-sweep.png) by `georesolver-bench.jar sweep-chart`;
# (c) failover: tier 1 hung and its breaker open, p99 at the same rate vs tier 2 alone (+2 ms target);
# (d) coalescing: 1,000 concurrent identical requests, upstream calls counted by the provider;
# (e) the resolver's resident memory at the end (target: ≤ 400 MB with 100,000 answers held), and
#     the heap bytes per stored answer (`georesolver-bench.jar store-footprint`, 100,000 answers);
# (f) tenants: the replay and pass-through of (a) and (b) against a second resolver whose manifest
#     adds a tenants: block (BENCH_TENANTS tenants, default 20, two keys each), asked with a
#     tenant's key, alternating in each round with the resolver without tenants; target: within 5 %;
#     then a third resolver on that manifest with audit.level: all (every answer audited), alternating
#     with the tenants resolver (level fallbacks), and audit verify on its store afterwards;
# (g) the operator's view: the replay and pass-through of (a) and (b) against a resolver exporting
#     its spans (OTEL_EXPORTER_OTLP_ENDPOINT to a local OTLP/HTTP sink from the bench tools, the
#     SDK's default batching), then against one with --log-format json, each alternating in every
#     round with the resolver as it is (tracing off, text logs); reports each one's ratio to the
#     resolver as it is and the replay/bare and pass/direct ratios it implies;
# (h) clustered bus: replay and pass-through through one clustered node with every role vs an
#     ingress-only node forwarding to a chain node (scripts/bench/cluster-hop.sh), throughput ratio;
# (i) batch: rows/s of a 100,000-row CSV embedded and over HTTP, peak RSS during a 1,000,000-row
#     upload, live p99 at half load with and without a batch (scripts/bench-batch.sh; --no-batch skips);
#     --quick leaves (g), (h), (i) and the sweep's other points out (it must finish in under three minutes);
# then JFR profiles of the replay and pass-through paths under wrk, and the JMH microbenchmarks.
# Every load figure is the median of three rounds (one with --quick); baseline and subject alternate
# in each round. The resolver is warmed until its throughput stops climbing (C2 keeps compiling for
# tens of seconds on one core): warm-up cycles repeat until replay and pass-through move less than
# 5 % from one cycle to the next (at most BENCH_WARM_MAX cycles, default 6; 3 with --quick), and the
# run says how many it took, or that it never settled.
#
# The JVM matrix (JDK 17 G1 vs JDK 25 G1 vs JDK 25 generational ZGC, side by side):
# `scripts/bench.sh --jvm-matrix [--no-build] [--quick] [--doc FILE]` (scripts/bench/jvm-matrix.sh).
#
# Placement (2 cores): the server under test (resolver, bare endpoint, or the provider when it is the
# baseline) on BENCH_SERVER_CPUS (default 1); wrk, the load generator and the stand-in provider on
# BENCH_CLIENT_CPUS (default 0). Needs JDK 17, Maven, wrk (installed with apt-get when missing and
# root), curl, taskset, sha256sum. Kills what it started on exit. Exit status 1 when any load run saw a
# non-2xx answer, a socket error or a body that is not a resolved answer.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source "$ROOT/scripts/bench/lib.sh"   # port_free, pick_port, median, ratio, calc, stop_pids, build_jars, need_wrk

BUILD=1 QUICK=0 JMH=1 PROFILE=1 BATCH=1 CLUSTER=1 OPS=1 DOC=docs/benchmarks.md
# --jvm-matrix [its options]: the JVM matrix instead (scripts/bench/jvm-matrix.sh, same placement).
[ "${1:-}" = --jvm-matrix ] && { shift; exec scripts/bench/jvm-matrix.sh "$@"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --quick) QUICK=1 ;;
    --no-jmh) JMH=0 ;;
    --no-profile) PROFILE=0 ;;
    --no-batch) BATCH=0 ;;
    --doc) DOC=$2; shift ;;
    -h|--help) sed -n '2,50p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

SERVER_CPUS=${BENCH_SERVER_CPUS:-1}
CLIENT_CPUS=${BENCH_CLIENT_CPUS:-0}
CONNECTIONS=${BENCH_CONNECTIONS:-64}     # wrk connections (closed loop)
TENANTS=${BENCH_TENANTS:-20}             # tenants configured in (f)
if [ "$QUICK" = 1 ]; then
  # A guard, not figures: one round, short runs; the warm-up still runs until throughput settles.
  ROUNDS=1 WRK_S=3 WARM_S=4 WARM_SIDE_S=2 OPEN_S=3 OPEN_WARM_S=1 JFR_S=4 COALESCE_TRIALS=1 WARM_MAX=${BENCH_WARM_MAX:-3} TENANT_WARM=1
  # Under three minutes: the clustered hop (Hazelcast start-up), the batch runs (minutes of rows) and
  # the operator's-view resolvers of (g) (two more JVMs to start and warm) are left to the full run.
  CLUSTER=0 BATCH=0 OPS=0
  JMH_ARGS="-f 1 -wi 1 -w 1s -i 2 -r 1s"
else
  ROUNDS=3 WRK_S=8 WARM_S=10 WARM_SIDE_S=10 OPEN_S=8 OPEN_WARM_S=3 JFR_S=15 COALESCE_TRIALS=3 WARM_MAX=${BENCH_WARM_MAX:-6} TENANT_WARM=6
  JMH_ARGS="-f 1 -wi 3 -w 1s -i 5 -r 1s"
fi
SWEEP_PCTS="10 25 75"                    # open-loop sweep points besides the half-load one (% of saturating)
[ "$QUICK" = 1 ] && SWEEP_PCTS=""        # --quick: the half-load point only (the chart then has one point)
OPEN_CONNECTIONS=128                     # LoadGen's pool; requests beyond it wait (and are timed)
COALESCE_N=1000
COALESCE_DELAY_MS=1000                   # the provider holds the coalesced call this long
# The same JVM flags for the resolver and the bare endpoint. G1, as on a 2-core host (pinned to one
# CPU the JVM would pick Serial). Deeper JFR stacks: Vert.x call chains are long.
SERVER_JAVA_OPTS=${BENCH_SERVER_JAVA_OPTS:-"-Xms256m -Xmx1g -XX:+UseG1GC -XX:FlightRecorderOptions:stackdepth=128"}
# The resolver also logs its GC pauses (uptime-stamped) so the open-loop window can be read.
RESOLVER_GC_LOG_OPT="-Xlog:gc:file=RUNDIR/gc.log:uptime"
CLIENT_JAVA_OPTS="-Xmx512m"

RESOLVED_MARKER='"status":"resolved"'
NOMINATIM_MARKER='"display_name":'
GOOGLE_MARKER='"status":"OK"'
PROVIDER_MARKER='"x":'

say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
note() { printf '   %s\n' "$*" >&2; }
die() { printf '\033[31mbench.sh: %s\033[0m\n' "$*" >&2; exit 1; }
FAILURES=()
fail_run() { printf '\033[31m!! FAIL: %s\033[0m\n' "$*" >&2; FAILURES+=("$*"); }

command -v java >/dev/null || die "java is missing (JDK 17)"
command -v curl >/dev/null || die "curl is missing"
command -v jcmd >/dev/null || die "jcmd is missing (it comes with the JDK: install a JDK 17, not a JRE)"
command -v taskset >/dev/null || die "taskset is missing (util-linux)"
command -v sha256sum >/dev/null || die "sha256sum is missing (coreutils)"
need_wrk
[ "$(nproc --all)" -ge 2 ] || note "fewer than 2 CPUs: server and client will share one"

START_EPOCH=$(date +%s)
RUN=$(mktemp -d "${TMPDIR:-/tmp}/georesolver-bench.XXXXXX")
PIDS=()
cleanup() {
  local rc=$?
  stop_pids
  mkdir -p "$ROOT/target"
  rm -f "$RUN"/*.jar
  rm -rf "$ROOT/target/bench-last" && cp -r "$RUN" "$ROOT/target/bench-last" 2>/dev/null && rm -rf "$RUN"
  [ $rc = 0 ] || echo "bench.sh: stopped (status $rc); logs in target/bench-last" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- build
if [ "$BUILD" = 1 ]; then
  say "build: mvn -q -DskipTests package, then the bench profile"
  build_jars
fi
[ -f target/georesolver.jar ] || die "target/georesolver.jar missing (run without --no-build)"
[ -f target/georesolver-bench.jar ] || die "target/georesolver-bench.jar missing (run without --no-build)"
# Run from copies: a rebuild during the run cannot swap classes under a running JVM.
cp target/georesolver.jar "$RUN/resolver.jar"
cp target/georesolver-bench.jar "$RUN/bench-tools.jar"
TOOLS="$RUN/bench-tools.jar"

# ---------------------------------------------------------------- helpers
# start NAME CPUS CMD... : background process pinned to CPUS, output to $RUN/NAME.log; sets LAST_PID.
start() {
  local name=$1 cpus=$2; shift 2
  taskset -c "$cpus" "$@" >"$RUN/$name.log" 2>&1 &
  LAST_PID=$!
  PIDS+=("$LAST_PID")
}
wait_http() { # URL PID NAME
  for _ in $(seq 1 150); do
    curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { tail -20 "$RUN/$3.log" >&2; die "$3 exited before it listened"; }
    sleep 0.2
  done
  tail -20 "$RUN/$3.log" >&2
  die "$3 did not answer on $1 within 30 s"
}
alive() { for pid in "$@"; do kill -0 "$pid" 2>/dev/null || die "process $pid died during the run (logs in target/bench-last)"; done; }
signed() { awk "BEGIN { printf \"%+.3f\", $1 }"; }   # +1.234 or -1.234
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Context switches (voluntary + involuntary) of every thread of a process.
ctxsw() { { cat /proc/"$1"/task/*/status 2>/dev/null || true; } | awk '/_ctxt_switches:/ { s += $2 } END { print s + 0 }'; }
CLK_TCK=$(getconf CLK_TCK)
# Busy and total jiffies of one CPU from /proc/stat.
cpu_jiffies() { awk -v c="cpu$1" '$1 == c { b = $2 + $3 + $4 + $7 + $8 + $9; print b, b + $5 + $6 }' /proc/stat; }
all_jiffies() { awk '$1 == "cpu" { b = $2 + $3 + $4 + $7 + $8 + $9; print b, b + $5 + $6 }' /proc/stat; }
# Child CPU seconds reported by `times` (second line: user sys).
times_secs() { tail -1 "$1" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] } print s }'; }
first_cpu() { echo "$1" | sed 's/[,-].*//'; }
SCPU=$(first_cpu "$SERVER_CPUS")
CCPU=$(first_cpu "$CLIENT_CPUS")

# measure NAME SERVER_PID CMD... : runs a load command on the client CPUs, recording CPU use:
# the server process (% of one core), each pinned core's busy %, and "foreign" % of the whole
# machine (busy time not spent in this run's processes: other people's builds, the kernel's work).
measure() {
  local name=$1 spid=$2; shift 2
  local s0 a0 b0 all0 ours0 t0 t1 s1 a1 b1 all1 ours1 pid
  local x0 x1; x0=$(ctxsw "$spid")
  s0=$(ticks "$spid"); a0=$(cpu_jiffies "$SCPU"); b0=$(cpu_jiffies "$CCPU"); all0=$(all_jiffies)
  ours0=0; for pid in "${PIDS[@]}"; do ours0=$((ours0 + $(ticks "$pid"))); done
  t0=$(date +%s.%N)
  ( set +e; taskset -c "$CLIENT_CPUS" "$@" >"$RUN/$name.out" 2>&1; rc=$?; times >"$RUN/$name.times"; exit $rc ) || true
  t1=$(date +%s.%N)
  x1=$(ctxsw "$spid")
  s1=$(ticks "$spid"); a1=$(cpu_jiffies "$SCPU"); b1=$(cpu_jiffies "$CCPU"); all1=$(all_jiffies)
  ours1=0; for pid in "${PIDS[@]}"; do ours1=$((ours1 + $(ticks "$pid"))); done
  local client_s; client_s=$(times_secs "$RUN/$name.times")
  awk -v s0="$s0" -v s1="$s1" -v a0="${a0% *}" -v a1="${a1% *}" -v at0="${a0#* }" -v at1="${a1#* }" \
      -v b0="${b0% *}" -v b1="${b1% *}" -v bt0="${b0#* }" -v bt1="${b1#* }" \
      -v all0="${all0% *}" -v all1="${all1% *}" -v allt0="${all0#* }" -v allt1="${all1#* }" \
      -v o0="$ours0" -v o1="$ours1" -v x0="$x0" -v x1="$x1" -v cs="$client_s" -v hz="$CLK_TCK" -v t0="$t0" -v t1="$t1" 'BEGIN {
        wall = t1 - t0
        srv = (s1 - s0) / hz / wall * 100
        sc = (at1 > at0) ? (a1 - a0) / (at1 - at0) * 100 : 0
        cc = (bt1 > bt0) ? (b1 - b0) / (bt1 - bt0) * 100 : 0
        busy = (all1 - all0) / hz
        ours = (o1 - o0) / hz + cs
        f = (allt1 > allt0) ? (busy - ours) / ((allt1 - allt0) / hz) * 100 : 0
        if (f < 0) f = 0
        printf "server_cpu=%.0f server_core=%.0f client_core=%.0f foreign=%.0f ctxsw=%d\n", srv, sc, cc, f, x1 - x0
      }' >"$RUN/$name.cpu"
}
cpu_field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$RUN/$1.cpu"; }

# wrk NAME SERVER_PID URL SCRIPT MARKER [TAG]: one closed-loop run; result line in $RUN/NAME.res.
# With WRK_HEADER set (e.g. WRK_HEADER="Authorization: Bearer k" run_wrk ...) every request carries it.
run_wrk() {
  local name=$1 spid=$2 url=$3 script=$4 marker=$5 tag=${6:-}
  measure "$name" "$spid" wrk -t1 -c"$CONNECTIONS" -d"${WRK_S}s" --timeout 5s --latency ${WRK_HEADER:+-H "$WRK_HEADER"} \
    -s "$ROOT/scripts/bench/$script" "$url" -- "$marker" ${tag:+"$tag"}
  local out="$RUN/$name.out"
  local rps p50 p99 non2xx bad sockerr
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
  p50=$(awk '$1 == "50%" {print $2}' "$out" | to_ms)
  p99=$(awk '$1 == "99%" {print $2}' "$out" | to_ms)
  non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$out")
  bad=$(awk '/^bench-bad-bodies:/ {print $2}' "$out")
  sockerr=$(awk '/Socket errors:/ { gsub(",", ""); print $4 + $6 + $8 + $10 }' "$out")
  [ -n "$rps" ] || { cat "$out" >&2; die "wrk run $name printed no Requests/sec"; }
  local total cs
  total=$(awk '/requests in/ {print $1}' "$out")
  cs=$(awk -v c="$(cpu_field "$name" ctxsw)" -v n="${total:-0}" 'BEGIN { printf "%.2f", (n > 0 ? c / n : 0) }')
  echo "rps=${rps} p50=${p50} p99=${p99} non2xx=${non2xx:-0} bad=${bad:-0} sockerr=${sockerr:-0} cs_per_req=${cs}" >"$RUN/$name.res"
  note "$(printf '%-14s %9.0f req/s  p50 %7.3f ms  p99 %8.3f ms  non-2xx %s  bad %s  sock-err %s  | %s' \
    "$name" "$rps" "$p50" "$p99" "${non2xx:-0}" "${bad:-0}" "${sockerr:-0}" "$(cat "$RUN/$name.cpu")")"
  if [ "${non2xx:-0}" != 0 ] || [ "${bad:-0}" != 0 ] || [ "${sockerr:-0}" != 0 ]; then
    fail_run "$name: ${non2xx:-0} non-2xx, ${bad:-0} bodies without $marker, ${sockerr:-0} socket errors (see target/bench-last/$name.out)"
  fi
}
to_ms() { awk '{ v = $1; if (v ~ /us$/) { sub("us", "", v); v /= 1000 } else if (v ~ /ms$/) { sub("ms", "", v) } else if (v ~ /s$/) { sub("s", "", v); v *= 1000 } printf "%.3f", v }'; }
res() { sed -n "s/.*\b$2=\([0-9.]*\).*/\1/p" "$RUN/$1.res"; }
alive_all() { alive "$PROVIDER_PID" "$RESOLVER_PID" "$BARE_PID" "$@"; }

# ---------------------------------------------------------------- start the stand-in and the resolver
P_PROVIDER=$(pick_port); P_RESOLVER=$(pick_port); P_BARE=$(pick_port)
sed -e "s/PROVIDER_PORT/$P_PROVIDER/g" -e "s|STATE_PATH|$RUN/state.db|" scripts/bench/manifest.yaml >"$RUN/manifest.yaml"

say "start: stand-in provider :$P_PROVIDER (CPU $CLIENT_CPUS), resolver :$P_RESOLVER (CPU $SERVER_CPUS)"
start provider "$CLIENT_CPUS" java $CLIENT_JAVA_OPTS -jar "$TOOLS" provider --port "$P_PROVIDER"
PROVIDER_PID=$LAST_PID
# shellcheck disable=SC2086
start resolver "$SERVER_CPUS" java $SERVER_JAVA_OPTS "${RESOLVER_GC_LOG_OPT/RUNDIR/$RUN}" -jar "$RUN/resolver.jar" --manifest "$RUN/manifest.yaml" --port "$P_RESOLVER"
RESOLVER_PID=$LAST_PID
wait_http "http://127.0.0.1:$P_PROVIDER/_ctl/count" "$PROVIDER_PID" provider
wait_http "http://127.0.0.1:$P_RESOLVER/health/live" "$RESOLVER_PID" resolver

R="http://127.0.0.1:$P_RESOLVER"
PROV="http://127.0.0.1:$P_PROVIDER"
REPLAY_URL="$R/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
# The same question through the compatible endpoints: the same request, so the same stored answer.
NOMINATIM_URL="$R/search?q=10%20Downing%20St%2C%20London%20SW1A%202AA&format=jsonv2"
GOOGLE_URL="$R/maps/api/geocode/json?address=10%20Downing%20St%2C%20London%20SW1A%202AA"
PASS_URL="$R/v1/geocode?q="
DIRECT_URL="$PROV/fast?q="
FAILOVER_URL="$R/v1/geocode?intent=failover&q="

# The replay answer, as the bare endpoint will serve it: same bytes, a trace id of the same length.
curl -fsS "$REPLAY_URL" >/dev/null
curl -fsS -D "$RUN/replay.headers" "$REPLAY_URL" >"$RUN/replay.json"
grep -q '"replayed":true' "$RUN/replay.json" || die "the second identical request was not a replay: $(cat "$RUN/replay.json")"
TRACE=$(awk -F': ' 'tolower($1) == "x-trace-id" { gsub("\r", "", $2); print $2 }' "$RUN/replay.headers")
curl -fsS "$NOMINATIM_URL" >"$RUN/replay-nominatim.json"
grep -q "$NOMINATIM_MARKER" "$RUN/replay-nominatim.json" || die "the Nominatim path did not answer a place: $(cat "$RUN/replay-nominatim.json")"
curl -fsS "$GOOGLE_URL" >"$RUN/replay-google.json"
grep -q "$GOOGLE_MARKER" "$RUN/replay-google.json" || die "the Google path did not answer OK: $(cat "$RUN/replay-google.json")"
BARE_TRACE=$(printf '%*s' "${#TRACE}" '' | tr ' ' 'f')
# shellcheck disable=SC2086
start bare "$SERVER_CPUS" java $SERVER_JAVA_OPTS -jar "$TOOLS" bare --port "$P_BARE" --body "$RUN/replay.json" --trace-id "$BARE_TRACE"
BARE_PID=$LAST_PID
wait_http "http://127.0.0.1:$P_BARE/" "$BARE_PID" bare
BARE_URL="http://127.0.0.1:$P_BARE/v1/geocode"
REPLAY_BYTES=$(wc -c <"$RUN/replay.json")
BARE_BYTES=$(curl -fsS "$BARE_URL" | wc -c)
note "replay body $REPLAY_BYTES bytes, bare body $BARE_BYTES bytes"

# ---------------------------------------------------------------- warm-up (JIT) of every path
# The resolver's paths take about a minute of load to reach steady state (C2), so it gets two
# cycles of replay and pass-through. Starting JFR for the first time retransforms JDK classes and
# throws away compiled code (measured here: -90% throughput for tens of seconds), so a throw-away
# recording is started and stopped at the beginning of the warm-up: the profiles later start on a
# warm JVM, and the measured runs are not disturbed.
say "warm-up: ${WARM_S}s per baseline, then cycles of every resolver path (replay and pass-through ${WARM_S}s, the others ${WARM_SIDE_S}s) until replay and pass-through settle, at most $WARM_MAX (JFR primed first)"
for pid in "$RESOLVER_PID" "$BARE_PID"; do
  jcmd "$pid" JFR.start name=prime settings=profile >>"$RUN/jfr-prime.log" 2>&1 || die "jcmd JFR.start failed: $(cat "$RUN/jfr-prime.log")"
done
sleep 1
for pid in "$RESOLVER_PID" "$BARE_PID"; do jcmd "$pid" JFR.stop name=prime >>"$RUN/jfr-prime.log" 2>&1 || true; done
WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
run_wrk warm-bare "$BARE_PID" "$BARE_URL" wrk-check.lua "$RESOLVED_MARKER"
run_wrk warm-direct "$PROVIDER_PID" "$DIRECT_URL" wrk-unique.lua "$PROVIDER_MARKER" warm
# Cycles repeat until replay and pass-through each move less than 5 % from the cycle before (at least
# two cycles, at most WARM_MAX): C2 on the one server core keeps compiling long after the start.
WARM_CYCLES=0 WARM_SETTLED=0
for w in $(seq 1 "$WARM_MAX"); do
  run_wrk "warm$w-replay" "$RESOLVER_PID" "$REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  run_wrk "warm$w-pass" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "warm$w"
  WRK_S=$WARM_SIDE_S
  run_wrk "warm$w-nominatim" "$RESOLVER_PID" "$NOMINATIM_URL" wrk-check.lua "$NOMINATIM_MARKER"
  run_wrk "warm$w-google" "$RESOLVER_PID" "$GOOGLE_URL" wrk-check.lua "$GOOGLE_MARKER"
  run_wrk "warm$w-failover" "$RESOLVER_PID" "$FAILOVER_URL" wrk-unique.lua "$RESOLVED_MARKER" "warmf$w"
  WRK_S=$WARM_S
  WARM_CYCLES=$w
  if [ "$w" -ge 2 ] && awk -v a="$(res "warm$((w - 1))-replay" rps)" -v b="$(res "warm$w-replay" rps)" \
      -v c="$(res "warm$((w - 1))-pass" rps)" -v d="$(res "warm$w-pass" rps)" \
      'BEGIN { exit !(a > 0 && c > 0 && (b - a) / a < 0.05 && (b - a) / a > -0.05 && (d - c) / c < 0.05 && (d - c) / c > -0.05) }'; then
    WARM_SETTLED=1; break
  fi
done
WARM_TRAIL=$(for w in $(seq 1 "$WARM_CYCLES"); do printf '%.0f/%.0f ' "$(res "warm$w-replay" rps)" "$(res "warm$w-pass" rps)"; done)
if [ "$WARM_SETTLED" = 1 ]; then
  WARM_NOTE="settled after $WARM_CYCLES cycles of ${WARM_S}s per path (replay/pass-through req/s per cycle: ${WARM_TRAIL% })"
else
  WARM_NOTE="NOT settled after $WARM_CYCLES cycles of ${WARM_S}s per path (replay/pass-through req/s per cycle: ${WARM_TRAIL% }): the figures may under-measure a warm resolver"
fi
note "warm-up $WARM_NOTE"
WRK_S=$WRK_S_SAVED
alive_all

# ---------------------------------------------------------------- (a) replay vs bare Vert.x
say "(a) replay vs bare Vert.x, and the compatible paths' replay: wrk -t1 -c$CONNECTIONS -d${WRK_S}s, $ROUNDS rounds"
for i in $(seq 1 $ROUNDS); do
  run_wrk "a$i-bare" "$BARE_PID" "$BARE_URL" wrk-check.lua "$RESOLVED_MARKER"
  run_wrk "a$i-replay" "$RESOLVER_PID" "$REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  run_wrk "a$i-nominatim" "$RESOLVER_PID" "$NOMINATIM_URL" wrk-check.lua "$NOMINATIM_MARKER"
  run_wrk "a$i-google" "$RESOLVER_PID" "$GOOGLE_URL" wrk-check.lua "$GOOGLE_MARKER"
done
alive_all

# ---------------------------------------------------------------- (b) pass-through vs direct
# For the direct baseline the provider is the server under test: it moves to the server CPUs
# (the resolver idles meanwhile) and back to the client CPUs for the pass-through run.
say "(b) pass-through vs direct: wrk -t1 -c$CONNECTIONS -d${WRK_S}s, $ROUNDS rounds"
for i in $(seq 1 $ROUNDS); do
  taskset -a -p -c "$SERVER_CPUS" "$PROVIDER_PID" >/dev/null
  run_wrk "b$i-direct" "$PROVIDER_PID" "$DIRECT_URL" wrk-unique.lua "$PROVIDER_MARKER" "b${i}d"
  taskset -a -p -c "$CLIENT_CPUS" "$PROVIDER_PID" >/dev/null
  run_wrk "b$i-pass" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "b${i}p"
done
alive_all
SAT=$(median $(for i in $(seq 1 $ROUNDS); do res "b$i-pass" rps; done))
HALF=$(calc "$SAT / 2" 0)
note "saturating pass-through rate (median) $SAT req/s; half load $HALF req/s"

# ---------------------------------------------------------------- (f) with tenants
# A second resolver on the same manifest plus a tenants: block, started for this section only: every
# request authenticated (one sha256 of the key, compared with every configured digest) and counted
# per tenant. Each round alternates the resolver without tenants and this one, on the same paths.
P_TENANTS=$(pick_port)
export BENCH_TENANT_KEY="bench-tenant-key-$START_EPOCH"
# /metrics needs an admin key once tenants exist: the bench reads it as an operator would.
export BENCH_ADMIN_KEY="bench-admin-key-$START_EPOCH"
digest() { printf '%s' "$1" | sha256sum | cut -c1-64; }
{
  sed "s|$RUN/state.db|$RUN/state-tenants.db|" "$RUN/manifest.yaml"
  echo "tenants:"
  for t in $(seq 2 "$TENANTS"); do
    echo "  - { id: \"t$t\", keys: [ { sha256: \"$(digest "other-$t-a")\" }, { sha256: \"$(digest "other-$t-b")\" } ] }"
  done
  echo "  - { id: \"bench\", keys: [ { sha256: \"$(digest "bench-old")\" }, { env: \"BENCH_TENANT_KEY\" } ] }"
  echo "  - { id: \"ops\", keys: [ { env: \"BENCH_ADMIN_KEY\" } ], admin: true }"
} >"$RUN/manifest-tenants.yaml"
say "(f) with $TENANTS tenants: resolver :$P_TENANTS (CPU $SERVER_CPUS), replay and pass-through, $ROUNDS rounds"
# shellcheck disable=SC2086
start tenants "$SERVER_CPUS" java $SERVER_JAVA_OPTS -jar "$RUN/resolver.jar" --manifest "$RUN/manifest-tenants.yaml" --port "$P_TENANTS"
TENANTS_PID=$LAST_PID
wait_http "http://127.0.0.1:$P_TENANTS/health/live" "$TENANTS_PID" tenants
T="http://127.0.0.1:$P_TENANTS"
AUTH="Authorization: Bearer $BENCH_TENANT_KEY"
T_REPLAY_URL="$T/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
T_PASS_URL="$T/v1/geocode?q="
[ "$(curl -s -o /dev/null -w '%{http_code}' "$T_REPLAY_URL")" = 401 ] || die "the resolver with tenants answered a request without a key"
curl -fsS -H "$AUTH" "$T_REPLAY_URL" >/dev/null
curl -fsS -H "$AUTH" "$T_REPLAY_URL" | grep -q '"replayed":true' || die "the resolver with tenants did not replay the second identical request"
WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
# The resolver without tenants is warm from (a) and (b); this one has just started, so it gets as much
# load before its measured rounds (a freshly started JVM measured after two short warm-ups ran at a
# third of its warm rate, which read as a cost of tenants).
for w in $(seq 1 "$TENANT_WARM"); do
  WRK_HEADER=$AUTH run_wrk "warm$w-replay-tenants" "$TENANTS_PID" "$T_REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  WRK_HEADER=$AUTH run_wrk "warm$w-pass-tenants" "$TENANTS_PID" "$T_PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "warmt$w"
done
WRK_S=$WRK_S_SAVED
for i in $(seq 1 $ROUNDS); do
  run_wrk "f$i-replay" "$RESOLVER_PID" "$REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  WRK_HEADER=$AUTH run_wrk "f$i-replay-tenants" "$TENANTS_PID" "$T_REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  run_wrk "f$i-pass" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "f${i}p"
  WRK_HEADER=$AUTH run_wrk "f$i-pass-tenants" "$TENANTS_PID" "$T_PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "f${i}t"
done
alive_all "$TENANTS_PID"
T_METRICS=$(curl -fsS -H "Authorization: Bearer $BENCH_ADMIN_KEY" "$T/metrics")   # read whole first: grep -q closing the pipe early fails curl under pipefail
grep -q 'georesolver_tenant_requests_total{outcome="admitted",tenant="bench"}' <<<"$T_METRICS" \
  || die "the resolver with tenants counted no admitted request for tenant bench"

# (f) audit.level: all — a third resolver on the tenants manifest that records every answer in the
# tenant's hash-chained partition (the tenants resolver above records only fallback activations, the
# default, and none happen here), alternating in each round with the tenants resolver.
P_AUDIT=$(pick_port)
{
  sed "s|$RUN/state-tenants.db|$RUN/state-audit.db|" "$RUN/manifest-tenants.yaml"
  echo "audit: { level: all }"
} >"$RUN/manifest-audit.yaml"
say "(f) audit.level all: resolver :$P_AUDIT (CPU $SERVER_CPUS), replay and pass-through, $ROUNDS rounds"
# shellcheck disable=SC2086
start audit "$SERVER_CPUS" java $SERVER_JAVA_OPTS -jar "$RUN/resolver.jar" --manifest "$RUN/manifest-audit.yaml" --port "$P_AUDIT"
AUDIT_PID=$LAST_PID
wait_http "http://127.0.0.1:$P_AUDIT/health/live" "$AUDIT_PID" audit
A="http://127.0.0.1:$P_AUDIT"
A_REPLAY_URL="$A/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
A_PASS_URL="$A/v1/geocode?q="
curl -fsS -H "$AUTH" "$A_REPLAY_URL" >/dev/null
WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
for w in 1 2; do
  WRK_HEADER=$AUTH run_wrk "warm$w-replay-audit" "$AUDIT_PID" "$A_REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  WRK_HEADER=$AUTH run_wrk "warm$w-pass-audit" "$AUDIT_PID" "$A_PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "warma$w"
done
WRK_S=$WRK_S_SAVED
for i in $(seq 1 $ROUNDS); do
  WRK_HEADER=$AUTH run_wrk "fa$i-replay-tenants" "$TENANTS_PID" "$T_REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  WRK_HEADER=$AUTH run_wrk "fa$i-replay-audit" "$AUDIT_PID" "$A_REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
  WRK_HEADER=$AUTH run_wrk "fa$i-pass-tenants" "$TENANTS_PID" "$T_PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "fa${i}t"
  WRK_HEADER=$AUTH run_wrk "fa$i-pass-audit" "$AUDIT_PID" "$A_PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "fa${i}a"
done
alive_all "$TENANTS_PID" "$AUDIT_PID"
AUDIT_METRICS=$(curl -fsS -H "Authorization: Bearer $BENCH_ADMIN_KEY" "$A/metrics")
AUDIT_WRITTEN=$(echo "$AUDIT_METRICS" | sed -n 's/^georesolver_audit_records_total{result="written"} \([0-9.E]*\)$/\1/p')
AUDIT_DROPPED=$(echo "$AUDIT_METRICS" | sed -n 's/^georesolver_audit_records_total{result="dropped"} \([0-9.E]*\)$/\1/p')
note "audit level all: records written ${AUDIT_WRITTEN:-?}, dropped ${AUDIT_DROPPED:-?}"
java -jar "$RUN/resolver.jar" audit verify --manifest "$RUN/manifest-audit.yaml" >"$RUN/audit-verify.txt" 2>&1 \
  || die "audit verify failed after the audit.level all run: $(cat "$RUN/audit-verify.txt")"
kill "$AUDIT_PID" "$TENANTS_PID" 2>/dev/null || true
for _ in $(seq 1 20); do kill -0 "$TENANTS_PID" 2>/dev/null || kill -0 "$AUDIT_PID" 2>/dev/null || break; sleep 0.25; done

# ---------------------------------------------------------------- (g) tracing on, JSON logs
if [ "$OPS" = 1 ]; then
# Each variant is a resolver of its own on the same manifest (its own state file), started for its
# rounds only; every round runs the resolver as it is and the variant on the same paths.
P_SINK=$(pick_port)
start otlp-sink "$CLIENT_CPUS" java $CLIENT_JAVA_OPTS -jar "$TOOLS" otlp-sink --port "$P_SINK"
SINK_PID=$LAST_PID
wait_http "http://127.0.0.1:$P_SINK/_ctl/count" "$SINK_PID" otlp-sink
# variant NAME [ENV=VALUE...] -- [resolver flags...]
variant() {
  local name=$1; shift
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  local port; port=$(pick_port)
  sed "s|$RUN/state.db|$RUN/state-$name.db|" "$RUN/manifest.yaml" >"$RUN/manifest-$name.yaml"
  say "(g) $name: resolver :$port (CPU $SERVER_CPUS) ${envs[*]} $*, replay and pass-through, $ROUNDS rounds"
  # shellcheck disable=SC2086
  start "$name" "$SERVER_CPUS" env "${envs[@]}" java $SERVER_JAVA_OPTS -jar "$RUN/resolver.jar" --manifest "$RUN/manifest-$name.yaml" --port "$port" "$@"
  local pid=$LAST_PID
  wait_http "http://127.0.0.1:$port/health/live" "$pid" "$name"
  local v="http://127.0.0.1:$port"
  local replay="$v/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
  curl -fsS "$replay" >/dev/null
  curl -fsS "$replay" | grep -q '"replayed":true' || die "the $name resolver did not replay the second identical request"
  WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
  for w in 1 2; do
    run_wrk "warm$w-replay-$name" "$pid" "$replay" wrk-check.lua "$RESOLVED_MARKER"
    run_wrk "warm$w-pass-$name" "$pid" "$v/v1/geocode?q=" wrk-unique.lua "$RESOLVED_MARKER" "warm${name}$w"
  done
  WRK_S=$WRK_S_SAVED
  for i in $(seq 1 $ROUNDS); do
    run_wrk "g$i-replay-base-$name" "$RESOLVER_PID" "$REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER"
    run_wrk "g$i-replay-$name" "$pid" "$replay" wrk-check.lua "$RESOLVED_MARKER"
    run_wrk "g$i-pass-base-$name" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "g${i}b$name"
    run_wrk "g$i-pass-$name" "$pid" "$v/v1/geocode?q=" wrk-unique.lua "$RESOLVED_MARKER" "g${i}v$name"
  done
  alive_all "$pid"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
}
variant traced OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$P_SINK" OTEL_SERVICE_NAME=georesolver-bench --
grep -q 'tracing: OTLP/HTTP to' "$RUN/traced.log" || die "the traced resolver did not say it exports spans (see target/bench-last/traced.log)"
SINK_COUNT=$(curl -fsS "http://127.0.0.1:$P_SINK/_ctl/count")
[ "$(echo "$SINK_COUNT" | sed -n 's/.*"requests":\([0-9]*\).*/\1/p')" -gt 0 ] || die "the OTLP sink received no export: $SINK_COUNT"
note "OTLP sink after the traced rounds: $SINK_COUNT"
variant jsonlogs -- --log-format json
grep -q '^{"ts":' "$RUN/jsonlogs.log" || die "the jsonlogs resolver did not log JSON (see target/bench-last/jsonlogs.log)"
kill "$SINK_PID" 2>/dev/null || true
fi

# ---------------------------------------------------------------- (h) clustered: the cost of a hop
# scripts/bench/cluster-hop.sh: one clustered node with every role vs an ingress-only node forwarding
# to a chain node over the clustered bus (Hazelcast on loopback), every node on the server CPUs,
# replay and pass-through, alternating, medians of the rounds. Its table goes into the doc as (h).
if [ "$CLUSTER" = 1 ]; then
  say "(h) clustered bus: one node with every role vs ingress node -> chain node, $ROUNDS rounds"
  mkdir -p "$RUN/cluster"
  scripts/bench/cluster-hop.sh --launch "java $SERVER_JAVA_OPTS -jar $RUN/resolver.jar" --provider-port "$P_PROVIDER" \
    --cpus "$SERVER_CPUS" --client-cpus "$CLIENT_CPUS" --seconds "$WRK_S" --rounds "$ROUNDS" --connections "$CONNECTIONS" \
    --out "$RUN/cluster" >"$RUN/cluster.log" 2>&1 || fail_run "(h) clustered run failed (see target/bench-last/cluster.log)"
  tail -1 "$RUN/cluster.log" | while read -r l; do note "$l"; done
  alive_all
fi

# ---------------------------------------------------------------- (c) open the hung tier's breaker
say "(c) hang tier 1 and open its breaker"
curl -fsS "$PROV/_ctl/lane?name=hung&hang=true" >/dev/null
OPENED=0
for i in $(seq 1 12); do
  curl -fsS -o /dev/null "${FAILOVER_URL}${i}%20Breaker%20Rd" || true
  if curl -fsS "$R/health/ready" | grep -Eq '"tier":"hung"[^}]*"state":"open"'; then OPENED=$i; break; fi
done
[ "$OPENED" -gt 0 ] || die "tier hung's breaker did not open: $(curl -sS "$R/health/ready")"
note "breaker of tier hung open after $OPENED failover requests"

# ---------------------------------------------------------------- (c′) failover throughput, closed loop
# Tier 1's breaker is open: every failover answer comes from tier 2, degraded, and owes a debt and an
# audit record. Pass-through (tier 2 alone, not degraded) alternates with it in each round.
say "(c′) failover vs pass-through throughput: wrk -t1 -c$CONNECTIONS -d${WRK_S}s, $ROUNDS rounds (after ${WARM_S}s of failover with the breaker open)"
# The warm-up's failover cycles ran before tier 1 hung (tier 1 answered them): the degraded path
# gets its own warm-up once the breaker is open, as pass-through got in the warm-up cycles.
WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
run_wrk "warm-c-failover" "$RESOLVER_PID" "$FAILOVER_URL" wrk-unique.lua "$RESOLVED_MARKER" "warmc"
WRK_S=$WRK_S_SAVED
for i in $(seq 1 $ROUNDS); do
  run_wrk "c$i-pass" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" "c${i}p"
  run_wrk "c$i-failover" "$RESOLVER_PID" "$FAILOVER_URL" wrk-unique.lua "$RESOLVED_MARKER" "c${i}f"
done
alive_all

# ---------------------------------------------------------------- (b)+(c) open loop at half load
say "(b)(c) open loop at $HALF req/s: ${OPEN_WARM_S}s warm-up + ${OPEN_S}s, $ROUNDS rounds of direct, pass, failover"
uptime_s() { jcmd "$1" VM.uptime 2>/dev/null | awk '/ s$/ {print $1}'; }
OPEN_T0=$(uptime_s "$RESOLVER_PID")
measure open "$RESOLVER_PID" java $CLIENT_JAVA_OPTS -jar "$TOOLS" loadgen rate --rate "$HALF" --duration-s "$OPEN_S" \
  --warmup-s "$OPEN_WARM_S" --rounds "$ROUNDS" --connections "$OPEN_CONNECTIONS" --tag "o$START_EPOCH" \
  --target direct "$DIRECT_URL" "$PROVIDER_MARKER" \
  --target pass "$PASS_URL" "$RESOLVED_MARKER" \
  --target failover "$FAILOVER_URL" "$RESOLVED_MARKER"
OPEN_T1=$(uptime_s "$RESOLVER_PID")
grep -E '^(RESULT|ERROR)' "$RUN/open.out" | sed 's/^/   /' >&2 || true
# GC pauses of the resolver during the open-loop phase: count, mean, max, share of wall time.
GC_OPEN=$(awk -v t0="${OPEN_T0:-0}" -v t1="${OPEN_T1:-0}" '
  /Pause/ && /ms$/ { t = $1; gsub(/[\[\]s]/, "", t); ms = $NF; sub("ms", "", ms)
    if (t + 0 >= t0 + 0 && t + 0 <= t1 + 0) { n++; s += ms; if (ms + 0 > m) m = ms + 0 } }
  END { w = t1 - t0; printf "%d pauses, mean %.1f ms, max %.1f ms, %.1f%% of the time paused", n, (n ? s / n : 0), m, (w > 0 ? s / 10 / w : 0) }' "$RUN/gc.log" 2>/dev/null || echo "no GC log")
note "resolver GC during the open loop: $GC_OPEN"
grep -q '^RESULT' "$RUN/open.out" || { cat "$RUN/open.out" >&2; die "the load generator printed no result"; }
open_field() { # ROUND TARGET FIELD
  { grep "^RESULT mode=rate round=$1 target=$2 " "$RUN/open.out" || true; } | sed -n "s/.* $3=\([0-9.]*\).*/\1/p"
}
OPEN_BAD=0
for i in $(seq 1 $ROUNDS); do
  for t in direct pass failover; do
    n=$(open_field "$i" "$t" sent); g=$(open_field "$i" "$t" good)
    if [ -z "$n" ] || [ "$n" != "$g" ]; then
      OPEN_BAD=1
      fail_run "open loop round $i $t: $g good of $n ($(open_field "$i" "$t" non2xx) non-2xx, $(open_field "$i" "$t" bad_body) bad bodies, $(open_field "$i" "$t" errors) errors)"
    fi
  done
done
alive_all
HEALTH_AFTER=$(curl -fsS "$R/health/ready" || true)

# ---------------------------------------------------------------- open-loop sweep
# The same generator, direct and pass, at 10 %, 25 % and 75 % of the saturating rate (50 % is the
# half-load point above): where the knee is. Each point: a warm-up run, then the measured one.
[ -z "$SWEEP_PCTS" ] || say "open-loop sweep: ${SWEEP_PCTS// /, } % of $SAT req/s, ${OPEN_WARM_S}s warm-up + ${OPEN_S}s, $ROUNDS round(s) of direct and pass"
for pct in $SWEEP_PCTS; do
  rate=$(calc "$SAT * $pct / 100" 0)
  measure "sweep$pct" "$RESOLVER_PID" java $CLIENT_JAVA_OPTS -jar "$TOOLS" loadgen rate --rate "$rate" --duration-s "$OPEN_S" \
    --warmup-s "$OPEN_WARM_S" --prewarm-s 0 --rounds "$ROUNDS" --connections "$OPEN_CONNECTIONS" --tag "s$pct$START_EPOCH" \
    --target direct "$DIRECT_URL" "$PROVIDER_MARKER" \
    --target pass "$PASS_URL" "$RESOLVED_MARKER"
  grep -E '^(RESULT|ERROR)' "$RUN/sweep$pct.out" | sed "s/^/   $pct% /" >&2 || true
  for i in $(seq 1 $ROUNDS); do
    for t in direct pass; do
      l=$({ grep "^RESULT mode=rate round=$i target=$t " "$RUN/sweep$pct.out" || true; })
      n=$(sed -n 's/.* sent=\([0-9]*\).*/\1/p' <<<"$l"); g=$(sed -n 's/.* good=\([0-9]*\).*/\1/p' <<<"$l")
      if [ -z "$n" ] || [ "$n" != "$g" ]; then
        OPEN_BAD=1
        fail_run "open-loop sweep $pct% round $i $t: ${g:-0} good of ${n:-?} (see target/bench-last/sweep$pct.out)"
      fi
    done
  done
done
alive_all
# sweep_field PCT ROUND TARGET FIELD (50 reads the half-load runs)
sweep_field() {
  local f="$RUN/sweep$1.out"; [ "$1" = 50 ] && f="$RUN/open.out"
  { grep "^RESULT mode=rate round=$2 target=$3 " "$f" || true; } | sed -n "s/.* $4=\([0-9.]*\).*/\1/p"
}
smed() { median $(for i in $(seq 1 $ROUNDS); do sweep_field "$1" "$i" "$2" "$3"; done); }

# ---------------------------------------------------------------- (d) coalescing
say "(d) coalescing: $COALESCE_N concurrent identical requests, provider answering after ${COALESCE_DELAY_MS} ms"
curl -fsS "$PROV/_ctl/lane?name=fast&delay_ms=$COALESCE_DELAY_MS" >/dev/null
lane_calls() { curl -fsS "$PROV/_ctl/count?lane=$1" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p'; }
for k in $(seq 1 $COALESCE_TRIALS); do
  before=$(lane_calls fast)
  ( taskset -c "$CLIENT_CPUS" java $CLIENT_JAVA_OPTS -jar "$TOOLS" loadgen burst --n "$COALESCE_N" \
      --url "$R/v1/geocode?budget_ms=8000&q=${k}%20Coalesce%20Court%20$START_EPOCH" --marker "$RESOLVED_MARKER" ) \
    >"$RUN/d$k.out" 2>&1 || true
  after=$(lane_calls fast)
  echo "upstream=$((after - before)) $(grep '^RESULT' "$RUN/d$k.out" || echo 'RESULT missing')" >"$RUN/d$k.res"
  note "trial $k: $(cat "$RUN/d$k.res")"
  grep -q "good=$COALESCE_N " "$RUN/d$k.res" || fail_run "coalescing trial $k: not every answer was a 2xx resolved answer ($(cat "$RUN/d$k.res"))"
done
curl -fsS "$PROV/_ctl/lane?name=fast&delay_ms=0" >/dev/null
alive_all

# ---------------------------------------------------------------- profile
if [ "$PROFILE" = 1 ]; then
  say "profile: JFR (settings=profile) on the resolver during ${JFR_S}s of replay, of pass-through, then of failover (tier 1's breaker open); the bare endpoint for ${WRK_S}s"
  for path in replay pass failover bare; do
    pid=$RESOLVER_PID; [ "$path" = bare ] && pid=$BARE_PID
    jcmd "$pid" JFR.start name="bench-$path" settings=profile >"$RUN/jfr-$path.start" 2>&1 \
      || die "jcmd JFR.start failed: $(cat "$RUN/jfr-$path.start")"
    WRK_S_SAVED=$WRK_S; WRK_S=$JFR_S
    case "$path" in
      replay) run_wrk "jfr-replay" "$RESOLVER_PID" "$REPLAY_URL" wrk-check.lua "$RESOLVED_MARKER" ;;
      pass) run_wrk "jfr-pass" "$RESOLVER_PID" "$PASS_URL" wrk-unique.lua "$RESOLVED_MARKER" jfr ;;
      failover) run_wrk "jfr-failover" "$RESOLVER_PID" "$FAILOVER_URL" wrk-unique.lua "$RESOLVED_MARKER" jfrf ;;
      bare) WRK_S=$WRK_S_SAVED; run_wrk "jfr-bare" "$BARE_PID" "$BARE_URL" wrk-check.lua "$RESOLVED_MARKER" ;;
    esac
    WRK_S=$WRK_S_SAVED
    jcmd "$pid" JFR.stop name="bench-$path" filename="$RUN/$path.jfr" >"$RUN/jfr-$path.stop" 2>&1 \
      || die "jcmd JFR.stop failed: $(cat "$RUN/jfr-$path.stop")"
  done
fi

# ---------------------------------------------------------------- (e) resident memory
RSS_KB=$(awk '/^VmRSS:/ {print $2}' "/proc/$RESOLVER_PID/status")
HWM_KB=$(awk '/^VmHWM:/ {print $2}' "/proc/$RESOLVER_PID/status")
HEAP_USED=$(jcmd "$RESOLVER_PID" GC.heap_info 2>/dev/null | awk '/total/ && /used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub("K,?", "", v); s += v } } END { printf "%.0f", s / 1024 }')
L1_ENTRIES=$(curl -fsS "$R/health/ready" | sed -n 's/.*"l1_entries":\([0-9]*\).*/\1/p')
say "(e) resolver RSS $((RSS_KB / 1024)) MB (peak $((HWM_KB / 1024)) MB), heap in use ${HEAP_USED} MB, ${L1_ENTRIES:-?} answers in L1"

# Stop the servers before JMH and the summaries (the JFR files are on disk).
for pid in "$BARE_PID" "$RESOLVER_PID" "$PROVIDER_PID"; do kill "$pid" 2>/dev/null || true; done
for pid in "$BARE_PID" "$RESOLVER_PID" "$PROVIDER_PID"; do
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
done

# ---------------------------------------------------------------- (e) heap bytes per stored answer
# The memory store alone, filled with 100,000 answers shaped like the pass-through ones, on the
# server's flags: heap in use after System.gc() before and after, per answer (no churn here).
say "(e) heap bytes per stored answer: store-footprint, 100,000 answers"
# shellcheck disable=SC2086
taskset -c "$SERVER_CPUS" java $SERVER_JAVA_OPTS -cp "$TOOLS" dev.georesolver.bench.BenchMain store-footprint \
  --answers 100000 --churn-s 0 >"$RUN/footprint.out" 2>&1 || { cat "$RUN/footprint.out" >&2; die "store-footprint failed"; }
FP_BYTES=$(sed -n 's/.* bytes_per_answer=\([0-9]*\).*/\1/p' "$RUN/footprint.out")
FP_JSON=$(sed -n 's/.* json_bytes_per_answer=\([0-9]*\).*/\1/p' "$RUN/footprint.out")
note "heap per stored answer: $FP_BYTES bytes (of which its JSON $FP_JSON)"

if [ "$PROFILE" = 1 ]; then
  for path in replay pass failover bare; do
    n=$(awk '/requests in/ {print $1}' "$RUN/jfr-$path.out")
    java -jar "$TOOLS" jfr-summary "$RUN/$path.jfr" --top 15 --requests "${n:-0}" >"$RUN/jfr-$path.md"
  done
fi

# ---------------------------------------------------------------- JMH
if [ "$JMH" = 1 ]; then
  say "JMH: java -jar target/georesolver-bench.jar jmh $JMH_ARGS -prof gc (CPU $SERVER_CPUS)"
  # shellcheck disable=SC2086
  taskset -c "$SERVER_CPUS" java -jar "$TOOLS" jmh $JMH_ARGS -prof gc -rf csv -rff "$RUN/jmh.csv" >"$RUN/jmh.out" 2>&1 \
    || { tail -30 "$RUN/jmh.out" >&2; die "JMH failed"; }
fi

# ---------------------------------------------------------------- figures
A_BARE=(); A_REPLAY=(); A_RATIO=()
for i in $(seq 1 $ROUNDS); do
  A_BARE+=("$(res "a$i-bare" rps)"); A_REPLAY+=("$(res "a$i-replay" rps)")
  A_RATIO+=("$(ratio "$(res "a$i-replay" rps)" "$(res "a$i-bare" rps)")")
done
MED_BARE=$(median "${A_BARE[@]}"); MED_REPLAY=$(median "${A_REPLAY[@]}")
REPLAY_RATIO=$(ratio "$MED_REPLAY" "$MED_BARE")
MED_NOMINATIM=$(median $(for i in $(seq 1 $ROUNDS); do res "a$i-nominatim" rps; done))
MED_GOOGLE=$(median $(for i in $(seq 1 $ROUNDS); do res "a$i-google" rps; done))
NOMINATIM_RATIO=$(ratio "$MED_NOMINATIM" "$MED_REPLAY")
GOOGLE_RATIO=$(ratio "$MED_GOOGLE" "$MED_REPLAY")
B_DIRECT=(); B_PASS=()
for i in $(seq 1 $ROUNDS); do B_DIRECT+=("$(res "b$i-direct" rps)"); B_PASS+=("$(res "b$i-pass" rps)"); done
MED_DIRECT=$(median "${B_DIRECT[@]}"); MED_PASS=$(median "${B_PASS[@]}")
PASS_RATIO=$(ratio "$MED_PASS" "$MED_DIRECT")
F_REPLAY=$(median $(for i in $(seq 1 $ROUNDS); do res "f$i-replay" rps; done))
F_REPLAY_T=$(median $(for i in $(seq 1 $ROUNDS); do res "f$i-replay-tenants" rps; done))
F_PASS=$(median $(for i in $(seq 1 $ROUNDS); do res "f$i-pass" rps; done))
F_PASS_T=$(median $(for i in $(seq 1 $ROUNDS); do res "f$i-pass-tenants" rps; done))
F_REPLAY_RATIO=$(ratio "$F_REPLAY_T" "$F_REPLAY")
F_PASS_RATIO=$(ratio "$F_PASS_T" "$F_PASS")
gmed() { median $(for i in $(seq 1 $ROUNDS); do res "g$i-$1" rps; done); }
if [ "$OPS" = 1 ]; then   # (g) ran: --quick leaves it out, and its result files with it
  for vname in traced jsonlogs; do
    eval "G_${vname}_REPLAY_BASE=\$(gmed replay-base-$vname); G_${vname}_REPLAY=\$(gmed replay-$vname)"
    eval "G_${vname}_PASS_BASE=\$(gmed pass-base-$vname); G_${vname}_PASS=\$(gmed pass-$vname)"
  done
  G_TRACED_REPLAY_REL=$(ratio "$G_traced_REPLAY" "$G_traced_REPLAY_BASE"); G_TRACED_PASS_REL=$(ratio "$G_traced_PASS" "$G_traced_PASS_BASE")
  G_JSON_REPLAY_REL=$(ratio "$G_jsonlogs_REPLAY" "$G_jsonlogs_REPLAY_BASE"); G_JSON_PASS_REL=$(ratio "$G_jsonlogs_PASS" "$G_jsonlogs_PASS_BASE")
  # The ratios to the baselines of (a) and (b) each variant implies: its share of the resolver as it is, times that one's ratio.
  G_TRACED_REPLAY_RATIO=$(calc "$G_TRACED_REPLAY_REL * $REPLAY_RATIO" 2); G_TRACED_PASS_RATIO=$(calc "$G_TRACED_PASS_REL * $PASS_RATIO" 2)
  G_JSON_REPLAY_RATIO=$(calc "$G_JSON_REPLAY_REL * $REPLAY_RATIO" 2); G_JSON_PASS_RATIO=$(calc "$G_JSON_PASS_REL * $PASS_RATIO" 2)
  OPS_NOTE="traced: ${G_TRACED_REPLAY_REL}×/${G_TRACED_PASS_REL}×, JSON logs: ${G_JSON_REPLAY_REL}×/${G_JSON_PASS_REL}× of as it is"
else
  OPS_NOTE="traced and JSON logs: not run with --quick"
fi
FA_REPLAY_T=$(median $(for i in $(seq 1 $ROUNDS); do res "fa$i-replay-tenants" rps; done))
FA_REPLAY_A=$(median $(for i in $(seq 1 $ROUNDS); do res "fa$i-replay-audit" rps; done))
FA_PASS_T=$(median $(for i in $(seq 1 $ROUNDS); do res "fa$i-pass-tenants" rps; done))
FA_PASS_A=$(median $(for i in $(seq 1 $ROUNDS); do res "fa$i-pass-audit" rps; done))
FA_REPLAY_RATIO=$(ratio "$FA_REPLAY_A" "$FA_REPLAY_T")
FA_PASS_RATIO=$(ratio "$FA_PASS_A" "$FA_PASS_T")
omed() { median $(for i in $(seq 1 $ROUNDS); do open_field "$i" "$1" "$2"; done); }
O_D50=$(omed direct p50_ms); O_D99=$(omed direct p99_ms)
O_P50=$(omed pass p50_ms); O_P99=$(omed pass p99_ms)
O_F50=$(omed failover p50_ms); O_F99=$(omed failover p99_ms)
O_D999=$(omed direct p999_ms); O_P999=$(omed pass p999_ms); O_F999=$(omed failover p999_ms)
ADD50=$(signed "$O_P50 - $O_D50"); ADD99=$(signed "$O_P99 - $O_D99"); ADD999=$(signed "$O_P999 - $O_D999")
FO_RATIO=$(ratio "$O_F99" "$O_P99")
FO_ADD99=$(signed "$O_F99 - $O_P99")
C_PASS=$(median $(for i in $(seq 1 $ROUNDS); do res "c$i-pass" rps; done))
C_FAILOVER=$(median $(for i in $(seq 1 $ROUNDS); do res "c$i-failover" rps; done))
FO_TPUT_RATIO=$(ratio "$C_FAILOVER" "$C_PASS")
# The sweep: medians per point and target, as the chart's TSV (load_pct rate target p50 p99 p999).
{
  echo "# load_pct rate_rps target p50_ms p99_ms p999_ms (medians of $ROUNDS round(s))"
  for pct in $(printf '%s\n' $SWEEP_PCTS 50 | sort -n); do
    for t in direct pass; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$pct" "$(calc "$SAT * $pct / 100" 0)" "$t" "$(smed "$pct" "$t" p50_ms)" "$(smed "$pct" "$t" p99_ms)" "$(smed "$pct" "$t" p999_ms)"
    done
  done
} >"$RUN/sweep.tsv"
java -Djava.awt.headless=true -jar "$TOOLS" sweep-chart --in "$RUN/sweep.tsv" --out "$RUN/bench-sweep.png" \
  --title "georesolver: latency vs offered load (saturating pass-through $(calc "$SAT" 0) req/s, $(date -u +%Y-%m-%d))" >"$RUN/sweep-chart.out" 2>&1 \
  || { cat "$RUN/sweep-chart.out" >&2; die "sweep-chart failed"; }
SWEEP_NOT_GOOD=$(cat "$RUN"/sweep*.out 2>/dev/null | awk '/^RESULT/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } s += v["sent"] - v["good"] } END { print s + 0 }')

NON2XX_TOTAL=0
for f in "$RUN"/*.res; do
  case "$(basename "$f")" in d*) continue ;; esac
  n=$(sed -n 's/.*non2xx=\([0-9]*\).*/\1/p' "$f"); b=$(sed -n 's/.*bad=\([0-9]*\).*/\1/p' "$f"); s=$(sed -n 's/.*sockerr=\([0-9]*\).*/\1/p' "$f")
  NON2XX_TOTAL=$((NON2XX_TOTAL + ${n:-0} + ${b:-0} + ${s:-0}))
done
OPEN_NOT_GOOD=$(awk '/^RESULT/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } s += v["sent"] - v["good"] } END { print s + 0 }' "$RUN/open.out")
NON2XX_TOTAL=$((NON2XX_TOTAL + OPEN_NOT_GOOD + SWEEP_NOT_GOOD))
UPSTREAM=(); for k in $(seq 1 $COALESCE_TRIALS); do UPSTREAM+=("$(sed -n 's/^upstream=\([0-9]*\).*/\1/p' "$RUN/d$k.res")"); done
UPSTREAM_MAX=$(printf '%s\n' "${UPSTREAM[@]}" | sort -n | tail -1)

verdict_min() { # VALUE TARGET: at least
  awk -v v="$1" -v t="$2" 'BEGIN { if (v >= t) printf "**met** (%.2f× ≥ %.2f×)", v, t; else printf "**missed** by %.2f× (%.0f%% short of %.2f×)", t - v, (t - v) / t * 100, t }'
}
verdict_max_ms() {
  awk -v v="$1" -v t="$2" 'BEGIN { if (v <= t) printf "**met** (%.3f ms ≤ %.1f ms)", v, t; else printf "**missed** by %.3f ms (%.3f ms > %.1f ms)", v - t, v, t }'
}
V_REPLAY=$(verdict_min "$REPLAY_RATIO" 0.7)
V_NOMINATIM=$(verdict_min "$NOMINATIM_RATIO" 0.9)
V_GOOGLE=$(verdict_min "$GOOGLE_RATIO" 0.9)
V_PASS=$(verdict_min "$PASS_RATIO" 0.35)
V_P99=$(verdict_max_ms "$ADD99" 3)
V_FO=$(verdict_max_ms "$FO_ADD99" 2)
V_FO_TPUT=$(verdict_min "$FO_TPUT_RATIO" 0.9)
RSS_MB=$((RSS_KB / 1024))
if [ "${L1_ENTRIES:-0}" -lt 100000 ]; then
  V_RSS="not comparable: ${L1_ENTRIES:-0} answers held, not 100,000 (a short run)"
elif [ "$RSS_MB" -le 400 ]; then
  V_RSS="**met** ($RSS_MB MB ≤ 400 MB)"
else
  V_RSS="**missed** by $((RSS_MB - 400)) MB ($RSS_MB MB > 400 MB)"
fi
V_TREPLAY=$(verdict_min "$F_REPLAY_RATIO" 0.95)
V_TPASS=$(verdict_min "$F_PASS_RATIO" 0.95)
if [ "$NON2XX_TOTAL" = 0 ]; then V_2XX="**met** (0 in every load run)"; else V_2XX="**missed**: $NON2XX_TOTAL bad answers (see the failures below)"; fi
if [ "$UPSTREAM_MAX" = 1 ]; then V_COAL="**met** (1 upstream call per trial)"; else V_COAL="**missed**: upstream calls per trial ${UPSTREAM[*]}"; fi

CPU_MODEL=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
CORES=$(nproc --all)
MEM_GB=$(awk '/^MemTotal:/ {printf "%.0f", $2 / 1048576}' /proc/meminfo)
JDK=$(java -version 2>&1 | sed -n '2p')
WRK_VERSION=$( (wrk --version 2>&1 || true) | head -1 | awk '{print $1, $2}')
VERTX_VERSION=$(sed -n 's:.*<vertx.version>\(.*\)</vertx.version>.*:\1:p' pom.xml)
GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
GIT_DIRTY=$(git status --porcelain -- src pom.xml 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
WHEN=$(date -u '+%Y-%m-%d %H:%M UTC')
ELAPSED=$(( $(date +%s) - START_EPOCH ))
CMD="scripts/bench.sh"; [ "$BUILD" = 0 ] && CMD="$CMD --no-build"; [ "$QUICK" = 1 ] && CMD="$CMD --quick"
[ "$JMH" = 0 ] && CMD="$CMD --no-jmh"; [ "$PROFILE" = 0 ] && CMD="$CMD --no-profile"

cpu_row() {
  local cs=""; [ -f "$RUN/$1.res" ] && cs=" · $(res "$1" cs_per_req) cs/req"
  printf '%s / %s / %s / %s%s' "$(cpu_field "$1" server_cpu)" "$(cpu_field "$1" server_core)" "$(cpu_field "$1" client_core)" "$(cpu_field "$1" foreign)" "$cs"
}

# ---------------------------------------------------------------- (i) batch
if [ "$BATCH" = 1 ]; then
  say "(i) batch: scripts/bench-batch.sh"
  scripts/bench-batch.sh --no-build --out "$RUN/batch.md" || fail_run "(i) batch benchmark"
fi

{
  echo "<!-- bench:begin — written by scripts/bench.sh; edits between these markers are overwritten -->"
  echo
  echo "### Run of $WHEN"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| command | \`$CMD\` (${ELAPSED} s, ${ROUNDS} rounds per figure, medians) |"
  echo "| code | \`$GIT_REV\`$GIT_DIRTY, Vert.x $VERTX_VERSION |"
  echo "| machine | $CORES × $CPU_MODEL, ${MEM_GB} GiB, $(uname -sr) |"
  echo "| JDK | $JDK |"
  echo "| load | $WRK_VERSION (\`-t1 -c$CONNECTIONS -d${WRK_S}s\`, closed loop); LoadGen (open loop, $OPEN_CONNECTIONS connections, ${OPEN_WARM_S}s warm-up + ${OPEN_S}s per run) |"
  echo "| warm-up | $WARM_NOTE |"
  echo "| placement | CPU $SERVER_CPUS: the server under test (resolver, bare endpoint; the provider in the direct throughput baseline). CPU $CLIENT_CPUS: wrk, LoadGen, the stand-in provider. |"
  echo "| server JVM | \`$SERVER_JAVA_OPTS\` (resolver and bare endpoint alike) |"
  echo
  echo "#### Targets"
  echo
  echo "| target (2 cores) | measured | verdict |"
  echo "|---|---|---|"
  echo "| replay ≥ 0.7× bare Vert.x | ${REPLAY_RATIO}× ($MED_REPLAY vs $MED_BARE req/s) | $V_REPLAY |"
  echo "| Nominatim /search replay ≥ 0.9× /v1 replay | ${NOMINATIM_RATIO}× ($MED_NOMINATIM vs $MED_REPLAY req/s) | $V_NOMINATIM |"
  echo "| Google /maps/api/geocode/json replay ≥ 0.9× /v1 replay | ${GOOGLE_RATIO}× ($MED_GOOGLE vs $MED_REPLAY req/s) | $V_GOOGLE |"
  echo "| pass-through ≥ 0.35× direct | ${PASS_RATIO}× ($MED_PASS vs $MED_DIRECT req/s) | $V_PASS |"
  echo "| p99 added at half load ≤ 3 ms (p99.9 reported) | ${ADD99} ms (p99 $O_P99 vs $O_D99 ms at $HALF req/s); p99.9 added ${ADD999} ms ($O_P999 vs $O_D999 ms) | $V_P99 |"
  echo "| failover p99 (tier 1's breaker open) ≤ tier 2 alone + 2 ms | ${FO_ADD99} ms (p99 $O_F99 vs $O_P99 ms; p99.9 $O_F999 vs $O_P999 ms) | $V_FO |"
  echo "| failover throughput (tier 1's breaker open, every answer degraded) ≥ 0.9× pass-through, closed loop | ${FO_TPUT_RATIO}× ($C_FAILOVER vs $C_PASS req/s) | $V_FO_TPUT |"
  echo "| RSS ≤ 400 MB with 100,000 answers held (-Xmx1g) | $RSS_MB MB with ${L1_ENTRIES:-?} answers | $V_RSS |"
  echo "| bytes per stored answer: stated | ${FP_BYTES} B of heap per answer (its JSON: ${FP_JSON} B; 100,000 answers, \`store-footprint\`); the store is bounded by bytes (\`idempotency.max_bytes\`) and by entries | stated |"
  echo "| replay with $TENANTS tenants ≥ 0.95× without | ${F_REPLAY_RATIO}× ($F_REPLAY_T vs $F_REPLAY req/s) | $V_TREPLAY |"
  echo "| pass-through with $TENANTS tenants ≥ 0.95× without | ${F_PASS_RATIO}× ($F_PASS_T vs $F_PASS req/s) | $V_TPASS |"
  echo "| no non-2xx under load | $NON2XX_TOTAL non-2xx, socket errors or unresolved bodies | $V_2XX |"
  echo "| coalescing: 1 upstream call for $COALESCE_N identical requests | ${UPSTREAM[*]} | $V_COAL |"
  echo
  if [ ${#FAILURES[@]} -gt 0 ]; then
    echo "**Failures in this run:**"
    echo
    for f in "${FAILURES[@]}"; do echo "- $f"; done
    echo
  fi
  echo "#### (a) Replay vs bare Vert.x (wrk, closed loop)"
  echo
  echo "CPU columns: server process % of one core / server core busy % / client core busy % / foreign % of the machine (busy time of processes outside this run) · context switches of the server process per request."
  echo
  echo "| round | bare req/s | bare p99 ms | bare CPU | replay req/s | replay p99 ms | replay CPU | ratio |"
  echo "|---|---:|---:|---|---:|---:|---|---:|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "a$i-bare" rps) | $(res "a$i-bare" p99) | $(cpu_row "a$i-bare") | $(res "a$i-replay" rps) | $(res "a$i-replay" p99) | $(cpu_row "a$i-replay") | ${A_RATIO[$((i - 1))]} |"
  done
  echo "| **median** | **$MED_BARE** | | | **$MED_REPLAY** | | | **$REPLAY_RATIO** |"
  echo
  echo "Same JSON: the replay body is $REPLAY_BYTES bytes, the bare body $BARE_BYTES bytes (the bare endpoint serves a recorded replay)."
  echo
  echo "#### (a′) Compatible paths' replay vs /v1 replay (wrk, closed loop, the same rounds as (a))"
  echo
  echo "The same question as the /v1 replay, so the same stored answer, rendered as Nominatim jsonv2 ($(wc -c <"$RUN/replay-nominatim.json") bytes) and as Google JSON ($(wc -c <"$RUN/replay-google.json") bytes)."
  echo
  echo "| round | /v1 replay req/s | /search req/s | /search p99 ms | /search CPU | Google req/s | Google p99 ms | Google CPU |"
  echo "|---|---:|---:|---:|---|---:|---:|---|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "a$i-replay" rps) | $(res "a$i-nominatim" rps) | $(res "a$i-nominatim" p99) | $(cpu_row "a$i-nominatim") | $(res "a$i-google" rps) | $(res "a$i-google" p99) | $(cpu_row "a$i-google") |"
  done
  echo "| **median** | **$MED_REPLAY** | **$MED_NOMINATIM** (${NOMINATIM_RATIO}×) | | | **$MED_GOOGLE** (${GOOGLE_RATIO}×) | | |"
  echo
  echo "#### (b) Pass-through vs direct (wrk, closed loop, a new address per request)"
  echo
  echo "| round | direct req/s | direct CPU | pass-through req/s | pass-through p99 ms | pass-through CPU | ratio |"
  echo "|---|---:|---|---:|---:|---|---:|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "b$i-direct" rps) | $(cpu_row "b$i-direct") | $(res "b$i-pass" rps) | $(res "b$i-pass" p99) | $(cpu_row "b$i-pass") | $(ratio "$(res "b$i-pass" rps)" "$(res "b$i-direct" rps)") |"
  done
  echo "| **median** | **$MED_DIRECT** | | **$MED_PASS** | | | **$PASS_RATIO** |"
  echo
  echo "#### (b, c) Latency at half the saturating load: $HALF req/s, open loop"
  echo
  echo "Latency from each request's scheduled send time (coordinated omission corrected). \"failover\": tier 1 (\`hung\`) hangs and its breaker is open (opened after $OPENED requests); \"pass\" is tier 2 alone."
  echo
  echo "| round | direct p50 / p99 / p99.9 ms | pass p50 / p99 / p99.9 ms | failover p50 / p99 / p99.9 ms | good / sent (all three) |"
  echo "|---|---|---|---|---|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(open_field "$i" direct p50_ms) / $(open_field "$i" direct p99_ms) / $(open_field "$i" direct p999_ms) | $(open_field "$i" pass p50_ms) / $(open_field "$i" pass p99_ms) / $(open_field "$i" pass p999_ms) | $(open_field "$i" failover p50_ms) / $(open_field "$i" failover p99_ms) / $(open_field "$i" failover p999_ms) | $(open_field "$i" direct good)/$(open_field "$i" direct sent), $(open_field "$i" pass good)/$(open_field "$i" pass sent), $(open_field "$i" failover good)/$(open_field "$i" failover sent) |"
  done
  echo "| **median** | **$O_D50 / $O_D99 / $O_D999** | **$O_P50 / $O_P99 / $O_P999** | **$O_F50 / $O_F99 / $O_F999** | |"
  echo
  echo "- added by the resolver (pass − direct): p50 **$ADD50 ms**, p99 **$ADD99 ms**, p99.9 **$ADD999 ms**"
  echo "- failover with tier 1's breaker open vs tier 2 alone: p99 **$O_F99 ms vs $O_P99 ms** ($FO_ADD99 ms, ${FO_RATIO}×), p99.9 $O_F999 vs $O_P999 ms, p50 $O_F50 vs $O_P50 ms"
  echo "- CPU during the open-loop phase (all rounds): $(cpu_row open)"
  echo "- resolver GC during the open-loop phase (all rounds and targets, G1 on one CPU): $GC_OPEN"
  echo
  echo "#### (b) Open-loop sweep: added latency against load"
  echo
  echo "The generator of the half-load table at 10, 25, 50 (the table above) and 75 % of the saturating pass-through rate ($SAT req/s), direct and through the resolver; medians of $ROUNDS round(s). Added = pass − direct, per percentile."
  echo
  echo "| load | rate req/s | direct p50 / p99 / p99.9 ms | pass p50 / p99 / p99.9 ms | added p50 / p99 / p99.9 ms |"
  echo "|---:|---:|---|---|---|"
  while IFS=$'\t' read -r pct rate t p50 p99 p999; do
    case "$pct" in \#*) continue ;; esac
    if [ "$t" = direct ]; then d50=$p50 d99=$p99 d999=$p999; continue; fi
    echo "| $pct % | $rate | $d50 / $d99 / $d999 | $p50 / $p99 / $p999 | $(signed "$p50 - $d50") / $(signed "$p99 - $d99") / $(signed "$p999 - $d999") |"
  done <"$RUN/sweep.tsv"
  echo
  echo "![latency against offered load: p50, p99 and p99.9 through the resolver (solid) and direct (dashed), log scale](bench-sweep.png)"
  echo
  echo "#### (f) With tenants (wrk, closed loop)"
  echo
  echo "A second resolver on the same manifest with a \`tenants:\` block of $TENANTS tenants (two keys each), every request carrying a tenant's key (\`Authorization: Bearer\`), against the resolver without tenants, alternating in each round."
  echo
  echo "| round | replay req/s | replay with tenants req/s | replay CPU with tenants | pass req/s | pass with tenants req/s | pass CPU with tenants |"
  echo "|---|---:|---:|---|---:|---:|---|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "f$i-replay" rps) | $(res "f$i-replay-tenants" rps) | $(cpu_row "f$i-replay-tenants") | $(res "f$i-pass" rps) | $(res "f$i-pass-tenants" rps) | $(cpu_row "f$i-pass-tenants") |"
  done
  echo "| **median** | **$F_REPLAY** | **$F_REPLAY_T** (${F_REPLAY_RATIO}×) | | **$F_PASS** | **$F_PASS_T** (${F_PASS_RATIO}×) | |"
  echo
  echo "With \`audit.level: all\` (every answer appended to the tenant's hash-chained audit partition, in batches off the hot path) against the same tenants manifest at the default \`fallbacks\` level, alternating in each round; records written ${AUDIT_WRITTEN:-?}, dropped ${AUDIT_DROPPED:-?}; \`audit verify\` afterwards: $(tail -1 "$RUN/audit-verify.txt")."
  echo
  echo "| round | replay req/s (fallbacks) | replay req/s (all) | replay CPU (all) | pass req/s (fallbacks) | pass req/s (all) | pass CPU (all) |"
  echo "|---|---:|---:|---|---:|---:|---|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "fa$i-replay-tenants" rps) | $(res "fa$i-replay-audit" rps) | $(cpu_row "fa$i-replay-audit") | $(res "fa$i-pass-tenants" rps) | $(res "fa$i-pass-audit" rps) | $(cpu_row "fa$i-pass-audit") |"
  done
  echo "| **median** | **$FA_REPLAY_T** | **$FA_REPLAY_A** (${FA_REPLAY_RATIO}×) | | **$FA_PASS_T** | **$FA_PASS_A** (${FA_PASS_RATIO}×) | |"
  echo
  echo "#### (g) Tracing on, JSON logs (wrk, closed loop)"
  echo
  if [ "$OPS" = 1 ]; then
  echo "Each variant is a second resolver on the same manifest, alternating in every round with the resolver as it is (tracing off, text logs). **traced**: \`OTEL_EXPORTER_OTLP_ENDPOINT\` set to a local OTLP/HTTP sink (the bench tools' \`otlp-sink\`, on the client CPU), the SDK's default batching (a full queue drops spans, as it would in production); the sink received $SINK_COUNT. **jsonlogs**: \`--log-format json\` (at INFO: replays and pass-through log nothing per request, so this measures the encoder's standing cost). Implied ratios: the variant's share of the resolver as it is, times that one's (a) or (b) ratio."
  echo
  echo "| variant | replay req/s (as it is) | share | implied replay/bare | pass req/s (as it is) | share | implied pass/direct |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  echo "| traced | $G_traced_REPLAY ($G_traced_REPLAY_BASE) | ${G_TRACED_REPLAY_REL}× | ${G_TRACED_REPLAY_RATIO}× | $G_traced_PASS ($G_traced_PASS_BASE) | ${G_TRACED_PASS_REL}× | ${G_TRACED_PASS_RATIO}× |"
  echo "| jsonlogs | $G_jsonlogs_REPLAY ($G_jsonlogs_REPLAY_BASE) | ${G_JSON_REPLAY_REL}× | ${G_JSON_REPLAY_RATIO}× | $G_jsonlogs_PASS ($G_jsonlogs_PASS_BASE) | ${G_JSON_PASS_REL}× | ${G_JSON_PASS_RATIO}× |"
  echo
  echo "| round | replay as it is | replay traced | traced CPU | pass as it is | pass traced | traced CPU | replay as it is | replay JSON logs | pass as it is | pass JSON logs |"
  echo "|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|"
  for i in $(seq 1 $ROUNDS); do
    echo "| $i | $(res "g$i-replay-base-traced" rps) | $(res "g$i-replay-traced" rps) | $(cpu_row "g$i-replay-traced") | $(res "g$i-pass-base-traced" rps) | $(res "g$i-pass-traced" rps) | $(cpu_row "g$i-pass-traced") | $(res "g$i-replay-base-jsonlogs" rps) | $(res "g$i-replay-jsonlogs" rps) | $(res "g$i-pass-base-jsonlogs" rps) | $(res "g$i-pass-jsonlogs" rps) |"
  done
  else
  echo "Not run (\`--quick\`)."
  fi
  echo "#### (d) Coalescing"
  echo
  echo "$COALESCE_N identical requests for an address never asked before, sent at once on $COALESCE_N connections; the provider holds its answer ${COALESCE_DELAY_MS} ms. Upstream calls are the provider's own count."
  echo
  echo "| trial | upstream calls | answers (good / non-2xx / errors) | coalesced | replayed | slowest ms |"
  echo "|---|---:|---|---:|---:|---:|"
  for k in $(seq 1 $COALESCE_TRIALS); do
    l=$(cat "$RUN/d$k.res")
    g() { echo "$l" | sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
    echo "| $k | $(echo "$l" | sed -n 's/^upstream=\([0-9]*\).*/\1/p') | $(g good) / $(g non2xx) / $(g errors) | $(g coalesced) | $(g replayed) | $(g max_ms) |"
  done
  echo
  echo "#### (e) Resident memory"
  echo
  echo "Resolver at the end of the run: **RSS $((RSS_KB / 1024)) MB** (peak $((HWM_KB / 1024)) MB), Java heap in use ${HEAP_USED} MB, ${L1_ENTRIES:-?} answers in the in-process store (bounded at 100,000)."
  echo
  echo "The store alone (\`store-footprint\`, same JVM flags, 100,000 answers shaped like the pass-through ones): **$FP_BYTES bytes of heap per stored answer**, of which $FP_JSON bytes are the answer's JSON; raw line: \`$(grep '^RESULT' "$RUN/footprint.out")\`."
  echo
  if [ -f "$RUN/batch.md" ]; then
    cat "$RUN/batch.md"
  fi
  if [ "$PROFILE" = 1 ]; then
    echo "#### Profile: replay (JFR \`settings=profile\`, ${JFR_S}s of wrk)"
    echo
    echo "wrk during the recording: $(res jfr-replay rps) req/s."
    echo
    cat "$RUN/jfr-replay.md"
    echo "The bare endpoint, recorded the same way for ${WRK_S}s (headline only): $(head -1 "$RUN/jfr-bare.md" | sed 's/ [0-9]* execution samples.*//')"
    echo
    echo "#### Profile: pass-through (JFR \`settings=profile\`, ${JFR_S}s of wrk)"
    echo
    echo "wrk during the recording: $(res jfr-pass rps) req/s."
    echo
    cat "$RUN/jfr-pass.md"
    echo "#### Profile: failover, tier 1's breaker open (JFR \`settings=profile\`, ${JFR_S}s of wrk)"
    echo
    echo "wrk during the recording: $(res jfr-failover rps) req/s."
    echo
    cat "$RUN/jfr-failover.md"
  fi
  if [ "$JMH" = 1 ]; then
    echo "#### JMH microbenchmarks"
    echo
    echo "\`java -jar target/georesolver-bench.jar jmh $JMH_ARGS -prof gc\`, pinned to CPU $SERVER_CPUS. avgt = ns per operation; alloc = bytes allocated per operation."
    echo
    echo "| benchmark | ns/op | ± (99.9%) | alloc B/op |"
    echo "|---|---:|---:|---:|"
    awk -F, 'NR > 1 {
        gsub("\"", "")
        name = $1; sub(".*\\.jmh\\.", "", name)
        if (name ~ /gc\.alloc\.rate\.norm$/) { sub(/.gc\.alloc\.rate\.norm$/, "", name); sub(/[:\302\267]+$/, "", name); alloc[name] = $5 }
        else if (name !~ /[:\302\267]/) { score[name] = $5; err[name] = $6; order[++n] = name }
      } END { for (i = 1; i <= n; i++) { b = order[i]; printf "| `%s` | %.1f | %.1f | %.0f |\n", b, score[b], err[b], alloc[b] } }' "$RUN/jmh.csv"
    echo
  fi
  if [ -f "$RUN/cluster/cluster.md" ]; then
    echo "#### (h) Clustered bus: one node with every role vs an ingress node forwarding to a chain node (wrk, closed loop)"
    echo
    echo "Every node on CPU $SERVER_CPUS, Hazelcast on loopback; \`scripts/bench/cluster-hop.sh\`, medians of $ROUNDS rounds. Ratio: hop / one."
    echo
    cat "$RUN/cluster/cluster.md"
    echo
  fi
  echo "Raw outputs of this run: \`target/bench-last/\` (wrk and LoadGen output, CPU accounting, JFR recordings, JMH CSV)."
  echo
  echo "<!-- bench:end -->"
} >"$RUN/generated.md"

# Splice the generated block into the doc, keeping everything outside the markers.
mkdir -p "$(dirname "$DOC")"
if [ -f "$DOC" ] && grep -q '<!-- bench:begin' "$DOC" && grep -q '<!-- bench:end -->' "$DOC"; then
  awk -v gen="$RUN/generated.md" '
    /<!-- bench:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
    /<!-- bench:end -->/ { skip = 0; next }
    !skip { print }' "$DOC" >"$RUN/doc.md"
  cp "$RUN/doc.md" "$DOC"
else
  { echo "# Benchmarks"; echo; cat "$RUN/generated.md"; } >"$DOC"
fi
# The sweep chart goes next to the doc (docs/bench-sweep.png for docs/benchmarks.md), as the doc links it.
cp "$RUN/bench-sweep.png" "$(dirname "$DOC")/bench-sweep.png"

say "done in ${ELAPSED}s: replay ${REPLAY_RATIO}× (target 0.7; compatible: /search ${NOMINATIM_RATIO}×, Google ${GOOGLE_RATIO}× of /v1), pass-through ${PASS_RATIO}× (target 0.35; with tenants: replay ${F_REPLAY_RATIO}×, pass-through ${F_PASS_RATIO}× of without; audit all: replay ${FA_REPLAY_RATIO}×, pass-through ${FA_PASS_RATIO}× of fallbacks; $OPS_NOTE), p99 added ${ADD99} ms (target 3; p99.9 ${ADD999} ms), failover p99 ${FO_ADD99} ms over tier 2 (target 2), failover throughput ${FO_TPUT_RATIO}× pass-through (target 0.9), upstream ${UPSTREAM[*]}, RSS ${RSS_MB} MB with ${L1_ENTRIES:-?} answers (target 400), ${FP_BYTES} B per stored answer; warm-up ${WARM_NOTE%% (*} -> $DOC"
if [ ${#FAILURES[@]} -gt 0 ]; then
  printf '\033[31mbench.sh: %d load run(s) failed:\033[0m\n' "${#FAILURES[@]}" >&2
  printf '  - %s\n' "${FAILURES[@]}" >&2
  exit 1
fi
