// A session's first look at the data (issue 25, items 1-2): programs that read a few rows of many
// columns (a printed head, objects() of a sliced table, the largest award), each as the first run
// of a fresh session in a fresh process (`award_data.numRows()` first, untimed). With
// `--base-dist <other dist>` the same programs run on that build too, alternating build by build,
// and the ratio is printed (a before/after in one run, so the machine's load hits both alike).
//   node --no-node-snapshot bench/first-look.mjs [--base-dist <dist>] [--data FILE] [--rounds 3]
import { jsonChild } from './lib/jsonChild.mjs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CSV, DIST } from './lib/paths.mjs';

const PROGRAMS = {
  head: 'print(head(award_data))',
  objectsLimit: 'award_data.objects({ limit: 5 }).length',
  largestVerbs:
    "const top = award_data.orderby(aq.desc('Award Amount')).slice(0, 1).objects()[0];\n[top.Company, top['Award Amount']]",
  largestSeries:
    "const i = award_data['Award Amount'].idxmax();\n[award_data.get('Company', i), award_data.get('Award Amount', i)]",
  oneRow: 'award_data.slice(100, 101).objects()[0].Company',
};

if (process.env.SBIRTOOLS_FIRST_LOOK_CHILD) {
  const { dist, data, code } = JSON.parse(process.env.SBIRTOOLS_FIRST_LOOK_CHILD);
  const { createSandbox, shutdown } = await import(pathToFileURL(join(dist, 'src/index.js')).href);
  const box = await createSandbox({ dataPath: data });
  try {
    const open = await box.run('award_data.numRows()');
    if (!open.ok) throw new Error(JSON.stringify(open.error));
    const t = performance.now();
    const r = await box.run(code);
    const ms = performance.now() - t;
    const answer = JSON.stringify(r.ok ? (r.value ?? r.stdout) : r.error?.type).slice(0, 200);
    process.stdout.write(`${JSON.stringify({ ms, cpuMs: r.stats?.cpuMs ?? null, answer })}\n`);
  } finally {
    await box.close();
    await shutdown();
  }
} else {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i < 0 ? dflt : args[i + 1];
  };
  const base = opt('--base-dist', null);
  const data = opt('--data', CSV);
  const rounds = Number(opt('--rounds', 3));
  const builds = base ? { base, current: DIST } : { current: DIST };
  const once = (dist, code) =>
    jsonChild(fileURLToPath(import.meta.url), {
      SBIRTOOLS_FIRST_LOOK_CHILD: JSON.stringify({ dist, data, code }),
    });
  const results = {};
  for (let r = 0; r < rounds; r++)
    for (const [id, code] of Object.entries(PROGRAMS)) {
      const order = Object.entries(builds);
      if (r % 2) order.reverse();
      for (const [b, dist] of order) ((results[id] ??= {})[b] ??= []).push(await once(dist, code));
    }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [id, by] of Object.entries(results)) {
    const cells = Object.entries(by).map(
      ([b, xs]) =>
        `${b} ${median(xs.map((x) => x.ms)).toFixed(1)} ms (isolate CPU ${median(xs.map((x) => x.cpuMs ?? 0)).toFixed(1)})`,
    );
    const ratio = base
      ? ` | current / base ${(median(by.current.map((x) => x.ms)) / median(by.base.map((x) => x.ms))).toFixed(2)}x`
      : '';
    const agree = base ? ` | answers agree: ${by.base.every((x, i) => x.answer === by.current[i].answer)}` : '';
    console.log(`${id}: ${cells.join(' | ')}${ratio}${agree}`);
  }
}
