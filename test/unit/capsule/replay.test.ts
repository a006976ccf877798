import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../../src/adapters/sessionStore.js';
import { replayCapsule } from '../../../src/capsule/replay.js';
import { shutdown } from '../../../src/index.js';

afterAll(async () => {
  await shutdown();
});

describe('replayCapsule', () => {
  it('re-runs a deterministic run with the same clock and seed: stdout and value match', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-replay-')), 'runs.jsonl');
    const store = createSessionStore({ capsuleLog: path, deterministic: true });
    await store.run('print(Date.now(), Math.random()); [new Date().toISOString(), Math.random()]');
    await store.close();
    const report = await replayCapsule(path);
    expect(report).toMatchObject({
      line: 1,
      match: true,
      stdoutMatch: true,
      valueMatch: true,
      datasetMatch: true,
      preludeMatch: true,
    });
  });

  it('rebuilds a session from its earlier records', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-replay-')), 'runs.jsonl');
    const store = createSessionStore({ capsuleLog: path, deterministic: true });
    await store.run('const r = Math.random()', { sessionId: 's' });
    await store.run('1', { sessionId: 'other' });
    await store.run('r * 2', { sessionId: 's' });
    await store.close();
    const report = await replayCapsule(path, { line: 3 });
    expect(report).toMatchObject({ match: true, replayedBefore: 1 });
  });

  it('reports a mismatch and a different dataset', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-replay-')), 'runs.jsonl');
    const store = createSessionStore({ capsuleLog: path, deterministic: true });
    await store.run('print(1); 1');
    await store.close();
    const rec = JSON.parse(readFileSync(path, 'utf8'));
    rec.code = 'print(2); 2';
    rec.dataset = { ...rec.dataset, identity: 'sha256:other' };
    writeFileSync(path, `${JSON.stringify(rec)}\n`);
    const report = await replayCapsule(path);
    expect(report).toMatchObject({ match: false, stdoutMatch: false, valueMatch: false, datasetMatch: false });
    expect(report.notes.join('\n')).toMatch(/award_data differs from the recorded data/);
    expect(report.notes.join('\n')).toMatch(/does not match its recorded hash/);
  });
});

describe('replayCapsule on old and new records', () => {
  it('replays a record written before maxFileBytes existed, and one with outputs, in the same log', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-replay-')), 'runs.jsonl');
    const store = createSessionStore({ capsuleLog: path, capsuleOutputs: true, deterministic: true });
    await store.run("print('new'); value_counts(award_data, 'Phase')");
    await store.close();
    const fresh = JSON.parse(readFileSync(path, 'utf8').trim());
    expect(fresh.outputs.stdout).toBe('new\n');
    // the same run as an older sbirtools logged it: no outputs, no maxFileBytes among the limits
    const { outputs: _o, ...old } = fresh;
    const { maxFileBytes: _m, ...oldLimits } = fresh.limits;
    writeFileSync(path, `${JSON.stringify({ ...old, limits: oldLimits })}\n${JSON.stringify(fresh)}\n`);
    for (const line of [1, 2]) {
      const report = await replayCapsule(path, { line });
      expect(report).toMatchObject({ line, match: true, stdoutMatch: true, valueMatch: true });
    }
  });
});
