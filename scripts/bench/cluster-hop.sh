#!/usr/bin/env bash
# The cost of a cross-node event-bus hop, roughly: replay and pass-through (wrk, closed loop) through
#   one    — one clustered node running every role (nothing leaves it: the same path as a node alone), and
#   hop    — an ingress-only node forwarding over the clustered bus to a node running chain, tiers, state
#            (ingress → chain crosses nodes, and the reply comes back),
# alternating in each round, every node pinned to the same CPUs so the two share one CPU budget.
# The nodes talk mutual TLS, as production runs (a CA and a certificate per node made with openssl in OUT).
# Prints one result line per run and writes a markdown table to OUT/cluster.md.
#
#   scripts/bench/cluster-hop.sh --launch "java -jar target/georesolver.jar" --provider-port P [--cpus 1]
#       [--client-cpus 0] [--seconds 5] [--rounds 3] [--connections 64] [--out DIR]
#
# The stand-in provider (scripts/bench.sh starts it; any server answering the generic contract on
# /fast works) must listen on P. Kills what it started on exit. Used by scripts/bench.sh section (g).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

LAUNCH="java -jar target/georesolver.jar" PROVIDER_PORT="" CPUS=1 CLIENT_CPUS=0 SECONDS_RUN=5 ROUNDS=3 CONNECTIONS=64 OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --launch) LAUNCH=$2; shift ;;
    --provider-port) PROVIDER_PORT=$2; shift ;;
    --cpus) CPUS=$2; shift ;;
    --client-cpus) CLIENT_CPUS=$2; shift ;;
    --seconds) SECONDS_RUN=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    --connections) CONNECTIONS=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "cluster-hop.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$PROVIDER_PORT" ] || { echo "cluster-hop.sh: --provider-port is required" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/georesolver-cluster-hop.XXXXXX")}
mkdir -p "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

die() { printf 'cluster-hop.sh: %s\n' "$*" >&2; exit 1; }
source "$ROOT/scripts/bench/lib.sh"   # port_free, pick_port, median, ratio, calc

# The cluster's CA, made once; member NAME: a certificate for one node (server and client).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$OUT/ca.key" -out "$OUT/ca.pem" -days 2 \
  -subj "/CN=cluster-hop CA" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null \
  || die "openssl could not make the cluster CA"
member() {
  printf 'extendedKeyUsage=serverAuth,clientAuth\n' >"$OUT/$1.ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$OUT/$1.key" -out "$OUT/$1.csr" -subj "/CN=$1" 2>/dev/null
  openssl x509 -req -in "$OUT/$1.csr" -CA "$OUT/ca.pem" -CAkey "$OUT/ca.key" -set_serial "$RANDOM$RANDOM" -days 2 \
    -out "$OUT/$1.pem" -extfile "$OUT/$1.ext" 2>/dev/null || die "openssl could not issue $1's certificate"
}

# node NAME CLUSTER ROLES HTTP_PORT HZ_PORT MEMBER_PORT: one clustered resolver on its own state file; sets LAST_PID.
node() {
  local name=$1 cluster=$2 roles=$3 http=$4 hz=$5 member=$6
  [ -f "$OUT/$name.pem" ] || member "$name"
  sed -e "s/PROVIDER_PORT/$PROVIDER_PORT/g" -e "s|STATE_PATH|$OUT/$name.db|" scripts/bench/manifest.yaml >"$OUT/$name.yaml"
  # shellcheck disable=SC2086
  taskset -c "$CPUS" $LAUNCH --manifest "$OUT/$name.yaml" --port "$http" --event-loops 1 --roles "$roles" \
    --cluster --cluster-name "$cluster" --cluster-host 127.0.0.1 --cluster-port "$hz" \
    --cluster-members "127.0.0.1:$member" --cluster-cert "$OUT/$name.pem" --cluster-key "$OUT/$name.key" \
    --cluster-ca "$OUT/ca.pem" >"$OUT/$name.log" 2>&1 &
  LAST_PID=$!
  PIDS+=("$LAST_PID")
}
wait_ready() { # LOG PID
  for _ in $(seq 1 600); do
    grep -q "listening on port\|node ready" "$1" && return 0
    kill -0 "$2" 2>/dev/null || { cat "$1" >&2; echo "cluster-hop.sh: a node died at start" >&2; exit 1; }
    sleep 0.2
  done
  echo "cluster-hop.sh: a node did not start in 120 s ($1)" >&2; exit 1
}

P_ONE=$(pick_port); HZ_ONE=$(pick_port)
P_IN=$(pick_port); HZ_IN=$(pick_port); P_CHAIN=$(pick_port); HZ_CHAIN=$(pick_port)
node one "hop-$$-one" all "$P_ONE" "$HZ_ONE" "$HZ_ONE"; ONE_PID=$LAST_PID
node chain "hop-$$-two" chain,tiers,state "$P_CHAIN" "$HZ_CHAIN" "$HZ_IN"; CHAIN_PID=$LAST_PID
node ingress "hop-$$-two" ingress "$P_IN" "$HZ_IN" "$HZ_CHAIN"; IN_PID=$LAST_PID
wait_ready "$OUT/one.log" "$ONE_PID"; wait_ready "$OUT/chain.log" "$CHAIN_PID"; wait_ready "$OUT/ingress.log" "$IN_PID"

REPLAY_Q="/v1/geocode?q=10%20Downing%20St%2C%20London%20SW1A%202AA"
for base in "http://127.0.0.1:$P_ONE" "http://127.0.0.1:$P_IN"; do
  for _ in $(seq 1 100); do curl -fsS "$base$REPLAY_Q" 2>/dev/null | grep -q '"status":"resolved"' && break; sleep 0.3; done
done

# run NAME URL SCRIPT TAG: one wrk run, "rps" into $OUT/NAME.rps
run() {
  local name=$1 url=$2 script=$3 tag=${4:-x}
  taskset -c "$CLIENT_CPUS" wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --timeout 5s --latency -s "$ROOT/scripts/bench/$script" "$url" \
    -- '"status":"resolved"' "$tag" >"$OUT/$name.out" 2>&1
  awk '/^Requests\/sec:/ {print $2}' "$OUT/$name.out" >"$OUT/$name.rps"
  local p99; p99=$(awk '$1 == "99%" {print $2}' "$OUT/$name.out")
  printf '%-16s %9.0f req/s  p99 %s  %s\n' "$name" "$(cat "$OUT/$name.rps")" "$p99" \
    "$(grep -E 'Non-2xx|bench-bad-bodies: [1-9]' "$OUT/$name.out" | tr '\n' ' ')"
}

# Warm-up (JIT) of both paths on both setups.
for w in 1 2; do
  run "warm$w-one-replay" "http://127.0.0.1:$P_ONE$REPLAY_Q" wrk-check.lua
  run "warm$w-hop-replay" "http://127.0.0.1:$P_IN$REPLAY_Q" wrk-check.lua
  run "warm$w-one-pass" "http://127.0.0.1:$P_ONE/v1/geocode?q=" wrk-unique.lua "w${w}o"
  run "warm$w-hop-pass" "http://127.0.0.1:$P_IN/v1/geocode?q=" wrk-unique.lua "w${w}h"
done
for i in $(seq 1 "$ROUNDS"); do
  run "g$i-one-replay" "http://127.0.0.1:$P_ONE$REPLAY_Q" wrk-check.lua
  run "g$i-hop-replay" "http://127.0.0.1:$P_IN$REPLAY_Q" wrk-check.lua
  run "g$i-one-pass" "http://127.0.0.1:$P_ONE/v1/geocode?q=" wrk-unique.lua "g${i}o"
  run "g$i-hop-pass" "http://127.0.0.1:$P_IN/v1/geocode?q=" wrk-unique.lua "g${i}h"
done

med() { median $(for i in $(seq 1 "$ROUNDS"); do cat "$OUT/g$i-$1.rps"; done); }
OR=$(med one-replay); HR=$(med hop-replay); OP=$(med one-pass); HP=$(med hop-pass)
{
  echo "| path | one node, every role (req/s) | ingress node → chain node (req/s) | ratio |"
  echo "|---|---:|---:|---:|"
  echo "| replay | $OR | $HR | $(ratio "$HR" "$OR") |"
  echo "| pass-through | $OP | $HP | $(ratio "$HP" "$OP") |"
} >"$OUT/cluster.md"
cat "$OUT/cluster.md"
echo "cluster-hop: replay ratio $(ratio "$HR" "$OR"), pass-through ratio $(ratio "$HP" "$OP") (outputs in $OUT)"
