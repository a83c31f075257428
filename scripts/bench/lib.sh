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
