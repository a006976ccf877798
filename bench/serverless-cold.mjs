// Serverless cold start (issues 13 and 24), measured the way a function platform runs the product:
// `sbirtools bundle --target lambda`, the folder copied and made read-only, a fresh process per
// start (as `nobody` when root, HOME and cwd read-only, only TMPDIR writable, heap capped as on a
// 1024 MB function), the handler called with an API Gateway v2 event. Times process spawn -> the
// first answer of a group-by question, for:
//   local   the data folder (`sbirtools build-data`) inside the bundle
//   remote  the same folder on a loopback web server adding 20 ms to every request, an empty cache
// then, in the remote process, the first touch of the long-text Abstract column and its bytes.
// Each start reports its phases from the spawn: Node up (the runner's first line), the handler's
// module imported (the entry starts the holder process first), the first answer.
// --base <repo> also bundles that checkout's build (e.g. /work/main) and runs its local starts
// interleaved with this build's, so the load of a shared machine hits both alike.
//   node bench/serverless-cold.mjs [--csv <award_data.csv>] [--repeat 7] [--latency-ms 20] [--base <repo>]
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/paths.mjs';

const { values } = parseArgs({
  options: {
    csv: { type: 'string', default: process.env.SBIRTOOLS_BENCH_CSV },
    repeat: { type: 'string', default: '7' },
    'latency-ms': { type: 'string', default: '20' },
    base: { type: 'string' },
  },
});
const repeat = Number(values.repeat);
const latencyMs = Number(values['latency-ms']);
const NOBODY = 65534;
const HEAP_MB = 896;
const CLI = join(ROOT, 'bin', 'sbirtools.js');
const work = mkdtempSync(join(tmpdir(), 'sbirtools-cold-'));
chmodSync(work, 0o755);
const quiet = {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, SBIRTOOLS_CACHE_DIR: join(work, 'build-cache') },
};

const dataDir = join(work, 'data');
execFileSync(process.execPath, [CLI, 'build-data', dataDir, ...(values.csv ? ['--data', values.csv] : [])], quiet);
const manifest = JSON.parse(readFileSync(join(dataDir, 'sbirtools-data.json'), 'utf8'));
const folderBytes = manifest.columns.reduce((n, c) => n + c.bytes, 0);

// a static host on loopback: whole files, `latencyMs` before each answer, bytes counted per file
const served = new Map();
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '').replace(/^\/data\//, ''));
  const file = join(dataDir, path);
  setTimeout(() => {
    if (path.includes('..') || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    served.set(path, (served.get(path) ?? 0) + statSync(file).size);
    res.writeHead(200, { 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  }, latencyMs);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/data/`;

function bundle(name, data, cli = CLI) {
  const out = join(work, name);
  execFileSync(process.execPath, [cli, 'bundle', out, '--target', 'lambda', '--data', data], quiet);
  // the platform's copy: read-only, nothing above it
  const fn = join(work, `${name}-fn`);
  cpSync(out, fn, { recursive: true });
  const readOnly = (p) => {
    if (statSync(p).isDirectory()) {
      for (const e of readdirSync(p)) readOnly(join(p, e));
      chmodSync(p, 0o555);
    } else chmodSync(p, 0o444);
  };
  readOnly(fn);
  return { fn, mb: Math.round(du(out) / 1e5) / 10 };
}
function du(p) {
  return statSync(p).isDirectory() ? readdirSync(p).reduce((n, e) => n + du(join(p, e)), 0) : statSync(p).size;
}

const runner = join(work, 'runner.mjs');
writeFileSync(
  runner,
  `
const event = (code) => ({ version: '2.0', rawPath: '/', rawQueryString: '', headers: { 'content-type': 'application/json' }, requestContext: { domainName: 'fn.lambda-url.us-east-1.on.aws', http: { method: 'POST', path: '/' } }, body: JSON.stringify({ code }), isBase64Encoded: false });
const at = () => Math.round(performance.timeOrigin + performance.now());
console.log(JSON.stringify({ phase: 'node', at: at() }));
const { handler } = await import(process.cwd() + '/index.mjs');
console.log(JSON.stringify({ phase: 'imported', at: at() }));
const first = JSON.parse((await handler(event("award_data.groupby('Agency').count().orderby('Agency').array('count')"))).body);
console.log(JSON.stringify({ phase: 'group-by', at: at(), ok: first.ok, rows: first.dataset?.rows, engine: first.engine?.name, error: first.error?.message }));
if (process.env.TOUCH_ABSTRACT) {
  const t = performance.now();
  const r = JSON.parse((await handler(event("award_data['Abstract'].str.len().sum()"))).body);
  console.log(JSON.stringify({ phase: 'abstract', ok: r.ok, value: r.value, ms: Math.round(performance.now() - t), error: r.error?.message }));
}
process.exit(0);
`,
);
chmodSync(runner, 0o644);

/** One cold process: spawn -> the group-by answer (ms), and the rest of its lines. */
function coldStart(fn, env = {}) {
  const tmp = mkdtempSync(join(work, 'tmp-'));
  if (process.getuid?.() === 0) chownSync(tmp, NOBODY, NOBODY);
  const node = [process.execPath, `--max-old-space-size=${HEAP_MB}`, runner];
  const asNobody = process.getuid?.() === 0;
  const started = performance.now();
  const spawnedAt = Date.now();
  const child = spawn(
    asNobody ? 'setpriv' : node[0],
    asNobody ? [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node] : node.slice(1),
    {
      cwd: fn,
      env: { PATH: process.env.PATH, HOME: fn, TMPDIR: tmp, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let answeredMs;
    child.stdout.on('data', (d) => {
      out += d;
      if (answeredMs === undefined && out.includes('"phase":"group-by"'))
        answeredMs = Math.round(performance.now() - started);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      rmSync(tmp, { recursive: true, force: true });
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      const answer = lines.find((l) => l.phase === 'group-by');
      if (code !== 0 || !answer?.ok) reject(new Error(`cold start failed (${code}): ${JSON.stringify(lines)} ${err}`));
      else {
        // wall-clock stamps of the child, from the spawn (the same clock on one machine)
        const phase = (name) => lines.find((l) => l.phase === name).at - spawnedAt;
        resolve({
          answeredMs,
          lines,
          phases: { nodeUp: phase('node'), imported: phase('imported'), answered: phase('group-by') },
        });
      }
    });
  });
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** p50 of spawn -> answer, its ratio to the bare Node start, each start's figure, and the p50 of each phase (ms from the spawn). */
function summary(runs) {
  const phases = {};
  for (const name of ['nodeUp', 'imported', 'answered']) phases[name] = p50(runs.map((r) => r.phases[name]));
  const p = p50(runs.map((r) => r.answeredMs));
  return {
    p50Ms: p,
    xBareNode: Math.round((p / p50(bare)) * 10) / 10,
    runsMs: runs.map((r) => r.answeredMs),
    phasesP50Ms: phases,
  };
}
// the machine's own floor under the same load: spawn -> exit of a bare `node -e 0`, measured
// before each cold start, so it sees the same moments of a shared machine's load
const bare = [];
function bareNode() {
  const t = performance.now();
  execFileSync(process.execPath, ['-e', '0']);
  bare.push(Math.round(performance.now() - t));
}
const local = bundle('local', dataDir);
const remote = bundle('remote', url);
const base = values.base ? bundle('base-local', dataDir, join(values.base, 'bin', 'sbirtools.js')) : undefined;
const localRuns = [];
const baseRuns = [];
for (let i = 0; i < repeat; i++) {
  bareNode();
  localRuns.push(await coldStart(local.fn));
  if (base) baseRuns.push(await coldStart(base.fn));
}
const remoteRuns = [];
const remoteBytes = [];
for (let i = 0; i < repeat; i++) {
  served.clear();
  bareNode();
  remoteRuns.push(await coldStart(remote.fn));
  remoteBytes.push([...served.values()].reduce((n, b) => n + b, 0));
}
served.clear();
const abstractFile = manifest.columns.find((c) => c.name === 'Abstract')?.file;
const touch = await coldStart(remote.fn, { TOUCH_ABSTRACT: '1' });
const abstract = touch.lines.find((l) => l.phase === 'abstract');
server.close();
rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
      source: values.csv ?? 'synthetic sample',
      rows: touch.lines[0].rows,
      engine: touch.lines[0].engine,
      dataFolderMb: Math.round(folderBytes / 1e5) / 10,
      bundleMb: { local: local.mb, remote: remote.mb },
      heapCapMb: HEAP_MB,
      bareNodeP50Ms: p50(bare),
      local: summary(localRuns),
      ...(base ? { baseLocal: { build: values.base, bundleMb: base.mb, ...summary(baseRuns) } } : {}),
      remote: {
        latencyMsPerRequest: latencyMs,
        ...summary(remoteRuns),
        bytesFetchedFirstAnswer: remoteBytes[0],
      },
      abstractFirstTouch: {
        ms: abstract?.ms,
        ok: abstract?.ok,
        bytesFetched: abstractFile ? (served.get(abstractFile) ?? 0) : undefined,
      },
    },
    null,
    2,
  ),
);
