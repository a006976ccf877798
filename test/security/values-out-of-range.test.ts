// Attack: values a JavaScript number or Date cannot hold. A 30-digit integer in a JSON table was
// rounded, `1e400` became null, and a Parquet/Arrow timestamp beyond JavaScript's date range came
// back as the string "Invalid Date". Now such numbers are kept as their exact text (their column
// becomes text; docs/dataset.md), and an out-of-range time is DATA_OUT_OF_RANGE naming the column
// and row; nothing in between.
import { columnFromArray, float64, tableFromColumns, tableToIPC, timestamp, TimeUnit } from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { exactNumbersAsText } from '../../src/data/formats/exactJsonNumbers.js';
import { run } from '../../src/index.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('numbers a double cannot hold, in JSON tables', () => {
  const literals = [
    '123456789012345678901234567890',
    '-98765432109876543210',
    '9007199254740993',
    '1e400',
    '-1e400',
    '1e-400',
    '12345678901234567890.000',
  ];

  it('are kept as their exact text, in JSON and NDJSON, and safe numbers stay numbers', async () => {
    const rows = literals.map(
      (l, i) => `{"i": ${i}, "v": ${l}, "ok": ${i + 0.5}, "s": "12345678901234567890123 1e400"}`,
    );
    for (const [format, body] of [
      ['json', `[${rows.join(',\n')}]`],
      ['ndjson', rows.join('\n')],
    ] as const) {
      const r = await run('[t.array("v"), t.array("ok"), t.array("s")[0], dtypes(t)]', {
        awardData: false,
        tables: { t: { bytes: text(body), format } },
      });
      expect(r.ok, JSON.stringify(r.ok ? null : r.error)).toBe(true);
      const [v, ok, s, types] = r.value as [string[], number[], string, Record<string, string>];
      expect(v).toEqual(literals);
      expect(ok).toEqual(literals.map((_, i) => i + 0.5));
      expect(s).toBe('12345678901234567890123 1e400');
      expect(types).toMatchObject({ v: 'string', ok: 'number' });
    }
  });

  it('exactNumbersAsText leaves every other literal and all string contents alone', () => {
    const safe =
      '[{"a": 9007199254740991, "b": -0.1, "c": 1e300, "d": 1.7976931348623157e308, "e": "1234567890123456789 \\" 1e999", "f": 0.0000000000000000001}]';
    expect(exactNumbersAsText(safe)).toBe(safe);
    expect(JSON.parse(exactNumbersAsText('{"a":[1e999, "x\\"1e999", 12345678901234567890]}'))).toEqual({
      a: ['1e999', 'x"1e999', '12345678901234567890'],
    });
  });

  it('a row table with a BigInt beyond 2^53 keeps it exactly as text', async () => {
    const r = await run('t.array("v")', { awardData: false, tables: { t: [{ v: 2n ** 64n + 1n }, { v: 5n }] } });
    expect(r.value).toEqual(['18446744073709551617', '5']);
  });
});

describe("a timestamp beyond JavaScript's date range", () => {
  const refused = async (bytes: Uint8Array, format: 'arrow' | 'parquet') => {
    const err = await run('t.array("when").map(String)', { awardData: false, tables: { t: { bytes, format } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_OUT_OF_RANGE');
    expect((err as DataError).message).toMatch(
      /column 'when' row 2 holds a time of .* outside JavaScript's date range/,
    );
  };

  it('in an Arrow file is DATA_OUT_OF_RANGE, never "Invalid Date"', async () => {
    for (const [unit, big] of [
      [TimeUnit.SECOND, 1e17],
      [TimeUnit.MILLISECOND, 8.64e15 + 1],
      [TimeUnit.MICROSECOND, 9e15],
      [TimeUnit.MILLISECOND, -9e15],
    ] as const) {
      const t = tableFromColumns({
        n: columnFromArray([1, 2], float64()),
        when: columnFromArray([0, big], timestamp(unit)),
      });
      await refused(tableToIPC(t, { format: 'file' })!, 'arrow');
    }
  });

  it('in a Parquet file is DATA_OUT_OF_RANGE', async () => {
    const bytes = parquetWriteBuffer({
      columnData: [{ name: 'when', data: [0n, 10n ** 17n] }],
      schema: [
        { name: 'root', num_children: 1 },
        { name: 'when', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'OPTIONAL' },
      ],
    });
    await refused(new Uint8Array(bytes), 'parquet');
  });

  it('the edge of the range itself loads', async () => {
    const t = tableFromColumns({ when: columnFromArray([-8.64e15, 8.64e15], timestamp(TimeUnit.MILLISECOND)) });
    const r = await run('t.array("when").map((d) => d.toISOString())', {
      awardData: false,
      tables: { t: { bytes: tableToIPC(t, { format: 'file' })!, format: 'arrow' } },
    });
    expect(r.value).toEqual(['-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']);
  });
});

describe('a time out of range made in the sandbox', () => {
  it('to_datetime of a number beyond the range is null, not "Invalid Date"', async () => {
    const r = await run(
      '[to_datetime(9e15), to_datetime(-8.64e15 - 1), to_datetime(8.64e15)?.toISOString(), year(1e16)]',
      { awardData: false },
    );
    expect(r.value).toEqual([null, null, '+275760-09-13T00:00:00.000Z', null]);
  });
});
