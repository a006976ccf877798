// Attack: an Arrow file that passes every check made when the table is opened (framing, schema, row
// counts, lengths) but one of whose columns is damaged (text offsets past its data, a dictionary key
// past its dictionary), read lazily (src/data/formats/arrowColumnar/lazyArrow.ts): a column is written
// from its buffers only when a run first touches it, in a column worker. The damaged column must end
// in DATA_CORRUPT naming it, every time it is asked for; the other columns must load; and the
// sandbox that touched it must go on running. A file damaged as a whole still fails at open.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  batchType,
  Column,
  columnFromArray,
  dictionary,
  float64,
  int32,
  tableFromColumns,
  tableToIPC,
  utf8,
} from '@uwdata/flechette';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { openLazyParquet } from '../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { expectHealthy } from './helpers.js';

const TEXT = new TextEncoder().encode('alphabetagamma'); // 14 bytes: 'alpha', 'beta', 'gamma'

/** An Arrow file: `name` (text whose offsets are written as given), `n` (3 doubles), `k` (a dictionary column whose keys are as given). */
function file(offsets: number[], keys: number[]): Uint8Array {
  const text = utf8();
  const T = batchType(text, {});
  const name = new T({
    type: text,
    length: 3,
    nullCount: 0,
    validity: new Uint8Array(0),
    offsets: Int32Array.from(offsets),
    values: TEXT,
  });
  const good = columnFromArray(['x', 'y', 'x'], dictionary(utf8(), int32()));
  const d = good.data[0] as unknown as { dictionary: unknown; type: unknown };
  const D = batchType(d.type as never, {});
  const k = new D({
    type: d.type,
    length: 3,
    nullCount: 0,
    validity: new Uint8Array(0),
    values: Int32Array.from(keys),
  } as never) as unknown as { setDictionary(x: unknown): void };
  k.setDictionary(d.dictionary);
  return tableToIPC(
    tableFromColumns({
      name: new Column([name] as never),
      n: columnFromArray([1.5, 2.5, 3], float64()),
      k: new Column([k] as never),
    }),
    { format: 'file' },
  )!;
}

let dir: string;
let damaged: string;
let good: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-lazy-arrow-'));
  good = join(dir, 'good.arrow');
  writeFileSync(good, file([0, 5, 9, 14], [0, 1, 0]));
  damaged = join(dir, 'attack.arrow');
  writeFileSync(damaged, file([0, 5, 9, 1000], [0, 7, 0]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (fn: () => unknown): DataError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    return err as DataError;
  }
  throw new Error('expected a DataError');
};

describe('a damaged Arrow column read on first touch', () => {
  it('the unaltered file loads every column', async () => {
    const t = await openLazyParquet('t', good, 'good.arrow', undefined, { format: 'arrow' });
    expect(t.meta.columns.map((c) => [c.name, c.type])).toEqual([
      ['name', 'string'],
      ['n', 'number'],
      ['k', 'string'],
    ]);
    const name = t.loadColumn('name');
    expect(name.kind === 'utf8' && Buffer.from(name.bytes).toString()).toBe('alphabetagamma');
    // 2 distinct values in 3 rows: UTF-8 by the dictionary rule (each value used twice on average)
    const k = t.loadColumn('k');
    expect(k.kind === 'utf8' && [Buffer.from(k.bytes).toString(), Array.from(k.offsets)]).toEqual([
      'xyx',
      [0, 1, 2, 3],
    ]);
  });

  it('text offsets past the data and a key past the dictionary: DATA_CORRUPT naming the column, each time; the others load', async () => {
    const t = await openLazyParquet('t', damaged, 'attack.arrow', undefined, { format: 'arrow' });
    for (let i = 0; i < 2; i++) {
      const e = failure(() => t.loadColumn('name'));
      expect(e.code).toBe('DATA_CORRUPT');
      expect(e.message).toMatch(/attack\.arrow: column 'name' is damaged/);
      expect(failure(() => t.loadColumn('k')).code).toBe('DATA_CORRUPT');
    }
    const n = t.loadColumn('n');
    expect(n.kind === 'float64' && Array.from(n.values)).toEqual([1.5, 2.5, 3]);
  });

  it('a file damaged as a whole fails at open, with a typed error', async () => {
    const cut = join(dir, 'cut.arrow');
    const bytes = file([0, 5, 9, 14], [0, 1, 0]);
    writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
    const err = await openLazyParquet('t', cut, 'cut.arrow', undefined, { format: 'arrow' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
  });

  it('in a sandbox: the run that touches the column fails with the code in its message; the session goes on', async () => {
    const box = await createSandbox({ awardData: false, tables: { t: damaged } });
    try {
      const bad = await box.run("t.name.str.contains('a').sum()");
      expect(bad.ok).toBe(false);
      expect(bad.error?.message).toMatch(/DATA_CORRUPT/);
      expect(bad.error?.message).toMatch(/attack\.arrow/);
      expect(bad.error?.message).not.toContain(dir);
      const ok = await box.run('t.n.sum()');
      expect(ok.error).toBeUndefined();
      expect(ok.value).toBe(7);
      await expectHealthy(box);
    } finally {
      await box.close();
    }
  }, 60_000);
});
