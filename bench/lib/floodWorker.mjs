// The flood of bench/serve-faults.mjs in a process of its own (at normal priority unless the bench
// is given --flood-nice): the stand-in for a flood sent from other machines. In the bench's own
// process the calm clients' event loop would wait behind the flood's hundreds of requests a
// second, so their measured latency would include the bench's own work. It sends what a flood sends: every
// client re-sends as soon as it is answered (20 ms later), refused or not, unless told to honour
// Retry-After. Driven over IPC: { phase: 'flood' | 'unloaded' } (a calm window also aborts the
// requests in flight), { stop: true } -> it replies with its counts and exits.
//   (spawned by serve-faults.mjs: node floodWorker.mjs <ports,comma> <clients> <key> <code> <honour 0|1>)
import { sleep } from './stats.mjs';

const [portsText, clientsText, key, code, honourText] = process.argv.slice(2);
const ports = portsText.split(',').map(Number);
const honour = honourText === '1';
const body = JSON.stringify({ code });
const classes = {};
const seen = (k) => (classes[k] = (classes[k] ?? 0) + 1);
let phase = 'unloaded';
let stopping = false;
let abort = new AbortController();
let rr = 0;
let requests = 0;
let answers = 0;

process.on('message', (m) => {
  if (m.phase) {
    if (m.phase === 'unloaded' && phase === 'flood') {
      abort.abort();
      abort = new AbortController();
    }
    phase = m.phase;
  }
  if (m.stop) stopping = true;
});

async function client() {
  while (!stopping) {
    if (phase !== 'flood') {
      await sleep(200);
      continue;
    }
    const port = ports[rr++ % ports.length];
    requests++;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
        signal: abort.signal,
      });
      const text = await res.text();
      let type = '';
      try {
        const j = JSON.parse(text);
        type = res.status === 200 ? (j.ok ? 'ok' : j.error?.type) : (j.error?.type ?? '');
      } catch {
        // not JSON: counted by status alone
      }
      seen(`flood: ${res.status} ${type}`);
      if (res.status === 200) answers++;
      if (honour && (res.status === 429 || res.status === 503))
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
    } catch {
      if (!abort.signal.aborted) {
        seen('flood: connection refused/reset, retried');
        await sleep(100);
      }
    }
    await sleep(20);
  }
}

await Promise.all(Array.from({ length: Number(clientsText) }, client));
process.send({ classes, requests, answers }, () => process.exit(0));
