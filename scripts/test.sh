#!/usr/bin/env bash
# Runs the whole test suite. The Redis tests start their own redis-server on a free port
# (or use GEO_TEST_REDIS_URL); when the binary is missing this script installs it with apt-get
# if it can, and otherwise says how to get it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GEO_TEST_REDIS_URL:-}" ] && ! command -v redis-server >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test.sh: redis-server is missing; installing Debian's redis-server package" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    # The package may start a service on 6379; the tests never use it.
  else
    echo "test.sh: redis-server is missing. Install it (Debian/Ubuntu: sudo apt-get install redis-server;" >&2
    echo "         macOS: brew install redis) or point GEO_TEST_REDIS_URL at a Redis the tests may flush." >&2
    exit 1
  fi
fi
exec mvn -B test "$@"
