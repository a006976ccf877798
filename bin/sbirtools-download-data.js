#!/usr/bin/env node
// `sbirtools-download-data [URL]`: the same as `sbirtools download-data [URL]`.
import { runDownloadCommand } from '../dist/src/cli/downloadData.js';

const code = await runDownloadCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
});
process.exit(code);
