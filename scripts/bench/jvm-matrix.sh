#!/usr/bin/env bash
# The JVM matrix: the same resolver jar (built for Java 17) on JDK 17 with G1 (today's flags), JDK 25
# with G1, and JDK 25 with generational ZGC, side by side in one run, and a table of the results
# written into docs/benchmarks.md between the "jvm-matrix:begin" and "jvm-matrix:end" markers.
#
#   scripts/bench/jvm-matrix.sh [--no-build] [--quick] [--rounds N] [--doc FILE] [CONFIG...]
#
# Configurations (default: all three; each its own resolver process, all started at once, on the
# same manifest, each with its own state file):
#   jdk17-g1    $BENCH_JDK17 (default: the JDK 17 under /usr/lib/jvm, else `java`)  -XX:+UseG1GC
#   jdk25-g1    $BENCH_JDK25 (default /usr/lib/jvm/temurin-25-jdk-amd64)             -XX:+UseG1GC
#   jdk25-zgc   $BENCH_JDK25                                                        -XX:+UseZGC (generational on 25)
# Every one gets -Xms256m -Xmx1g, as in scripts/bench.sh, and logs its pauses (-Xlog:gc,gc+phases).
#
# Per round, every configuration in turn: wrk replay (one address repeated) and wrk pass-through (a
# new address per request), and once per round the baselines of scripts/bench.sh: the bare Vert.x
# endpoint (on JDK 17 G1) and the provider called directly (moved to the server CPU). Then, in
# rounds, the open-loop generator at one common rate, half of jdk17-g1's median saturating
# pass-through rate (BENCH_RATE overrides): direct, then each configuration's pass-through; added
# latency = configuration − direct per percentile. Each resolver is warmed first (4 cycles of
# replay and pass-through; 2 with --quick). Medians of the rounds (3; 1 with --quick). Placement as in bench.sh:
# servers on BENCH_SERVER_CPUS (1), wrk, LoadGen and the provider on BENCH_CLIENT_CPUS (0).
# Kills what it started on exit; raw output in target/jvm-matrix-last/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source "$ROOT/scripts/bench/lib.sh"   # port_free, pick_port, median, ratio, calc, stop_pids
BUILD=1 QUICK=0 ROUNDS="" DOC=docs/benchmarks.md CONFIGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --quick) QUICK=1 ;;
    --rounds) ROUNDS=$2; shift ;;
    --doc) DOC=$2; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) echo "jvm-matrix.sh: unknown argument $1" >&2; exit 2 ;;
    *) CONFIGS+=("$1") ;;
  esac
  shift
done
[ ${#CONFIGS[@]} -gt 0 ] || CONFIGS=(jdk17-g1 jdk25-g1 jdk25-zgc)
if [ "$QUICK" = 1 ]; then
  ROUNDS=${ROUNDS:-1} WRK_S=3 WARM_S=4 OPEN_S=3 OPEN_WARM_S=1
else
  ROUNDS=${ROUNDS:-3} WRK_S=8 WARM_S=10 OPEN_S=8 OPEN_WARM_S=3
fi
SERVER_CPUS=${BENCH_SERVER_CPUS:-1}
CLIENT_CPUS=${BENCH_CLIENT_CPUS:-0}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
COMMON="-Xms256m -Xmx1g"
JDK17=${BENCH_JDK17:-}
if [ -z "$JDK17" ]; then
  for d in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-17-jdk-amd64 /usr/lib/jvm/*17*; do
    [ -x "$d/bin/java" ] && { JDK17=$d; break; }
  done
fi
JAVA17=${JDK17:+$JDK17/bin/java}; JAVA17=${JAVA17:-java}
JDK25=${BENCH_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA25=$JDK25/bin/java

die() { printf '\033[31mjvm-matrix.sh: %s\033[0m\n' "$*" >&2; exit 1; }
say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
note() { printf '   %s\n' "$*" >&2; }
need_wrk
command -v taskset >/dev/null || die "taskset is missing (util-linux)"
"$JAVA17" -version 2>&1 | grep -q 'version "17' || die "no JDK 17 at $JAVA17 (set BENCH_JDK17)"
for c in "${CONFIGS[@]}"; do
  case "$c" in jdk25-*) [ -x "$JAVA25" ] || die "no JDK 25 at $JDK25 (set BENCH_JDK25)" ;; jdk17-g1) ;; *) die "unknown configuration $c" ;; esac
done

START_EPOCH=$(date +%s)
RUN=$(mktemp -d "${TMPDIR:-/tmp}/georesolver-matrix.XXXXXX")
PIDS=()
cleanup() {
  local rc=$?
  stop_pids
  rm -f "$RUN"/*.jar
  mkdir -p "$ROOT/target"
  rm -rf "$ROOT/target/jvm-matrix-last" && cp -r "$RUN" "$ROOT/target/jvm-matrix-last" 2>/dev/null && rm -rf "$RUN"
  [ $rc = 0 ] || echo "jvm-matrix.sh: stopped (status $rc); logs in target/jvm-matrix-last" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$BUILD" = 1 ]; then
  say "build: mvn -q -DskipTests package, then the bench profile"
  build_jars
fi
[ -f target/georesolver.jar ] && [ -f target/georesolver-bench.jar ] || die "jars missing (run without --no-build)"
cp target/georesolver.jar "$RUN/resolver.jar"
cp target/georesolver-bench.jar "$RUN/tools.jar"
TOOLS="$RUN/tools.jar"

wait_http() { # URL PID NAME
  for _ in $(seq 1 300); do
    curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { tail -20 "$RUN/$3.log" >&2; die "$3 exited before it listened"; }
    sleep 0.2
  done
  die "$3 did not answer on $1 within 60 s"
}
signed() { awk "BEGIN { printf \"%+.3f\", $1 }"; }   # +1.234 or -1.234
MARK='"status":"resolved"'
PMARK='"x":'
BAD=0
# wrk_rps NAME URL SCRIPT MARKER [TAG]: one closed-loop run, req/s in $RUN/NAME.rps ("!" appended when any answer was bad).
wrk_rps() {
  local name=$1 url=$2 script=$3 marker=$4 tag=${5:-}
  taskset -c "$CLIENT_CPUS" wrk -t1 -c"$CONNECTIONS" -d"${WRK_S}s" --timeout 5s -s "$ROOT/scripts/bench/$script" "$url" -- "$marker" ${tag:+"$tag"} \
    >"$RUN/$name.out" 2>&1 || true
  local rps bad
  rps=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$RUN/$name.out")
  bad=$(awk '/Non-2xx/ {b = 1} /^bench-bad-bodies: [1-9]/ {b = 1} /Socket errors/ {b = 1} END {print b + 0}' "$RUN/$name.out")
  [ -n "$rps" ] || { cat "$RUN/$name.out" >&2; die "wrk $name printed no Requests/sec"; }
  [ "$bad" = 0 ] || { BAD=1; note "!! $name saw bad answers (target/jvm-matrix-last/$name.out)"; }
  echo "$rps" >"$RUN/$name.rps"
  note "$(printf '%-22s %8s req/s' "$name" "$rps")"
}
rps() { cat "$RUN/$1.rps"; }

# ---------------------------------------------------------------- start
P_PROV=$(pick_port); P_BARE=$(pick_port)
sed -e "s/PROVIDER_PORT/$P_PROV/g" -e "s|STATE_PATH|$RUN/state-CONFIG.db|" scripts/bench/manifest.yaml >"$RUN/manifest.template.yaml"
taskset -c "$CLIENT_CPUS" "$JAVA17" -Xmx512m -jar "$TOOLS" provider --port "$P_PROV" >"$RUN/provider.log" 2>&1 &
PROV_PID=$!; PIDS+=("$PROV_PID")
wait_http "http://127.0.0.1:$P_PROV/_ctl/count" "$PROV_PID" provider
declare -A PORT PID JAVA FLAGS VERSION
for c in "${CONFIGS[@]}"; do
  case "$c" in
    jdk17-g1) JAVA[$c]=$JAVA17; FLAGS[$c]="-XX:+UseG1GC" ;;
    jdk25-g1) JAVA[$c]=$JAVA25; FLAGS[$c]="-XX:+UseG1GC" ;;
    jdk25-zgc) JAVA[$c]=$JAVA25; FLAGS[$c]="-XX:+UseZGC" ;;
  esac
  VERSION[$c]=$("${JAVA[$c]}" -version 2>&1 | sed -n '2p')
  PORT[$c]=$(pick_port)
  sed "s/CONFIG/$c/" "$RUN/manifest.template.yaml" >"$RUN/manifest-$c.yaml"
  # shellcheck disable=SC2086
  taskset -c "$SERVER_CPUS" "${JAVA[$c]}" $COMMON ${FLAGS[$c]} -Xlog:gc,gc+phases:file="$RUN/gc-$c.log":uptime \
    -jar "$RUN/resolver.jar" --manifest "$RUN/manifest-$c.yaml" --port "${PORT[$c]}" >"$RUN/$c.log" 2>&1 &
  PID[$c]=$!; PIDS+=("${PID[$c]}")
done
for c in "${CONFIGS[@]}"; do wait_http "http://127.0.0.1:${PORT[$c]}/health/live" "${PID[$c]}" "$c"; done
REPLAY_Q="/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
c0=${CONFIGS[0]}
curl -fsS "http://127.0.0.1:${PORT[$c0]}$REPLAY_Q" >/dev/null
curl -fsS -D "$RUN/replay.headers" "http://127.0.0.1:${PORT[$c0]}$REPLAY_Q" >"$RUN/replay.json"
TRACE=$(awk -F': ' 'tolower($1) == "x-trace-id" { gsub("\r", "", $2); print $2 }' "$RUN/replay.headers")
taskset -c "$SERVER_CPUS" "$JAVA17" $COMMON -XX:+UseG1GC -jar "$TOOLS" bare --port "$P_BARE" --body "$RUN/replay.json" \
  --trace-id "$(printf '%*s' "${#TRACE}" '' | tr ' ' 'f')" >"$RUN/bare.log" 2>&1 &
BARE_PID=$!; PIDS+=("$BARE_PID")
wait_http "http://127.0.0.1:$P_BARE/" "$BARE_PID" bare
BARE_URL="http://127.0.0.1:$P_BARE/v1/geocode"
DIRECT_URL="http://127.0.0.1:$P_PROV/fast?q="

# Pass-through takes about 25 s of load to reach its compiled steady state on one core (issue 17,
# experiment 8): 4 cycles of 10 s in the full run.
WARM_CYCLES=4; [ "$QUICK" = 1 ] && WARM_CYCLES=2
say "warm-up: $WARM_CYCLES × ${WARM_S}s of replay and pass-through per configuration"
WRK_S_SAVED=$WRK_S; WRK_S=$WARM_S
wrk_rps warm-bare "$BARE_URL" wrk-check.lua "$MARK"
for c in "${CONFIGS[@]}"; do
  for w in $(seq 1 "$WARM_CYCLES"); do
    wrk_rps "warm$w-$c-replay" "http://127.0.0.1:${PORT[$c]}$REPLAY_Q" wrk-check.lua "$MARK"
    wrk_rps "warm$w-$c-pass" "http://127.0.0.1:${PORT[$c]}/v1/geocode?q=" wrk-unique.lua "$MARK" "w$w$c"
  done
done
WRK_S=$WRK_S_SAVED

say "throughput: $ROUNDS round(s); each: bare, direct, then every configuration's replay and pass-through"
for i in $(seq 1 "$ROUNDS"); do
  wrk_rps "r$i-bare" "$BARE_URL" wrk-check.lua "$MARK"
  taskset -a -p -c "$SERVER_CPUS" "$PROV_PID" >/dev/null
  wrk_rps "r$i-direct" "$DIRECT_URL" wrk-unique.lua "$PMARK" "r${i}d"
  taskset -a -p -c "$CLIENT_CPUS" "$PROV_PID" >/dev/null
  for c in "${CONFIGS[@]}"; do
    wrk_rps "r$i-$c-replay" "http://127.0.0.1:${PORT[$c]}$REPLAY_Q" wrk-check.lua "$MARK"
    wrk_rps "r$i-$c-pass" "http://127.0.0.1:${PORT[$c]}/v1/geocode?q=" wrk-unique.lua "$MARK" "r$i$c"
  done
done
MED_BARE=$(median $(for i in $(seq 1 "$ROUNDS"); do rps "r$i-bare"; done))
MED_DIRECT=$(median $(for i in $(seq 1 "$ROUNDS"); do rps "r$i-direct"; done))
declare -A MREPLAY MPASS
for c in "${CONFIGS[@]}"; do
  MREPLAY[$c]=$(median $(for i in $(seq 1 "$ROUNDS"); do rps "r$i-$c-replay"; done))
  MPASS[$c]=$(median $(for i in $(seq 1 "$ROUNDS"); do rps "r$i-$c-pass"; done))
done
REF=${CONFIGS[0]}; [[ " ${CONFIGS[*]} " == *" jdk17-g1 "* ]] && REF=jdk17-g1
RATE=${BENCH_RATE:-$(calc "${MPASS[$REF]} / 2" 0)}

say "open loop at $RATE req/s (half of $REF's saturating pass-through): ${OPEN_WARM_S}s warm-up + ${OPEN_S}s, $ROUNDS round(s)"
uptime_s() { # PID JAVA: the JVM's uptime by its own JDK's jcmd
  "$(dirname "$2")/jcmd" "$1" VM.uptime 2>/dev/null | awk '/ s$/ {print $1}'
}
declare -A T0 T1
for c in "${CONFIGS[@]}"; do T0[$c]=$(uptime_s "${PID[$c]}" "${JAVA[$c]}"); done
TARGETS=(--target direct "$DIRECT_URL" "$PMARK")
for c in "${CONFIGS[@]}"; do TARGETS+=(--target "$c" "http://127.0.0.1:${PORT[$c]}/v1/geocode?q=" "$MARK"); done
taskset -c "$CLIENT_CPUS" "$JAVA17" -Xmx512m -jar "$TOOLS" loadgen rate --rate "$RATE" --duration-s "$OPEN_S" \
  --warmup-s "$OPEN_WARM_S" --rounds "$ROUNDS" --connections 128 --tag "m$START_EPOCH" "${TARGETS[@]}" >"$RUN/open.out" 2>&1 || BAD=1
for c in "${CONFIGS[@]}"; do T1[$c]=$(uptime_s "${PID[$c]}" "${JAVA[$c]}"); done
grep -E '^(RESULT|ERROR)' "$RUN/open.out" | sed 's/^/   /' >&2 || true
grep -q '^RESULT' "$RUN/open.out" || die "the load generator printed no result"
of() { { grep "^RESULT mode=rate round=$1 target=$2 " "$RUN/open.out" || true; } | sed -n "s/.* $3=\([0-9.]*\).*/\1/p"; }
omed() { median $(for i in $(seq 1 "$ROUNDS"); do of "$i" "$1" "$2"; done); }
D50=$(omed direct p50_ms); D99=$(omed direct p99_ms); D999=$(omed direct p999_ms)
gc_window() { # CONFIG: pauses in its own open-loop window (its target ran inside the whole window)
  awk -v t0="${T0[$1]:-0}" -v t1="${T1[$1]:-0}" '/Pause/ && /ms$/ { t = $1; gsub(/[\[\]s]/, "", t); ms = $NF; sub("ms", "", ms)
      if (t + 0 >= t0 + 0 && t + 0 <= t1 + 0) { n++; s += ms; if (ms + 0 > m) m = ms + 0 } }
    END { printf "%d pauses, mean %.2f ms, max %.2f ms", n, (n ? s / n : 0), m }' "$RUN/gc-$1.log"
}

WHEN=$(date -u '+%Y-%m-%d %H:%M UTC')
CMD="scripts/bench/jvm-matrix.sh"; [ "$BUILD" = 0 ] && CMD="$CMD --no-build"; [ "$QUICK" = 1 ] && CMD="$CMD --quick"
GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "<!-- jvm-matrix:begin — written by scripts/bench/jvm-matrix.sh; edits between these markers are overwritten -->"
  echo
  echo "### JVM matrix of $WHEN"
  echo
  echo "\`$CMD\` at \`$GIT_REV\`, $(( $(date +%s) - START_EPOCH )) s, $ROUNDS round(s) per figure (medians), load average at the end $LOAD on $(nproc --all) CPUs. Same jar (built for Java 17), manifest and placement as \`scripts/bench.sh\`, \`$COMMON\` for every configuration. Baselines: the bare Vert.x endpoint on JDK 17 G1 ($MED_BARE req/s) and the provider called directly ($MED_DIRECT req/s). Open loop at $RATE req/s for every configuration (half of $REF's saturating pass-through); direct p50 / p99 / p99.9 there: $D50 / $D99 / $D999 ms."
  echo
  echo "| configuration | JVM | replay req/s (× bare) | pass-through req/s (× direct) | open loop p50 / p99 / p99.9 ms | added p50 / p99 / p99.9 ms | pauses in its open-loop window | RSS at the end |"
  echo "|---|---|---:|---:|---|---|---|---:|"
  for c in "${CONFIGS[@]}"; do
    p50=$(omed "$c" p50_ms); p99=$(omed "$c" p99_ms); p999=$(omed "$c" p999_ms)
    rss=$(awk '/^VmRSS:/ {printf "%d MB", $2 / 1024}' "/proc/${PID[$c]}/status" 2>/dev/null || echo "?")
    echo "| $c | ${VERSION[$c]} \`${FLAGS[$c]}\` | ${MREPLAY[$c]} ($(ratio "${MREPLAY[$c]}" "$MED_BARE")×) | ${MPASS[$c]} ($(ratio "${MPASS[$c]}" "$MED_DIRECT")×) | $p50 / $p99 / $p999 | $(signed "$p50 - $D50") / $(signed "$p99 - $D99") / $(signed "$p999 - $D999") | $(gc_window "$c") | $rss |"
  done
  echo
  echo "Per round (req/s): $(for i in $(seq 1 "$ROUNDS"); do printf 'round %s: bare %s, direct %s' "$i" "$(rps "r$i-bare")" "$(rps "r$i-direct")"; for c in "${CONFIGS[@]}"; do printf ', %s %s/%s' "$c" "$(rps "r$i-$c-replay")" "$(rps "r$i-$c-pass")"; done; printf '; '; done)replay/pass-through. ZGC logs its pauses under \`gc+phases\`; its cost shows as CPU taken from the event loop (throughput), not as pauses."
  [ "$BAD" = 0 ] || { echo; echo "**Some load runs saw bad answers** (see \`target/jvm-matrix-last/\`)."; }
  echo
  echo "<!-- jvm-matrix:end -->"
} >"$RUN/matrix.md"
cat "$RUN/matrix.md"
mkdir -p "$(dirname "$DOC")"
if [ -f "$DOC" ] && grep -q '<!-- jvm-matrix:begin' "$DOC" && grep -q '<!-- jvm-matrix:end -->' "$DOC"; then
  awk -v gen="$RUN/matrix.md" '
    /<!-- jvm-matrix:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
    /<!-- jvm-matrix:end -->/ { skip = 0; next }
    !skip { print }' "$DOC" >"$RUN/doc.md"
  cp "$RUN/doc.md" "$DOC"
else
  { [ -f "$DOC" ] && cat "$DOC"; echo; cat "$RUN/matrix.md"; } >"$RUN/doc.md"
  cp "$RUN/doc.md" "$DOC"
fi
say "matrix written to $DOC"
[ "$BAD" = 0 ] || exit 1
