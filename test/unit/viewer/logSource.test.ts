import { appendFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LogSource } from '../../../src/viewer/logSource.js';
import { record, writeLog } from './fixtures.js';

describe('LogSource', () => {
  it('reads only what was appended, waits for a line to end, and keeps bad lines as problems', async () => {
    const path = writeLog([record({ code: 'a' })]);
    const log = new LogSource(path);
    expect(await log.refresh()).toBe(true);
    expect(log.entries.map((e) => e.record?.code)).toEqual(['a']);
    expect(await log.refresh()).toBe(false);
    const line = JSON.stringify(record({ code: 'b' }));
    appendFileSync(path, line.slice(0, 20)); // a record still being written
    expect(await log.refresh()).toBe(false);
    appendFileSync(path, `${line.slice(20)}\n\nnot json\n{"v":1}\n`);
    expect(await log.refresh()).toBe(true);
    expect(log.entries.map((e) => [e.line, e.record?.code ?? e.problem?.slice(0, 30)])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [4, 'Line 4 is not valid JSON; a ca'],
      [5, 'Line 5 is not a capsule record'],
    ]);
  });

  it('starts over when the file shrank, and treats a missing file as empty', async () => {
    const path = writeLog([record({ code: 'a' }), record({ code: 'b' })]);
    const log = new LogSource(path);
    await log.refresh();
    writeFileSync(path, `${JSON.stringify(record({ code: 'c' }))}\n`);
    expect(await log.refresh()).toBe(true);
    expect(log.entries.map((e) => e.record?.code)).toEqual(['c']);
    expect(log.generation).toBe(1);
    const missing = new LogSource(`${path}.nope`);
    expect(await missing.refresh()).toBe(false);
    expect(missing.entries).toEqual([]);
  });
});
