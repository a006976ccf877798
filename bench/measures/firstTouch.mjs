// Issue 25 item 2, for `npm run bench`: the first touch of Abstract in a fresh process, then warm
// (bench/first-touch.mjs, one child process per question and run).
//   BENCH_ARGS='{"runs":3}' node bench/measures/firstTouch.mjs
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.mjs';
import { emit, measureArgs } from '../lib/measureChild.mjs';

const { runs = 3 } = measureArgs();
const out = execFileSync(
  process.execPath,
  ['--no-node-snapshot', join(ROOT, 'bench', 'first-touch.mjs'), '--runs', String(runs), '--json'],
  { encoding: 'utf8', maxBuffer: 1 << 24 },
);
emit(JSON.parse(out.trim().split('\n').pop()));
