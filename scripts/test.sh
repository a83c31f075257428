#!/usr/bin/env bash
# Runs the whole test suite. What the tests need beyond JDK and Maven is installed here when it is
# missing, or the script stops saying how to get it (a missing tool is a failure, never a skip):
#   redis-server    the Redis tests start their own on a free port (or use GEO_TEST_REDIS_URL), and
#                   the Redis Cluster tests start three with --cluster-enabled yes whatever
#                   GEO_TEST_REDIS_URL says; Debian's redis-server package, as root
#   redis-cli       joins those three into a cluster (redis-cli --cluster create); Debian's
#                   redis-tools package (redis-server depends on it), as root
#   promtool        checks and unit-tests conf/prometheus/alerts.yml; taken out of Debian's
#                   prometheus package into target/tools (installing the package would also start
#                   a Prometheus daemon through its init script; only the static promtool is needed)
#   docker-compose  `docker-compose config` validates docker-compose.yml (no Docker engine needed);
#                   Debian's docker-compose package, as root
#   perl            the SIGHUP tests start the resolver with SIGHUP at a known disposition (an ignored
#                   SIGHUP is inherited across exec, from nohup or a CI runner, and the JVM keeps it);
#                   Debian's perl-base package (essential, so always there), as root
#   openssl         the mutual-TLS tests make their own certificate authority and certificates at
#                   run time (no key is committed); Debian's openssl package, as root
#   node, npm       the real npm clients the compatibility tests drive and playwright-core for the
#                   dashboard's browser test (src/test/js/package.json, pinned by its lockfile) are
#                   installed with npm ci into target/npm whenever they are missing or the lockfile
#                   changed; Node.js and npm from Debian when absent (playwright-core needs Node 20+)
#   chromium        the dashboard's browser test drives /usr/bin/chromium headless; Debian's
#                   chromium package, as root
set -euo pipefail
cd "$(dirname "$0")/.."

apt_updated=
apt_install() {   # apt_install PACKAGE WHAT: installs a Debian package as root, or says how and fails
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test.sh: $2 is missing; installing Debian's $1 package" >&2
    [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null
  else
    echo "test.sh: $2 is missing. Install it (Debian/Ubuntu: sudo apt-get install $1; macOS: brew install $3)." >&2
    exit 1
  fi
}

if ! command -v redis-server >/dev/null 2>&1; then
  apt_install redis-server redis-server redis
  # The package may start a service on 6379; the tests never use it.
fi
if ! command -v redis-cli >/dev/null 2>&1; then
  apt_install redis-tools redis-cli redis
fi

if ! command -v perl >/dev/null 2>&1; then
  apt_install perl-base perl perl
fi

if ! command -v openssl >/dev/null 2>&1; then
  apt_install openssl openssl openssl
fi

if [ -z "${PROMTOOL:-}" ]; then
  if command -v promtool >/dev/null 2>&1; then
    PROMTOOL=$(command -v promtool)
  else
    PROMTOOL=$PWD/target/tools/prometheus/usr/bin/promtool
    if [ ! -x "$PROMTOOL" ]; then
      if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
        echo "test.sh: promtool is missing. Install it (Debian/Ubuntu: sudo apt-get install prometheus;" >&2
        echo "         macOS: brew install prometheus) or point PROMTOOL at it." >&2
        exit 1
      fi
      echo "test.sh: promtool is missing; taking it from Debian's prometheus package into target/tools" >&2
      mkdir -p target/tools/deb
      if ! (cd target/tools/deb && apt-get download -qq prometheus 2>/dev/null); then
        [ "$(id -u)" = 0 ] && [ -z "$apt_updated" ] && { apt-get update -qq; apt_updated=1; }
        (cd target/tools/deb && apt-get download -qq prometheus)
      fi
      dpkg-deb -x target/tools/deb/prometheus_*.deb target/tools/prometheus
      rm -rf target/tools/deb
    fi
  fi
  export PROMTOOL
fi

if ! command -v docker-compose >/dev/null 2>&1; then
  apt_install docker-compose docker-compose docker-compose
fi

JS_DIR=target/npm
if [ ! -d "$JS_DIR/node_modules" ] || ! cmp -s src/test/js/package-lock.json "$JS_DIR/package-lock.json"; then
  command -v node >/dev/null 2>&1 || apt_install nodejs "Node.js (for the client tests)" node
  command -v npm >/dev/null 2>&1 || apt_install npm "npm (for the client tests)" node
  echo "test.sh: installing the npm clients of the compatibility tests into $JS_DIR" >&2
  rm -rf "$JS_DIR" && mkdir -p "$JS_DIR"
  cp src/test/js/package.json src/test/js/package-lock.json "$JS_DIR/"
  (cd "$JS_DIR" && npm ci --no-audit --no-fund --loglevel=error) || { echo "test.sh: npm ci failed in $JS_DIR" >&2; exit 1; }
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "test.sh: Node.js $(node --version) is too old for playwright-core (the dashboard's browser test); install Node.js 20 or later." >&2
  exit 1
fi

if [ ! -x /usr/bin/chromium ]; then
  apt_install chromium "Chromium (/usr/bin/chromium, for the dashboard's browser test)" chromium
fi

exec mvn -B test "$@"
