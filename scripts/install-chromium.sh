#!/bin/sh
# Installs Debian's chromium for the browser tests of the viewer (test/e2e/browser.test.ts), and
# checks that it starts headless as root with the flags the tests use and a fresh profile.
# Prints the executable on its last line; exits 1 (with a reason on stderr) when chromium is
# missing and cannot be installed here (not root, no apt-get): the browser tests then skip,
# except under CI=true, where they fail.
#   sh scripts/install-chromium.sh
set -u
BIN=${SBIRTOOLS_CHROMIUM:-/usr/bin/chromium}
check() {
  dir=$(mktemp -d)
  out=$(timeout 60 "$BIN" --no-sandbox --headless --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$dir" \
    --dump-dom 'data:text/html,<p>chromium-ok</p>' 2>/dev/null)
  rm -rf "$dir"
  case "$out" in *chromium-ok*) return 0 ;; *) return 1 ;; esac
}
if [ -x "$BIN" ] && check; then
  echo "$BIN"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-chromium: $BIN is missing or does not start and we are not root; run: sudo apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get on this machine; install chromium and set SBIRTOOLS_CHROMIUM to it" >&2
  exit 1
fi
echo "install-chromium: apt-get install chromium (once)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update >&2 && apt-get install -y --no-install-recommends chromium >&2 || {
  echo "install-chromium: apt-get failed" >&2
  exit 1
}
BIN=/usr/bin/chromium
if check; then
  echo "$BIN"
  exit 0
fi
echo "install-chromium: chromium installed but $BIN does not start headless" >&2
exit 1
