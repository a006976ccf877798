// A session built at its open is warmed in idle time before its first run (holder/idleWarmUp.ts):
// one slice of the prelude's warm-up per call into the isolate, one program of the code check's
// per slice. A run stops it at the next slice boundary and waits at most for the slice in flight;
// no slice runs after a run started; a failed slice leaves a cold session that answers; off in a
// one-shot holder (SBIRTOOLS_NO_SPARES=1) and with SBIRTOOLS_WARM_IDLE=0. Slices are counted and
// ordered here, never timed: a session warmed to the end serves as the clock of one that is not.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { CodeChecker } from '../../../src/runtime/prepare/codeChecker.js';
import { WARM_PROGRAMS } from '../../../src/runtime/prepare/warmPrograms.js';
import { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';
import { CacheReader } from '../../../src/data/cache/readCache.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

type Slice = 'more' | 'done' | 'refused';

let cacheDir: string;
const hosts: SessionHost[] = [];
let ids = 0;
const original = IsolatedVmSession.prototype.warmSlice;

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-idle-warm-'));
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const h of hosts.splice(0)) h.closeAll();
  delete process.env.SBIRTOOLS_WARM_IDLE;
  delete process.env.SBIRTOOLS_NO_SPARES;
});

afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

/** A host as the holder makes it, with the environment `env` (read when it is made). */
function hostWith(env: Record<string, string> = {}): SessionHost {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  const h = new SessionHost();
  for (const k of Object.keys(env)) delete process.env[k];
  hosts.push(h);
  return h;
}

const spec = (engine: SessionSpec['engine'] = 'isolated-vm'): SessionSpec => ({
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir },
  tables: [],
  engine,
});

/** A session built at its open: each host's first (no spare is ready yet). */
async function open(h: SessionHost, engine: SessionSpec['engine'] = 'isolated-vm'): Promise<string> {
  const id = `s${++ids}`;
  await h.open(id, spec(engine));
  return id;
}

function sessionOf(h: SessionHost, id: string): IsolatedVmSession {
  return (h as unknown as { sessions: Map<string, { session: IsolatedVmSession }> }).sessions.get(id)!.session;
}

async function answer(h: SessionHost, id: string, source: string): Promise<unknown> {
  const r = await h.run(id, { source, preset: 'standard', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
  expect(r.reset).toBe(false);
  return { outcome: JSON.parse(r.outcomeJson!), stdout: r.stdout, stderr: r.stderr };
}

/** Every slice the engine was asked for: which session, which slice, and how it ended. */
interface Call {
  session: IsolatedVmSession;
  slice: number;
  outcome: Promise<Slice>;
}

/**
 * Records every slice; `hold(slice)` returns a promise that slice waits on before it runs (so a run
 * can arrive while it is in flight), `fail(slice)` makes it throw as a failed question does.
 */
function spySlices(
  opts: { hold?: (slice: number, session: IsolatedVmSession) => Promise<void> | undefined; fail?: number } = {},
): Call[] {
  const calls: Call[] = [];
  vi.spyOn(IsolatedVmSession.prototype, 'warmSlice').mockImplementation(function (
    this: IsolatedVmSession,
    slice: number,
    timeoutMs: number,
  ) {
    const outcome = (async () => {
      await opts.hold?.(slice, this);
      if (slice === opts.fail) throw new Error(`warm-up questions failed: ${slice - 1}: forced`);
      return original.call(this, slice, timeoutMs);
    })();
    calls.push({ session: this, slice, outcome });
    return outcome;
  });
  return calls;
}

/** A gate a slice waits on, opened by the test. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

async function warmedToTheEnd(calls: Call[], session: IsolatedVmSession): Promise<void> {
  await vi.waitFor(
    async () => {
      const last = calls.filter((c) => c.session === session).at(-1);
      expect(last && (await last.outcome)).toBe('done');
    },
    { timeout: 30_000, interval: 20 },
  );
}

// The policy blocks `globalThis` by name; this reaches it as an attacker would.
const GLOBAL = "(() => 0)[['constr', 'uctor'].join('')]('return this')()";

// What a run can see of the session: its globals, a mask's token, the row cache, answers of the
// paths the warm-up took (row loops, keyed counts, chains, sorts, dates, verbs, Series).
const PROBES = [
  `Object.getOwnPropertyNames(${GLOBAL}).sort().join(',')`,
  "String(award_data['Award Amount'].gt(0))",
  "[award_data['Award Amount'].sum(), award_data['Award Amount'].mean(), award_data['Award Year'].min()]",
  'award_data.Agency.value_counts().head(5)',
  "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount'), n: op.count() }).orderby(aq.desc('total')).slice(0, 3).objects()",
  "let s = 0; for (const r of award_data.select('Agency', 'Award Amount').objects()) if (r.Agency === 'NASA') s += r['Award Amount'] || 0; print(s); s",
  "const c = {}; for (const r of award_data.select('State').objects()) c[r.State] = (c[r.State] || 0) + 1; Object.entries(c).sort((a, b) => b[1] - a[1]).slice(0, 3)",
  "const y = award_data.array('Award Year').filter((v) => v != null).map((v) => v - 2000); [Math.min(...y), Math.max(...y), y.slice().sort((a, b) => a - b)[y.length >> 1]]",
  "let d = null; for (const r of award_data.select('Proposal Award Date').objects()) { const x = r['Proposal Award Date']; if (x && (!d || x > d)) d = x; } d",
  "award_data.select('Agency').objects().length",
];

describe("a session's warm-up in idle time", () => {
  it('runs every slice in order, and the code check one program per slice, before any run', async () => {
    const calls = spySlices();
    const check = vi.spyOn(CodeChecker.prototype, 'warmUp');
    const h = hostWith();
    const id = await open(h);
    const session = sessionOf(h, id);
    await warmedToTheEnd(calls, session);
    const mine = calls.filter((c) => c.session === session);
    expect(mine.map((c) => c.slice)).toEqual(mine.map((_, i) => i));
    const outcomes = await Promise.all(mine.map((c) => c.outcome));
    expect(outcomes.slice(0, -1).every((o) => o === 'more')).toBe(true);
    // one program per slice, each once, as long as any is left
    expect(check.mock.calls).toEqual(WARM_PROGRAMS.slice(0, mine.length).map((_, i) => [i, i + 1]));
    expect(check.mock.results.every((r) => r.value === 0)).toBe(true);
    // the warm-up is over: the session's first run finds it so
    expect(await answer(h, id, "award_data['Award Amount'].sum() > 0")).toMatchObject({
      outcome: { ok: true, value: true },
    });
  });

  it("runs the tables' read paths once, in the first slice the code check has nothing left for; not once a run came first", async () => {
    const held = gate();
    let midSession: IsolatedVmSession | undefined;
    const calls = spySlices({ hold: (slice, s) => (slice === 3 && s === midSession ? held.wait : undefined) });
    const check = vi.spyOn(CodeChecker.prototype, 'warmUp');
    // each read path run, with the slices asked for and the code check's programs run by then
    const reads: Array<{ slices: number; checks: number }> = [];
    const warmReads = CacheReader.prototype.warmReads;
    vi.spyOn(CacheReader.prototype, 'warmReads').mockImplementation(function (this: CacheReader) {
      reads.push({ slices: calls.length, checks: check.mock.calls.length });
      return warmReads.call(this);
    });
    // the buffers read from the file (the reader's private read), as `column role`
    type Read = { read(entry: { name: string }, role: string): unknown };
    const buffers: string[] = [];
    const read = (CacheReader.prototype as unknown as Read).read;
    vi.spyOn(CacheReader.prototype as unknown as Read, 'read').mockImplementation(function (this: Read, entry, role) {
      buffers.push(`${entry.name} ${role}`);
      return read.call(this, entry, role);
    });
    const full = hostWith();
    const fullId = await open(full);
    await warmedToTheEnd(calls, sessionOf(full, fullId));
    const slices = calls.length;
    expect(slices).toBeGreaterThan(WARM_PROGRAMS.length);
    // once, after every program of the code check, in the slice after the last of them
    expect(reads).toEqual([{ slices: WARM_PROGRAMS.length + 1, checks: WARM_PROGRAMS.length }]);
    // one number column's presence bytes, kept nowhere: the session's first run reads the column
    // (and a dictionary's offsets, for its window of one row)
    expect(buffers).toHaveLength(2);
    const [name, role] = buffers[0]!.split(/ (?=\w+$)/);
    expect(role).toBe('valid');
    expect(buffers[1]).toMatch(/ dictOffsets$/);
    expect(await answer(full, fullId, `award_data[${JSON.stringify(name)}].count() > 0`)).toMatchObject({
      outcome: { ok: true, value: true },
    });
    expect(buffers.slice(2)).toEqual([`${name} values`, `${name} valid`]);
    // a session whose first run arrives in slice 3 never gets there
    const mid = hostWith();
    const midId = await open(mid);
    midSession = sessionOf(mid, midId);
    await vi.waitFor(() => expect(calls.some((c) => c.session === midSession && c.slice === 3)).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    const first = answer(mid, midId, '1 + 1');
    held.open();
    expect(await first).toMatchObject({ outcome: { ok: true, value: 2 } });
    expect(reads).toHaveLength(1);
  });

  it("answers the caller's idle round trip without the isolate, and goes on warming", async () => {
    const calls = spySlices();
    const runs = vi.spyOn(IsolatedVmSession.prototype, 'run');
    const h = hostWith();
    const id = await open(h);
    const session = sessionOf(h, id);
    await vi.waitFor(() => expect(calls.some((c) => c.session === session && c.slice === 1)).toBe(true), {
      timeout: 30_000,
      interval: 5,
    });
    const cpu = session.isolate.cpuTime;
    // the round trip's source is never looked at (the caller sends the trivial program)
    const trip = await h.run(id, { source: '4242', preset: 'standard', timeoutMs: 60_000, warm: true });
    expect(trip).toMatchObject({ status: 'ok', codeRan: false, reset: false });
    expect(JSON.parse(trip.outcomeJson!)).toMatchObject({ ok: true, value: 0 });
    // not a run: the warm-up goes to its end, then the first run answers
    await warmedToTheEnd(calls, session);
    expect(session.isolate.cpuTime).toBeGreaterThan(cpu);
    expect(await answer(h, id, '1 + 1')).toMatchObject({ outcome: { ok: true, value: 2 } });
    const codes = runs.mock.calls.map(([req]) => req.code);
    expect(codes.some((c) => c.includes('4242'))).toBe(false);
    expect(codes.filter((c) => c.includes('1 + 1'))).toHaveLength(1);
  });

  it('ends with one run of the host trivial program after the last slice; a run that arrives first gets none', async () => {
    const held = gate();
    let midSession: IsolatedVmSession | undefined;
    const calls = spySlices({ hold: (slice, s) => (slice === 2 && s === midSession ? held.wait : undefined) });
    const runs: Array<[IsolatedVmSession, string]> = [];
    const run = IsolatedVmSession.prototype.run;
    vi.spyOn(IsolatedVmSession.prototype, 'run').mockImplementation(function (this: IsolatedVmSession, req) {
      runs.push([this, req.code]);
      return run.call(this, req);
    });
    const full = hostWith();
    const mid = hostWith();
    const fullId = await open(full);
    const midId = await open(mid);
    const fullSession = sessionOf(full, fullId);
    midSession = sessionOf(mid, midId);
    await warmedToTheEnd(calls, fullSession);
    await vi.waitFor(() => expect(runs.filter(([s]) => s === fullSession)).toEqual([[fullSession, '0']]), {
      timeout: 30_000,
      interval: 20,
    });
    await vi.waitFor(() => expect(calls.some((c) => c.session === midSession && c.slice === 2)).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    const first = answer(mid, midId, '1 + 1');
    held.open();
    expect(await first).toMatchObject({ outcome: { ok: true, value: 2 } });
    expect(await answer(full, fullId, '1 + 1')).toMatchObject({ outcome: { ok: true, value: 2 } });
    // the mid session's only runs are its caller's: no trivial run once a run had arrived
    expect(runs.filter(([s]) => s === midSession).map(([, code]) => code)).toHaveLength(1);
    expect(runs.filter(([s]) => s === fullSession)).toHaveLength(2);
  });

  it('leaves nothing a run can see: every probe answers as cold, warmed to the end or stopped mid-way', async () => {
    const held = gate();
    let midSession: IsolatedVmSession | undefined;
    const calls = spySlices({ hold: (slice, s) => (slice === 3 && s === midSession ? held.wait : undefined) });
    const full = hostWith();
    const cold = hostWith({ SBIRTOOLS_WARM_IDLE: '0' });
    const mid = hostWith();
    const fullId = await open(full);
    const coldId = await open(cold);
    const midId = await open(mid);
    midSession = sessionOf(mid, midId);
    await warmedToTheEnd(calls, sessionOf(full, fullId));
    await vi.waitFor(() => expect(calls.some((c) => c.session === midSession && c.slice === 3)).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    // the run arrives while slice 3 is in flight: it waits for that slice, and no other starts
    const first = answer(mid, midId, PROBES[0]!);
    held.open();
    const answers = [await first];
    for (const code of PROBES.slice(1)) answers.push(await answer(mid, midId, code));
    expect(calls.filter((c) => c.session === midSession).map((c) => c.slice)).toEqual([0, 1, 2, 3]);
    expect(await calls.find((c) => c.session === midSession && c.slice === 3)!.outcome).toBe('more');
    expect(calls.some((c) => c.session === sessionOf(cold, coldId))).toBe(false);
    for (let i = 0; i < PROBES.length; i++) {
      const want = await answer(cold, coldId, PROBES[i]!);
      expect(answers[i], PROBES[i]).toEqual(want);
      expect(await answer(full, fullId, PROBES[i]!), PROBES[i]).toEqual(want);
    }
  });

  it('never runs a slice after a run started: the host stops it, the engine and the prelude refuse', async () => {
    const events: Array<[IsolatedVmSession, string]> = [];
    const held = gate();
    let session: IsolatedVmSession | undefined;
    const calls = spySlices({
      hold: (slice, s) => {
        events.push([s, 'slice']);
        return slice === 2 && s === session ? held.wait : undefined;
      },
    });
    const run = IsolatedVmSession.prototype.run;
    vi.spyOn(IsolatedVmSession.prototype, 'run').mockImplementation(function (this: IsolatedVmSession, req) {
      events.push([this, 'run']);
      return run.call(this, req);
    });
    const h = hostWith();
    const id = await open(h);
    session = sessionOf(h, id);
    await vi.waitFor(() => expect(calls.some((c) => c.session === session && c.slice === 2)).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    const answered = answer(h, id, '1 + 1');
    held.open();
    await answered;
    // a session opened after the run and warmed to its end is the clock: the first one's warm-up
    // would have gone on meanwhile (the process was just as idle)
    const clock = hostWith();
    await warmedToTheEnd(calls, sessionOf(clock, await open(clock)));
    expect(events.filter(([s]) => s === session).map(([, e]) => e)).toEqual(['slice', 'slice', 'slice', 'run']);
    // asked directly after a run: refused without entering the isolate, and by the prelude itself
    const cpu = session.isolate.cpuTime;
    expect(await original.call(session, 5, 5_000)).toBe('refused');
    expect(session.isolate.cpuTime).toBe(cpu);
    const warmOne = (
      session as unknown as { warmOne: { apply(t: undefined, a: unknown[], o: object): Promise<unknown> } }
    ).warmOne;
    expect(await warmOne.apply(undefined, [5], { arguments: { copy: true }, result: { copy: true } })).toBeNull();
  });

  it('a failed slice with no run waiting: the session is built again, cold, and answers', async () => {
    const dispose = vi.spyOn(IsolatedVmSession.prototype, 'dispose');
    const calls = spySlices({ fail: 2 });
    const h = hostWith();
    const id = await open(h);
    const first = sessionOf(h, id);
    await vi.waitFor(() => expect(sessionOf(h, id)).not.toBe(first), { timeout: 30_000, interval: 20 });
    expect(first.alive).toBe(false);
    expect(dispose.mock.contexts).toContain(first);
    expect(await answer(h, id, "award_data['Award Amount'].sum() > 0")).toMatchObject({
      outcome: { ok: true, value: true },
    });
    // the new session is left cold: no slice ever ran in it
    expect(calls.filter((c) => c.session === first).map((c) => c.slice)).toEqual([0, 1, 2]);
    expect(calls.some((c) => c.session === sessionOf(h, id))).toBe(false);
  });

  it('a failed slice with a run waiting: the run never sees that isolate, it runs in a cold one, not reset', async () => {
    const held = gate();
    const calls = spySlices({ hold: (slice) => (slice === 2 ? held.wait : undefined), fail: 2 });
    const h = hostWith();
    const id = await open(h);
    const first = sessionOf(h, id);
    await vi.waitFor(() => expect(calls.some((c) => c.slice === 2)).toBe(true), { timeout: 30_000, interval: 20 });
    const run = vi.spyOn(IsolatedVmSession.prototype, 'run');
    const waiting = answer(h, id, "award_data['Award Amount'].sum() > 0");
    held.open();
    expect(await waiting).toMatchObject({ outcome: { ok: true, value: true } });
    expect(first.alive).toBe(false);
    expect(run.mock.contexts).not.toContain(first);
    expect(run.mock.contexts).toEqual([sessionOf(h, id)]);
  });

  it('a run the check refuses does not wait; the next run still waits for the slice in flight', async () => {
    const held = gate();
    const calls = spySlices({ hold: (slice) => (slice === 2 ? held.wait : undefined), fail: 2 });
    const h = hostWith();
    const id = await open(h);
    const first = sessionOf(h, id);
    await vi.waitFor(() => expect(calls.some((c) => c.slice === 2)).toBe(true), { timeout: 30_000, interval: 20 });
    const refused = await h.run(id, { source: "require('fs')", preset: 'standard', timeoutMs: 60_000 });
    expect(refused.status).toBe('rejected');
    const run = vi.spyOn(IsolatedVmSession.prototype, 'run');
    const waiting = answer(h, id, '1 + 1');
    held.open();
    expect(await waiting).toMatchObject({ outcome: { ok: true, value: 2 } });
    expect(run.mock.contexts).toEqual([sessionOf(h, id)]);
    expect(sessionOf(h, id)).not.toBe(first);
  });

  it('a run cancelled while it waits for a slice ends as aborted; the next run answers', async () => {
    const held = gate();
    const calls = spySlices({ hold: (slice) => (slice === 1 ? held.wait : undefined) });
    const h = hostWith();
    const id = await open(h);
    await vi.waitFor(() => expect(calls.some((c) => c.slice === 1)).toBe(true), { timeout: 30_000, interval: 20 });
    const waiting = h.run(id, { source: '1 + 1', preset: 'standard', timeoutMs: 60_000 });
    // the check is done on this thread before the run waits for the slice
    await vi.waitFor(
      () =>
        expect(
          (h as unknown as { sessions: Map<string, { waiting?: object }> }).sessions.get(id)!.waiting,
        ).toBeDefined(),
      { timeout: 30_000, interval: 5 },
    );
    h.abort(id);
    held.open();
    expect((await waiting).status).toBe('aborted');
    expect(await answer(h, id, '2 + 2')).toMatchObject({ outcome: { ok: true, value: 4 } });
  });

  it('is off with SBIRTOOLS_WARM_IDLE=0 and in a one-shot holder (SBIRTOOLS_NO_SPARES=1)', async () => {
    const calls = spySlices();
    const off = hostWith({ SBIRTOOLS_WARM_IDLE: '0' });
    const oneShot = hostWith({ SBIRTOOLS_NO_SPARES: '1' });
    const clock = hostWith();
    const offId = await open(off);
    const oneShotId = await open(oneShot);
    await warmedToTheEnd(calls, sessionOf(clock, await open(clock)));
    expect(calls.some((c) => c.session === sessionOf(off, offId))).toBe(false);
    expect(calls.some((c) => c.session === sessionOf(oneShot, oneShotId))).toBe(false);
  });

  it('has nothing to run in a QuickJS session (its engine offers no warm-up): it answers as before', async () => {
    const calls = spySlices();
    const h = hostWith();
    const id = await open(h, 'quickjs');
    const entry = (h as unknown as { sessions: Map<string, { idleWarm?: unknown }> }).sessions.get(id)!;
    expect(entry.idleWarm).toBeUndefined();
    const r = await h.run(id, {
      source: "award_data['Award Amount'].sum() > 0",
      preset: 'standard',
      timeoutMs: 60_000,
    });
    expect(r.status, r.message).toBe('ok');
    expect(JSON.parse(r.outcomeJson!)).toMatchObject({ ok: true, value: true });
    expect(calls).toEqual([]);
  });

  it('leaves a session warmed at its open alone (SBIRTOOLS_WARM_OPEN=1), and a session opened from a spare', async () => {
    const calls = spySlices();
    const warmOpen = hostWith({ SBIRTOOLS_WARM_OPEN: '1' });
    const withSpare = hostWith();
    const warmOpenId = await open(warmOpen);
    const firstId = await open(withSpare);
    await warmedToTheEnd(calls, sessionOf(withSpare, firstId));
    // the second session takes the spare booted meanwhile (it ran a trivial program: never warmed)
    await vi.waitFor(async () => expect(await withSpare.spareIsolates()).toBe(1), { timeout: 30_000, interval: 20 });
    const secondId = await open(withSpare);
    const clock = hostWith();
    await warmedToTheEnd(calls, sessionOf(clock, await open(clock)));
    expect(calls.some((c) => c.session === sessionOf(warmOpen, warmOpenId))).toBe(false);
    expect(calls.some((c) => c.session === sessionOf(withSpare, secondId))).toBe(false);
  });
});
