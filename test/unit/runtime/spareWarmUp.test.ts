// The holder warms its isolates in idle time by itself (holder/preludeWarmer.ts): a session's, and
// the spare booted after it (warmSessions.ts), which the next session of that shape then takes.
// Polled conditions only: the warm-up's end is seen as the session letting go of its warm function.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';
import type { EngineSession } from '../../../src/runtime/engines/engineSession.js';
import type { Built } from '../../../src/runtime/holder/warmSessions.js';

delete process.env.SBIRTOOLS_WARM_PRELUDE;
delete process.env.SBIRTOOLS_NO_SPARES;

let cacheDir: string;
let host: SessionHost;

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-spare-'));
  host = new SessionHost();
});

afterAll(() => {
  host.closeAll();
  rmSync(cacheDir, { recursive: true, force: true });
});

const spec = (): SessionSpec => ({
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir },
  tables: [],
  engine: 'isolated-vm',
});

type Inside = {
  sessions: Map<string, { session: EngineSession }>;
  warm: { spares: Map<string, Promise<Built | undefined>> };
};
const inside = () => host as unknown as Inside;
/** True once the session's warm-up is over (it lets go of the prelude's warm function). */
const warmed = (s: EngineSession) => (s as unknown as { warm: unknown }).warm === null;

describe('warming in idle time', () => {
  it('warms a new session and the spare after it; the next session takes the warmed spare and answers', async () => {
    await host.open('a', spec());
    const a = inside().sessions.get('a')!.session;
    const r = await host.run('a', { source: 'award_data.numRows()', preset: 'standard', timeoutMs: 60_000 });
    expect(r.status).toBe('ok');
    await vi.waitFor(() => expect(warmed(a)).toBe(true), { timeout: 120_000, interval: 50 });
    await vi.waitFor(() => expect(inside().warm.spares.size).toBe(1), { timeout: 60_000, interval: 50 });
    const spare = (await [...inside().warm.spares.values()][0])!.session;
    await vi.waitFor(() => expect(warmed(spare)).toBe(true), { timeout: 120_000, interval: 50 });
    await host.open('b', spec());
    expect(inside().sessions.get('b')!.session).toBe(spare);
    const b = await host.run('b', {
      source: "award_data['Award Amount'].sum() > 0",
      preset: 'standard',
      timeoutMs: 60_000,
    });
    expect(JSON.parse(b.outcomeJson!).value).toBe(true);
  }, 300_000);
});
