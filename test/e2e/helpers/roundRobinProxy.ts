import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer WITHOUT affinity: request n goes to backend n mod N, whatever its session. */
export interface RoundRobinProxy {
  url: string;
  /** Port of the backend each request in flight was sent to (by a header the test sets). */
  inFlight: Map<string, number>;
  /** Requests forwarded per backend port. */
  counts: Map<number, number>;
  close(): Promise<void>;
}

/**
 * Start the proxy. A backend that refuses the connection is skipped (nothing was sent, so trying
 * the next is safe, as real balancers do); a backend that dies mid-request gives the client 502.
 */
export async function startRoundRobinProxy(ports: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const inFlight = new Map<string, number>();
  const counts = new Map<number, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tag = String(req.headers['x-test-tag'] ?? '');
      const attempt = (tries: number) => {
        const port = ports[next++ % ports.length]!;
        const up = request(
          {
            host: '127.0.0.1',
            port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: `127.0.0.1:${port}` },
          },
          (upRes) => {
            counts.set(port, (counts.get(port) ?? 0) + 1);
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
            upRes.on('end', () => inFlight.delete(tag));
            upRes.on('error', () => res.destroy());
          },
        );
        up.on('socket', () => {
          if (tag) inFlight.set(tag, port);
        });
        up.on('error', (err: NodeJS.ErrnoException) => {
          inFlight.delete(tag);
          if (err.code === 'ECONNREFUSED' && tries < ports.length) return attempt(tries + 1);
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ error: { type: 'BAD_GATEWAY', message: `backend ${port}: ${err.code ?? err.message}` } }),
          );
        });
        up.end(body);
      };
      attempt(1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inFlight,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
