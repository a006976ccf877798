// A static file server for remote-data tests, in its own process (a column load blocks the test
// process's thread while it waits, so the server cannot live there). Binds 127.0.0.1 on a free
// port, prints "PORT <n>", serves <root> with Range and ETag support, and takes faults per path:
//   POST /__faults {"/columns/30.col": {"truncateAfter": 1000, "times": 1}, ...}   (replaces all)
//   GET /__log -> [{ path, range, inm }]     POST /__clear
// Faults: status, delayMs (before headers), truncateAfter (+ times: how many answers are cut),
// corrupt (one byte flipped), redirect (a Location), cacheControl, noRange.
// Env LATENCY_MS=<n> delays every file answer by n ms (benchmarks: a far-away host).
// Exits when its stdin closes (the test process ended) or on SIGTERM.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';

const root = process.argv[2];
let faults = {};
const cut = new Map();
const log = [];

const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === '/__faults' || path === '/__clear') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (path === '/__faults') ((faults = JSON.parse(body || '{}')), cut.clear());
      else log.length = 0;
      res.end('ok');
    });
    return;
  }
  if (path === '/__log') return res.end(JSON.stringify(log));
  log.push({ path, range: req.headers.range ?? null, inm: req.headers['if-none-match'] ?? null });
  const f = faults[path] ?? {};
  const answer = () => serve(req, res, path, f);
  const delay = (f.delayMs ?? 0) + Number(process.env.LATENCY_MS ?? 0);
  if (delay) setTimeout(answer, delay);
  else answer();
});

function serve(req, res, path, f) {
  if (res.destroyed) return;
  if (f.status) return res.writeHead(f.status, { 'content-type': 'text/plain' }).end(`status ${f.status}`);
  if (f.redirect) return res.writeHead(302, { location: f.redirect }).end();
  const file = join(root, normalize(path).replace(/^(\.\.[/\\])+/, ''));
  let bytes;
  try {
    if (!statSync(file).isFile()) throw new Error('dir');
    bytes = readFileSync(file);
  } catch {
    return res.writeHead(404).end('not found');
  }
  if (f.corrupt) ((bytes = Buffer.from(bytes)), (bytes[bytes.length >> 1] ^= 0xff));
  const etag = `"${createHash('sha1').update(bytes).digest('hex')}"`;
  const headers = {
    etag,
    'content-type': 'application/octet-stream',
    ...(f.noRange ? {} : { 'accept-ranges': 'bytes' }),
    ...(f.cacheControl ? { 'cache-control': f.cacheControl } : {}),
  };
  if (req.headers['if-none-match'] === etag) return res.writeHead(304, headers).end();
  let start = 0;
  let status = 200;
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (m && !f.noRange && Number(m[1]) < bytes.length) {
    start = Number(m[1]);
    status = 206;
    headers['content-range'] = `bytes ${start}-${bytes.length - 1}/${bytes.length}`;
  }
  const body = bytes.subarray(start);
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  const times = cut.get(path) ?? 0;
  if (f.truncateAfter !== undefined && times < (f.times ?? Infinity) && start === 0) {
    cut.set(path, times + 1);
    res.write(body.subarray(0, f.truncateAfter), () => setTimeout(() => res.destroy(), 20));
    return;
  }
  res.end(body);
}

server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
