#!/usr/bin/env bash
# The outage drill: forces tier 1's breaker open under steady synthetic load against a running
# resolver, then releases it, and reports what the clients saw before, during and after.
#
#   scripts/drill.sh [URL] [options]          URL default http://localhost:8080
#     --tier NAME        the rung to force open (default: the first enabled tier in /manifest)
#     --seconds N        length of each phase, seconds (default 20)
#     --rate R           requests per second (default 40)
#     --concurrency C    requests in flight at most (default 8)
#     --repeat SHARE     share of requests for repeated addresses, 0..1 (default 0.5)
#     --pool N           how many repeated addresses (default 20)
#     --addresses FILE   addresses to send, one a line (default: synthetic street addresses)
#     -H 'NAME: VALUE'   a header sent with the admin commands (an admin key), repeatable
#
# For each phase: client-side latency percentiles (p50/p90/p99: the failover latency during the
# outage), the routing distribution (share of answers per resolution_source, and of the answers
# walked rather than replayed) and the confidence distribution. Exit status 0 when traffic
# returned to tier 1 after the release, 1 when it did not (or the force did not take), 2 for a
# usage error, an unreachable resolver or a refused command. The load tool is
# scripts/drill/Drill.java, run from source: it needs a JDK (17+) and nothing else.
set -euo pipefail
command -v java >/dev/null || { echo "drill.sh: java is missing (JDK 17+)" >&2; exit 2; }
exec java -XX:+UseSerialGC -Xmx128m "$(dirname "$0")/drill/Drill.java" "$@"
