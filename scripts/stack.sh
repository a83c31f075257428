#!/usr/bin/env bash
# The local stack without Docker: the topology of docker-compose.yml started natively.
#
#   scripts/stack.sh up       start it (builds target/georesolver.jar first when it is missing)
#   scripts/stack.sh status   each part, its pid and port, and its health
#   scripts/stack.sh down     stop every part it started
#   scripts/stack.sh provider primary|secondary ok|fail|hang
#                             make a stand-in answer, fail every request (HTTP 503), or never answer
#
# Parts: a redis-server with AOF (data in the run directory), stand-in providers "primary" and
# "secondary" (scripts/stack/StandInProvider.java, JDK only), and two resolver instances sharing
# the Redis ("a" and "b"), on free ports of 127.0.0.1. The manifest is
# scripts/stack/manifest.template.yaml with the stand-ins' ports filled in.
#
# Run directory: GEO_STACK_DIR (default target/stack): pids, ports (stack.env), the manifest,
# logs/*.log, redis/ (the AOF, kept across down/up; remove the directory to start empty).
# Environment: GEO_STACK_LOG_FORMAT (json, or text) for the resolvers; GEO_STACK_CLASSPATH runs
# dev.georesolver.cli.Main from that classpath instead of the jar (the tests use it).
# The resolvers run on the JVM and collector scripts/jvm.sh picks (GEO_JAVA, JAVA_OPTS override).
# Needs: bash, java (17+), redis-server; Maven only to build the jar.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUN=${GEO_STACK_DIR:-target/stack}
case "$RUN" in /*) ;; *) RUN=$ROOT/$RUN ;; esac
PARTS="redis providers resolver-a resolver-b"

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

die() { echo "stack.sh: $*" >&2; exit 1; }

# http_get PORT PATH: prints the status code, a newline, then the body (bash's /dev/tcp, no curl needed).
http_get() {
  local port=$1 path=$2 resp
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$path" "$port" >&3
  resp=$(timeout 5 cat <&3 | tr -d '\r') || true
  exec 3<&- 3>&-
  [ -n "$resp" ] || return 1
  printf '%s\n%s\n' "$(printf '%s\n' "$resp" | head -1 | cut -d' ' -f2)" "$(printf '%s\n' "$resp" | sed '1,/^$/d')"
}

# redis_cmd PORT COMMAND...: the raw reply (RESP, CR stripped), the connection closed by QUIT.
redis_cmd() {
  local port=$1 resp
  shift
  { exec 4<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf '%s\r\nQUIT\r\n' "$*" >&4
  resp=$(timeout 2 cat <&4 | tr -d '\r') || true
  exec 4<&- 4>&-
  printf '%s\n' "$resp"
}

redis_ping() { [ "$(redis_cmd "$1" PING | head -1)" = "+PONG" ]; }

port_free() { ! { exec 5<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null && return 0; exec 5<&- 5>&-; return 1; }

# free_port: a port nobody listens on, not handed out before in this run, below the usual
# ephemeral range (32768-60999) so no outgoing connection holds it.
TAKEN=" "
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 12000 ))
    if [[ "$TAKEN" != *" $p "* ]] && port_free "$p"; then
      TAKEN="$TAKEN$p "
      echo "$p"
      return
    fi
  done
  die "no free port found"
}

pid_of() { [ -f "$RUN/$1.pid" ] && cat "$RUN/$1.pid" || true; }

# alive PART: whether the pid recorded for PART is still the process stack.sh started (its
# command line names its port, so a recycled pid is not mistaken for it).
alive() {
  local pid port
  pid=$(pid_of "$1")
  port=$(port_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  if [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$port"
  else
    ps -o args= -p "$pid" 2>/dev/null | grep -q -- "$port"
  fi
}

port_of() {
  [ -f "$RUN/stack.env" ] || return 0
  case "$1" in
    redis) sed -n 's/^REDIS_PORT=//p' "$RUN/stack.env" ;;
    providers) sed -n 's/^PRIMARY_PORT=//p' "$RUN/stack.env" ;;
    resolver-a) sed -n 's/^RESOLVER_A_PORT=//p' "$RUN/stack.env" ;;
    resolver-b) sed -n 's/^RESOLVER_B_PORT=//p' "$RUN/stack.env" ;;
  esac
}

# The resolver's command line, on the JVM and collector scripts/jvm.sh picks (it says which on stderr).
resolver_cmd() {
  # shellcheck source=scripts/jvm.sh
  . "$ROOT/scripts/jvm.sh"
  geo_pick_jvm || die "$GEO_JVM_WHY"
  echo "stack.sh: resolvers on $GEO_JVM_JAVA ${GEO_JVM_FLAGS:-(collector from JAVA_OPTS)}: $GEO_JVM_WHY" >&2
  local jvm="$GEO_JVM_JAVA -Xmx512m -XX:+ExitOnOutOfMemoryError $GEO_JVM_FLAGS ${JAVA_OPTS:-}"
  if [ -n "${GEO_STACK_CLASSPATH:-}" ]; then
    echo "$jvm -cp $GEO_STACK_CLASSPATH dev.georesolver.cli.Main"
  else
    echo "$jvm -jar $ROOT/target/georesolver.jar"
  fi
}

# wait_for PART SECONDS COMMAND...: polls COMMAND every 100 ms while PART's process lives.
wait_for() {
  local part=$1 secs=$2 pid
  shift 2
  pid=$(pid_of "$part")
  local until=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || return 1
    [ "$(date +%s)" -lt "$until" ] || return 1
    sleep 0.1
  done
}

ready() { [ "$(http_get "$1" /health/ready | head -1)" = 200 ]; }
provider_up() { [ "$(http_get "$1" /_ctl/health | head -1)" = 200 ]; }

up() {
  for part in $PARTS; do
    alive "$part" && die "the stack is already up in $RUN (scripts/stack.sh down first)"
  done
  command -v java >/dev/null || die "java is missing (JDK 17+)"
  command -v redis-server >/dev/null || die "redis-server is missing (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)"
  if [ -z "${GEO_STACK_CLASSPATH:-}" ] && [ ! -f target/georesolver.jar ]; then
    echo "stack.sh: building target/georesolver.jar"
    mvn -B -q -DskipTests package
  fi
  mkdir -p "$RUN/logs" "$RUN/redis"
  local redis_port primary_port secondary_port a_port b_port
  redis_port=$(free_port); primary_port=$(free_port); secondary_port=$(free_port); a_port=$(free_port); b_port=$(free_port)
  cat >"$RUN/stack.env" <<ENV
REDIS_PORT=$redis_port
PRIMARY_PORT=$primary_port
SECONDARY_PORT=$secondary_port
RESOLVER_A_PORT=$a_port
RESOLVER_B_PORT=$b_port
ENV
  sed -e "s/@PRIMARY_PORT@/$primary_port/" -e "s/@SECONDARY_PORT@/$secondary_port/" \
    scripts/stack/manifest.template.yaml >"$RUN/manifest.yaml"

  redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$RUN/redis" --appendonly yes --save "" \
    --logfile "$RUN/logs/redis.log" </dev/null >/dev/null 2>&1 &
  echo $! >"$RUN/redis.pid"
  java -Xmx64m -XX:+UseSerialGC scripts/stack/StandInProvider.java \
    --listen "primary=$primary_port" --listen "secondary=$secondary_port" </dev/null >"$RUN/logs/providers.log" 2>&1 &
  echo $! >"$RUN/providers.pid"
  local cmd
  cmd=$(resolver_cmd)
  for inst in a b; do
    local port
    port=$([ $inst = a ] && echo "$a_port" || echo "$b_port")
    # shellcheck disable=SC2086
    $cmd --manifest "$RUN/manifest.yaml" --port "$port" --redis "redis://127.0.0.1:$redis_port" \
      --log-format "${GEO_STACK_LOG_FORMAT:-json}" </dev/null >"$RUN/logs/resolver-$inst.log" 2>&1 &
    echo $! >"$RUN/resolver-$inst.pid"
  done

  wait_for redis 20 redis_ping "$redis_port" || fail_up redis
  wait_for providers 30 provider_up "$primary_port" || fail_up providers
  wait_for providers 10 provider_up "$secondary_port" || fail_up providers
  wait_for resolver-a 60 ready "$a_port" || fail_up resolver-a
  wait_for resolver-b 60 ready "$b_port" || fail_up resolver-b
  echo "stack.sh: up in $RUN"
  status
}

fail_up() {
  echo "stack.sh: $1 did not come up; the end of its log:" >&2
  tail -n 20 "$RUN/logs/$1.log" >&2 || true
  # Just started by this shell: the pids are ours even before their command lines are set.
  stop_parts trusted >&2
  exit 1
}

down() { stop_parts checked; }

# stop_parts trusted|checked: SIGTERM to every part still running (checked: only a process whose
# command line is the part's), SIGKILL to any still there after 10 s.
stop_parts() {
  local signalled="" part pid
  for part in $PARTS; do
    pid=$(pid_of "$part")
    if { [ "$1" = trusted ] && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; } || alive "$part"; then
      kill -TERM "$pid" 2>/dev/null || true
      signalled="$signalled $part:$pid"
    fi
  done
  for entry in $signalled; do
    part=${entry%%:*}
    pid=${entry#*:}
    local i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
      echo "stack.sh: $part did not stop in 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for part in $PARTS; do rm -f "$RUN/$part.pid"; done
  if [ -n "$signalled" ]; then echo "stack.sh: down"; else echo "stack.sh: nothing running in $RUN"; fi
}

# field JSON NAME: a string or number field of a flat JSON object.
field() { printf '%s' "$1" | grep -o "\"$2\":\"\{0,1\}[^,\"}]*" | head -1 | sed 's/.*://; s/"//g'; }

health() {
  local port=$2 r
  case "$1" in
    redis)
      if redis_ping "$port"; then
        printf 'PONG; appendonly %s; %s keys; data in %s\n' "$(redis_cmd "$port" CONFIG GET appendonly | sed -n 5p)" \
          "$(redis_cmd "$port" DBSIZE | head -1 | tr -d :)" "$RUN/redis"
      else
        echo "no answer"
      fi ;;
    providers)
      local sec out=""
      sec=$(sed -n 's/^SECONDARY_PORT=//p' "$RUN/stack.env")
      for p in "$port" "$sec"; do
        r=$(http_get "$p" /_ctl/health | tail -n +2) || r=""
        if [ -z "$r" ]; then
          out="$out${out:+; }:$p no answer"
        else
          out="$out${out:+; }$(field "$r" name) :$p $(field "$r" mode) (calls $(field "$r" calls))"
        fi
      done
      echo "$out" ;;
    resolver-*)
      r=$(http_get "$port" /health/ready) || { echo "no answer"; return; }
      local code body tiers states
      code=$(echo "$r" | head -1)
      body=$(echo "$r" | tail -n +2)
      tiers=$(echo "$body" | grep -o '"tier":"[^"]*"' | cut -d'"' -f4)
      states=$(echo "$body" | grep -o '"state":"[^"]*"' | cut -d'"' -f4)
      printf 'ready %s; %s; store reachable %s\n' "$([ "$code" = 200 ] && echo yes || echo "no (HTTP $code)")" \
        "$(paste -d= <(echo "$tiers") <(echo "$states") | tr '\n' ' ' | sed 's/ $//')" \
        "$(echo "$body" | grep -o '"store":{"reachable":[a-z]*' | sed 's/.*://')" ;;
  esac
}

status() {
  [ -f "$RUN/stack.env" ] || { echo "stack.sh: no stack in $RUN (scripts/stack.sh up)"; return 0; }
  printf '%-11s %-8s %-6s %-5s %s\n' part pid port state health
  for part in $PARTS; do
    local port state h pid
    port=$(port_of "$part")
    pid=$(pid_of "$part")
    if alive "$part"; then state=up; h=$(health "$part" "$port"); else state=down; h=-; fi
    printf '%-11s %-8s %-6s %-5s %s\n' "$part" "${pid:--}" "$port" "$state" "$h"
  done
}

# provider NAME MODE: switches a stand-in through its control path.
provider() {
  local name=${1:-} mode=${2:-} port
  [ -f "$RUN/stack.env" ] || die "no stack in $RUN (scripts/stack.sh up)"
  case "$name" in
    primary) port=$(sed -n 's/^PRIMARY_PORT=//p' "$RUN/stack.env") ;;
    secondary) port=$(sed -n 's/^SECONDARY_PORT=//p' "$RUN/stack.env") ;;
    *) die "provider must be primary or secondary, got '$name'" ;;
  esac
  case "$mode" in ok|fail|hang) ;; *) die "mode must be ok, fail or hang, got '$mode'" ;; esac
  http_get "$port" "/_ctl/mode?set=$mode" | tail -n +2
}

case "${1:-}" in
  up) up ;;
  provider) provider "${2:-}" "${3:-}" ;;
  down) down ;;
  status) status ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
