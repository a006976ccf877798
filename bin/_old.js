#!/usr/bin/env node
// The `sbirtools` command: all logic lives in dist/src/cli/main.js (built by `npm run build`).
// For `run`, the holder process starts first, so its start-up overlaps this process's imports.
if (process.argv[2] === 'run' && !process.argv.includes('--help') && !process.argv.includes('-h')) {
  // a Ctrl-C during start-up is remembered, so the run is cancelled (exit 130) and the holder stopped
  process.on('SIGINT', () => { globalThis.__sbirtoolsSigint = true; });
  (await import('../dist/src/runtime/holder/defaultHolder.js')).prewarmDefaultHolder();
}
const { main } = await import('../dist/src/cli/main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// main() has closed every sandbox and holder; if a stray handle still holds the loop, exit anyway.
setTimeout(() => process.exit(code), 2000).unref();
