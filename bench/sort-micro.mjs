// The sorts and min/max user code writes by hand (prelude/fast/handSort.ts) against the native calls,
// in one warm session per engine: each case runs as written (the rewrite defeated by a comment naming
// its marker) and rewritten, in turn, `--rounds` times; timing is inside the guest (Date.now, each
// measurement repeats the call on a fresh copy for ~40 ms, the copy timed alone and taken off). Prints
// the best ms per call of each and their ratio. Sizes: 100, 1,000, 10,000 and 219,590 elements. Each
// copy has one element moved (a different one each time: the session's kept sorts, fast/sortMemo.ts,
// then never answer a repeat); `--same` sorts identical copies, so from the second call the kept
// answer is read (what a re-run question pays).
//   node --no-node-snapshot bench/sort-micro.mjs [--rounds 5] [--engines isolated-vm,quickjs] [--sizes 100,10000] [--same]
import { dist } from './lib/paths.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const rounds = Number(opt('--rounds', 5));
const engines = opt('--engines', 'isolated-vm,quickjs').split(',');
const sizes = opt('--sizes', '100,1000,10000,219590').split(',').map(Number);
const same = args.includes('--same');
/** Moves one element of the copy `c` (the k-th call's), unless --same. */
const vary = same ? '' : 'c[k % c.length] = c[(k * 7 + 1) % c.length];';

/** [name, setup of `base` (n elements), the call on `c` (a copy of base)] */
const CASES = [
  [
    'numbers a - b',
    'base = Array.from({ length: n }, () => Math.round(Math.random() * 1e6) / 100)',
    'c.sort((x, y) => x - y)',
  ],
  [
    'numbers b - a',
    'base = Array.from({ length: n }, () => Math.floor(Math.random() * 5000))',
    'c.sort((x, y) => y - x)',
  ],
  [
    'entries b[1] - a[1]',
    'base = Array.from({ length: n }, (_, i) => ["k" + i, Math.floor(Math.random() * 1000)])',
    'c.sort((a, b) => b[1] - a[1])',
  ],
  [
    'objects a.amount - b.amount',
    'base = Array.from({ length: n }, (_, i) => ({ id: i, amount: Math.random() * 1e6 }))',
    'c.sort((a, b) => a.amount - b.amount)',
  ],
  ['Math.min(...c)', 'base = Array.from({ length: n }, () => 1980 + Math.floor(Math.random() * 45))', 'Math.min(...c)'],
];

/** A program timing `call` on copies of base for ~40 ms; answers ms per call, the copy's cost taken off. */
const timed = (call) => `{
  let k = 0, t0 = Date.now(), t;
  do { const c = base.slice(); ${vary} ${call}; k++; t = Date.now() } while (t - t0 < 40);
  let j = 0, u0 = Date.now(), u;
  do { const c = base.slice(); ${vary.replaceAll('k', 'j')} j++; u = Date.now() } while (u - u0 < 20);
  Math.max(0, (t - t0) / k - (u - u0) / j)
}`;

const { createSandbox, shutdown } = await import(dist('src/index.js'));
const rows = [];
try {
  for (const engine of engines) {
    const box = await createSandbox({ engine, timeoutMs: 300_000, memoryLimitMb: 2048 });
    try {
      for (const n of sizes)
        for (const [name, setup, call] of CASES) {
          const s = await box.run(`var n = ${n}, base; ${setup}; base.length`);
          if (!s.ok) throw new Error(`${engine} ${name}: ${s.error?.message}`);
          const best = { native: Infinity, fast: Infinity };
          for (let r = 0; r < rounds; r++)
            for (const way of ['native', 'fast']) {
              const code = way === 'native' ? `${timed(call)}\n// __sbirtools_sort` : timed(call);
              const out = await box.run(code);
              // QuickJS refuses a spread of more than 65,534 arguments: no native figure there
              if (!out.ok) best[way] = NaN;
              else best[way] = Math.min(best[way], out.value);
            }
          const row = { engine, n, case: name, nativeMs: +best.native.toFixed(3), fastMs: +best.fast.toFixed(3) };
          row.ratio = +(best.fast / best.native).toFixed(3);
          rows.push(row);
          console.log(JSON.stringify(row));
        }
    } finally {
      await box.close();
    }
  }
} finally {
  await shutdown();
}
console.table(rows);
