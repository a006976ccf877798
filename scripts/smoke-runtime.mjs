// Smoke test of sbirtools on another JS runtime (Bun, Deno): run by scripts/smoke-runtime.sh.
// On these runtimes isolated-vm (a Node addon) cannot load, so 'auto' must pick the QuickJS WASM
// engine, answer a question over award_data in a holder process and in this process, and still
// enforce the deadline. Exits non-zero with a message on any failure.
const { run, shutdown } = await import('../dist/src/index.js');

const runtime = globalThis.Bun
  ? `Bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `Deno ${globalThis.Deno.version.deno}`
    : `Node ${process.version}`;
const QUESTION = "print(award_data.numRows()); value_counts(award_data, 'Agency').head(3)";
let failed = false;
function check(what, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${runtime}: ${what}${detail ? ` (${detail})` : ''}`);
  if (!ok) failed = true;
}

for (const isolation of ['process', 'inline']) {
  const t = performance.now();
  const r = await run(QUESTION, { isolation });
  const ms = Math.round(performance.now() - t);
  check(
    `answers on the ${isolation} backend`,
    r.ok && r.table?.rows.length === 3 && Number(r.stdout.trim()) > 0,
    r.error ? JSON.stringify(r.error) : `${r.stdout.trim()} rows, ${ms} ms`,
  );
  check(`'auto' picked the WASM engine (${isolation})`, r.engine?.name === 'quickjs', JSON.stringify(r.engine));
  if (r.table) console.log(r.table.markdown);
}
const loop = await run('while (true) {}', { timeoutMs: 1000 });
check('a CPU loop ends as TIMEOUT', loop.error?.type === 'TIMEOUT', `${loop.stats.wallMs} ms`);
const mem = await run("const a = []; while (true) a.push('x'.repeat(1000) + a.length)", { memoryLimitMb: 32 });
check('memory growth ends as MEMORY_LIMIT', mem.error?.type === 'MEMORY_LIMIT', mem.error?.type);
const esc = await run(
  "var k = ['constr', 'uctor'].join(''); var G = (() => 0)[k]('return this')(); [typeof G.require, typeof G.process, typeof G.Deno, typeof G.Bun, typeof G.fetch]",
);
check(
  'no host object reaches the guest',
  JSON.stringify(esc.value) === JSON.stringify(['undefined', 'undefined', 'undefined', 'undefined', 'undefined']),
  JSON.stringify(esc.value),
);
await shutdown();
if (failed) {
  console.error(`smoke-runtime: FAILED on ${runtime}`);
  process.exit(1);
}
console.log(`smoke-runtime: ${runtime} answered with the QuickJS WASM engine`);
