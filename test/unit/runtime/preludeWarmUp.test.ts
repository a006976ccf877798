// The prelude's warm-up (prelude/runtime/warmUp.ts) in a real isolate: it runs every question, it
// leaves nothing a run can see, a run arriving during a step waits for that step and answers, the
// names user code may reassign do not stop it, and a warm-up that fails leaves the session working.
// The steps are taken by hand here (the holder's idle-time scheduler is off in this file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';
import type { EngineSession } from '../../../src/runtime/engines/engineSession.js';

process.env.SBIRTOOLS_WARM_PRELUDE = '0';

let cacheDir: string;
let host: SessionHost;
let ids = 0;

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-warm-'));
  host = new SessionHost();
});

afterAll(() => {
  host.closeAll();
  rmSync(cacheDir, { recursive: true, force: true });
});

function spec(memoryLimitMb: number = PRESETS.standard.memoryLimitMb): SessionSpec {
  return {
    limits: { ...PRESETS.standard, memoryLimitMb },
    data: { kind: 'synthetic', cacheDir },
    tables: [],
    engine: 'isolated-vm',
  };
}

async function open(memoryLimitMb?: number): Promise<{ id: string; session: EngineSession }> {
  const id = `s${++ids}`;
  await host.open(id, spec(memoryLimitMb));
  const session = (host as unknown as { sessions: Map<string, { session: EngineSession }> }).sessions.get(id)!.session;
  return { id, session };
}

async function run(
  id: string,
  source: string,
): Promise<{ outcome: Record<string, unknown>; stdout: string; stderr: string }> {
  const r = await host.run(id, { source, preset: 'permissive', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
  return { outcome: JSON.parse(r.outcomeJson!), stdout: r.stdout, stderr: r.stderr };
}

/** Every remaining step; returns how many ran. */
async function warmAll(session: EngineSession): Promise<number> {
  let n = 0;
  while (await session.warmStep!()) n++;
  return n;
}

type Ref = { applySync(t: undefined, args: unknown[], o: object): unknown };
function failures(warm: Ref): string[] {
  return warm.applySync(undefined, ['failures'], { result: { copy: true } }) as string[];
}
const warmRef = (session: EngineSession) => (session as unknown as { warm: Ref | null }).warm!;

// The policy blocks `globalThis` and `.prototype` by name; these reach them as an attacker would
// (a key computed at run time: test/security/globals-allow-list.test.ts).
const GLOBAL = "(() => 0)[['constr', 'uctor'].join('')]('return this')()";
const PROTO = "['proto', 'type'].join('')";

// what a run can look at: the globals, a mask's token (the registry numbers them), output
const PROBE = `const names = Object.getOwnPropertyNames(${GLOBAL}).sort().join(',');
const m = award_data['Award Amount'].gt(0);
const k = award_data[award_data['Award Amount'].gt(1)].numRows();
[names, String(m), k, typeof warm, typeof __sbirtools_boot]`;

describe('the prelude warm-up', () => {
  it('runs every question without an error and then has nothing left to do', async () => {
    const { session } = await open();
    const ref = warmRef(session);
    const steps = await warmAll(session);
    expect(steps).toBeGreaterThan(30);
    expect(failures(ref)).toEqual([]);
    expect(await session.warmStep!()).toBe(false);
  });

  it('leaves nothing a run can see: globals, mask tokens, output and the answer match a session never warmed', async () => {
    const warmed = await open();
    const cold = await open();
    // a run before the warm-up, as a session's first question would be
    await run(warmed.id, 'award_data.numRows()');
    await run(cold.id, 'award_data.numRows()');
    await warmAll(warmed.session);
    const a = await run(warmed.id, PROBE);
    const b = await run(cold.id, PROBE);
    expect(a.outcome).toEqual(b.outcome);
    expect(a.stdout).toBe('');
    expect(a.stderr).toBe('');
    expect((a.outcome.value as unknown[])[3]).toBe('undefined');
  });

  it('a run that arrives during a step waits for that step, answers, and the warm-up goes on after it', async () => {
    const { id, session } = await open();
    const ref = warmRef(session);
    await session.warmStep!(); // the synthetic table
    const order: string[] = [];
    const step = session.warmStep!().then(() => order.push('step'));
    const answer = run(id, 'award_data.numRows() + 1').then((r) => (order.push('run'), r));
    const [r] = await Promise.all([answer, step]);
    expect(order).toEqual(['step', 'run']);
    const rows = (await run(id, 'award_data.numRows()')).outcome.value as number;
    expect(r.outcome.value).toBe(rows + 1);
    expect(await warmAll(session)).toBeGreaterThan(0);
    expect(failures(ref)).toEqual([]);
  });

  it('runs every question in a session whose code reassigned the prelude names (user code cannot stop it)', async () => {
    const { id, session } = await open();
    const ref = warmRef(session);
    await run(
      id,
      `award_data = null; op = null; aq = null; print = null; tables = null; var warm = 1; ${GLOBAL}.ColumnTable = 0; 1`,
    );
    const steps = await warmAll(session);
    expect(steps).toBeGreaterThan(30);
    expect(failures(ref)).toEqual([]);
  });

  it('stops for a session whose code changed a builtin, and that code never sees a call from it', async () => {
    const spy = `var calls = 0;
const floor = Math.floor, arrays = Array[${PROTO}], slice = arrays.slice;
Math.floor = function (x) { calls++; return floor(x); };
arrays.slice = function (...a) { calls++; return slice.apply(this, a); };
1`;
    const spied = await open();
    const control = await open();
    await run(spied.id, spy);
    await run(control.id, spy);
    expect(await warmAll(spied.session)).toBe(0);
    // the prelude's own output path calls the spies too: the count must be what a session never warmed shows
    expect((await run(spied.id, 'calls')).outcome.value).toBe((await run(control.id, 'calls')).outcome.value);
  });

  it('never fails the session: a warm-up that throws ends quietly, a small memory limit has none', async () => {
    const { id, session } = await open();
    (session as unknown as { warm: unknown }).warm = {
      apply: () => Promise.reject(new Error('broken warm-up')),
    };
    expect(await session.warmStep!()).toBe(false);
    expect((await run(id, 'award_data.numRows() > 0')).outcome.value).toBe(true);

    const small = await open(64);
    expect(await small.session.warmStep!()).toBe(false);
    expect((await run(small.id, '6 * 7')).outcome.value).toBe(42);

    // a session whose data fills over half its limit is left alone (a step could push it over and lose it)
    const full = await open(128);
    await run(full.id, 'var kept = new Float64Array(10_000_000).fill(1); kept.length');
    expect(await full.session.warmStep!()).toBe(false);
    expect((await run(full.id, 'kept[9_999_999] + kept.length')).outcome.value).toBe(10_000_001);
  });
});
