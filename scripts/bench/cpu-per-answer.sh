#!/usr/bin/env bash
# CPU per answer by thread group, pass-through against failover, on one warm resolver: the probe
# behind issue 25's experiments in docs/benchmarks.md. Same placement and manifest as
# scripts/bench.sh (resolver on CPU 1; the stand-in provider and wrk on CPU 0). The resolver gets
# --warm-s seconds of pass-through, is measured for --seconds, then tier 1 hangs and its breaker is
# opened, the failover path gets the same warm-up and measurement, and pass-through is measured once
# more (what the durable writes the failover left behind still cost). Each thread's user + system
# time comes from /proc/PID/task/*/stat before and after a measurement, grouped by the thread name's
# first 15 characters (the kernel's limit): vert.x-eventloo (event loops), vert.x-worker-t (the state
# store's JDBC and the other blocking work), C2 / C1 (the JIT), G1 / GC (the collector).
#
#   scripts/bench/cpu-per-answer.sh [--no-build] [--jar JAR] [--warm-s S (default 80)] [--seconds S (default 15)]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
die() { echo "cpu-per-answer.sh: $*" >&2; exit 1; }
source "$ROOT/scripts/bench/lib.sh"   # probe_setup, stop_pids, build_jars, need_wrk

BUILD=1 JAR=target/georesolver.jar WARM_S=80 SECS=15
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --jar) JAR=$2; shift ;;
    --warm-s) WARM_S=$2; shift ;;
    --seconds) SECS=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "cpu-per-answer.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[[ "$WARM_S" =~ ^[0-9]+$ && "$SECS" =~ ^[0-9]+$ && "$SECS" -gt 0 ]] || die "--warm-s and --seconds take whole numbers (--seconds > 0)"
need_wrk
[ "$BUILD" = 0 ] || build_jars
[ -f "$JAR" ] || die "$JAR is missing (build, or --jar)"
TOOLS=target/georesolver-bench.jar
[ -f "$TOOLS" ] || die "$TOOLS is missing (mvn -DskipTests -Pbench package)"
TICK_US=$((1000000 / $(getconf CLK_TCK)))

probe_setup cpu
taskset -c 0 java -Xmx512m -jar "$TOOLS" provider --port "$PP" >"$RUN/provider.log" 2>&1 &
PIDS+=($!)
taskset -c 1 java -Xms256m -Xmx1g -XX:+UseG1GC -jar "$JAR" --manifest "$RUN/manifest.yaml" --port "$PR" >"$RUN/resolver.log" 2>&1 &
RP=$!
PIDS+=("$RP")
up() { for _ in $(seq 1 150); do curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0; sleep 0.2; done
  tail -20 "$RUN/resolver.log" >&2; die "no answer on $1"; }
up "http://127.0.0.1:$PP/_ctl/count"
up "http://127.0.0.1:$PR/health/live"

# Clock ticks per thread group of the resolver.
snap() {
  for t in /proc/"$RP"/task/*; do
    [ -r "$t/stat" ] || continue
    # comm may hold spaces: the fields after its closing parenthesis, utime and stime are 12 and 13 there.
    printf '%s %s\n' "$(tr ' ' '_' <"$t/comm")" "$(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}')"
  done | awk '{a[$1] += $2} END {for (k in a) print k, a[k]}' | sort
}
load() {  # url tag seconds: prints the number of requests wrk completed; fails on a non-2xx or a bad body
  local out
  out=$(taskset -c 0 wrk -t1 -c64 -d"$3s" -s scripts/bench/wrk-unique.lua "$1" -- '"status":"resolved"' "$2$RANDOM" 2>&1)
  if grep -q "Non-2xx" <<<"$out" || grep -Eq "bench-bad-bodies[^0-9]+[1-9]" <<<"$out"; then
    echo "$out" >&2; die "wrk on $1 saw bad answers"
  fi
  awk '/requests in/ {print $1}' <<<"$out"
}
measure() {  # url tag label
  local n
  snap >"$RUN/s0"; n=$(load "$1" "$2" "$SECS"); snap >"$RUN/s1"
  echo "$3: $n answers in ${SECS}s ($((n / SECS)) req/s); CPU µs per answer by thread group"
  join "$RUN/s0" "$RUN/s1" | awk -v n="$n" -v tick="$TICK_US" \
    '{d = $3 - $2; if (d > 0) { printf "  %-18s %8.1f\n", $1, d * tick / n; t += d }} END { printf "  %-18s %8.1f\n", "total", t * tick / n }'
}
PASS="http://127.0.0.1:$PR/v1/geocode?q="
FAILOVER="http://127.0.0.1:$PR/v1/geocode?intent=failover&q="
echo "jar $JAR; ${WARM_S}s of warm-up per path, ${SECS}s measured"
[ "$WARM_S" = 0 ] || load "$PASS" wp "$WARM_S" >/dev/null
measure "$PASS" mp "pass-through"
curl -fsS -o /dev/null "http://127.0.0.1:$PP/_ctl/lane?name=hung&hang=true"
for i in $(seq 1 20); do
  curl -fsS -o /dev/null "${FAILOVER}open$i"
  curl -fsS "http://127.0.0.1:$PR/health/ready" | grep -Eq '"tier":"hung"[^}]*"state":"open"' && break
done
curl -fsS "http://127.0.0.1:$PR/health/ready" | grep -Eq '"tier":"hung"[^}]*"state":"open"' || die "tier hung's breaker did not open"
[ "$WARM_S" = 0 ] || load "$FAILOVER" wf "$WARM_S" >/dev/null
measure "$FAILOVER" mf "failover (tier 1's breaker open, every answer degraded)"
measure "$PASS" ma "pass-through after the failover"
