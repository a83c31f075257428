#!/usr/bin/env bash
# Runs the whole test suite. The Redis tests start their own redis-server on a free port
# (or use GEO_TEST_REDIS_URL); when the binary is missing this script installs it with apt-get
# if it can, and otherwise says how to get it. The real npm clients the compatibility tests drive
# (src/test/js/package.json, pinned by its lockfile) are installed with npm ci into target/npm
# whenever they are missing or the lockfile changed; Node.js and npm come from apt-get when absent.
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

JS_DIR=target/npm
if [ ! -d "$JS_DIR/node_modules" ] || ! cmp -s src/test/js/package-lock.json "$JS_DIR/package-lock.json"; then
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "test.sh: node/npm missing; installing Debian's nodejs and npm packages" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
      echo "test.sh: Node.js and npm are needed for the client tests (Debian/Ubuntu: sudo apt-get install nodejs npm)." >&2
      exit 1
    fi
  fi
  echo "test.sh: installing the npm clients of the compatibility tests into $JS_DIR" >&2
  rm -rf "$JS_DIR" && mkdir -p "$JS_DIR"
  cp src/test/js/package.json src/test/js/package-lock.json "$JS_DIR/"
  (cd "$JS_DIR" && npm ci --no-audit --no-fund --loglevel=error) || { echo "test.sh: npm ci failed in $JS_DIR" >&2; exit 1; }
fi
exec mvn -B test "$@"
