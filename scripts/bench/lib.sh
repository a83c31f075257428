# Helpers every bench script shares (sourced, not run): free ports and the arithmetic of the reports.
# pick_port and need_wrk need the sourcing script's die().

# Whether nothing listens on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A free port in 20000–39999 not handed out before in this run (USED_PORTS).
pick_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    if port_free "$p" && [[ " ${USED_PORTS:-} " != *" $p "* ]]; then USED_PORTS="${USED_PORTS:-} $p"; echo "$p"; return; fi
  done
  die "no free port found"
}

# The setup of a probe that runs its own stand-in provider and resolver: a temporary folder in RUN
# (removed, with every process in PIDS stopped, when the script exits), two free ports in PP
# (provider) and PR (resolver), and the bench manifest for them in $RUN/manifest.yaml. $1 names the
# folder.
probe_setup() {
  RUN=$(mktemp -d "${TMPDIR:-/tmp}/georesolver-$1.XXXXXX")
  PIDS=()
  trap 'stop_pids; rm -rf "$RUN"' EXIT
  trap 'exit 130' INT TERM
  PP=$(pick_port); PR=$(pick_port)
  sed -e "s/PROVIDER_PORT/$PP/g" -e "s|STATE_PATH|$RUN/state.db|" scripts/bench/manifest.yaml >"$RUN/manifest.yaml"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }

# Stops every process in PIDS: TERM, up to 5 s each to go, then KILL.
stop_pids() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

# Builds target/georesolver.jar, then the bench profile's target/georesolver-bench.jar.
build_jars() {
  mvn -q -B -DskipTests package
  mvn -q -B -DskipTests -Pbench package
}

# wrk on PATH: installed with Debian's package when missing and running as root with apt-get, else
# die() saying how to install it.
need_wrk() {
  command -v wrk >/dev/null && return 0
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "wrk is missing: installing Debian's wrk package" >&2
    (apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }) \
      || die "could not install wrk"
  else
    die "wrk is missing. Install it: sudo apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS)"
  fi
}
