#!/bin/sh
# Installs redis-server for the scale-out tests (test/e2e/serve-*.test.ts start their own
# redis-server on a free loopback port and stop it after; nothing runs as a service).
# Prints the redis-server binary on its last line; exits 1 (with a reason on stderr) when it is
# missing and cannot be installed here (not root, no apt-get): those tests then fail loudly.
#   sh scripts/install-redis.sh
set -u
BIN=${SBIRTOOLS_REDIS_SERVER:-$(command -v redis-server || true)}
if [ -n "$BIN" ] && [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-redis: redis-server is missing and we are not root; run: sudo apt-get install -y redis-server" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-redis: no apt-get on this machine; install redis-server yourself (or set SBIRTOOLS_REDIS_SERVER)" >&2
  exit 1
fi
echo "install-redis: apt-get install redis-server (once)" >&2
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d 101: the package must not start a system-wide redis service; tests start their own.
POLICY=/usr/sbin/policy-rc.d
CREATED=
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$POLICY" && chmod +x "$POLICY" && CREATED=1
fi
apt-get update >&2 && apt-get install -y --no-install-recommends redis-server >&2
STATUS=$?
[ -n "$CREATED" ] && rm -f "$POLICY"
if [ $STATUS != 0 ]; then
  echo "install-redis: apt-get failed" >&2
  exit 1
fi
BIN=$(command -v redis-server || true)
if [ -n "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
echo "install-redis: redis-server installed but not on PATH" >&2
exit 1
