import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const FLOOD = 'fairness-flood-key-0123456789';
const CALM = 'fairness-calm-key-0123456789';
const BUDGET = 'fairness-budget-key-0123456789';
const LIMIT = 40;

/**
 * One caller floods a replica (pool of one holder: two run slots, one per caller at most) while
 * another works normally: the flood gets 429 with Retry-After, the other caller never waits behind
 * it and never gets refused. And one caller is one budget: however it spells its key, over REST
 * and MCP, running code or opening sessions, it gets exactly its runs per minute.
 */
describe('sbirtools serve: fairness between callers and one budget per caller', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await startServe(
      [
        '--quiet',
        '--pool-size',
        '1',
        '--runs-per-minute',
        String(LIMIT),
        '--max-concurrent-per-key',
        '4',
        '--max-queued-per-key',
        '2',
        // refusals answered at once: the budget test below counts 20 of them in a row, ignoring
        // Retry-After (holding such refusals has its own test, serve-refusal-pacing.test.ts)
        '--max-refusal-hold-ms',
        '0',
      ],
      { SBIRTOOLS_API_KEYS: [FLOOD, CALM, BUDGET].join(',') },
    );
  }, 120_000);
  afterAll(async () => {
    await stop(s);
  });

  const run = (key: string, code: string, authorization = `Bearer ${key}`) =>
    fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });

  it("a flooding caller gets 429 + Retry-After while another caller's runs all answer", async () => {
    const heavy = 'let s = 0; for (let k = 0; k < 2e8; k++) s += k & 1; s';
    const floodStatuses: number[] = [];
    const retryAfter: string[] = [];
    let calmDone = false;
    const flooders = Array.from({ length: 30 }, async () => {
      while (!calmDone) {
        const r = await run(FLOOD, heavy);
        floodStatuses.push(r.status);
        if (r.status === 429 || r.status === 503) retryAfter.push(r.headers.get('retry-after') ?? '');
        await r.arrayBuffer();
        if (r.status === 429 && floodStatuses.length > 200) break;
        if (r.status === 429) await new Promise((res) => setTimeout(res, 100));
      }
    });
    // wait until the flood holds its slot and queue
    while (!floodStatuses.includes(429)) await new Promise((res) => setTimeout(res, 20));
    const calm: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await run(CALM, `${i} * 2`);
      calm.push(r.status);
      expect((await r.json()).value).toBe(i * 2);
    }
    calmDone = true;
    await Promise.all(flooders);
    expect(calm).toEqual(Array(10).fill(200));
    expect(floodStatuses.filter((st) => st === 429).length).toBeGreaterThan(0);
    // 503 SERVER_BUSY: a flood run waited its whole max-queue-wait on a loaded machine (documented, retryable)
    expect(floodStatuses.filter((st) => st !== 200 && st !== 429 && st !== 503)).toEqual([]);
    expect(retryAfter.every((v) => Number(v) >= 1)).toBe(true);
  }, 300_000);

  it(`one budget of ${LIMIT}/min across key spellings, REST, MCP and session creation`, async () => {
    const spellings = [`Bearer ${BUDGET}`, `bearer   ${BUDGET}`, `BEARER ${BUDGET}  `];
    const mcp = (authorization: string, i: number) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'run_analysis', arguments: { code: `${i}` } },
        }),
      });
    const session = (authorization: string) =>
      fetch(`${s.url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
    let admitted = 0;
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const authorization = spellings[i % 3]!;
      const r =
        i % 3 === 0
          ? await run(BUDGET, `${i}`, authorization)
          : i % 3 === 1
            ? await mcp(authorization, i)
            : await session(authorization);
      const body = await r.text();
      if (r.status === 429) {
        refused++;
        expect(r.headers.get('retry-after')).toBeTruthy();
        expect(body).toContain('RATE_LIMITED');
      } else {
        expect([200, 201], body).toContain(r.status);
        admitted++;
      }
    }
    expect(admitted).toBe(LIMIT);
    expect(refused).toBe(60 - LIMIT);
  }, 120_000);
});
