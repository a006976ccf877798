// Load figures of `sbirtools serve` (issue 13): N concurrent clients x M runs against 1, 2 and 3
// replicas sharing one redis-server, behind a round-robin proxy without affinity, with autocannon;
// p50/p99 latency, runs/s, error rate, peak RSS per replica (the serve process + its holders);
// then the cost of a session migration (replaying k cells on a replica that does not hold it).
//   node bench/serve-load.mjs [--connections 8] [--runs 200] [--replicas 1,2,3] [--cells 0,10,50,100,200]
// Prints JSON (and writes bench/results/serve-load.json). Not a test: timings on a shared box are noisy.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from './lib/freePort.mjs';
import { ROOT } from './lib/paths.mjs';
import { childPids, memOf } from './lib/procMem.mjs';
import { sleep } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '8' },
    runs: { type: 'string', default: '200' },
    replicas: { type: 'string', default: '1,2,3' },
    cells: { type: 'string', default: '0,10,50,100,200' },
  },
});
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const KEY = 'bench-key-0123456789abcdef';
const CLI = join(ROOT, 'bin', 'sbirtools.js');
const cacheDir = mkdtempSync(join(tmpdir(), 'sbirtools-bench-serve-'));

async function waitFor(proc, pattern, stream = 'stdout') {
  let text = '';
  proc[stream].on('data', (d) => (text += d));
  for (let i = 0; i < 1200 && !pattern.test(text); i++) {
    if (proc.exitCode !== null) throw new Error(`exited: ${text}`);
    await sleep(50);
  }
  if (!pattern.test(text)) throw new Error(`timed out waiting for ${pattern}: ${text}`);
}

async function startRedis() {
  const bin = execFileSync('sh', [join(ROOT, 'scripts', 'install-redis.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop();
  const port = await freePort();
  const proc = spawn(bin, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    cacheDir,
  ]);
  await waitFor(proc, /Ready to accept connections/);
  return { url: `redis://127.0.0.1:${port}`, proc };
}

async function startReplica(redisUrl) {
  const port = await freePort();
  const proc = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--port',
      String(port),
      '--redis',
      redisUrl,
      '--quiet',
      '--runs-per-minute',
      '1000000',
      '--max-concurrent-per-key',
      '1000',
    ],
    {
      env: { ...process.env, SBIRTOOLS_CACHE_DIR: cacheDir, SBIRTOOLS_API_KEYS: KEY },
    },
  );
  await waitFor(proc, /listening on/, 'stderr');
  return { port, proc };
}

/** Peak RSS of a replica: VmHWM of the serve process plus each holder child's. */
function peakRssMb(pid) {
  return [pid, ...childPids(pid)].reduce((sum, p) => sum + (memOf(p)?.hwmMb ?? 0), 0);
}

async function stopAll(procs) {
  for (const p of procs) {
    if (p.exitCode === null) {
      p.kill('SIGTERM');
      await new Promise((r) => p.once('exit', r));
    }
  }
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CODE = "value_counts(award_data, 'Agency').head(3)";
// a session cell: keeps a counter (state carried from cell to cell) and does the same analysis
const SESSION_CODE = "var c = (typeof c === 'number' ? c : 0) + 1; value_counts(award_data, 'Agency').head(3)";

/** N sessions; request k uses session k mod N (so a session's cells land on whichever replica is next). */
async function sessionRequests(url) {
  const ids = [];
  for (let i = 0; i < CONNECTIONS; i++)
    ids.push(
      (await (await fetch(url.replace('/v1/run', '/v1/sessions'), { method: 'POST', headers })).json()).session_id,
    );
  let k = 0;
  return [
    {
      method: 'POST',
      headers,
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ code: SESSION_CODE, session_id: ids[k++ % ids.length] }),
      }),
    },
  ];
}

async function loadAgainst(count, redis, mode) {
  const replicas = [];
  for (let i = 0; i < count; i++) replicas.push(await startReplica(redis.url));
  const proxyPort = await freePort();
  const proxy = spawn(process.execPath, [
    join(ROOT, 'bench', 'lib', 'rrProxy.mjs'),
    String(proxyPort),
    ...replicas.map((r) => String(r.port)),
  ]);
  await waitFor(proxy, /ready/);
  const url = `http://127.0.0.1:${proxyPort}/v1/run`;
  // warm-up: every replica's holder has its isolate pool and code cache ready
  await autocannon({
    url,
    method: 'POST',
    headers,
    body: JSON.stringify({ code: CODE }),
    connections: count,
    amount: count * 10,
  });
  const body =
    mode === 'one-shot' ? { body: JSON.stringify({ code: CODE }) } : { requests: await sessionRequests(url) };
  const r = await autocannon({
    url,
    method: 'POST',
    headers,
    ...body,
    connections: CONNECTIONS,
    amount: RUNS,
    timeout: 60,
  });
  const metrics = await Promise.all(
    replicas.map(async (x) => (await fetch(`http://127.0.0.1:${x.port}/metrics`, { headers })).text()),
  );
  const replayed = metrics.reduce(
    (n, text) => n + Number(/sbirtools_replayed_cells_total (\d+)/.exec(text)?.[1] ?? 0),
    0,
  );
  const result = {
    mode,
    replicas: count,
    connections: CONNECTIONS,
    runs: r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    runsPerSec: Math.round((r.requests.total / (r.duration || 1)) * 10) / 10,
    errorRate: (r.errors + r.timeouts + r.non2xx) / Math.max(1, r.requests.total),
    peakRssMbPerReplica: replicas.map((x) => Math.round(peakRssMb(x.proc.pid))),
    replayedCells: replayed,
  };
  await stopAll([proxy, ...replicas.map((x) => x.proc)]);
  return result;
}

async function migrationCost(redis, cellCounts) {
  const [a, b] = [await startReplica(redis.url), await startReplica(redis.url)];
  const post = async (port, path, body) => {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { ms: performance.now() - t, json: await res.json() };
  };
  const out = [];
  for (const cells of cellCounts) {
    const { json } = await post(a.port, '/v1/sessions', {});
    const sid = json.session_id;
    for (let i = 1; i <= cells; i++)
      await post(a.port, '/v1/run', {
        code: `var v${i} = award_data.filter(d => d['Award Amount'] > ${i * 1000}).numRows(); v${i}`,
        session_id: sid,
      });
    const normal = await post(a.port, '/v1/run', { code: '1', session_id: sid });
    const moved = await post(b.port, '/v1/run', { code: '1', session_id: sid });
    out.push({
      cells,
      normalRunMs: Math.round(normal.ms),
      firstRunOnOtherReplicaMs: Math.round(moved.ms),
      replayMsPerCell: cells ? Math.round(((moved.ms - normal.ms) / cells) * 100) / 100 : 0,
      reset: !!moved.json.sessionReset,
    });
  }
  await stopAll([a.proc, b.proc]);
  return out;
}

const redis = await startRedis();
try {
  const load = [];
  for (const mode of ['one-shot', 'session']) {
    for (const n of values.replicas.split(',').map(Number)) {
      load.push(await loadAgainst(n, redis, mode));
      process.stderr.write(`${JSON.stringify(load.at(-1))}\n`);
    }
  }
  const migration = await migrationCost(redis, values.cells.split(',').map(Number));
  const report = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memGb: Math.round(totalmem() / 1e9), node: process.version },
    workload: { oneShot: CODE, session: SESSION_CODE, data: 'synthetic sample (5,000 rows)' },
    loadAverageAtEnd: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
    load,
    migration,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'serve-load.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
} finally {
  await stopAll([redis.proc]);
}
