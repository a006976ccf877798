// The code check's warm programs in idle time after a run (SessionHost.warmCheckerWhenIdle): a
// session whose first run followed its open at once never had the idle window of its isolate's
// warm-up, so the holder's thread checks the programs afterwards, once per process, one per step,
// never while a run is in flight, and not at all with SBIRTOOLS_WARM_IDLE=0 or in a one-shot holder.
// Calls are counted and ordered here, never timed: a host warmed to the end is the clock of one that
// is not.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { CodeChecker } from '../../../src/runtime/prepare/codeChecker.js';
import { WARM_PROGRAMS } from '../../../src/runtime/prepare/warmPrograms.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

let cacheDir: string;
const hosts: SessionHost[] = [];

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-check-idle-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const h of hosts.splice(0)) h.closeAll();
});
afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

function hostWith(env: Record<string, string> = {}): SessionHost {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  const h = new SessionHost();
  for (const k of Object.keys(env)) delete process.env[k];
  hosts.push(h);
  return h;
}

const spec = (): SessionSpec => ({
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir },
  tables: [],
});

const checkerOf = (h: SessionHost): CodeChecker => (h as unknown as { checker: CodeChecker }).checker;

/** Every call of the code check's warm-up: by which host's checker, which programs, and whether a run was in flight. */
function spyWarmUp(
  running: () => boolean = () => false,
): Array<{ checker: CodeChecker; args: number[]; running: boolean }> {
  const calls: Array<{ checker: CodeChecker; args: number[]; running: boolean }> = [];
  const original = CodeChecker.prototype.warmUp;
  vi.spyOn(CodeChecker.prototype, 'warmUp').mockImplementation(function (
    this: CodeChecker,
    from?: number,
    to?: number,
  ) {
    calls.push({ checker: this, args: [from!, to!], running: running() });
    return original.call(this, from, to);
  });
  return calls;
}

async function run(h: SessionHost, id: string, source: string): Promise<void> {
  const r = await h.run(id, { source, preset: 'standard', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
}

describe("the code check's warm-up in idle time after a run", () => {
  it('checks each warm program once, in order, one per call, after a first run that followed the open at once', async () => {
    const calls = spyWarmUp();
    const h = hostWith();
    await h.open('s', spec());
    await run(h, 's', 'award_data.numRows()');
    await vi.waitFor(() => expect(calls.length).toBe(WARM_PROGRAMS.length), { timeout: 30_000, interval: 50 });
    expect(calls.map((c) => c.args)).toEqual(WARM_PROGRAMS.map((_, i) => [i, i + 1]));
    // and no more: once per process, also after later runs
    await run(h, 's', '1 + 1');
    await run(h, 's', 'award_data.numRows()');
    const clock = hostWith();
    await clock.open('c', spec());
    await run(clock, 'c', '2');
    await vi.waitFor(
      () => expect(calls.filter((c) => c.checker === checkerOf(clock)).length).toBe(WARM_PROGRAMS.length),
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    expect(calls.filter((c) => c.checker === checkerOf(h)).length).toBe(WARM_PROGRAMS.length);
  }, 90_000);

  it('checks nothing while a run is in flight', async () => {
    let h: SessionHost | undefined;
    const running = () =>
      [
        ...((h as unknown as { sessions: Map<string, { session: { isRunning: boolean } }> })?.sessions.values() ?? []),
      ].some((e) => e.session.isRunning);
    const calls = spyWarmUp(running);
    h = hostWith();
    await h.open('s', spec());
    await run(h, 's', '0');
    // runs of ~200 ms each, one after another, while the warm-up waits for idle time between them
    for (let i = 0; i < 3; i++) await run(h, 's', 'const t0 = Date.now(); while (Date.now() - t0 < 200); 1');
    await vi.waitFor(() => expect(calls.length).toBe(WARM_PROGRAMS.length), { timeout: 30_000, interval: 50 });
    expect(calls.some((c) => c.running)).toBe(false);
  }, 90_000);

  it('is off with SBIRTOOLS_WARM_IDLE=0 and in a one-shot holder (SBIRTOOLS_NO_SPARES=1)', async () => {
    const calls = spyWarmUp();
    const off = hostWith({ SBIRTOOLS_WARM_IDLE: '0' });
    const oneShot = hostWith({ SBIRTOOLS_NO_SPARES: '1' });
    const clock = hostWith();
    for (const [h, id] of [
      [off, 'o'],
      [oneShot, 'n'],
      [clock, 'c'],
    ] as const) {
      await h.open(id, spec());
      await run(h, id, 'award_data.numRows()');
    }
    await vi.waitFor(
      () => expect(calls.filter((c) => c.checker === checkerOf(clock)).length).toBe(WARM_PROGRAMS.length),
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    expect(calls.some((c) => c.checker === checkerOf(off) || c.checker === checkerOf(oneShot))).toBe(false);
  }, 90_000);
});
