import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../../src/capsule/replay.js';
import { livePage, parsePage, record, writeLog } from './fixtures.js';

// what serve does: each API key sees only its own sessions (here: the key is a header)
const byKey = (rec: { session?: { id: string } }, req: IncomingMessage) =>
  !!rec.session && rec.session.id.startsWith(`${String(req.headers['x-key'] ?? 'a')}-`);

describe('createViewerHandler', () => {
  const log = writeLog([
    record({ session: { id: 'a-1', seq: 1 }, outputs: { stdout: 'from a' } }),
    record({ session: { id: 'b-1', seq: 1 }, outputs: { stdout: 'from b' } }),
    record({ outputs: { stdout: 'no session' } }),
  ]);

  it('mounted under a prefix: links and the script base carry it, the bare prefix redirects', async () => {
    const page = await livePage(log, '/ui/', { prefix: '/ui' });
    expect(page.status).toBe(200);
    const doc = parsePage(page.body);
    expect(doc.body.dataset.base).toBe('/ui/');
    expect([...doc.querySelectorAll('.sb-side a')].map((a) => a.getAttribute('href'))).toContain('/ui/?session=a-1');
    expect((await livePage(log, '/ui', { prefix: '/ui' })).status).toBe(200); // fetch follows the 308 to /ui/
    expect((await livePage(log, '/ui/nope', { prefix: '/ui' })).status).toBe(404);
  });

  it('shows only what the session filter lets the request see', async () => {
    const page = await livePage(log, '/', { sessionFilter: byKey });
    expect(page.body).toContain('from a');
    expect(page.body).not.toContain('from b');
    expect(page.body).not.toContain('no session');
    const fragment = JSON.parse((await livePage(log, '/fragment?after=0', { sessionFilter: byKey })).body) as {
      runs: string;
      count: number;
    };
    expect(fragment.count).toBe(1);
    expect(fragment.runs).not.toContain('from b');
  });

  it('replays only records the filter shows, with the page token; replay can be turned off', async () => {
    const calls: number[] = [];
    const replay = async (line: number) => (
      calls.push(line),
      {
        line,
        match: true,
        stdoutMatch: true,
        valueMatch: true,
        errorTypeMatch: true,
        datasetMatch: true,
        preludeMatch: true,
        replayedBefore: 0,
        notes: [],
        recorded: record(),
        result: { ok: true },
      } as unknown as ReplayReport
    );
    const { createViewerHandler } = await import('../../../src/viewer/createViewerHandler.js');
    const { createServer } = await import('node:http');
    const handler = createViewerHandler({ logPath: log, sessionFilter: byKey, replay });
    const server = createServer(handler).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      const token = parsePage(await (await fetch(base)).text()).body.dataset.token!;
      const post = (line: number, t = token) =>
        fetch(`${base}replay`, {
          method: 'POST',
          headers: { 'x-sbirtools-viewer': t },
          body: JSON.stringify({ line }),
        });
      expect((await post(2)).status).toBe(404); // b's record, invisible to a
      expect((await post(1, 'wrong')).status).toBe(403);
      const ok = await post(1);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ line: 1, match: true });
      expect(calls).toEqual([1]);
    } finally {
      await handler.close();
      server.closeAllConnections();
      server.close();
    }
    const off = await livePage(log, '/', { replay: false });
    expect(off.body).not.toContain('class="sb-replay"');
  });
});
