#!/usr/bin/env node
// The `sbirtools` command: all logic lives in dist/src/cli/main.js (built by `npm run build`).
import { main } from '../dist/src/cli/main.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// main() has closed every sandbox and holder; if a stray handle still holds the loop, exit anyway.
setTimeout(() => process.exit(code), 2000).unref();
