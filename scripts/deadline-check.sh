#!/usr/bin/env bash
# Measures how far the resolver overshoots its budget when every rung hangs: a TCP server that
# accepts and never answers stands in for both providers; curl times 20 requests per budget.
# Usage: scripts/deadline-check.sh   (needs python3 and curl; builds the jar if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/georesolver.jar ] || mvn -B -q -DskipTests package
work=$(mktemp -d)
hang_port=19901 port=18090
cat > "$work/hang.py" <<PY
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", $hang_port)); s.listen(1024)
held = []
while True:
    c, _ = s.accept(); held.append(c)
PY
cat > "$work/manifest.yaml" <<YAML
routing:
  budget_ms: 1000
  tiers:
    - { name: a, adapter: generic, endpoint: "http://127.0.0.1:$hang_port/a", claim: exact, timeout_ms: 5000, typical_ms: 100, circuit_breaker: { failure_threshold: 100000 } }
    - { name: b, adapter: generic, endpoint: "http://127.0.0.1:$hang_port/b", claim: open_data, timeout_ms: 5000, typical_ms: 100, circuit_breaker: { failure_threshold: 100000 } }
YAML
python3 "$work/hang.py" & hang=$!
java -jar target/georesolver.jar --manifest "$work/manifest.yaml" --port $port > "$work/run.log" 2>&1 & app=$!
trap 'kill $hang $app 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "localhost:$port/health/live" && break; sleep 0.1; done
curl -s -o /dev/null "localhost:$port/v1/geocode?q=warm-up"
for budget in 300 1000 2500; do
  for i in $(seq 1 20); do
    curl -s -o /dev/null -w '%{time_total}\n' "localhost:$port/v1/geocode?q=hung-$budget-$i&budget_ms=$budget"
  done | sort -n | awk -v b="$budget" '{t[NR]=$1*1000} END {printf "budget %5d ms: min %7.1f  median %7.1f  max %7.1f ms (client-side, every rung hung)\n", b, t[1], t[int((NR+1)/2)], t[NR]}'
done
