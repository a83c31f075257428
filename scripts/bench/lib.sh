# Helpers every bench script shares (sourced, not run): free ports and the arithmetic of the reports.
# pick_port needs the sourcing script's die().

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
