// `sbirtools info` and capsules: run --capsule-log, then replay (split from cli.test.ts, the suite's slowest file).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'sbirtools-cli-'));

describe('sbirtools info', () => {
  it('prints the data card, and JSON with --json', async () => {
    const text = await cli(['info']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Award Amount/);
    const json = await cli(['info', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toBeTypeOf('object');
  });
});

describe('capsules: run --capsule-log, then replay', () => {
  it('a deterministic run replays to the same stdout and value', async () => {
    const log = join(tmp(), 'runs.jsonl');
    const r = await cli([
      'run',
      '--deterministic',
      '--capsule-log',
      log,
      '--code',
      'print(new Date().toISOString(), Math.random()); Math.random()',
    ]);
    expect(r.code).toBe(0);
    const record = JSON.parse(readFileSync(log, 'utf8'));
    expect(record.deterministic).toEqual({ now: expect.any(Number), seed: expect.any(Number) });
    expect(record.dataset.synthetic).toBe(true);

    const replay = await cli(['replay', log]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/line 1: MATCH/);

    const json = await cli(['replay', log, '--line', '1', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      match: true,
      stdoutMatch: true,
      valueMatch: true,
      datasetMatch: true,
    });
  });

  it('a changed result is a mismatch (exit 1)', async () => {
    const log = join(tmp(), 'runs.jsonl');
    await cli(['run', '--capsule-log', log, '--code', '1 + 1']);
    const record = JSON.parse(readFileSync(log, 'utf8'));
    writeFileSync(log, `${JSON.stringify({ ...record, result: { ...record.result, valueHash: 'sha256:0' } })}\n`);
    const replay = await cli(['replay', log]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/MISMATCH: value differs/);
    expect((await cli(['replay', log, '--line', '9'])).code).toBe(2);
  });
});
