// The spare's warm-up (prelude/runtime/warmUp.ts) in a real isolate: it runs only in an isolate no
// run has touched (after a run the host refuses without entering the isolate, and the prelude
// refuses too), every question runs, and a warmed session answers exactly as one never warmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';
import type { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';

let cacheDir: string;
let host: SessionHost;
let ids = 0;

beforeAll(() => {
  // no spares here: every session below is built for its test, and the warm-up is called by hand
  process.env.SBIRTOOLS_NO_SPARES = '1';
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-spare-warm-'));
  host = new SessionHost();
});

afterAll(() => {
  host.closeAll();
  delete process.env.SBIRTOOLS_NO_SPARES;
  rmSync(cacheDir, { recursive: true, force: true });
});

const spec = (): SessionSpec => ({
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir },
  tables: [],
  engine: 'isolated-vm',
});

async function open(): Promise<{ id: string; session: IsolatedVmSession }> {
  const id = `s${++ids}`;
  await host.open(id, spec());
  const entry = (host as unknown as { sessions: Map<string, { session: IsolatedVmSession }> }).sessions.get(id)!;
  return { id, session: entry.session };
}

async function run(id: string, source: string): Promise<{ outcome: unknown; stdout: string; stderr: string }> {
  const r = await host.run(id, { source, preset: 'permissive', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
  return { outcome: JSON.parse(r.outcomeJson!), stdout: r.stdout, stderr: r.stderr };
}

// The policy blocks `globalThis` by name; this reaches it as an attacker would.
const GLOBAL = "(() => 0)[['constr', 'uctor'].join('')]('return this')()";

// What a run can see of the session: its globals, a mask's token (the registry numbers them), the
// row cache (objects() twice), answers of the paths the warm-up ran, output.
const PROBES = [
  `Object.getOwnPropertyNames(${GLOBAL}).sort().join(',')`,
  "String(award_data['Award Amount'].gt(0))",
  "award_data[award_data['Award Amount'].gt(100000)].numRows()",
  "[award_data['Award Amount'].sum(), award_data['Award Amount'].mean(), award_data['Award Year'].min()]",
  'award_data.Agency.value_counts().head(5)',
  "award_data.groupby('Agency')['Award Amount'].sum().sort_values({ ascending: false }).head(3)",
  "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount'), n: op.count() }).orderby(aq.desc('total')).slice(0, 3).objects()",
  "let s = 0; for (const r of award_data.select('Agency', 'Award Amount').objects()) if (r.Agency === 'NASA') s += r['Award Amount'] || 0; print(s); s",
  "award_data.select('Agency').objects().length",
  "const srt = award_data.array('Award Amount').filter((v) => v != null).sort((x, y) => y - x); [srt.length, srt[0], srt[srt.length - 1], Math.min(...srt), Math.max(...srt)]",
];

describe("the spare's warm-up", () => {
  it('runs every question in an untouched isolate', async () => {
    const { session } = await open();
    // throws when a question failed
    expect(await session.warmUp(60_000)).toBe(true);
  });

  it('never runs after user code: refused without entering the isolate, and by the prelude itself', async () => {
    const { id, session } = await open();
    // a callback that would loop if anything ran a garbage collection inside the isolate for it
    await run(
      id,
      "var fr = new FinalizationRegistry(() => { while (true) {} }); (() => { for (let i = 0; i < 100; i++) fr.register({ i }, i) })(); 'registered'",
    );
    const cpu = session.isolate.cpuTime;
    expect(await session.warmUp(60_000)).toBe(false);
    expect(session.isolate.cpuTime, 'nothing ran in the isolate').toBe(cpu);
    // the prelude's own guard, reached past the host's: it refuses once a run has started
    const warm = (session as unknown as { warm: { apply(t: undefined, a: unknown[], o: object): Promise<unknown> } })
      .warm;
    expect(await warm.apply(undefined, [], { result: { copy: true }, timeout: 5_000 })).toBeNull();
    // the session is as it was
    expect((await run(id, '1 + 1')).outcome).toMatchObject({ ok: true, value: 2 });
  });

  it('leaves nothing a run can see: every probe answers as in a session never warmed', async () => {
    const warmed = await open();
    const cold = await open();
    expect(await warmed.session.warmUp(60_000)).toBe(true);
    for (const code of PROBES) {
      const a = await run(warmed.id, code);
      const b = await run(cold.id, code);
      expect(a, code).toEqual(b);
    }
  });
});
