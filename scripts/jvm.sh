#!/usr/bin/env bash
# Picks the JVM and the collector flags the resolver runs with: sourced by scripts/run.sh and
# scripts/stack.sh; the container's entrypoint is `jvm.sh exec ARGS...` (runs the chosen java with
# its flags, JAVA_OPTS and ARGS); run with no arguments it prints the choice and why.
#
# The choice is table-driven: JVM_CHOICES below, one row per configuration, best first. The first
# row that some JDK found on the machine satisfies wins; among the JDKs satisfying it, the newest.
# Where to look, in order: GEO_JAVA (a JDK home or its bin/java: then only that one), JAVA_HOME,
# every directory under GEO_JVM_ROOT (default /usr/lib/jvm), and the `java` on PATH. A JDK's major
# version is read from its `release` file (JAVA_VERSION="25.0.3"), else from `java -version`.
#
# Overrides: GEO_JAVA picks the JVM; a collector named in JAVA_OPTS (-XX:+Use...GC) replaces the
# row's flags (the row's JVM is still used); GEO_JVM_CHOICE=NAME forces a row by name.
#
# The ranking is set from the JVM matrix in docs/benchmarks.md (scripts/bench/jvm-matrix.sh, run of
# 2026-12-01 on one core per resolver): JDK 17 G1 had the lowest p99 at half load (+20.5 ms, against
# +32.1 ms for JDK 25's generational ZGC and +40.9 ms for JDK 25 G1) and the smallest RSS (633 MB,
# against 1,164 MB for ZGC); ZGC pauses under a millisecond but its concurrent threads take the
# event loop's core. Without a JDK 17, ZGC on the newest JDK ranks above G1 there.

# name | lowest major | highest major (empty: none) | flags | why (printed)
JVM_CHOICES="
g1-17|17|17|-XX:+UseG1GC|G1 on JDK 17: the lowest p99 and RSS of the JVM matrix (docs/benchmarks.md), and what the project is built and tested with
zgc-gen|23||-XX:+UseZGC|generational ZGC (the default ZGC mode from JDK 23): pauses under a millisecond, lower p99 than G1 on the same JDK in the JVM matrix
zgc-gen-21|21|22|-XX:+UseZGC -XX:+ZGenerational|generational ZGC (opt-in on JDK 21 and 22): no stop-the-world copying of stored answers
g1|17||-XX:+UseG1GC|G1 on the newest JDK found
"

# The major version of the JDK whose java is $1 (a path), or nothing.
geo_jvm_major() {
  local java=$1 home v
  home=$(cd "$(dirname "$java")/.." 2>/dev/null && pwd -P) || return 0
  if [ -f "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release" | head -1)
  fi
  if [ -z "${v:-}" ]; then
    v=$("$java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -1)
  fi
  v=${v#1.}            # 1.8.0 → 8
  v=${v%%[.+-]*}
  case "$v" in ''|*[!0-9]*) return 0 ;; esac
  echo "$v"
}

# Candidate java binaries, one per line (may repeat).
geo_jvm_candidates() {
  if [ -n "${GEO_JAVA:-}" ]; then
    if [ -d "$GEO_JAVA" ]; then echo "$GEO_JAVA/bin/java"; else echo "$GEO_JAVA"; fi
    return
  fi
  [ -n "${JAVA_HOME:-}" ] && echo "$JAVA_HOME/bin/java"
  local d
  for d in "${GEO_JVM_ROOT:-/usr/lib/jvm}"/*/; do
    [ -x "${d}bin/java" ] && echo "${d%/}/bin/java"
  done
  command -v java 2>/dev/null || true
}

# Sets GEO_JVM_JAVA (the java binary), GEO_JVM_FLAGS (collector flags, may be empty),
# GEO_JVM_NAME (the row), GEO_JVM_MAJOR and GEO_JVM_WHY (one line). Returns 1 when no JVM is found.
geo_pick_jvm() {
  local -a javas=() majors=()
  local j m seen=" "
  while IFS= read -r j; do
    [ -n "$j" ] && [ -x "$j" ] || continue
    j=$(readlink -f "$j" 2>/dev/null || echo "$j")
    [[ "$seen" == *" $j "* ]] && continue
    seen="$seen$j "
    m=$(geo_jvm_major "$j")
    [ -n "$m" ] || continue
    javas+=("$j"); majors+=("$m")
  done < <(geo_jvm_candidates)
  if [ ${#javas[@]} -eq 0 ]; then
    GEO_JVM_WHY="no JVM found (GEO_JAVA, JAVA_HOME, ${GEO_JVM_ROOT:-/usr/lib/jvm}/*, PATH): install a JDK 17 or newer"
    return 1
  fi
  local name lo hi flags why best=-1 i
  GEO_JVM_NAME=""
  while IFS='|' read -r name lo hi flags why; do
    [ -n "$name" ] || continue
    [ -n "${GEO_JVM_CHOICE:-}" ] && [ "$GEO_JVM_CHOICE" != "$name" ] && continue
    for i in "${!javas[@]}"; do
      m=${majors[$i]}
      [ "$m" -ge "$lo" ] || continue
      [ -z "$hi" ] || [ "$m" -le "$hi" ] || continue
      if [ "$best" -lt 0 ] || [ "$m" -gt "${majors[$best]}" ]; then best=$i; fi
    done
    if [ "$best" -ge 0 ]; then
      GEO_JVM_NAME=$name GEO_JVM_FLAGS=$flags
      GEO_JVM_JAVA=${javas[$best]} GEO_JVM_MAJOR=${majors[$best]}
      GEO_JVM_WHY="$why"
      break
    fi
  done <<<"$JVM_CHOICES"
  if [ -z "$GEO_JVM_NAME" ]; then
    GEO_JVM_WHY="no JVM found satisfies a row of JVM_CHOICES${GEO_JVM_CHOICE:+ named $GEO_JVM_CHOICE} (found majors: ${majors[*]}); the resolver needs 17 or newer"
    return 1
  fi
  local origin="found"
  [ -n "${GEO_JAVA:-}" ] && origin="GEO_JAVA"
  if [[ " ${JAVA_OPTS:-} " =~ [[:space:]]-XX:\+Use[A-Za-z]*GC[[:space:]] ]]; then
    GEO_JVM_FLAGS=""
    GEO_JVM_WHY="JDK $GEO_JVM_MAJOR ($origin) with the collector JAVA_OPTS names"
  else
    GEO_JVM_WHY="JDK $GEO_JVM_MAJOR ($origin), row $GEO_JVM_NAME: $GEO_JVM_WHY"
  fi
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  if [ "${1:-}" = exec ]; then
    # `scripts/jvm.sh exec ARGS...`: run the chosen java with its flags, then ARGS (the container's
    # entrypoint). The choice goes to stderr.
    shift
    geo_pick_jvm || { echo "jvm: $GEO_JVM_WHY" >&2; exit 1; }
    echo "jvm: $GEO_JVM_JAVA ${GEO_JVM_FLAGS:-(collector from JAVA_OPTS)} — $GEO_JVM_WHY" >&2
    # shellcheck disable=SC2086 # the flags and JAVA_OPTS are lists of options
    exec "$GEO_JVM_JAVA" $GEO_JVM_FLAGS ${JAVA_OPTS:-} "$@"
  fi
  if geo_pick_jvm; then
    echo "jvm: $GEO_JVM_JAVA ${GEO_JVM_FLAGS:-(no collector flags)} — $GEO_JVM_WHY"
  else
    echo "jvm: $GEO_JVM_WHY" >&2
    exit 1
  fi
fi
