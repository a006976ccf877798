// Printing: pandas-like tables, Node-like inspect for everything else (inline snapshots).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());
const out = async (code: string) => {
  const r = await h.run(code);
  if (!r.ok) throw new Error(r.error!.message);
  return r.stdout;
};

describe('tables', () => {
  test('award_data: aligned, floats share decimals, NaN/NaT for missing, long text cut', async () => {
    expect(await out("print(award_data.select('Agency', 'Award Amount', 'Proposal Award Date', 'Abstract'))"))
      .toMatchInlineSnapshot(`
      "   Agency  Award Amount  Proposal Award Date                                            Abstract
      0     DOD     150000.00           2019-03-15                                Line one.\\nLine two.
      1    NASA     750000.00           2020-07-01                           We propose\\nan AI system.
      2     DOD           NaN                  NaT                                              Short.
      3     NSF      99999.50           2021-01-31  Photovoltaics research with a long description ...
      4     DOD    1500000.00           2022-12-01                                             Qubits.
      5     NaN      50000.00           2020-02-29                                                 NaN
      6    NASA     750000.00           2021-06-15                                  Ünïcødé abstract ✓
      7     NSF     125000.25           2023-09-30                                          Materials.
      "
    `);
  });
  test('long tables are cut in the middle', async () => {
    expect(
      await out(
        'print(aq.table({ id: Array.from({ length: 100 }, (_, i) => i), x: Array.from({ length: 100 }, (_, i) => i / 4) }))',
      ),
    ).toMatchInlineSnapshot(`
      "     id      x
      0     0   0.00
      1     1   0.25
      2     2   0.50
      3     3   0.75
      4     4   1.00
      ..  ...    ...
      95   95  23.75
      96   96  24.00
      97   97  24.25
      98   98  24.50
      99   99  24.75

      [100 rows x 2 columns]
      "
    `);
  });
  test('wide tables are cut in the middle', async () => {
    expect(
      await out("var wide = {}; for (let i = 0; i < 25; i++) wide['col_' + i] = [i, i * 10]; print(aq.table(wide))"),
    ).toMatchInlineSnapshot(`
      "   col_0  col_1  col_2  col_3  col_4  col_5  col_6  col_7  col_8  col_9  ...  col_15  col_16  col_17  col_18  col_19  col_20  col_21  col_22  col_23  col_24
      0      0      1      2      3      4      5      6      7      8      9  ...      15      16      17      18      19      20      21      22      23      24
      1      0     10     20     30     40     50     60     70     80     90  ...     150     160     170     180     190     200     210     220     230     240

      [2 rows x 25 columns]
      "
    `);
  });
  test('integers plain, scientific for huge/tiny, booleans, times, objects', async () => {
    expect(
      await out(
        'print(aq.table({ i: [1, -20], f: [0.1, 2], e: [1e20, 1], t: [1e-9, 0.5], b: [true, null], ts: [new Date(Date.UTC(2020, 0, 1, 6, 30)), null], o: [{ a: 1 }, [1, 2]] }))',
      ),
    ).toMatchInlineSnapshot(`
      "     i    f             e             t     b                   ts         o
      0    1  0.1  1.000000e+20  1.000000e-09  True  2020-01-01 06:30:00  { a: 1 }
      1  -20  2.0  1.000000e+00  5.000000e-01   NaN                  NaT  [ 1, 2 ]
      "
    `);
  });
  test('empty table', async () => {
    expect(await out("print(award_data.filter(d => false).select('Agency', 'Phase'))")).toMatchInlineSnapshot(`
      "Empty DataFrame
      Columns: [Agency, Phase]
      Index: []
      "
    `);
  });
  test('value_counts and groupby results', async () => {
    expect(
      await out(
        "print(value_counts(award_data, 'Agency')); print(award_data.groupby('Phase').agg({ 'Award Amount': ['sum', 'mean'] }))",
      ),
    ).toMatchInlineSnapshot(`
      "   Agency  count
      0     DOD      3
      1    NASA      2
      2     NSF      2
            Phase  Award Amount_sum  Award Amount_mean
      0   Phase I         424999.75        106249.9375
      1  Phase II        3000000.00       1000000.0000
      "
    `);
  });
  test('t.print(n) prints the first n rows', async () => {
    expect(await out("award_data.select('Award Year').print(2)")).toMatchInlineSnapshot(`
      "   Award Year
      0        2019
      1        2020
      "
    `);
  });
});

describe('other values', () => {
  test('objects, arrays, Maps, Sets, Dates, functions, nesting', async () => {
    expect(
      await out(
        "print({ a: 1, 'b c': 'text', arr: [1, [2, [3, [4, [5, [6]]]]]], m: new Map([['k', 1]]), s: new Set([1]), d: new Date(0), f: print, nul: null, u: undefined })",
      ),
    ).toMatchInlineSnapshot(`
      "{
        a: 1,
        'b c': 'text',
        arr: [ 1, [ 2, [ 3, [ 4, [Array] ] ] ] ],
        m: Map(1) { 'k' => 1 },
        s: Set(1) { 1 },
        d: 1970-01-01T00:00:00.000Z,
        f: [Function: print],
        nul: null,
        u: undefined
      }
      "
    `);
  });
  test('strings print raw at top level, quoted inside', async () => {
    expect(await out("print('it\\'s', ['it\\'s', 'a\\nb'], 1.5, -0, 10n)")).toMatchInlineSnapshot(`
      "it's [ "it's", 'a\\nb' ] 1.5 -0 10n
      "
    `);
  });
  test('long arrays are packed and cut', async () => {
    expect(await out('print(Array.from({ length: 120 }, (_, i) => i * 3))')).toMatchInlineSnapshot(`
      "[
        0,   3,   6,   9,   12,  15,  18,  21,  24,  27,  30,  33,  36,  39,  42,
        45,  48,  51,  54,  57,  60,  63,  66,  69,  72,  75,  78,  81,  84,  87,
        90,  93,  96,  99,  102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132,
        135, 138, 141, 144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177,
        180, 183, 186, 189, 192, 195, 198, 201, 204, 207, 210, 213, 216, 219, 222,
        225, 228, 231, 234, 237, 240, 243, 246, 249, 252, 255, 258, 261, 264, 267,
        270, 273, 276, 279, 282, 285, 288, 291, 294, 297, ... 20 more items
      ]
      "
    `);
  });
  test('console.log/info/debug to stdout, warn/error to stderr', async () => {
    const r = await h.run(
      "console.log('l', 1); console.info('i'); console.debug('d'); console.warn('w'); console.error(new TypeError('t')); console.table([{ a: 1 }])",
    );
    expect(r.stdout).toMatchInlineSnapshot(`
      "l 1
      i
      d
         a
      0  1
      "
    `);
    expect(r.stderr).toMatchInlineSnapshot(`
      "w
      TypeError: t
      "
    `);
  });
  test('the data card', async () => {
    expect(await out('print(describeData().summary)')).toMatchInlineSnapshot(`
      "award_data: 8 rows x 7 columns - SYNTHETIC SAMPLE (made-up rows for trying the tools; not real awards)
      - Agency (string): 13% null; 3 distinct; top: "DOD" (3), "NASA" (2), "NSF" (2)
      - Phase (string): 0% null; 2 distinct; top: "Phase I" (5), "Phase II" (3)
      - Award Amount (number): 13% null; 6 distinct; min 50000, max 1500000, mean 489286
      - Award Year (integer): 0% null; 5 distinct; min 2019, max 2023, mean 2021; top: 2019 (2), 2020 (2), 2021 (2), 2022 (1), 2023 (1)
      - Proposal Award Date (date): 13% null; 7 distinct; range 2019-03-15 .. 2023-09-30
      - Award Title (string): 13% null; 7 distinct; avg length 18, e.g. "Quantum sensing for navigation"
      - Abstract (string): 13% null; 7 distinct; avg length 22, e.g. "Line one. Line two."
      "
    `);
  });
});
