// A round-robin HTTP proxy without affinity, run as its own process by bench/serve-load.mjs:
//   node bench/lib/rrProxy.mjs <listenPort> <backendPort>...
import { createServer, request, Agent } from 'node:http';

const [listen, ...backends] = process.argv.slice(2).map(Number);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let next = 0;
createServer((req, res) => {
  const port = backends[next++ % backends.length];
  const up = request(
    {
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: `127.0.0.1:${port}` },
      agent,
    },
    (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    },
  );
  up.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(up);
}).listen(listen, '127.0.0.1', () => process.stdout.write('ready\n'));
