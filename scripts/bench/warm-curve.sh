#!/usr/bin/env bash
# The throughput of one path, cycle after cycle from a cold start: how long the resolver takes to
# warm up, and where it settles. The probe behind issue 17's experiments 8-17 in docs/benchmarks.md.
# Same placement and manifest as scripts/bench.sh (resolver on CPU 1; the stand-in provider and wrk
# on CPU 0); no warm-up of its own, no doc written.
#
#   scripts/bench/warm-curve.sh [--no-build] [--path pass|failover|replay|nominatim|google]
#       [--cycles N (default 8)] [--seconds S (default 5)] [--sed EXPR] [--jar JAR]
#
#   --path      pass (default): a new address per request; failover: the same through the hung tier
#               with its breaker opened first; replay, nominatim, google: one address repeated
#   --sed EXPR  applied to the bench manifest (sed -e), e.g.
#               's|^state: { path: "\([^"]*\)" }|state: { path: "\1", write_behind: false }|'
#   --jar JAR   another resolver jar (default target/georesolver.jar), e.g. an older commit's
#   --open RATE after the cycles, the bench's open-loop generator on the path (pass or failover: it
#               asks a new address each time) at RATE req/s (3 s warm-up, 8 s, 2 rounds):
#               p50/p99/p99.9 and the resolver's GC pauses in that window
# Environment: JAVA_OPTS_EXTRA (added to the resolver's JVM flags, e.g. a JFR recording).
# Prints one line per cycle (req/s, p99, non-2xx, bad bodies), then the provider alone (direct).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
die() { echo "warm-curve.sh: $*" >&2; exit 1; }
source "$ROOT/scripts/bench/lib.sh"   # probe_setup, stop_pids, build_jars, need_wrk

BUILD=1 PATH_KIND=pass CYCLES=8 SECS=5 SED="" JAR=target/georesolver.jar OPEN_RATE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --path) PATH_KIND=$2; shift ;;
    --cycles) CYCLES=$2; shift ;;
    --seconds) SECS=$2; shift ;;
    --sed) SED=$2; shift ;;
    --jar) JAR=$2; shift ;;
    --open) OPEN_RATE=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "warm-curve.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
case "$PATH_KIND" in pass|failover|replay|nominatim|google) ;; *) echo "warm-curve.sh: unknown path $PATH_KIND" >&2; exit 2 ;; esac
[ -z "$OPEN_RATE" ] || [ "$PATH_KIND" = pass ] || [ "$PATH_KIND" = failover ] \
  || { echo "warm-curve.sh: --open needs --path pass or failover (the generator asks a new address each time)" >&2; exit 2; }
need_wrk
[[ "$CYCLES" =~ ^[0-9]+$ && "$SECS" =~ ^[0-9]+$ && "$OPEN_RATE" =~ ^[0-9]*$ ]] \
  || { echo "warm-curve.sh: --cycles, --seconds and --open take whole numbers" >&2; exit 2; }

if [ "$BUILD" = 1 ]; then
  build_jars
fi
[ -f "$JAR" ] || { echo "warm-curve.sh: $JAR is missing (build, or --jar)" >&2; exit 1; }
TOOLS=target/georesolver-bench.jar
[ -f "$TOOLS" ] || { echo "warm-curve.sh: $TOOLS is missing (mvn -DskipTests -Pbench package)" >&2; exit 1; }

probe_setup warm

[ -z "$SED" ] || sed -i -e "$SED" "$RUN/manifest.yaml"
taskset -c 0 java -Xmx512m -jar "$TOOLS" provider --port "$PP" >"$RUN/provider.log" 2>&1 &
PIDS+=($!)
# shellcheck disable=SC2086
taskset -c 1 java -Xms256m -Xmx1g -XX:+UseG1GC "-Xlog:gc:file=$RUN/gc.log:uptime" ${JAVA_OPTS_EXTRA:-} -jar "$JAR" --manifest "$RUN/manifest.yaml" --port "$PR" \
  >"$RUN/resolver.log" 2>&1 &
PIDS+=($!)
up() { for _ in $(seq 1 150); do curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "warm-curve.sh: no answer on $1; resolver log:" >&2; tail -20 "$RUN/resolver.log" >&2; exit 1; }
up "http://127.0.0.1:$PP/_ctl/count"
up "http://127.0.0.1:$PR/health/live"

R="http://127.0.0.1:$PR"
Q="10%20Downing%20St%2C%20London%20SW1A%202AA"
UNIQUE=1
case "$PATH_KIND" in
  pass) URL="$R/v1/geocode?q=" ;;
  failover)
    URL="$R/v1/geocode?intent=failover&q="
    curl -fsS -o /dev/null "http://127.0.0.1:$PP/_ctl/lane?name=hung&hang=true"
    for i in $(seq 1 20); do
      curl -fsS -o /dev/null "$URL""open$i"
      curl -fsS "$R/health/ready" | grep -Eq '"tier":"hung"[^}]*"state":"open"' && break
    done ;;
  replay) URL="$R/v1/geocode?q=$Q"; UNIQUE=0 ;;
  nominatim) URL="$R/search?q=$Q&format=jsonv2"; UNIQUE=0 ;;
  google) URL="$R/maps/api/geocode/json?address=$Q"; UNIQUE=0 ;;
esac
[ "$UNIQUE" = 1 ] || curl -fsS -o /dev/null "$R/v1/geocode?q=$Q"

one() {  # $1 url, $2 tag[, $3 the marker a good body holds]; prints "req/s p99 non-2xx bad"
  local out
  if [ "$UNIQUE" = 1 ]; then
    out=$(taskset -c 0 wrk -t1 -c64 -d"${SECS}s" --latency -s scripts/bench/wrk-unique.lua "$1" -- "${3:-\"status\":\"resolved\"}" "$2" 2>&1)
  else
    out=$(taskset -c 0 wrk -t1 -c64 -d"${SECS}s" --latency "$1" 2>&1)
  fi
  awk '/Requests\/sec/ { r = $2 } /^ +99%/ { p = $2 } /Non-2xx/ { n = $NF } /bench-bad-bodies/ { b = $2 }
       END { printf "%10.0f req/s  p99 %-9s non-2xx %s  bad %s\n", r, p, n + 0, b + 0 }' <<<"$out"
}
echo "path $PATH_KIND, $CYCLES cycles of ${SECS}s, jar $JAR${SED:+, manifest sed $SED}"
for c in $(seq 1 "$CYCLES"); do printf 'cycle %2d ' "$c"; one "$URL" "w$c$RANDOM"; done
if [ "$UNIQUE" = 1 ]; then printf 'direct (the provider on CPU 0 with wrk) '; one "http://127.0.0.1:$PP/fast?q=" "d$RANDOM" '"x":'; fi
if [ -n "$OPEN_RATE" ]; then
  RPID=${PIDS[1]}
  uptime_s() { jcmd "$RPID" VM.uptime 2>/dev/null | awk '/ s$/ {print $1}'; }
  marker='"status":"resolved"'
  T0=$(uptime_s)
  taskset -c 0 java -Xmx512m -jar "$TOOLS" loadgen rate --rate "$OPEN_RATE" --duration-s 8 --warmup-s 3 --rounds 2 \
    --connections 128 --tag "o$RANDOM" --target "$PATH_KIND" "$URL" "$marker" 2>&1 | grep -E '^(RESULT|ERROR)' \
    | sed -E 's/.*round=([0-9]+).*achieved_rps=([0-9.]+) p50_ms=([0-9.]+) p90_ms=[0-9.]+ p99_ms=([0-9.]+) p999_ms=([0-9.]+).*/open round \1: \2 req\/s  p50 \3  p99 \4  p99.9 \5 ms/'
  T1=$(uptime_s)
  awk -v t0="${T0:-0}" -v t1="${T1:-0}" '/Pause/ && /ms$/ { t = $1; gsub(/[\[\]s]/, "", t); ms = $NF; sub("ms", "", ms)
      if (t + 0 >= t0 + 0 && t + 0 <= t1 + 0) { n++; s += ms; if (ms + 0 > m) m = ms + 0 } }
    END { printf "GC during the open loop: %d pauses, mean %.1f ms, max %.1f ms\n", n, (n ? s / n : 0), m }' "$RUN/gc.log"
fi
