// The first call an agent makes through a session store (the MCP server's and the tool adapters'
// src/adapters/sessionStore.ts), with and without the store's `standby` sandbox (on for
// `sbirtools mcp`). Each sample is a fresh Node process: the store is created (the server starts),
// `thinkMs` pass (the client connects, the model thinks), then the first call runs a question of
// bench/model-styles.mjs, timed from the call to its answer: without a standby that includes
// opening the session (holder, data, isolate); with one, the sandbox is open and was warmed in the
// idle time. The arms alternate per question; answers must agree between them.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"samples":1,"thinkMs":1500}' \
//     node --no-node-snapshot bench/measures/firstCall.mjs
// BENCH_ARGS also takes `only` (question ids), `styles`, `session` (false: one-shot calls, no session id).
import { jsonChild } from '../lib/jsonChild.mjs';
import { fileURLToPath } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfRun } from '../model-styles.mjs';
import { sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';

const DEFAULT_ONLY = ['totalAmount', 'agencyCountsTop5', 'meanByPhase', 'over1M', 'yearRange', 'phase2StatesTop5'];
const r1 = (x) => Math.round(x * 10) / 10;
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** Child mode: a store, the think time, one call. Prints { ms, ok, answer }. */
async function child({ code, cacheDir, thinkMs, standby, session }) {
  const { createSessionStore, shutdown } = await import(dist('src/index.js'));
  const store = createSessionStore({ sandbox: { dataPath: CSV, cacheDir }, standby });
  try {
    await new Promise((r) => setTimeout(r, thinkMs));
    const t = performance.now();
    const r = await store.run(code, session ? { sessionId: 'agent' } : {});
    const ms = performance.now() - t;
    process.stdout.write(`${JSON.stringify({ ms, ok: r.ok, answer: answerOfRun(r) })}\n`);
  } finally {
    await store.close();
    await shutdown();
  }
}

export async function measureFirstCall(args = {}) {
  const { samples = 1, thinkMs = 1500, only = DEFAULT_ONLY, styles = STYLES, session = true } = args;
  const rows = [];
  for (const q of MODEL_STYLE_QUESTIONS.filter((x) => only.includes(x.id))) {
    for (const style of styles) {
      const ms = { off: [], on: [] };
      const answers = [];
      for (let i = 0; i < samples; i++) {
        for (const arm of i % 2 ? ['on', 'off'] : ['off', 'on']) {
          const r = await jsonChild(fileURLToPath(import.meta.url), {
            BENCH_FIRST_CALL_CHILD: JSON.stringify({
              code: q[style],
              cacheDir: CACHE_DIR,
              thinkMs,
              standby: arm === 'on',
              session,
            }),
          });
          if (!r.ok) throw new Error(`${q.id} ${style} (${arm}) failed: ${JSON.stringify(r.answer)}`);
          ms[arm].push(r.ms);
          answers.push(r.answer);
        }
      }
      const agree = answers.every((a) => sameAnswer(a, answers[0]));
      const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const row = { id: q.id, style, off: r1(p50(ms.off)), on: r1(p50(ms.on)), agree };
      log(
        `  firstCall ${q.id} ${style}: without standby ${row.off} ms, with ${row.on} ms (${(row.on / row.off).toFixed(2)}x)${agree ? '' : ' ANSWERS DIFFER'}`,
      );
      rows.push(row);
    }
  }
  const ratio = geo(rows.map((r) => r.on / r.off));
  log(
    `  firstCall: geo-mean with / without standby ${ratio.toFixed(3)} over ${rows.length} calls; answers agree: ${rows.every((r) => r.agree)}`,
  );
  return { thinkMs, samples, session, rows, geoMeanOnOverOff: Math.round(ratio * 1000) / 1000 };
}

if (process.env.BENCH_FIRST_CALL_CHILD) await child(JSON.parse(process.env.BENCH_FIRST_CALL_CHILD));
else emit(await measureFirstCall(measureArgs()));
