// Attack: column names that mean something to JavaScript or to a terminal (`__proto__`,
// `constructor`, `hasOwnProperty`, control characters, very long, non-Latin) and shapes that make
// a reader work without end (thousands of columns, a key per row, deep nesting). A `__proto__`
// column ran a Parquet/Arrow round trip into the deadline and vanished from an Arrow export and
// from objects(). Every name is kept exactly through every reader, the sandbox (array, objects,
// print) and every writer; an empty, over-long or repeated name and an over-wide or over-deep file
// are refused with a typed error naming the column or the shape.
import { columnFromArray, float64, tableFromColumns, tableToIPC } from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { run } from '../../src/index.js';
import { expectHealthy } from './helpers.js';

const NAMES = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'c\u001b[2J\u0007',
  'tab\there',
  'x'.repeat(4000),
  'Ünïcødé 日本 🚀',
  ' spaced ',
  '1st-col',
  'a.b["c"]',
];
const VALUES = NAMES.map((_, i) => [i, i + 100]);

function rowsJson(names: string[]): string {
  return JSON.stringify([0, 1].map((r) => Object.fromEntries(names.map((n, i) => [n, VALUES[i]![r]]))));
}
const enc = (s: string) => new TextEncoder().encode(s);

const sources: Array<
  [string, () => { bytes: Uint8Array; format: 'json' | 'ndjson' | 'parquet' | 'arrow' | 'csv' }, string[]]
> = [
  ['JSON', () => ({ bytes: enc(rowsJson(NAMES)), format: 'json' }), NAMES],
  [
    'NDJSON',
    () => ({
      bytes: enc((JSON.parse(rowsJson(NAMES)) as object[]).map((r) => JSON.stringify(r)).join('\n')),
      format: 'ndjson',
    }),
    NAMES,
  ],
  [
    'Parquet',
    () => ({
      bytes: new Uint8Array(
        parquetWriteBuffer({
          columnData: NAMES.map((name, i) => ({ name, data: VALUES[i]!, type: 'DOUBLE' as const })),
        }),
      ),
      format: 'parquet',
    }),
    NAMES,
  ],
  [
    'Arrow',
    () => ({
      bytes: tableToIPC(
        tableFromColumns(
          NAMES.map(
            (n, i) => [n, columnFromArray(VALUES[i]!, float64())] as [string, ReturnType<typeof columnFromArray>],
          ),
        ),
        { format: 'file' },
      )!,
      format: 'arrow',
    }),
    NAMES,
  ],
  // CSV: a header cell may hold any character but a bare newline; quotes are doubled
  [
    'CSV',
    () => ({
      bytes: enc(
        [
          NAMES.map((n) => `"${n.replace(/"/g, '""')}"`).join(','),
          ...[0, 1].map((r) => VALUES.map((v) => v[r]).join(',')),
        ].join('\n') + '\n',
      ),
      format: 'csv',
    }),
    NAMES,
  ],
];

// everything the sandbox says about the table: names, values by name, row objects, print
const PROBE = `
const names = t.columnNames();
const objs = t.objects();
print(t.select(names.slice(0, 3)));
[names, names.map((n) => Array.from(t.array(n))), objs.map((o) => Object.keys(o)), objs.map((o) => names.map((n) => Object.hasOwn(o, n) ? o[n] : 'MISSING'))]
`;

describe('column names are data', () => {
  for (const [what, source, names] of sources) {
    it(`${what}: every name is kept exactly in the sandbox`, async () => {
      const r = await run(PROBE, { awardData: false, tables: { t: source() } });
      expect(r.ok, JSON.stringify(r.ok ? null : r.error)).toBe(true);
      const [got, arrays, keys, values] = r.value as [string[], number[][], string[][], unknown[][]];
      expect(got).toEqual(names);
      expect(arrays).toEqual(VALUES);
      expect(keys).toEqual([names, names]);
      expect(values).toEqual([VALUES.map((v) => v[0]), VALUES.map((v) => v[1])]);
      expect(r.stdout).toContain('__proto__');
      expect(r.stdout).toContain('constructor');
    });
  }

  it('every writer keeps every name, and what it writes reads back the same', async () => {
    const code =
      "to_csv(t, 't.csv'); to_json(t, 't.json'); to_json(t, 't.ndjson'); to_parquet(t, 't.parquet'); to_arrow(t, 't.arrow'); to_parquet(t, 'ts.parquet', { compression: 'snappy' }); 1";
    const r = await run(code, { awardData: false, tables: { t: { bytes: enc(rowsJson(NAMES)), format: 'json' } } });
    expect(r.ok, JSON.stringify(r.ok ? null : r.error)).toBe(true);
    expect(r.files?.map((f) => f.name)).toEqual(['t.csv', 't.json', 't.ndjson', 't.parquet', 't.arrow', 'ts.parquet']);
    for (const f of r.files!) {
      const format = f.name.endsWith('.csv')
        ? 'csv'
        : f.name.endsWith('.ndjson')
          ? 'ndjson'
          : f.name.endsWith('.json')
            ? 'json'
            : f.name.endsWith('.arrow')
              ? 'arrow'
              : 'parquet';
      const back = await run('[t.columnNames(), t.columnNames().map((n) => Array.from(t.array(n)))]', {
        awardData: false,
        tables: { t: { bytes: f.bytes!, format } },
      });
      expect(back.ok, `${f.name}: ${JSON.stringify(back.ok ? null : back.error)}`).toBe(true);
      expect(back.value, f.name).toEqual([NAMES, VALUES]);
    }
  });

  it('a result keeps every name: the table itself, and a table inside a returned value', async () => {
    for (const engine of ['isolated-vm', 'quickjs'] as const) {
      const tables = { t: { bytes: enc(rowsJson(NAMES)), format: 'json' as const } };
      const whole = await run('t', { engine, awardData: false, tables });
      expect(whole.table?.columns, engine).toEqual(NAMES);
      expect(whole.table?.rows).toEqual([VALUES.map((v) => v[0]), VALUES.map((v) => v[1])]);
      const nested = await run('[t.objects(), [t]]', { engine, awardData: false, tables });
      const [objs, [rows]] = nested.value as [Array<Record<string, unknown>>, [Array<Record<string, unknown>>]];
      for (const list of [objs, rows]) {
        expect(Object.keys(list[0]!), engine).toEqual(NAMES);
        expect(Object.hasOwn(list[0]!, '__proto__') && list[0]!['__proto__']).toBe(0);
      }
    }
  });

  it('a row table (library) keeps the names, and a row without `constructor` is null there, not Object', async () => {
    const rows = [JSON.parse('{"__proto__": 1, "a": 2}') as object, { constructor: 3 }];
    const r = await run('[t.columnNames(), t.columnNames().map((n) => Array.from(t.array(n)))]', {
      awardData: false,
      tables: { t: rows as Array<Record<string, unknown>> },
    });
    expect(r.value).toEqual([
      ['__proto__', 'a', 'constructor'],
      [
        [1, null],
        [2, null],
        [null, 3],
      ],
    ]);
  });
});

describe('names and shapes that are refused, naming the column', () => {
  const refused = async (bytes: Uint8Array, format: string) => {
    const err = await run('1', { awardData: false, tables: { t: { bytes, format: format as 'json' } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    return err as DataError;
  };

  it('an empty name (Arquero would drop the column) in JSON, Parquet and Arrow', async () => {
    const json = await refused(enc('[{"a": 1, "": 2}]'), 'json');
    expect([json.code, json.message]).toEqual([
      'DATA_UNSUPPORTED',
      expect.stringMatching(/column 2 has an empty name/),
    ]);
    const pq = await refused(
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'a', data: [1], type: 'DOUBLE' },
            { name: '', data: [2], type: 'DOUBLE' },
          ],
        }),
      ),
      'parquet',
    );
    expect(pq.message).toMatch(/column 2 has an empty name/);
    const arrow = await refused(
      tableToIPC(tableFromColumns([['', columnFromArray([1], float64())]]), { format: 'stream' })!,
      'arrow',
    );
    expect(arrow.message).toMatch(/column 1 has an empty name/);
  });

  it('a name over the length limit, quoted with its control characters escaped', async () => {
    const err = await refused(enc(`[{"\\u001b[2J${'y'.repeat(5000)}": 1}]`), 'json');
    expect(err.code).toBe('DATA_UNSUPPORTED');
    expect(err.message).toMatch(
      /column 1's name is 5004 characters long, over the 4096-character limit \(it starts "\\u001b\[2Jyyy/,
    );
    expect(err.message).not.toMatch(/\u001b/);
  });

  it('a name given twice in Parquet', async () => {
    const err = await refused(
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: '__proto__', data: [1], type: 'DOUBLE' },
            { name: '__proto__', data: [2], type: 'DOUBLE' },
          ],
        }),
      ),
      'parquet',
    );
    expect(err.code).toBe('DATA_CORRUPT');
    expect(err.message).toMatch(/column ['"]__proto__['"] appears twice/);
  });

  it('a very wide JSON table (10,001 columns) and a key per row (20,000 rows) are DATA_TOO_LARGE', async () => {
    const wide = `[{${Array.from({ length: 10_001 }, (_, i) => `"c${i}": ${i}`).join(',')}}]`;
    expect((await refused(enc(wide), 'json')).message).toMatch(/10001 columns, more than 10000/);
    const sparse = Array.from({ length: 20_000 }, (_, i) => `{"k${i}": 1}`).join('\n');
    expect((await refused(enc(sparse), 'ndjson')).message).toMatch(/\d+ columns, more than 10000/);
  });

  it('a CSV header of 200,000 columns is DATA_TOO_LARGE before any column is built (it ran out of memory)', async () => {
    const n = 200_000;
    const csv = `${Array.from({ length: n }, (_, i) => `c${i}`).join(',')}\n${Array.from({ length: n }, (_, i) => i).join(',')}\n`;
    const err = await refused(enc(csv), 'csv');
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(err.message).toMatch(/the header names 200000 columns, more than 10000/);
  });

  it('a JSON file nested 100,000 deep is DATA_UNSUPPORTED', async () => {
    const deep = `[{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
    const err = await refused(enc(deep), 'json');
    expect(err.code).toBe('DATA_UNSUPPORTED');
    expect(err.message).toMatch(/nest more than 64 levels deep/);
  });

  it('an Arrow file with more columns than the cap is DATA_TOO_LARGE', async () => {
    const cols = Array.from(
      { length: 10_001 },
      (_, i) => [`c${i}`, columnFromArray([i], float64())] as [string, ReturnType<typeof columnFromArray>],
    );
    const err = await refused(tableToIPC(tableFromColumns(cols), { format: 'file' })!, 'arrow');
    expect(err.code).toBe('DATA_TOO_LARGE');
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
