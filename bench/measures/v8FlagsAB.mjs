// V8 flag sets side by side (docs/benchmarks.md "V8 tier-up flags (session 9)"): one child process
// per arm, each hosting sessions in-process (`isolation: 'inline'`: the holder's SessionHost, no
// holder) with its flags set by `v8.setFlagsFromString` before any isolate exists. That call is
// the one a holder could use: V8 applies flags set at run time to isolated-vm isolates made later,
// ignores an unknown flag (a line on stderr), and leaves the flag hash that code caches are checked
// against unchanged. Every program runs in each arm in turn, the arms' order alternating, so the
// machine's load hits all alike; answers must agree between arms.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv \
//   BENCH_ARGS='{"mode":"warm","arms":{"off":[],"sp":["--always-sparkplug"]},"reps":7}' \
//     node --no-node-snapshot bench/measures/v8FlagsAB.mjs
// BENCH_ARGS: `arms` (name -> V8 flags; the first is the base of the ratios), `mode`
//   warm:   a session per question and arm, the program run `warmup` + `reps` times
//   first:  a fresh session (new isolate: prelude cold) per sample, `award_data.numRows()` untimed,
//           then the program: what a new session's first question pays in a running process
//   series: the per-method Series table (bench/lib/seriesMethods.mjs), Series and loop forms, warm
//   boot:   a fresh arm process per sample: spawn -> first answer of `numRows()`, then RSS
// `styles`, `only` (question ids or method names), `reps`, `warmup`, `cacheDir`, `unique` (default
// true: each run's source gets a distinct trailing comment, so no run reuses the code an earlier run
// of the same text compiled, as a model's next program would not; false re-runs the same text).
import { fork } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfRun } from '../model-styles.mjs';
import { SERIES_METHODS } from '../lib/seriesMethods.mjs';
import { sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const r3 = (x) => Math.round(x * 1000) / 1000;
const geo = (xs) => (xs.length ? r3(Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)) : null);

/** One arm: a child process answering open/run/close/mem requests over IPC. */
function startArm(name, flags, cacheDir) {
  const t0 = performance.now();
  const child = fork(SELF, ['--arm'], {
    execArgv: ['--no-node-snapshot'],
    env: { ...process.env, ARM_FLAGS: JSON.stringify(flags), ARM_CACHE: cacheDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 1;
  const waiting = new Map();
  child.on('message', (m) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(new Error(`${name}: ${m.error}`));
    else w?.resolve(m.data);
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`arm ${name} exited (${code})`));
  });
  const ask = (req) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ ...req, id });
    });
  return { name, ask, t0, stop: () => child.kill() };
}

/** Inside an arm process. */
async function serveArm() {
  for (const f of JSON.parse(process.env.ARM_FLAGS)) setFlagsFromString(f);
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const boxes = new Map();
  const handle = async (m) => {
    if (m.op === 'open') {
      const box = await createSandbox({
        dataPath: CSV,
        cacheDir: process.env.ARM_CACHE,
        isolation: 'inline',
        timeoutMs: 120_000,
      });
      boxes.set(m.session, box);
      const r = await box.run('award_data.numRows()');
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      return null;
    }
    if (m.op === 'run') {
      const t = performance.now();
      const r = await boxes.get(m.session).run(m.code);
      const wall = performance.now() - t;
      if (!r.ok) throw new Error(`${m.code.slice(0, 80)}: ${JSON.stringify(r.error)}`);
      return { cpu: r.stats.cpuMs, wall, heapMb: r.stats.heapUsedMb, answer: answerOfRun(r) };
    }
    if (m.op === 'close') {
      await boxes.get(m.session)?.close();
      boxes.delete(m.session);
      return null;
    }
    if (m.op === 'mem') return { rss: process.memoryUsage.rss() };
    if (m.op === 'exit') {
      for (const b of boxes.values()) await b.close();
      await shutdown();
      setImmediate(() => process.exit(0));
      return null;
    }
    throw new Error(`unknown op ${m.op}`);
  };
  process.on('message', (m) =>
    handle(m).then(
      (data) => process.send({ id: m.id, data }),
      (e) => process.send({ id: m.id, error: String(e?.stack ?? e) }),
    ),
  );
}

/** Arms in the order of this sample (alternating, so neither is always first). */
const order = (arms, i) => (i % 2 ? [...arms].reverse() : arms);

/** Run `programs` ({ key, code, session? }) in every arm; returns per-key samples per arm. */
async function interleave(arms, programs, { reps, warmup, fresh, unique }) {
  const samples = {};
  let sid = 0;
  let open;
  const closeOpen = async () => {
    if (open) for (const a of arms) await a.ask({ op: 'close', session: open });
    open = undefined;
  };
  for (const [n, p] of programs.entries()) {
    if (!fresh && p.session !== open) {
      await closeOpen();
      for (const a of arms) await a.ask({ op: 'open', session: p.session });
      open = p.session;
    }
    const s = (samples[p.key] = Object.fromEntries(
      arms.map((a) => [a.name, { cpu: [], wall: [], answer: undefined }]),
    ));
    for (let i = -warmup; i < reps; i++) {
      for (const a of order(arms, i + warmup)) {
        let session = p.session;
        if (fresh) {
          session = `f${sid++}`;
          await a.ask({ op: 'open', session });
        }
        // a new source every run, as a model's next program is: V8's eval cache would otherwise hand
        // the same session the code (and the type feedback) its earlier run compiled
        const code = unique ? `${p.code}\n// run ${sid++}` : p.code;
        const r = await a.ask({ op: 'run', session, code });
        if (fresh) await a.ask({ op: 'close', session });
        s[a.name].answer ??= r.answer;
        if (i >= 0) {
          s[a.name].cpu.push(r.cpu);
          s[a.name].wall.push(r.wall);
        }
      }
    }
    log(`${n + 1}/${programs.length} ${p.key}`);
  }
  await closeOpen();
  return samples;
}

/** Ratios of each arm to the first, per group (style or form): geo-means of p50 and min. */
function ratios(arms, samples, groupOf) {
  const [base, ...others] = arms.map((a) => a.name);
  const rows = {};
  const groups = {};
  for (const [key, s] of Object.entries(samples)) {
    const row = (rows[key] = {});
    for (const a of arms.map((x) => x.name)) {
      row[a] = { cpu: summarize(s[a].cpu), wall: summarize(s[a].wall) };
      if (!sameAnswer(s[a].answer, s[base].answer)) row[a].disagree = true;
    }
    for (const o of others) {
      const g = ((groups[groupOf(key)] ??= {})[o] ??= { cpu: [], cpuMin: [], wall: [] });
      g.cpu.push(row[o].cpu.p50 / Math.max(row[base].cpu.p50, 1e-3));
      g.cpuMin.push(row[o].cpu.min / Math.max(row[base].cpu.min, 1e-3));
      g.wall.push(row[o].wall.p50 / Math.max(row[base].wall.p50, 1e-3));
    }
    log(
      `${key}: ${arms.map((a) => `${a.name} cpu ${row[a.name].cpu.p50} (min ${row[a.name].cpu.min}) wall ${row[a.name].wall.p50}${row[a.name].disagree ? ' DISAGREE' : ''}`).join(' | ')}`,
    );
  }
  const summary = {};
  for (const [g, byArm] of Object.entries(groups))
    for (const [o, r] of Object.entries(byArm)) {
      summary[`${g} ${o}/${base}`] = {
        cpuP50: geo(r.cpu),
        cpuMin: geo(r.cpuMin),
        wallP50: geo(r.wall),
        n: r.cpu.length,
      };
      log(
        `${g}: ${o}/${base} geo-mean isolate CPU p50 ${geo(r.cpu)}x, min ${geo(r.cpuMin)}x; wall p50 ${geo(r.wall)}x (${r.cpu.length})`,
      );
    }
  return { rows, summary };
}

/** @param {{ arms: Record<string, string[]>, mode?: string, reps?: number, warmup?: number, styles?: string[], only?: string[], cacheDir?: string, unique?: boolean }} args */
export async function measureV8FlagsAB(args) {
  const { mode = 'warm', reps = 5, cacheDir = CACHE_DIR, only } = args;
  const warmup = args.warmup ?? (mode === 'first' ? 0 : 2);
  const styles = args.styles ?? STYLES;
  const armSpecs = Object.entries(args.arms ?? { off: [], on: ['--always-sparkplug'] });
  if (mode === 'boot') {
    const boot = Object.fromEntries(armSpecs.map(([n]) => [n, { ms: [], rss: [] }]));
    for (let i = 0; i < reps; i++)
      for (const [name, flags] of order(armSpecs, i)) {
        const a = startArm(name, flags, cacheDir);
        await a.ask({ op: 'open', session: 'b' });
        boot[name].ms.push(performance.now() - a.t0);
        boot[name].rss.push((await a.ask({ op: 'mem' })).rss / 1048576);
        await a.ask({ op: 'exit' });
      }
    const out = Object.fromEntries(
      Object.entries(boot).map(([n, b]) => [n, { ms: summarize(b.ms), rssMb: summarize(b.rss) }]),
    );
    for (const [n, b] of Object.entries(out))
      log(`boot ${n}: p50 ${b.ms.p50} ms (min ${b.ms.min}), RSS p50 ${b.rssMb.p50} MB`);
    return { mode, boot: out };
  }
  const arms = armSpecs.map(([name, flags]) => startArm(name, flags, cacheDir));
  try {
    let programs;
    let groupOf;
    if (mode === 'series') {
      const methods = only ? SERIES_METHODS.filter((m) => only.includes(m.name)) : SERIES_METHODS;
      programs = methods.flatMap((m) => [
        { key: `series ${m.name}`, code: m.series, session: 'series' },
        { key: `loop ${m.name}`, code: m.loop, session: 'series' },
      ]);
      groupOf = (k) => k.split(' ')[0];
    } else {
      const qs = only ? MODEL_STYLE_QUESTIONS.filter((q) => only.includes(q.id)) : MODEL_STYLE_QUESTIONS;
      programs = qs.flatMap((q) => styles.map((s) => ({ key: `${s} ${q.id}`, code: q[s], session: q.id })));
      groupOf = (k) => k.split(' ')[0];
    }
    const samples = await interleave(arms, programs, {
      reps,
      warmup,
      fresh: mode === 'first',
      unique: args.unique ?? true,
    });
    const result = ratios(arms, samples, groupOf);
    const mem = {};
    for (const a of arms) mem[a.name] = Math.round((await a.ask({ op: 'mem' })).rss / 1048576);
    log(`RSS after the pass (MB): ${JSON.stringify(mem)}`);
    return { mode, reps, warmup, arms: args.arms, rssMb: mem, ...result };
  } finally {
    for (const a of arms) await a.ask({ op: 'exit' }).catch(() => a.stop());
  }
}

if (process.argv.includes('--arm')) await serveArm();
else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  emit(await measureV8FlagsAB(measureArgs()));
