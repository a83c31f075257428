#!/usr/bin/env bash
# Builds the fat jar (skipping tests) and runs the resolver on conf/manifest.yaml.
# Needs only JDK 17 and Maven. Extra arguments go to the resolver (--port, --manifest, --redis).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package
exec java -jar target/georesolver.jar "$@"
