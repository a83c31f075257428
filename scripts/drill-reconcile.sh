#!/usr/bin/env bash
# The reconcile failover drill (the seed: "a backend that times out for 60 seconds and then
# recovers"), against a resolver process it starts, printing a report.
#
#   scripts/drill-reconcile.sh [--backend sqlite|redis] [--outage-s 60] [--kill] [--rps 10] [--rate 20]
#   scripts/drill-reconcile.sh --quick      the same with an 8 s outage
#
# It starts stand-ins for a primary (claim exact) and a fallback (open data), a webhook receiver that
# checks the signatures, redis-server (--backend redis, with AOF, on a free port) and the resolver
# (target/georesolver.jar, built when missing), all on 127.0.0.1. The primary hangs for --outage-s
# under --rps requests a second of distinct addresses, then recovers; with --kill the resolver is
# killed (SIGKILL) in the middle of the drain and started again on the same state. The report says
# whether every request was answered within its budget, the breaker opened and closed on its own,
# the queue drained oldest first, every queued key was corrected exactly once and reached the feed,
# the SSE stream and the webhook, the replays carry the primary's answer, and every upstream call
# for a key carried its Idempotency-Key. Exit 0 when all of that holds.
#
# Run directory: GEO_DRILL_DIR (default target/drill): manifest, resolver log, state file, Redis data.
# GEO_DRILL_CLASSPATH runs dev.georesolver.cli.Main from that classpath instead of the jar (the tests do).
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
for a in "$@"; do
  case "$a" in
    --quick) args+=(--outage-s 8) ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done
DIR=${GEO_DRILL_DIR:-target/drill}
if [ -n "${GEO_DRILL_CLASSPATH:-}" ]; then
  CP=$GEO_DRILL_CLASSPATH
  args+=(--classpath "$CP")
else
  [ -f target/georesolver.jar ] || mvn -B -q -DskipTests package
  CP=target/georesolver.jar
fi
exec java -cp "$CP" scripts/drill/ReconcileDrill.java --dir "$DIR" "${args[@]}"
