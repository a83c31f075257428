#!/usr/bin/env bash
# Builds the fat jar (skipping tests) and runs the resolver on conf/manifest.yaml.
# Needs only JDK 17 and Maven. Extra arguments go to the resolver (--port, --manifest, --redis).
# The JVM and its collector are chosen by scripts/jvm.sh (the best row of its table that a JDK on
# this machine satisfies: JDK 25's generational ZGC when present, else JDK 17 with G1); it prints
# one line saying what it chose and why. GEO_JAVA picks the JVM; a collector in JAVA_OPTS wins.
# -XX:+ExitOnOutOfMemoryError: a JVM out of memory exits, so a supervisor restarts it, instead of
# living on with its event loops dead and its port refusing connections. JAVA_OPTS adds options
# of your own (a heap size, say).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package
# shellcheck source=scripts/jvm.sh
. scripts/jvm.sh
geo_pick_jvm || { echo "run.sh: $GEO_JVM_WHY" >&2; exit 1; }
echo "run.sh: $GEO_JVM_JAVA ${GEO_JVM_FLAGS:-(collector from JAVA_OPTS)}: $GEO_JVM_WHY" >&2
# shellcheck disable=SC2086 # the flags and JAVA_OPTS are lists of options
exec "$GEO_JVM_JAVA" -XX:+ExitOnOutOfMemoryError $GEO_JVM_FLAGS ${JAVA_OPTS:-} -jar target/georesolver.jar "$@"
