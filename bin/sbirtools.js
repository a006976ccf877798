#!/usr/bin/env node
// The `sbirtools` command: all logic lives in dist/src/cli/main.js (built by `npm run build`).
// For `run`, the holder process starts first, so its start-up overlaps this process's imports, and
// both come from the one-file-per-chunk bundle dist/cli/ (scripts/build-cli.mjs; a cold run loads
// a few files instead of ~250) when it was built.
import { existsSync } from 'node:fs';

const isRun = process.argv[2] === 'run';
if (isRun) {
  // A run validates a few small objects once: zod's JIT (a `new Function` compiled per object
  // schema on its first parse) costs more than it saves in a one-shot process. Same results;
  // zod reads this shared config object when a schema is built, so it is set before any import.
  globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
  // one question, then exit: the holder boots no spare isolates (src/runtime/holder/holderProcess.ts)
  globalThis.__sbirtoolsOneShot = true;
}
const bundled = isRun && existsSync(new URL('../dist/cli/main.js', import.meta.url));
if (isRun && !process.argv.includes('--help') && !process.argv.includes('-h')) {
  // a Ctrl-C during start-up is remembered, so the run is cancelled (exit 130) and the holder stopped
  process.on('SIGINT', () => {
    globalThis.__sbirtoolsSigint = true;
  });
  const prewarm = bundled ? '../dist/cli/defaultHolder.js' : '../dist/src/runtime/holder/defaultHolder.js';
  (await import(prewarm)).prewarmDefaultHolder();
}
const { main } = await import(bundled ? '../dist/cli/main.js' : '../dist/src/cli/main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// main() has closed every sandbox and holder; if a stray handle still holds the loop, exit anyway.
setTimeout(() => process.exit(code), 2000).unref();
