import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../../src/capsule/readCapsules.js';
import { sha256, valueHash } from '../../../src/capsule/hash.js';
import { withCapsules, type RunFn } from '../../../src/capsule/withCapsules.js';
import type { RunOptions } from '../../../src/index.js';
import { fakeResult } from '../adapters/fixtures.js';

const dataset = {
  name: 'award_data',
  synthetic: false,
  source: '/data/award_data.csv',
  identity: 'sha256:abc',
  rows: 10,
};

function fakeRun() {
  const calls: Array<{ code: string; options?: RunOptions }> = [];
  const fn: RunFn = async (code, options) => {
    calls.push({ code, ...(options ? { options } : {}) });
    return fakeResult({ stdout: `ran ${code}\n`, value: code.length, dataset });
  };
  return { fn, calls };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'sbirtools-capsule-'));

describe('withCapsules', () => {
  it('appends one record per run with hashes, dataset, limits and stats', async () => {
    const path = join(tmp(), 'logs', 'runs.jsonl');
    const { fn } = fakeRun();
    const logged = withCapsules(fn, { path, preset: 'strict' });
    const r1 = await logged('1 + 1');
    await logged('award_data.numRows()');
    const entries = await readCapsules(path);
    expect(entries.map((e) => e.line)).toEqual([1, 2]);
    const rec = entries[0]!.record;
    expect(rec).toMatchObject({
      v: 1,
      code: '1 + 1',
      codeHash: sha256('1 + 1'),
      preset: 'strict',
      dataset,
      deterministic: null,
      result: { ok: true, stdoutHash: sha256('ran 1 + 1\n'), valueHash: valueHash(r1) },
      stats: r1.stats,
      limits: r1.limits,
    });
    expect(rec.session).toBeUndefined();
    expect(rec.prelude).toMatch(/^(sha256:|sbirtools@)/);
  });

  it('deterministic: passes a fresh { now, seed } to each run and records it', async () => {
    const path = join(tmp(), 'runs.jsonl');
    const { fn, calls } = fakeRun();
    const logged = withCapsules(fn, { path, deterministic: true, session: 'chat-1' });
    const before = Date.now();
    await logged('a');
    await logged('b');
    const [first, second] = calls.map((c) => c.options?.deterministic);
    expect(first!.now).toBeGreaterThanOrEqual(before);
    expect(Number.isInteger(first!.seed) && first!.seed >= 0 && first!.seed < 2 ** 32).toBe(true);
    const records = (await readCapsules(path)).map((e) => e.record);
    expect(records.map((r) => r.deterministic)).toEqual([first, second]);
    expect(records.map((r) => r.session)).toEqual([
      { id: 'chat-1', seq: 1 },
      { id: 'chat-1', seq: 2 },
    ]);
  });

  it("a run's own { now, seed } wins", async () => {
    const { fn, calls } = fakeRun();
    await withCapsules(fn, { deterministic: true })('x', { deterministic: { now: 5, seed: 7 } });
    expect(calls[0]!.options?.deterministic).toEqual({ now: 5, seed: 7 });
  });

  it('says which file it cannot write', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'file'), '');
    const logged = withCapsules(fakeRun().fn, { path: join(dir, 'file', 'runs.jsonl') });
    await expect(logged('1')).rejects.toThrow(/Cannot write the capsule log .*runs\.jsonl/);
  });
});

describe('readCapsules', () => {
  it('names the line that is not a record', async () => {
    const path = join(tmp(), 'bad.jsonl');
    writeFileSync(path, '\n{"v":1}\n');
    await expect(readCapsules(path)).rejects.toThrow(/bad\.jsonl:2 is not a capsule record/);
    writeFileSync(path, 'nope\n');
    await expect(readCapsules(path)).rejects.toThrow(/bad\.jsonl:1 is not valid JSON/);
    expect(readFileSync(path, 'utf8')).toBe('nope\n');
  });
});
