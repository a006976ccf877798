// Before/after of Series expressions in ONE process: this build and another build of sbirtools
// (e.g. main's) each open a warm session on the same data, and every expression is timed in each
// session in turn, `--rounds` times, so the machine's load hits both alike; the best of each is
// printed with their ratio. Timing is inside the isolate (Date.now, 1 ms steps: each measurement
// repeats the expression for ~30 ms). A setup line runs first in both (define variables there).
//   node --no-node-snapshot bench/series-ab.mjs --base-dist <other dist> [--data FILE] [--rounds 5]
//     'var A = award_data["Award Amount"]; 1' 'A.diff().abs().sum()' ...
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CSV, DIST } from './lib/paths.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const baseDist = opt('--base-dist', null);
const dataPath = opt('--data', CSV);
const rounds = Number(opt('--rounds', 5));
if (!baseDist || args.length < 2) {
  console.error('usage: series-ab.mjs --base-dist <dist> [--data FILE] [--rounds N] <setup> <expression>...');
  process.exit(2);
}
const [setup, ...exprs] = args;
const builds = { base: baseDist, current: DIST };
const boxes = {};
const shutdowns = [];
for (const [name, dir] of Object.entries(builds)) {
  const api = await import(pathToFileURL(join(dir, 'src', 'index.js')).href);
  boxes[name] = await api.createSandbox({ dataPath, timeoutMs: 300_000, memoryLimitMb: 3072 });
  shutdowns.push(api.shutdown);
}
try {
  for (const [name, box] of Object.entries(boxes)) {
    const r = await box.run(setup);
    if (!r.ok) throw new Error(`${name}: setup: ${r.error?.message}`);
  }
  console.log('| base ms | current ms | current / base | expression |\n| --: | --: | --: | --- |');
  for (const e of exprs) {
    const code = `let __s; const __f = () => (${e}); __s = __f(); const __ts = [];
      for (let k = 0; k < 4; k++) { let n = 0; const t = Date.now(); while (Date.now() - t < 30) { __s = __f(); n++; } __ts.push((Date.now() - t) / n); }
      Math.min(...__ts)`;
    const best = { base: Infinity, current: Infinity };
    for (let i = 0; i < rounds; i++)
      for (const [name, box] of Object.entries(boxes)) {
        const r = await box.run(code);
        if (!r.ok) throw new Error(`${name}: ${e}: ${r.error?.message}`);
        best[name] = Math.min(best[name], r.value);
      }
    console.log(
      `| ${best.base.toFixed(3)} | ${best.current.toFixed(3)} | ${(best.current / best.base).toFixed(2)} | \`${e.replace(/\|/g, '\\|')}\` |`,
    );
  }
} finally {
  for (const box of Object.values(boxes)) await box.close();
  for (const shutdown of shutdowns) await shutdown();
}
