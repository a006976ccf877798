#!/bin/sh
# Installs pandas for the benchmark baseline (bench/run.mjs compares against it).
# Uses Debian's /usr/bin/python3 (the default python3 may be a pyenv build without pandas).
# Prints the interpreter to use on its last line; exits 1 (with a reason on stderr) when pandas
# is missing and cannot be installed here (not root, no apt-get): the bench then skips pandas.
#   sh scripts/install-pandas.sh
set -u
PY=${SBIRTOOLS_BENCH_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || true)
if [ -n "$PY" ] && "$PY" -c 'import pandas' 2>/dev/null; then
  echo "$PY"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-pandas: pandas is not importable by ${PY:-python3} and we are not root; run: sudo apt-get install -y python3-pandas" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-pandas: no apt-get on this machine; install pandas for ${PY:-python3} yourself" >&2
  exit 1
fi
echo "install-pandas: apt-get install python3-pandas (once)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update >&2 && apt-get install -y --no-install-recommends python3-pandas >&2 || {
  echo "install-pandas: apt-get failed" >&2
  exit 1
}
PY=/usr/bin/python3
if "$PY" -c 'import pandas' 2>/dev/null; then
  echo "$PY"
  exit 0
fi
echo "install-pandas: python3-pandas installed but $PY still cannot import pandas" >&2
exit 1
