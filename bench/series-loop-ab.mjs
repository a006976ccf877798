// Before/after of a Series form and the plain loop it replaces, by the isolate's CPU time: this
// build and another (e.g. main's) each open a session (process isolation) on the same data, and each
// pair `series;;loop` is run in both sessions in turn, `--rounds` times (the first round is warm-up,
// not counted). One run calls the expression `--calls` times, each call making its closures anew
// as bench/series-methods.mjs's timed calls do, and its figure is the run's isolate CPU over the
// calls (`stats.cpuMs`: not Date.now's 1 ms steps, and less moved by other processes than wall
// time on a loaded machine). Prints the median per call of the series form and of the loop in each
// build, their ratio, and this build's series form over the base's. The answers of all four must
// agree (exactly), else it says so.
//   node --no-node-snapshot bench/series-loop-ab.mjs --base <other dist> [--data FILE] [--rounds 8]
//     [--calls 10] [--engine isolated-vm|quickjs] 'award_data["Award Amount"].apply((x) => x * 2).sum();;<the loop>' ...
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
const baseDist = opt('--base', null);
const dataPath = opt('--data', CSV);
const rounds = Number(opt('--rounds', 8));
const calls = Number(opt('--calls', 10));
const engine = opt('--engine', 'auto');
if (!baseDist || args.length < 1 || args.some((a) => !a.includes(';;'))) {
  console.error(
    "usage: series-loop-ab.mjs --base <dist> [--data FILE] [--rounds N] [--calls K] [--engine E] 'series;;loop' ...",
  );
  process.exit(2);
}
const builds = { base: baseDist, current: DIST };
const boxes = {};
const shutdowns = [];
for (const [name, dir] of Object.entries(builds)) {
  const api = await import(pathToFileURL(join(dir, 'src', 'index.js')).href);
  boxes[name] = await api.createSandbox({ dataPath, engine, timeoutMs: 300_000, memoryLimitMb: 3072 });
  shutdowns.push(api.shutdown);
  await boxes[name].run('award_data.numRows()');
}
/** The code with its last statement returned (a function body; as bench/lib/seriesMethods.mjs does). */
const returning = (code) => {
  const i = Math.max(code.lastIndexOf('; '), code.lastIndexOf('} '));
  return i < 0 ? `return ${code}` : `${code.slice(0, i + 2)}return ${code.slice(i + 2)}`;
};
const program = (code) =>
  `let __s; const __f = () => { ${returning(code)}; }; for (let __j = 0; __j < ${calls}; __j++) __s = __f(); __s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
try {
  console.log(
    '| series form | base: series / loop ms | current: series / loop ms | series / loop (base, current) | series current / base |\n| --- | --: | --: | --: | --: |',
  );
  for (const pair of args) {
    const [series, loop] = pair.split(';;');
    const ms = { base: [[], []], current: [[], []] };
    const answers = new Set();
    for (let r = 0; r < rounds; r++)
      for (const [name, box] of Object.entries(boxes))
        for (const [k, code] of [series, loop].entries()) {
          const res = await box.run(program(code));
          if (!res.ok) throw new Error(`${name}: ${code}: ${res.error?.message}`);
          answers.add(JSON.stringify(res.value));
          if (r > 0) ms[name][k].push(res.stats.cpuMs / calls);
        }
    const [bs, bl, cs, cl] = [ms.base[0], ms.base[1], ms.current[0], ms.current[1]].map(median);
    console.log(
      `| \`${series.replace(/\|/g, '\\|')}\` | ${bs.toFixed(2)} / ${bl.toFixed(2)} | ${cs.toFixed(2)} / ${cl.toFixed(2)} | ${(bs / bl).toFixed(2)}x, ${(cs / cl).toFixed(2)}x | ${(cs / bs).toFixed(2)} |${answers.size > 1 ? ` answers differ: ${[...answers].join(' / ')}` : ''}`,
    );
  }
} finally {
  for (const box of Object.values(boxes)) await box.close();
  for (const shutdown of shutdowns) await shutdown();
}
