#!/usr/bin/env bash
# Builds the fat jar (skipping tests) and runs the resolver on conf/manifest.yaml.
# Needs only JDK 17 and Maven. Extra arguments go to the resolver (--port, --manifest, --redis).
# -XX:+ExitOnOutOfMemoryError: a JVM out of memory exits, so a supervisor restarts it, instead of
# living on with its event loops dead and its port refusing connections. JAVA_OPTS adds options
# of your own (a heap size, say).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
exec java -XX:+ExitOnOutOfMemoryError ${JAVA_OPTS:-} -jar target/georesolver.jar "$@"
