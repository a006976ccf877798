import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type SbirtoolsServer } from '../../../../src/server/createServer.js';

const FLOOD = 'over-share-flood-key-0123456789';
const CALM = 'over-share-calm-key-0123456789';
// long enough that the flood's run time is far over the calm caller's `1 + 1` runs
const HEAVY = 'let s = 0; for (let k = 0; k < 1e8; k++) s += k & 1; s';

/** The nice value of every thread of each child process of this test (the holders). */
function childNices(): number[][] {
  const out: number[][] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const fields = (file: string) => readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields(`/proc/${pid}/stat`)[1]) !== process.pid) continue;
      out.push(readdirSync(`/proc/${pid}/task`).map((t) => Number(fields(`/proc/${pid}/task/${t}/stat`)[16])));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/**
 * A caller over its fair share of a replica's run time has its code run in the low-priority
 * holder (nice + 10), so the kernel gives the calm callers' runs the CPU first; a calm caller's
 * code stays at normal priority. Asserted through the request log and the holders' nice values,
 * never through timings.
 */
describe.skipIf(process.platform !== 'linux')(
  'createServer: the code of a caller over its fair share runs at low CPU priority',
  () => {
    let server: SbirtoolsServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    async function scenario(overShareNice?: number) {
      const logs: Array<Record<string, unknown>> = [];
      server = await createServer({
        port: 0,
        apiKeys: [FLOOD, CALM],
        poolSize: 1,
        log: (line) => void logs.push(line),
        ...(overShareNice !== undefined ? { overShareNice } : {}),
      });
      let n = 0;
      const call = async (key: string, path: string, body: unknown) => {
        const requestId = `req-${++n}`;
        const res = await server!.fetch(
          new Request(`http://127.0.0.1${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
            body: JSON.stringify(body),
          }),
        );
        const json = (await res.json()) as Record<string, unknown>;
        expect(res.status, JSON.stringify(json)).toBeLessThan(300);
        return { json, priority: () => logs.find((l) => l.requestId === requestId)?.priority };
      };
      const run = (key: string, code: string, session_id?: string) =>
        call(key, '/v1/run', { code, ...(session_id ? { session_id } : {}) });
      const session = (await call(FLOOD, '/v1/sessions', {})).json.session_id as string;
      expect((await run(CALM, '1 + 1')).json.value).toBe(2);
      await run(FLOOD, 'const kept = 41', session);
      await run(FLOOD, HEAVY);
      const flood = await run(FLOOD, '2 + 2');
      const floodSession = await run(FLOOD, 'kept + 1', session);
      const calm = await run(CALM, '3 + 3');
      expect([flood.json.value, floodSession.json.value, calm.json.value], JSON.stringify(floodSession.json)).toEqual([
        4, 42, 6,
      ]);
      return { flood, floodSession, calm };
    }

    it('runs the flooding caller in a holder at nice + 10, a session of it too (moved with its state), the calm caller at normal priority', async () => {
      const base = getPriority();
      const { flood, floodSession, calm } = await scenario();
      expect([flood.priority(), floodSession.priority(), calm.priority()]).toEqual(['low', 'low', undefined]);
      const nices = childNices();
      // one ordinary holder at this process's priority, one low-priority holder with every thread lowered
      expect(nices.map((threads) => [...new Set(threads)]).sort()).toEqual([[base], [Math.min(19, base + 10)]].sort());
    }, 120_000);

    it('with overShareNice 0 every caller runs at normal priority in the ordinary holder', async () => {
      const base = getPriority();
      const { flood, floodSession, calm } = await scenario(0);
      expect([flood.priority(), floodSession.priority(), calm.priority()]).toEqual([undefined, undefined, undefined]);
      expect(childNices().map((threads) => [...new Set(threads)])).toEqual([[base]]);
    }, 120_000);
  },
);
