#!/usr/bin/env node
// Where a warm run's isolate time goes, from Linux perf (isolated-vm's own CPU profiler slows every
// run more the longer it records, so it cannot watch warm runs): reads `perf script -F tid,ip,sym`
// on stdin, keeps the samples whose stack holds the isolate's run (isolated-vm's ApplyRunner or a
// prelude frame) and prints the top frames by self and by inclusive share.
// Usage (inline isolation, so the isolate runs in this process; --perf-basic-prof names JIT frames,
// and with the prelude built with `minifyIdentifiers: false` its functions by their source names):
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv perf record -F 15000 -g -o /tmp/perf.data \
//     node --perf-basic-prof --no-node-snapshot bench/perf-isolate.mjs --run totalAmount verbs 300
//   perf script -i /tmp/perf.data -F tid,ip,sym | node bench/perf-isolate.mjs [top-self] [top-inclusive]
import { createInterface } from 'node:readline';
import { MODEL_STYLE_QUESTIONS } from './model-styles.mjs';
import { CACHE_DIR, CSV, dist } from './lib/paths.mjs';

if (process.argv[2] === '--run') {
  // the program to record: one warm session, the question's style run `runs` times
  const [, , , id, style, runs = '200'] = process.argv;
  const code = MODEL_STYLE_QUESTIONS.find((q) => q.id === id)?.[style];
  if (!code) throw new Error('name a question id and style of bench/model-styles.mjs');
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, isolation: 'inline' });
  await box.run('award_data.numRows()');
  const cpu = [];
  for (let i = 0; i < Number(runs); i++) cpu.push((await box.run(code)).stats?.cpuMs ?? NaN);
  cpu.sort((a, b) => a - b);
  console.log(`${id} ${style}: ${runs} runs, isolate CPU p50 ${cpu[cpu.length >> 1].toFixed(2)} ms`);
  await box.close();
  await shutdown();
} else {
  const [nSelf = 30, nIncl = 60] = process.argv.slice(2).map(Number);
  const self = new Map();
  const incl = new Map();
  let total = 0;
  let frames = [];
  const flush = () => {
    if (frames.some((f) => f.includes('ApplyRunner::Phase2') || f.includes('sbirtools-prelude'))) {
      total++;
      self.set(frames[0], (self.get(frames[0]) ?? 0) + 1);
      for (const f of new Set(frames)) incl.set(f, (incl.get(f) ?? 0) + 1);
    }
    frames = [];
  };
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim() || /^\s*\d+\s*$/.test(line)) flush();
    else {
      const m = line.trim().match(/^[0-9a-f]+ (.*)$/);
      if (m) frames.push(m[1].replace(/\(.*\)$/, '').slice(0, 110));
    }
  }
  flush();
  const share = (c) => `${((100 * c) / total).toFixed(1).padStart(5)}%`;
  const plumbing =
    /ivm::|Execution::|JSEntry|Invoke|Function::Call|^\[unknown\]|start_thread|clone3|thread_pool|std::thread/;
  console.log(`isolate samples: ${total}`);
  console.log('--- self');
  for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, nSelf)) console.log(share(c), k);
  console.log('--- inclusive');
  for (const [k, c] of [...incl]
    .sort((a, b) => b[1] - a[1])
    .filter(([k]) => !plumbing.test(k))
    .slice(0, nIncl))
    console.log(share(c), k);
}
