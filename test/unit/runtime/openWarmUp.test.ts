// A session built at its open is warmed before the open returns (sessionHost.ts `warmed`): its
// isolate runs the prelude's warm-up and the host's code check runs over a few programs
// (prepare/warmPrograms.ts). A warmed session answers exactly as a cold one; a warm-up that fails
// leaves a cold session, never a half-warmed one; SBIRTOOLS_WARM_OPEN=0 turns it off.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { CodeChecker } from '../../../src/runtime/prepare/codeChecker.js';
import { checkAndPrepare } from '../../../src/runtime/prepare/checkAndPrepare.js';
import { WARM_PROGRAMS } from '../../../src/runtime/prepare/warmPrograms.js';
import { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

let cacheDir: string;
const hosts: SessionHost[] = [];
let ids = 0;

beforeAll(() => {
  // no spares: every session below is built at its open
  process.env.SBIRTOOLS_NO_SPARES = '1';
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-open-warm-'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(() => {
  for (const h of hosts) h.closeAll();
  delete process.env.SBIRTOOLS_NO_SPARES;
  delete process.env.SBIRTOOLS_WARM_OPEN;
  rmSync(cacheDir, { recursive: true, force: true });
});

/** A host whose opens warm (`'1'`) or not (`'0'`): it reads the switch when made. */
function hostWith(warmOpen: '0' | '1'): SessionHost {
  process.env.SBIRTOOLS_WARM_OPEN = warmOpen;
  const h = new SessionHost();
  hosts.push(h);
  return h;
}

const spec = (): SessionSpec => ({
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir },
  tables: [],
  engine: 'isolated-vm',
});

async function open(h: SessionHost): Promise<string> {
  const id = `s${++ids}`;
  await h.open(id, spec());
  return id;
}

async function run(h: SessionHost, id: string, source: string): Promise<unknown> {
  const r = await h.run(id, { source, preset: 'standard', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
  return { outcome: JSON.parse(r.outcomeJson!), stdout: r.stdout, stderr: r.stderr };
}

// The policy blocks `globalThis` by name; this reaches it as an attacker would.
const GLOBAL = "(() => 0)[['constr', 'uctor'].join('')]('return this')()";

// What a run can see of the session: its globals, a mask's token, the row cache, answers of the
// paths both warm-ups took (row loops, keyed counts, array chains, sorts, dates, verbs, Series).
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

describe('the warm-up at a session open', () => {
  it('checks every warm program without an error (each exercises the parser and the transform)', () => {
    for (const source of WARM_PROGRAMS) expect(checkAndPrepare(source, 'standard').ok, source).toBe(true);
    expect(new CodeChecker().warmUp()).toBe(0);
  });

  it("warms a session built at its open: the isolate's warm-up, and the code check's once per process", async () => {
    const warm = vi.spyOn(IsolatedVmSession.prototype, 'warmUp');
    const check = vi.spyOn(CodeChecker.prototype, 'warmUp');
    const h = hostWith('1');
    await open(h);
    await open(h);
    expect(warm).toHaveBeenCalledTimes(2);
    expect(await Promise.all(warm.mock.results.map((r) => r.value))).toEqual([true, true]);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('does nothing with SBIRTOOLS_WARM_OPEN=0', async () => {
    const warm = vi.spyOn(IsolatedVmSession.prototype, 'warmUp');
    const check = vi.spyOn(CodeChecker.prototype, 'warmUp');
    await open(hostWith('0'));
    expect(warm).not.toHaveBeenCalled();
    expect(check).not.toHaveBeenCalled();
  });

  it('leaves nothing a run can see: every probe answers as in a session opened cold', async () => {
    const warmHost = hostWith('1');
    const coldHost = hostWith('0');
    const warmed = await open(warmHost);
    const cold = await open(coldHost);
    for (const code of PROBES) expect(await run(warmHost, warmed, code), code).toEqual(await run(coldHost, cold, code));
  });

  it('a warm-up that fails leaves no warmed isolate: the session is built again, cold, and answers', async () => {
    const dispose = vi.spyOn(IsolatedVmSession.prototype, 'dispose');
    vi.spyOn(IsolatedVmSession.prototype, 'warmUp').mockRejectedValueOnce(new Error('warm-up questions failed: 0: x'));
    const h = hostWith('1');
    const id = await open(h);
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(await run(h, id, "award_data['Award Amount'].sum() > 0")).toMatchObject({
      outcome: { ok: true, value: true },
    });
  });
});
