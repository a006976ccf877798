// A dictionary column whose entries decode to one string more than once must group, count and
// filter as the plain path does (one group, one count, every row matched): a user's Parquet file
// whose dictionary holds bytes that are not UTF-8 (`zq\xff` and `zq\xfe` both read as `zq\uFFFD`;
// it failed before the guest mapped such codes), a caller's columnar table that repeats an entry
// (failed before the facade merged it), and, already right and kept so: the same in an Arrow file
// (its reader re-encodes such entries), a file whose dictionary repeats an entry (the readers
// intern by bytes), and concat of such tables (it interns by string). Every expression runs on the table as loaded (the fast
// paths on dictionary codes) and on a copy of it made of plain arrays (Arquero's own path), on both
// engines, through the facade as a user runs it.
import { columnFromArray, dictionary, float64, int32, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, test } from 'vitest';
import type { ColumnarTable } from '../../../../schema/columnar.js';
import { createSandbox, type Sandbox } from '../../../../src/index.js';

const N = 3000;
const K = Array.from({ length: N }, (_, i) => (i % 31 === 0 ? null : ['zq1', 'ok', 'zq2', 'b', 'zq1'][i % 5]!));
const K2 = Array.from({ length: N }, (_, i) => ['x', 'y'][i % 2]!);
const V = Array.from({ length: N }, (_, i) => (i * 13) % 97);

/**
 * `bytes` with the third byte of every `zq1` / `zq2` replaced by `one` / `two` (the writers only
 * write UTF-8, and no other bytes of these files spell `zq`).
 */
function patched(bytes: Uint8Array, one: number, two: number): Uint8Array {
  let hits = 0;
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 0x7a && bytes[i + 1] === 0x71 && (bytes[i + 2] === 0x31 || bytes[i + 2] === 0x32)) {
      bytes[i + 2] = bytes[i + 2] === 0x31 ? one : two;
      hits++;
    }
  if (hits < 2) throw new Error('no dictionary entries to patch');
  return bytes;
}

function parquet(one: number, two: number): Uint8Array {
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 'K', data: K, type: 'STRING' },
      { name: 'K2', data: K2, type: 'STRING' },
      { name: 'V', data: V, type: 'INT32' },
    ],
    codec: 'UNCOMPRESSED',
  });
  return patched(new Uint8Array(bytes), one, two);
}

function arrow(one: number, two: number): Uint8Array {
  const t = tableFromColumns({
    K: columnFromArray(K, dictionary(utf8(), int32())),
    K2: columnFromArray(K2, dictionary(utf8(), int32())),
    V: columnFromArray(V, float64()),
  });
  return patched(tableToIPC(t, { format: 'file' })!, one, two);
}

/** A caller's columnar table whose dictionary holds `zq1` twice (codes 0 and 2). */
function columnar(): ColumnarTable {
  const entries = ['zq1', 'ok', 'zq1', 'b'];
  const enc = entries.map((s) => new TextEncoder().encode(s));
  const dictOffsets = new Int32Array(entries.length + 1);
  enc.forEach((e, j) => (dictOffsets[j + 1] = dictOffsets[j]! + e.length));
  const dictBytes = new Uint8Array(dictOffsets[entries.length]!);
  enc.forEach((e, j) => dictBytes.set(e, dictOffsets[j]!));
  const codes = Int32Array.from(K, (k, i) =>
    k === null ? -1 : k === 'zq1' ? (i % 2 ? 0 : 2) : k === 'ok' ? 1 : k === 'b' ? 3 : 2,
  );
  return {
    name: 'api',
    numRows: N,
    columns: [
      {
        name: 'K',
        type: 'string',
        kind: 'dict',
        data: { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets },
      },
      {
        name: 'V',
        type: 'number',
        kind: 'float64',
        data: { kind: 'float64', type: 'number', values: Float64Array.from(V), valid: new Uint8Array(N).fill(1) },
      },
    ],
  };
}

// each table with the string its repeated entries read as
const TABLES = {
  pq: [parquet(0xfe, 0xff), 'zq\uFFFD'], // zq\xfe and zq\xff: two entries, one string
  pqSame: [parquet(0x31, 0x31), 'zq1'], // a dictionary page that holds zq1 twice
  ar: [arrow(0xfe, 0xff), 'zq\uFFFD'],
  arSame: [arrow(0x31, 0x31), 'zq1'],
  api: [columnar(), 'zq1'],
} as const;

const EXPRS = [
  "(X) => X.groupby('K').count()",
  "(X) => X.groupby('K').size()",
  "(X) => X.groupby('K')['V'].sum()",
  "(X) => X.groupby('K').agg({ V: 'mean' }, { dropna: false })",
  "(X) => X.groupby('K').rollup({ n: op.count(), s: op.sum('V'), d: op.distinct('V') })",
  "(X) => X.rollup({ d: op.distinct('K') })",
  '(X) => X.K.value_counts({ dropna: false })',
  "(X) => value_counts(X, 'K')",
  '(X) => X.filter(X.V.gt(10)).K.value_counts()',
  '(X) => [X.K.nunique(), X.K.unique(), X.K.mode()]',
  '(X, S) => [X.filter((d) => d.K === S).numRows(), X.K.eq(S).sum(), X.K.isin([S]).sum(), X.filter(aq.escape((d) => [S].includes(d.K))).numRows()]',
  "(X, S) => X.params({ s: S }).filter((d, $) => d.K === $.s).array('V')",
  "(X) => X.groupby('K').sort_values('K').head(50)",
  "(X) => drop_duplicates(X, ['K'])",
  "(X) => X.columnNames().includes('K2') ? [pivot_table(X, { index: 'K', columns: 'K2', values: 'V', aggfunc: 'sum' }), crosstab(X, 'K', 'K2')] : null",
  "(X) => X.columnNames().includes('K2') ? X.groupby(['K', 'K2']).agg({ V: 'count' }) : null",
  "(X) => { const C = concat([X, X.filter(X.V.gt(50))]); return [C.groupby('K').size(), C.K.value_counts()]; }",
  "(X) => { const C = concat([X.select('K', 'V'), aq.table({ K: ['zq1', 'new'], V: [1, 2] })]); return [C.groupby('K').size(), C.K.nunique()]; }",
];

const GUEST = `
var __ser = (v) => v === undefined ? 'u' : v === null ? 'n' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v))
  : Array.isArray(v) ? '[' + v.map(__ser).join(',') + ']' : typeof v + ':' + JSON.stringify(v);
var __dump = (x) => {
  if (x instanceof aq.ColumnTable) return JSON.stringify({ names: x.columnNames(), cols: x.columnNames().map((c) => x.array(c).map(__ser)) });
  if (x && typeof x.tolist === 'function') return JSON.stringify({ v: x.tolist().map(__ser), i: x.index });
  if (Array.isArray(x)) return '[' + x.map(__dump).join(',') + ']';
  return __ser(x);
};
var __plain = (t) => aq.table(Object.fromEntries(t.columnNames().map((c) => [c, t.array(c)])));
var __diff = (names, strings, exprs) => {
  const out = [];
  names.forEach((name, j) => {
    const T = tables[name];
    const P = __plain(T);
    for (const e of exprs) {
      const run = (x) => { try { return __dump(e(x, strings[j])); } catch (err) { return 'ERR ' + err.name + ': ' + err.message; } };
      const a = run(T);
      const b = run(P);
      if (a !== b) out.push({ table: name, expr: String(e), fast: a.slice(0, 400), plain: b.slice(0, 400) });
    }
  });
  return out;
};
true`;

const boxes: Sandbox[] = [];
afterAll(async () => {
  for (const b of boxes) await b.close();
});

describe.each(['isolated-vm', 'quickjs'] as const)('a dictionary that holds one string twice (%s)', (engine) => {
  test('groups, counts and filters as the plain path does', async () => {
    const box = await createSandbox({
      awardData: false,
      engine,
      tables: Object.fromEntries(Object.entries(TABLES).map(([n, [t]]) => [n, t])),
    });
    boxes.push(box);
    const setup = await box.run(GUEST);
    expect(setup.error).toBeUndefined();
    const names = Object.keys(TABLES);
    const strings = Object.values(TABLES).map(([, s]) => s);
    const bad: unknown[] = [];
    for (let i = 0; i < EXPRS.length; i += 6) {
      const r = await box.run(
        `__diff(${JSON.stringify(names)}, ${JSON.stringify(strings)}, [${EXPRS.slice(i, i + 6).join(',\n')}])`,
      );
      expect(r.error).toBeUndefined();
      bad.push(...(r.value as unknown[]));
    }
    expect(bad).toEqual([]);
    // the repeated string is one group: not the sign of a path that fell back
    const r = await box.run(
      `[${JSON.stringify(names)}.map((n, j) => tables[n].groupby('K').count().array('K').filter((k) => k === ${JSON.stringify(strings)}[j]).length), tables.pq.K.nunique()]`,
    );
    expect(r.value).toEqual([[1, 1, 1, 1, 1], 3]);
  }, 240_000);
});
