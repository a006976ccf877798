#!/usr/bin/env bash
# Smoke test of sbirtools on Bun or Deno: installs the runtime from the npm registry (the `bun` and
# `deno` packages ship their binaries) into a cache folder, then runs scripts/smoke-runtime.mjs
# with it against this checkout's build (npm run build first).
# Usage: scripts/smoke-runtime.sh bun   |   scripts/smoke-runtime.sh deno
set -euo pipefail
name="${1:?usage: scripts/smoke-runtime.sh bun|deno}"
case "$name" in
  bun) pkg="bun@1.4.5" ;;
  deno) pkg="deno@2.9.6" ;;
  *) echo "smoke-runtime: unknown runtime '$name' (bun or deno)" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${SBIRTOOLS_RUNTIMES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbirtools-runtimes}/$pkg"
bin="$cache/node_modules/.bin/$name"
if [ ! -x "$bin" ]; then
  echo "== installing $pkg into $cache"
  mkdir -p "$cache"
  # --prefix and a package.json of its own: without them npm installs into the nearest folder above
  # that has a node_modules or package.json (the home folder, a parent cache), not into $cache
  [ -f "$cache/package.json" ] || echo '{ "private": true }' > "$cache/package.json"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --silent "$pkg" >/dev/null
fi
echo "== $("$bin" --version | head -1)"
[ -f "$root/dist/src/index.js" ] || (cd "$root" && npm run build)
cd "$root"
if [ "$name" = deno ]; then
  exec "$bin" run --allow-all scripts/smoke-runtime.mjs
fi
exec "$bin" scripts/smoke-runtime.mjs
