#!/usr/bin/env node
// Figures under faults (issues 26 and 28) for `sbirtools serve`: three replicas sharing one
// redis-server (password, append-only file), several API keys, one of them flooding, slow clients
// that never read their answers, one replica SIGKILLed and restarted, and Redis restarted. Clients
// retry what the docs call retryable (429/503 with Retry-After, 502, a dropped connection) with the
// same Idempotency-Key, on the next replica. Prints answers/s, p50/p99 per key (unloaded, then
// while one key floods), the error classes seen, and checks that no session cell was lost or run twice.
//   node bench/serve-faults.mjs [--seconds 240] [--clients 64] [--think-ms 500] [--over-share-nice N]
// Writes bench/results/serve-faults.json. Needs the build and redis-server (scripts/install-redis.sh).
//
// --fairness-only (e.g. `--fairness-only --seconds 90`): the fairness figure alone, quick enough to
// run on a quiet machine: windows of --window-seconds (10) alternate between calm keys alone and
// one key flooding (alternating, so a machine whose other load drifts weighs on both phases alike;
// the first 3 s of each window, and requests that straddle two windows, are left out); no slow
// readers, no replica killed, no Redis restart. Prints each calm key's p50/p99 unloaded and
// while flooding and their ratio, the bare CPU yardstick (a plain `node` busy loop, spawned every
// few seconds, at normal priority) and the load average of each phase. Writes
// bench/results/serve-fairness.json. `--over-share-nice 0` runs the same with the low-priority
// lane off (docs/deploy.md "Fairness"), for the comparison; --flood-honors-retry-after makes the
// flood's clients wait out each Retry-After, so what refusing ~100 requests/s costs is left out.
//
// The flood's clients run in a process of their own (bench/lib/floodWorker.mjs): the stand-in for
// a flood sent from other machines, so that the calm clients' event loop (this process) does not
// wait behind the flood's requests, which would count the bench's own work against the calm keys.
// It runs at normal priority: --flood-nice N lowers it (on a busy box that also slows the flood,
// which would flatter the server; the flood's requests per second are printed so it shows).
// --flood-in-process puts the flood back in this process, as the bench did before (to compare).
// --max-refusal-hold-ms N is passed to the replicas (0: refusals of callers back before their
// Retry-After are sent at once).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { coresBetween, cpuSnapshot } from './lib/cpuByRole.mjs';
import { freePort } from './lib/freePort.mjs';
import { ROOT } from './lib/paths.mjs';
import { quantile, sleep } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '150' },
    clients: { type: 'string', default: '64' },
    'think-ms': { type: 'string', default: '500' },
    'fairness-only': { type: 'boolean', default: false },
    'over-share-nice': { type: 'string' },
    'max-refusal-hold-ms': { type: 'string' },
    'flood-honors-retry-after': { type: 'boolean', default: false },
    'window-seconds': { type: 'string', default: '10' },
    'flood-nice': { type: 'string', default: '0' },
    'flood-in-process': { type: 'boolean', default: false },
  },
});
const FAIRNESS_ONLY = values['fairness-only'];
// the flood's loop; the yardstick runs the same loop in a bare node process
const FLOOD_LOOP = 'let s = 0; for (let k = 0; k < 5e7; k++) s += k & 1; s';
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
// calm clients pause between requests, as an agent does while it reads an answer: their load is
// "usual", so a flood shows as what it takes from them, not as a queue they built themselves
const THINK_MS = Number(values['think-ms']);
const CALM_KEYS = ['soak-calm-a-0123456789', 'soak-calm-b-0123456789', 'soak-calm-c-0123456789'];
const FLOOD_KEY = 'soak-flood-key-0123456789';
const SLOW_KEY = 'soak-slow-reader-key-0123456789';
const PASSWORD = 'soak-redis-password-42';
const CLI = join(ROOT, 'bin', 'sbirtools.js');

const redisBin = execFileSync('sh', [join(ROOT, 'scripts', 'install-redis.sh')], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .pop();
const redisPort = await freePort();
const redisDir = mkdtempSync(join(tmpdir(), 'sbirtools-soak-redis-'));
let redis;
async function startRedis() {
  redis = spawn(
    redisBin,
    [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      redisDir,
      '--requirepass',
      PASSWORD,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let log = '';
  redis.stdout.on('data', (d) => (log += d));
  while (!/Ready to accept connections/.test(log)) await sleep(50);
}
await startRedis();
const redisUrl = `redis://:${PASSWORD}@127.0.0.1:${redisPort}`;

const cacheDir = mkdtempSync(join(tmpdir(), 'sbirtools-soak-cache-'));
const ports = [await freePort(), await freePort(), await freePort()];
const replicas = [];
async function startReplica(i) {
  const proc = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--port',
      String(ports[i]),
      '--quiet',
      '--pool-size',
      '1',
      '--redis',
      redisUrl,
      '--write-timeout-ms',
      '3000',
      '--runs-per-minute',
      '100000',
      '--max-concurrent-per-key',
      '8',
      ...(values['max-refusal-hold-ms'] !== undefined ? ['--max-refusal-hold-ms', values['max-refusal-hold-ms']] : []),
      ...(values['over-share-nice'] !== undefined ? ['--over-share-nice', values['over-share-nice']] : []),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SBIRTOOLS_CACHE_DIR: cacheDir,
        SBIRTOOLS_API_KEYS: [...CALM_KEYS, FLOOD_KEY, SLOW_KEY].join(','),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  while (!/listening on/.test(err)) {
    if (proc.exitCode !== null) throw new Error(`replica ${i} exited: ${err}`);
    await sleep(50);
  }
  replicas[i] = proc;
}
for (let i = 0; i < 3; i++) await startReplica(i);

const classes = new Map();
const seen = (k) => classes.set(k, (classes.get(k) ?? 0) + 1);
const latencies = new Map(); // `${phase} ${key}` -> ms[]
let phase = 'unloaded';
/** The flood's worker process (unless --flood-in-process), and the time spent in flood phases. */
let floodWorker;
let floodMs = 0;
let floodSince;
let floodRequests = 0;
// CPU by role, per phase: a snapshot at every phase change, the ticks between two charged to the
// phase that ended (fairness-only; the settling seconds are included)
const cpuRoots = () => ({
  'bench (calm clients)': [process.pid],
  'flood generator': floodWorker ? [floodWorker.pid] : [],
  redis: [redis.pid],
  replicas: replicas.map((r) => r.pid),
});
const cpuTicks = new Map(); // phase -> { role: ticks }
const phaseSeconds = new Map();
let cpuAt = { snap: undefined, t: 0 };
function chargeCpu(endingPhase) {
  const snap = cpuSnapshot(cpuRoots(), ['bench (calm clients)']);
  const t = performance.now();
  if (cpuAt.snap) {
    const acc = cpuTicks.get(endingPhase) ?? {};
    for (const [role, v] of Object.entries(coresBetween(cpuAt.snap, snap, 1))) acc[role] = (acc[role] ?? 0) + v * 100;
    cpuTicks.set(endingPhase, acc);
    phaseSeconds.set(endingPhase, (phaseSeconds.get(endingPhase) ?? 0) + (t - cpuAt.t) / 1000);
  }
  cpuAt = { snap, t };
}
function setPhase(p) {
  chargeCpu(phase);
  if (phase === 'unloaded' && p !== 'unloaded') floodSince = performance.now();
  if (phase !== 'unloaded' && p === 'unloaded') floodMs += performance.now() - floodSince;
  phase = p;
  floodWorker?.send({ phase: p === 'unloaded' ? 'unloaded' : 'flood' });
}
// fairness-only: which window we are in, and when it began (requests are labelled by it)
let windowSeq = 0;
let windowAt = performance.now();
const SETTLE_MS = 3000;
const label = () => (FAIRNESS_ONLY && performance.now() - windowAt < SETTLE_MS ? 'settling' : phase);
/** The flood's requests in flight, aborted when a calm window starts (a hang-up cancels the run). */
let floodAbort = new AbortController();
let answers = 0;
let stopping = false;
let rr = 0;

/** One request, retried as a client should (same Idempotency-Key, next replica) until it has an answer. */
async function call(key, path, body, idem) {
  const started = performance.now();
  const startLabel = label();
  const startSeq = windowSeq;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = ports[rr++ % 3];
    if (key === FLOOD_KEY) floodRequests++;
    let res;
    try {
      res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...(idem ? { 'idempotency-key': idem } : {}),
        },
        body: JSON.stringify(body),
        ...(key === FLOOD_KEY ? { signal: floodAbort.signal } : {}),
      });
    } catch {
      if (key === FLOOD_KEY && floodAbort.signal.aborted) return undefined;
      seen(`${key === FLOOD_KEY ? 'flood' : 'calm'}: connection refused/reset (replica down), retried`);
      await sleep(100);
      continue;
    }
    let text;
    try {
      text = await res.text();
    } catch (err) {
      if (key === FLOOD_KEY && floodAbort.signal.aborted) return undefined;
      throw err;
    }
    if (res.status === 200 || res.status === 201) {
      answers++;
      const k = `${FAIRNESS_ONLY ? (windowSeq === startSeq ? startLabel : 'straddling') : phase} ${key}`;
      if (!latencies.has(k)) latencies.set(k, []);
      latencies.get(k).push(performance.now() - started);
      return JSON.parse(text);
    }
    let type = '';
    try {
      type = JSON.parse(text).error?.type ?? '';
    } catch {
      // not JSON (a proxy's or a dropped connection's body): counted by status alone
    }
    seen(`${key === FLOOD_KEY ? 'flood' : 'calm'}: ${res.status} ${type}`);
    if (res.status === 429 || res.status === 503 || res.status === 502) {
      // the flood does not wait its turn (unless told to: then what refusing it costs is left out)
      if (key === FLOOD_KEY && values['flood-honors-retry-after'])
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
      if (key === FLOOD_KEY) return undefined;
      await sleep(Math.min(2000, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    throw new Error(`unexpected ${res.status}: ${text.slice(0, 300)}`);
  }
  throw new Error('gave up after 200 attempts');
}

/** A conversation of dependent cells: the expected state is known, so a lost or doubled cell shows. */
const conversations = [];
const mismatchSamples = [];
async function conversation(key, id) {
  const created = await call(key, '/v1/sessions', {}, `create-${id}`);
  const sid = created.session_id;
  let acc = 7;
  const conv = { key, sid, cells: 0, mismatches: 0 };
  conversations.push(conv);
  await call(key, '/v1/run', { code: 'var acc = 7; var log = []; acc', session_id: sid }, `${id}-0`);
  for (let i = 1; !stopping; i++) {
    const r = await call(
      key,
      '/v1/run',
      { code: `acc = (acc * 31 + ${i}) % 1000003; log.push(${i}); [acc, log.length]`, session_id: sid },
      `${id}-${i}`,
    );
    acc = (acc * 31 + i) % 1000003;
    await sleep(THINK_MS);
    if (!r.ok || r.value[0] !== acc || r.value[1] !== i) {
      conv.mismatches++;
      if (mismatchSamples.length < 5)
        mismatchSamples.push({
          cell: i,
          expected: [acc, i],
          got: r.value,
          error: r.error,
          sessionReset: r.sessionReset,
          stderr: r.stderr?.slice(0, 300),
        });
    }
    conv.cells = i;
  }
  const final = await call(key, '/v1/run', { code: 'log.join(",")', session_id: sid }, `${id}-final`);
  conv.final = final.value === Array.from({ length: conv.cells }, (_, k) => k + 1).join(',');
}

async function oneOffs(key) {
  for (let i = 0; !stopping; i++) {
    await call(key, '/v1/run', { code: `award_data.filter((d) => d['Award Amount'] > ${i % 7} * 100000).numRows()` });
    await sleep(THINK_MS);
  }
}

async function flood() {
  while (!stopping) {
    if (phase === 'unloaded') {
      await sleep(200);
      continue;
    }
    const r = await call(FLOOD_KEY, '/v1/run', { code: FLOOD_LOOP });
    if (r) seen(`flood: 200 ${r.ok ? 'ok' : r.error?.type}`);
    await sleep(20);
  }
}

/** A client that asks for a large answer and never reads it: the replica drops it after the write timeout. */
async function slowReader() {
  while (!stopping) {
    if (phase === 'unloaded') {
      await sleep(200);
      continue;
    }
    const body = JSON.stringify({ code: `print('y'.repeat(200000)); 'x'.repeat(3000000)` });
    const socket = connect(ports[rr++ % 3], '127.0.0.1');
    socket.on('error', () => undefined);
    socket.pause();
    socket.write(
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${SLOW_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await new Promise((r) => {
      socket.once('close', r);
      setTimeout(() => (socket.destroy(), r()), 20_000);
    });
    seen('slow reader dropped (connection closed by the replica)');
  }
}

const t0 = performance.now();
chargeCpu(phase);
const workers = [];
// six clients per calm key (under its concurrency limit of 8), the rest flood
const calmClients = 18;
const floodClients = Math.max(1, CLIENTS - calmClients - 4);
for (let c = 0; c < calmClients; c++) {
  const key = CALM_KEYS[c % CALM_KEYS.length];
  workers.push(c % 2 === 0 ? conversation(key, `c${c}`) : oneOffs(key));
}
if (values['flood-in-process']) for (let c = 0; c < floodClients; c++) workers.push(flood());
else {
  floodWorker = spawn(
    process.execPath,
    [
      join(ROOT, 'bench', 'lib', 'floodWorker.mjs'),
      ports.join(','),
      String(floodClients),
      FLOOD_KEY,
      FLOOD_LOOP,
      values['flood-honors-retry-after'] ? '1' : '0',
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  setPriority(floodWorker.pid, Number(values['flood-nice']));
}
const slowReaders = FAIRNESS_ONLY ? 0 : 4;
for (let c = 0; c < slowReaders; c++) workers.push(slowReader());
const timeline = [];
const at = (s) => sleep(Math.max(0, t0 + s * 1000 - performance.now()));

// the bare CPU yardstick and the load, sampled through every phase: what a plain CPU-bound process
// at normal priority gets from this machine at that moment (a flood at normal priority slows it too)
const yardstick = new Map(); // phase -> ms[]
const load = new Map(); // phase -> 1-minute load averages
const push = (m, k, v) => (m.has(k) ? m.get(k) : m.set(k, []).get(k)).push(v);
const sampler = (async () => {
  while (!stopping) {
    const p = label();
    const seq = windowSeq;
    push(load, p, loadavg()[0]);
    const out = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['-e', `const t = performance.now(); ${FLOOD_LOOP}; console.log(performance.now() - t)`],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.once('exit', () => resolve(Number(text)));
    });
    if (windowSeq === seq && Number.isFinite(out)) push(yardstick, p, out);
    await sleep(3000);
  }
})();
if (FAIRNESS_ONLY)
  (async () => {
    const windowS = Number(values['window-seconds']);
    for (let w = 1; w * windowS < SECONDS; w++) {
      await at(w * windowS);
      setPhase(phase === 'unloaded' ? 'flood' : 'unloaded');
      if (phase === 'unloaded') {
        floodAbort.abort();
        floodAbort = new AbortController();
      }
      windowSeq++;
      windowAt = performance.now();
    }
    timeline.push(`windows of ${windowS} s alternating unloaded / flood, from unloaded`);
    await at(SECONDS);
    setPhase('unloaded');
    stopping = true;
  })();
else
  (async () => {
    // phases: unloaded (calm keys alone), flood (one key floods, slow readers connect), faults (and a replica and Redis go down)
    await at(SECONDS * 0.25);
    setPhase('flood');
    timeline.push(`${Math.round((performance.now() - t0) / 1000)}s: flood and slow readers start`);
    await at(SECONDS * 0.45);
    setPhase('faults');
    replicas[2].kill('SIGKILL');
    timeline.push(`${Math.round((performance.now() - t0) / 1000)}s: replica 3 SIGKILLed`);
    await at(SECONDS * 0.55);
    await startReplica(2);
    timeline.push(`${Math.round((performance.now() - t0) / 1000)}s: replica 3 restarted (listening)`);
    await at(SECONDS * 0.75);
    redis.kill('SIGTERM');
    await new Promise((r) => redis.once('exit', r));
    timeline.push(`${Math.round((performance.now() - t0) / 1000)}s: Redis stopped`);
    await sleep(3000);
    await startRedis();
    timeline.push(`${Math.round((performance.now() - t0) / 1000)}s: Redis restarted (append-only file)`);
    await at(SECONDS);
    setPhase('unloaded');
    stopping = true;
  })();
await Promise.all([...workers, sampler]);
const elapsed = (performance.now() - t0) / 1000;
const coresByPhase = Object.fromEntries(
  [...cpuTicks].map(([p, ticks]) => [
    p,
    Object.fromEntries(
      Object.entries(ticks)
        .sort((a, b) => b[1] - a[1])
        .map(([role, t]) => [role, Math.round((t / 100 / phaseSeconds.get(p)) * 100) / 100]),
    ),
  ]),
);
if (floodWorker) {
  const done = new Promise((resolve) => floodWorker.once('message', resolve));
  floodWorker.send({ stop: true });
  const counts = await done;
  for (const [k, n] of Object.entries(counts.classes)) classes.set(k, (classes.get(k) ?? 0) + n);
  floodRequests += counts.requests;
  answers += counts.answers;
}

const perKey = {};
for (const [k, ms] of [...latencies].sort())
  perKey[k] = { n: ms.length, p50: Math.round(quantile(ms, 0.5)), p99: Math.round(quantile(ms, 0.99)) };
// the fairness figure: each calm key's p99 while one key floods, over its unloaded p99
const floodOverUnloaded = Object.fromEntries(
  CALM_KEYS.map((k) => [
    k,
    perKey[`flood ${k}`] && perKey[`unloaded ${k}`]
      ? Math.round((perKey[`flood ${k}`].p99 / perKey[`unloaded ${k}`].p99) * 100) / 100
      : null,
  ]),
);
const median = (xs) => (xs?.length ? Math.round(quantile(xs, 0.5)) : null);
const phases = [...new Set([...latencies.keys()].map((k) => k.split(' ')[0]))];
const machine = {
  overShareNice: values['over-share-nice'] === undefined ? 'default (10)' : Number(values['over-share-nice']),
  floodHonorsRetryAfter: values['flood-honors-retry-after'],
  floodClients: values['flood-in-process']
    ? 'in this process, normal priority'
    : `own process, nice ${values['flood-nice']}`,
  maxRefusalHoldMs:
    values['max-refusal-hold-ms'] === undefined ? 'default (5000)' : Number(values['max-refusal-hold-ms']),
  floodRequestsPerSecond: floodMs > 0 ? Math.round(floodRequests / (floodMs / 1000)) : null,
  bareLoopMs: Object.fromEntries(
    phases.map((p) => [p, { median: median(yardstick.get(p)), n: yardstick.get(p)?.length ?? 0 }]),
  ),
  /** Cores each role used, on average over each phase (Linux /proc; holders are the replicas' children, by nice). */
  coresByPhase,
  loadAverage1m: Object.fromEntries(
    phases.map((p) => {
      const l = load.get(p) ?? [];
      return [p, l.length ? { min: Math.min(...l), max: Math.max(...l) } : null];
    }),
  ),
};
const result = {
  mode: FAIRNESS_ONLY ? 'fairness-only' : 'faults',
  seconds: Math.round(elapsed),
  machine,
  clients: { calm: calmClients, flood: floodClients, slowReaders, calmThinkMs: THINK_MS },
  answersPerSecond: Math.round((answers / elapsed) * 10) / 10,
  latencyMs: perKey,
  p99FloodOverUnloaded: floodOverUnloaded,
  errorClasses: Object.fromEntries([...classes].sort()),
  conversations: {
    count: conversations.length,
    cells: conversations.reduce((n, c) => n + c.cells, 0),
    mismatches: conversations.reduce((n, c) => n + c.mismatches, 0),
    allFinalLogsExact: conversations.every((c) => c.final),
    mismatchSamples,
  },
  timeline,
};
console.log(JSON.stringify(result, null, 2));
if (FAIRNESS_ONLY) {
  console.log('\n| calm key | unloaded p50 / p99 | one key floods p50 / p99 | ratio p50 / p99 |\n|---|---|---|---|');
  for (const k of CALM_KEYS) {
    const u = perKey[`unloaded ${k}`];
    const f = perKey[`flood ${k}`];
    if (!u || !f) continue;
    const r = (a, b) => (Math.round((a / b) * 100) / 100).toFixed(2);
    console.log(
      `| ${k} | ${u.p50} / ${u.p99} ms (${u.n}) | ${f.p50} / ${f.p99} ms (${f.n}) | ${r(f.p50, u.p50)}x / ${r(f.p99, u.p99)}x |`,
    );
  }
  const y = machine.bareLoopMs;
  console.log(`cores used by role: ${JSON.stringify(coresByPhase)}`);
  console.log(
    `bare CPU yardstick (a node busy loop, median): unloaded ${y.unloaded?.median} ms, flood ${y.flood?.median} ms; load average ${JSON.stringify(machine.loadAverage1m)}; flood ${machine.floodRequestsPerSecond} requests/s (${machine.floodClients})`,
  );
}
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', FAIRNESS_ONLY ? 'serve-fairness.json' : 'serve-faults.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
for (const r of replicas) r.kill('SIGTERM');
redis.kill('SIGTERM');
await sleep(1000);
rmSync(redisDir, { recursive: true, force: true });
rmSync(cacheDir, { recursive: true, force: true });
process.exit(0);
