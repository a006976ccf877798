// Differential tests of the columnar Arrow reader (src/data/formats/arrowColumnar/) against the
// per-value path it replaces (flechette's toArray() + typedColumn, `{ columnar: false }`): random
// Arrow files and streams must decode to identical transfer columns, or fail with the same error.
// Writers: flechette's tableToIPC over batches built buffer by buffer (every integer width, float
// bit patterns, 64-bit dates and timestamps over the whole int64 range, bitmaps, text with
// malformed UTF-8 / byte order marks / offsets that do not start at 0 / bytes under null rows,
// dictionaries with several batches (deltas), every key width) and streams of several tables
// (replacement dictionaries); and Apache Arrow's own JS writer (apache-arrow, delta and
// replacement dictionaries from its builders, sliced tables). DuckDB cannot write Arrow IPC here (its arrow
// extension is not bundled), so it is not one of the writers.
import * as A from 'apache-arrow';
import {
  batchType,
  bool,
  Column,
  columnFromArray,
  dateDay,
  dateMillisecond,
  dictionary,
  float32,
  float64,
  int16,
  int32,
  int64,
  int8,
  largeUtf8,
  tableFromColumns,
  tableFromIPC,
  tableToIPC,
  timestamp,
  TimeUnit,
  uint16,
  uint32,
  uint64,
  uint8,
  utf8,
} from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeArrow } from '../../../../src/data/formats/arrow.js';
import { arrowColumn, type ArrowFieldType } from '../../../../src/data/formats/arrowColumnar/arrowColumn.js';
import type { ArrowBatch } from '../../../../src/data/formats/arrowColumnar/arrowBatch.js';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { tableDifference } from '../../../helpers/sameTable.js';

/** Columns the columnar reader wrote itself (not handed to the per-value path), of all columns. */
const share = { columnar: 0, all: 0 };

/** Both paths on the same bytes: null when they agree (same table, or the same error). */
function both(bytes: Uint8Array): string | null {
  const run = (columnar: boolean) => {
    try {
      return { table: decodeArrow('t', bytes, 't.arrow', DEFAULT_DECODE_CAPS, { columnar }) };
    } catch (err) {
      return { error: `${(err as { code?: string }).code}: ${(err as Error).message}` };
    }
  };
  const fast = run(true);
  const slow = run(false);
  if (fast.error || slow.error)
    return fast.error === slow.error
      ? null
      : `columnar: ${fast.error ?? 'a table'} / per value: ${slow.error ?? 'a table'}`;
  const t = tableFromIPC(bytes, { useBigInt: true });
  const rows = t.getChildAt(0)?.data.map((b) => b.length) ?? [];
  t.schema.fields.forEach((f, i) => {
    share.all++;
    if (arrowColumn(t.getChildAt(i).data as unknown as ArrowBatch[], f.type as ArrowFieldType, rows, 't', f.name))
      share.columnar++;
  });
  return tableDifference(fast.table!, slow.table!);
}

/** mulberry32: the values of one table from a seed fast-check draws (and reports when a case fails). */
function prng(seed: number) {
  let a = seed | 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    word: () => (next() * 4294967296) | 0,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}
type Rand = ReturnType<typeof prng>;

const KINDS = [
  'int8',
  'int16',
  'int32',
  'uint8',
  'uint16',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
  'dateDay',
  'dateMs',
  'ts_s',
  'ts_ms',
  'ts_us',
  'ts_ns',
  'bool',
  'utf8',
  'largeUtf8',
  'dict',
  'dictLarge',
  'dictInt',
] as const;
type Kind = (typeof KINDS)[number];

const enc = new TextEncoder();
const WORDS = ['', 'DOD', 'a,b', 'Département ü', '日本語', '😀 𝄞', ' spaced ', 'tab\there', 'x'.repeat(40)].map((s) =>
  enc.encode(s),
);
const ODD = [
  [0xef, 0xbb, 0xbf, 0x61], // a byte order mark first: TextDecoder drops it
  [0x61, 0xef, 0xbb, 0xbf], // ... but not inside
  [0xef, 0xbb, 0xbf],
  [0xff],
  [0xc3], // a character cut short
  [0x80, 0x61], // starts on a continuation byte
  [0xed, 0xa0, 0x80], // a UTF-16 surrogate
  [0xc0, 0x80], // overlong
  [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
].map((b) => Uint8Array.from(b));
const SPLIT = ['é', '日本', '😀', 'aé'].map((x) => enc.encode(x));
const EDGES64 = [
  0n,
  1n,
  -1n,
  999n,
  -999n,
  1000n,
  -1001n,
  999_999n,
  -999_999n,
  1_000_001n,
  -1_000_001n,
  2n ** 53n - 1n,
  -(2n ** 53n) + 1n,
  2n ** 53n,
  -(2n ** 53n),
  2n ** 62n,
  -(2n ** 62n) - 7n,
  2n ** 63n - 1n,
  -(2n ** 63n),
];

/** Text values: low cardinality (dictionary-coded by dictEncode) or high; now and then malformed UTF-8 or random bytes. */
function textValue(r: Rand, low: boolean, odd: boolean): Uint8Array {
  const x = r.next();
  if (odd && x < 0.15) return r.pick(ODD);
  if (odd && x < 0.2) return Uint8Array.from({ length: r.int(6) }, () => r.int(256));
  if (low) return r.pick(WORDS);
  return enc.encode(`${r.pick(['id', 'Company ', 'é', '日'])}${r.int(1_000_000)}`);
}

interface BatchShape {
  length: number;
  /** 'none': no bitmap; 'bits': a bitmap with its null count; 'ignored': zeros in a bitmap but null count 0 (flechette reads every row). */
  nulls: 'none' | 'bits' | 'ignored';
}

function validity(
  r: Rand,
  s: BatchShape,
  rate: number,
): { validity: Uint8Array; nullCount: number; valid: (i: number) => boolean } {
  if (s.nulls === 'none') return { validity: new Uint8Array(0), nullCount: 0, valid: () => true };
  const bits = Uint8Array.from({ length: Math.ceil(s.length / 8) + r.int(2) }, () => r.int(256));
  let zeros = 0;
  for (let i = 0; i < s.length; i++) {
    if (r.next() >= rate) bits[i >> 3] |= 1 << (i & 7);
    else bits[i >> 3] &= ~(1 << (i & 7));
    if (!(bits[i >> 3] & (1 << (i & 7)))) zeros++;
  }
  const nullCount = s.nulls === 'bits' ? zeros : 0;
  return { validity: bits, nullCount, valid: (i) => nullCount === 0 || !!(bits[i >> 3] & (1 << (i & 7))) };
}

function text64(r: Rand, wide: boolean, kind: Kind): bigint {
  if (kind === 'ts_us' || kind === 'ts_ns')
    return r.next() < 0.3
      ? r.pick(EDGES64)
      : BigInt.asIntN(64, (BigInt(r.word() >>> 0) << 32n) | BigInt(r.word() >>> 0));
  if (kind === 'uint64')
    return wide && r.next() < 0.1
      ? BigInt.asUintN(64, (BigInt(r.word() >>> 0) << 32n) | BigInt(r.word() >>> 0))
      : BigInt(r.int(2 ** 30)) * (r.next() < 0.5 ? 1n : 2n ** 22n);
  // int64, 64-bit dates, s / ms timestamps: exact float64 integers, beyond +-2^53 only in a wide column
  const pool = wide ? EDGES64 : EDGES64.filter((v) => v <= 2n ** 53n - 1n && v >= -(2n ** 53n) + 1n);
  return r.next() < 0.3 ? r.pick(pool) : BigInt(r.int(4_000_000_000_000)) - 2_000_000_000_000n;
}

const TYPES: Record<Kind, () => ReturnType<typeof int8>> = {
  int8,
  int16,
  int32,
  uint8,
  uint16,
  uint32,
  int64,
  uint64,
  float32,
  float64,
  dateDay,
  dateMs: dateMillisecond,
  ts_s: () => timestamp(TimeUnit.SECOND),
  ts_ms: () => timestamp(TimeUnit.MILLISECOND),
  ts_us: () => timestamp(TimeUnit.MICROSECOND),
  ts_ns: () => timestamp(TimeUnit.NANOSECOND),
  bool,
  utf8,
  largeUtf8,
  dict: utf8,
  dictLarge: largeUtf8,
  dictInt: int32,
} as never;
const KEY_TYPES = [int8, int16, int32, uint8, uint16, uint32, int64];

/** One column of a table, batch by batch, its buffers written directly. */
function column(
  r: Rand,
  kind: Kind,
  shapes: BatchShape[],
  wide: boolean,
  keyType: () => ReturnType<typeof int8>,
): Column<unknown> {
  const low = r.next() < 0.6;
  const odd = r.next() < 0.4;
  const rate = r.pick([0, 0.2, 0.9]);
  const coded = kind === 'dict' || kind === 'dictLarge' || kind === 'dictInt';
  const type = coded ? dictionary(TYPES[kind](), keyType()) : TYPES[kind]();
  const dict =
    kind === 'dictInt'
      ? intDictionary(r, (type as { dictionary: ReturnType<typeof int32> }).dictionary)
      : coded
        ? dictionaryColumn(
            r,
            (type as { dictionary: ReturnType<typeof utf8> }).dictionary,
            low,
            odd,
            (type as { indices: { bitWidth: number; signed: boolean } }).indices,
          )
        : null;
  const B = batchType(type as never, { useBigInt: true });
  const batches = shapes.map((s) => {
    const v = validity(r, s, rate);
    const base = { type, length: s.length, nullCount: v.nullCount, validity: v.validity };
    if (dict) {
      const size = dict.data.reduce((n, b) => n + b.length, 0);
      const indices = (type as unknown as { indices: { values: new (n: number) => ArrayLike<number> } }).indices;
      const keys = new indices.values(s.length) as unknown as Array<number | bigint>;
      for (let i = 0; i < s.length; i++) {
        // a null row's key is whatever the writer left there, even outside the dictionary
        const k = v.valid(i) ? r.int(size) : r.int(300);
        keys[i] = keys instanceof BigInt64Array ? BigInt(k) : k;
      }
      return (
        new B({ ...base, values: keys }) as unknown as { setDictionary(d: Column<unknown>): unknown }
      ).setDictionary(dict);
    }
    if (kind === 'utf8' || kind === 'largeUtf8')
      return new B({ ...base, ...textBuffers(r, s.length, v.valid, low, odd, kind === 'largeUtf8') });
    if (kind === 'bool')
      return new B({ ...base, values: Uint8Array.from({ length: Math.ceil(s.length / 8) }, () => r.int(256)) });
    if (kind === 'float32' || kind === 'float64') {
      const words = Int32Array.from({ length: s.length * (kind === 'float32' ? 1 : 2) }, () => r.word());
      const values = kind === 'float32' ? new Float32Array(words.buffer) : new Float64Array(words.buffer);
      for (let i = 0; i < s.length; i++)
        if (r.next() < 0.5) values[i] = r.pick([0, -0, NaN, Infinity, -Infinity, 1.5, -2, 1e-310, 2 ** 60]);
      return new B({ ...base, values });
    }
    if (['int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'dateDay'].includes(kind)) {
      const values = new (type as unknown as { values: new (n: number) => Int32Array }).values(s.length);
      for (let i = 0; i < s.length; i++) values[i] = r.next() < 0.5 ? r.word() : r.int(100) - 50;
      return new B({ ...base, values });
    }
    const values = kind === 'uint64' ? new BigUint64Array(s.length) : new BigInt64Array(s.length);
    for (let i = 0; i < s.length; i++)
      values[i] = kind === 'uint64' ? BigInt.asUintN(64, text64(r, wide, kind)) : text64(r, wide, kind);
    return new B({ ...base, values });
  });
  return new Column(batches as never, type as never);
}

/** Text buffers: offsets that may start past 0 (a sliced batch), bytes under null rows now and then, trailing bytes. */
function textBuffers(r: Rand, n: number, valid: (i: number) => boolean, low: boolean, odd: boolean, large: boolean) {
  const parts: Uint8Array[] = [];
  const offsets = new Int32Array(n + 1);
  let at = r.next() < 0.3 ? r.int(5) : 0;
  if (at) parts.push(Uint8Array.from({ length: at }, () => r.int(256)));
  offsets[0] = at;
  const junkUnderNulls = r.next() < 0.3;
  let carry: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    let b = valid(i)
      ? textValue(r, low, odd)
      : junkUnderNulls
        ? Uint8Array.from({ length: r.int(4) }, () => r.int(256))
        : new Uint8Array(0);
    if (carry && valid(i)) b = carry;
    carry = null;
    if (odd && valid(i) && r.next() < 0.1) {
      // a character cut between this row and the next: well-formed together, not apart
      const whole = r.pick(SPLIT);
      const cut = 1 + r.int(whole.length - 1);
      b = whole.subarray(0, cut);
      carry = whole.subarray(cut);
    }
    parts.push(b);
    at += b.length;
    offsets[i + 1] = at;
  }
  if (r.next() < 0.3) parts.push(Uint8Array.from({ length: r.int(5) }, () => r.int(256)));
  const values = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let k = 0;
  for (const p of parts) {
    values.set(p, k);
    k += p.length;
  }
  return { offsets: large ? BigInt64Array.from(offsets, (o) => BigInt(o)) : offsets, values };
}

/** A dictionary of int32 values (the per-value path reads such a column; its dictionary values must be there). */
function intDictionary(r: Rand, type: ReturnType<typeof int32>): Column<unknown> {
  const n = 1 + r.int(100);
  const B = batchType(type, { useBigInt: true });
  return new Column(
    [
      new B({
        type,
        length: n,
        nullCount: 0,
        validity: new Uint8Array(0),
        values: Int32Array.from({ length: n }, () => r.int(20)),
      }),
    ] as never,
    type as never,
  );
}

/** A dictionary of 1 to 3 batches (the 2nd and 3rd are written as deltas), repeated and null entries included. */
function dictionaryColumn(
  r: Rand,
  type: ReturnType<typeof utf8>,
  low: boolean,
  odd: boolean,
  keys: { bitWidth: number; signed: boolean },
): Column<unknown> {
  const B = batchType(type, {});
  const max = keys.bitWidth === 8 && keys.signed ? 127 : 200;
  const count = 1 + r.int(3);
  const batches = Array.from({ length: count }, () => {
    const n = 1 + r.int(Math.floor(max / count));
    const v = validity(r, { length: n, nulls: r.pick(['none', 'bits'] as const) }, r.next() < 0.2 ? 0.1 : 0);
    return new B({
      type,
      length: n,
      nullCount: v.nullCount,
      validity: v.validity,
      ...textBuffers(r, n, v.valid, low, odd, type.typeId === 20),
    });
  });
  return new Column(batches as never, type as never);
}

const shape = fc.record({
  seed: fc.integer(),
  kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 6 }),
  batches: fc.array(
    fc.record({
      length: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 90 })),
      nulls: fc.constantFrom<BatchShape['nulls']>('none', 'bits', 'bits', 'ignored'),
    }),
    { minLength: 0, maxLength: 4 },
  ),
  wide: fc.boolean(),
  format: fc.constantFrom<'file' | 'stream'>('file', 'stream'),
  parts: fc.integer({ min: 1, max: 3 }),
});

/** The IPC bytes of one shape: a file, or a stream of `parts` tables of one schema (each part's dictionaries replace the last's). */
function write(
  s: fc.Arbitrary<unknown> extends never
    ? never
    : { seed: number; kinds: Kind[]; batches: BatchShape[]; wide: boolean; format: 'file' | 'stream'; parts: number },
): Uint8Array {
  const r = prng(s.seed);
  // one key type per column for all parts: the parts share the first one's schema
  const keyTypes = s.kinds.map(() => r.pick(KEY_TYPES));
  const table = () =>
    tableFromColumns(
      Object.fromEntries(s.kinds.map((k, i) => [`c${i}_${k}`, column(r, k, s.batches, s.wide, keyTypes[i])])),
    );
  if (s.format === 'file') return tableToIPC(table(), { format: 'file' })!;
  const streams = Array.from({ length: s.parts }, () => tableToIPC(table(), { format: 'stream' })!);
  // each stream ends with an end-of-stream marker (0xFFFFFFFF, 0): drop all but the last one's; flechette skips the repeated schemas
  for (const st of streams) expect([...st.subarray(st.length - 8)]).toEqual([255, 255, 255, 255, 0, 0, 0, 0]);
  return Buffer.concat(streams.map((st, i) => (i < streams.length - 1 ? st.subarray(0, st.length - 8) : st)));
}

describe('columnar Arrow reader = the per-value path', () => {
  it('random tables written by flechette (files and multi-table streams, every type, buffer by buffer)', () => {
    share.columnar = share.all = 0;
    fc.assert(
      fc.property(shape, (s) => {
        expect(both(write(s))).toBeNull();
      }),
      { numRuns: 400 },
    );
    // the comparison means something only if most columns took the columnar path (int64 beyond 2^53 and int dictionaries do not)
    expect(share.columnar / share.all).toBeGreaterThan(0.8);
  }, 120_000);

  it('random tables written by Apache Arrow JS (several batches, delta and replacement dictionaries)', () => {
    share.columnar = share.all = 0;
    const value = fc.option(
      fc.oneof(
        fc.constantFrom('', 'DOD', 'HHS', 'Département ü', '日本語', '\uFEFFbom', '😀'),
        fc.string({ unit: 'binary', maxLength: 8 }),
      ),
      { freq: 4, nil: null },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.record({
              s: value,
              n: fc.option(fc.integer(), { nil: null }),
              big: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }),
              f: fc.option(fc.double(), { nil: null }),
              b: fc.option(fc.boolean(), { nil: null }),
              d: fc.option(fc.integer({ min: -1e12, max: 4e12 }), { nil: null }),
            }),
            { maxLength: 40 },
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        fc.constantFrom<'file' | 'stream'>('file', 'stream'),
        fc.option(fc.tuple(fc.nat(50), fc.nat(50)), { nil: null }),
        (chunks, replace, format, cut) => {
          const builders = {
            dict: A.makeBuilder({ type: new A.Dictionary(new A.Utf8(), new A.Int32()), nullValues: [null] }),
            dict16: A.makeBuilder({ type: new A.Dictionary(new A.LargeUtf8(), new A.Int16()), nullValues: [null] }),
            text: A.makeBuilder({ type: new A.Utf8(), nullValues: [null] }),
            large: A.makeBuilder({ type: new A.LargeUtf8(), nullValues: [null] }),
            n: A.makeBuilder({ type: new A.Int32(), nullValues: [null] }),
            big: A.makeBuilder({ type: new A.Int64(), nullValues: [null] }),
            f: A.makeBuilder({ type: new A.Float64(), nullValues: [null] }),
            b: A.makeBuilder({ type: new A.Bool(), nullValues: [null] }),
            day: A.makeBuilder({ type: new A.DateDay(), nullValues: [null] }),
            ts: A.makeBuilder({ type: new A.TimestampMillisecond(), nullValues: [null] }),
            tsns: A.makeBuilder({ type: new A.TimestampNanosecond(), nullValues: [null] }),
          };
          const data: Record<string, A.Data[]> = Object.fromEntries(Object.keys(builders).map((k) => [k, []]));
          for (const chunk of chunks) {
            for (const row of chunk) {
              builders.dict.append(row.s);
              builders.dict16.append(row.s);
              builders.text.append(row.s);
              builders.large.append(row.s);
              builders.n.append(row.n);
              builders.big.append(row.big);
              builders.f.append(row.f);
              builders.b.append(row.b);
              builders.day.append(row.d === null ? null : new Date(row.d));
              builders.ts.append(row.d);
              builders.tsns.append(row.d);
            }
            for (const [k, b] of Object.entries(builders)) {
              data[k].push(b.flush());
              // finish() starts a new dictionary: the next batch gets a replacement, else a delta
              if (replace && k.startsWith('dict')) b.finish();
            }
          }
          let table = new A.Table(Object.fromEntries(Object.entries(data).map(([k, d]) => [k, A.makeVector(d)])));
          // a slice: the writer shifts offsets and bitmaps that no longer start at 0 (or a multiple of 8)
          if (cut) table = table.slice(cut[0], table.numRows - cut[1]);
          expect(both(A.tableToIPC(table, format))).toBeNull();
        },
      ),
      { numRuns: 150 },
    );
    expect(share.columnar / share.all).toBeGreaterThan(0.85);
  }, 120_000);

  it.each([
    ['65,535 distinct values, each ~4 times: dictionary-coded', 65_535, 300_000, 'dict'],
    // user tables keep up to USER_MAX_DICT_SIZE (2,097,152) values as a dictionary, not award_data's 65,535
    ['65,536 distinct values, each ~4 times: still dictionary-coded (the user-table cap)', 65_536, 300_000, 'dict'],
    ['160,000 distinct values of 300,000 rows (each used less than twice): UTF-8', 160_000, 300_000, 'utf8'],
    // over half the 296,907 non-null rows but under half of all 300,000: the one-pass codes must not stand
    ['149,000 distinct values of 300,000 rows, every 97th null: UTF-8', 149_000, 300_000, 'utf8'],
  ])(
    '%s, as Utf8 and as a dictionary-encoded column, over 70,000-row batches',
    (_what, distinct, rows, kind) => {
      const values = Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? null : `v${(i * 7) % distinct}`));
      const cols = [
        ['plain', utf8()],
        ['coded', dictionary(utf8())],
      ] as const;
      const t = tableFromColumns(
        Object.fromEntries(cols.map(([name, type]) => [name, columnFromArray(values, type, { maxBatchRows: 70_000 })])),
      );
      const bytes = tableToIPC(t, { format: 'stream' })!;
      expect(both(bytes)).toBeNull();
      const got = decodeArrow('t', bytes, 't.arrow', DEFAULT_DECODE_CAPS);
      expect(got.columns.map((c) => c.kind)).toEqual([kind, kind]);
    },
    60_000,
  );

  describe('edges one by one', () => {
    const B = (type: ReturnType<typeof utf8>) => batchType(type, { useBigInt: true });
    const one = (name: string, type: ReturnType<typeof utf8>, batch: Record<string, unknown>) => {
      const length = batch.length as number;
      return tableToIPC(
        tableFromColumns({
          [name]: new Column([
            new (B(type))({ type, nullCount: 0, validity: new Uint8Array(0), ...batch, length }),
          ] as never),
        }),
        { format: 'stream' },
      )!;
    };

    it.each([
      ['-2^53 alone makes an int64 column exact text', int64(), [-(2n ** 53n), 5n]],
      ['+-(2^53 - 1) stay numbers', int64(), [-(2n ** 53n) + 1n, 2n ** 53n - 1n]],
      ['uint64 2^53 - 1 stays a number', uint64(), [2n ** 53n - 1n, 0n]],
      ['uint64 2^53 makes exact text', uint64(), [2n ** 53n, 7n]],
      ['uint64 2^64 - 1', uint64(), [2n ** 64n - 1n, 7n]],
    ] as const)('%s', (_what, type, values) => {
      const Arr = type.signed === false ? BigUint64Array : BigInt64Array;
      const bytes = one('x', type as never, { length: values.length, values: Arr.from(values as readonly bigint[]) });
      expect(both(bytes)).toBeNull();
      const large = values.some((v) => v > 2n ** 53n - 1n || v < -(2n ** 53n) + 1n);
      expect(decodeArrow('t', bytes, 't', DEFAULT_DECODE_CAPS).columns[0].type).toBe(large ? 'string' : 'integer');
    });

    it('a character cut between two rows is two malformed values, not one well-formed pair', () => {
      const bytes = one('x', utf8(), {
        length: 2,
        offsets: Int32Array.from([0, 1, 2]),
        values: Uint8Array.from([0xc3, 0xa9]),
      });
      expect(both(bytes)).toBeNull();
      // two equal values (U+FFFD each): dictionary-coded
      const c = decodeArrow('t', bytes, 't', DEFAULT_DECODE_CAPS).columns[0].data as {
        codes: Int32Array;
        dictBytes: Uint8Array;
      };
      expect([...c.codes, ...c.dictBytes]).toEqual([0, 0, 0xef, 0xbf, 0xbd]);
    });

    it('us and ns timestamps over the whole int64 range divide as BigInts do', () => {
      const values = [
        ...EDGES64,
        ...Array.from({ length: 2000 }, (_, i) =>
          BigInt.asIntN(
            64,
            BigInt(Math.floor(Math.random() * 2 ** 32)) * 2n ** 32n + BigInt((i * 2654435761) % 2 ** 32),
          ),
        ),
      ];
      for (const unit of [TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]) {
        const bytes = one('x', timestamp(unit) as never, { length: values.length, values: BigInt64Array.from(values) });
        expect(both(bytes)).toBeNull();
        const got = (decodeArrow('t', bytes, 't', DEFAULT_DECODE_CAPS).columns[0].data as { values: Float64Array })
          .values;
        const d = unit === TimeUnit.MICROSECOND ? 1000n : 1_000_000n;
        values.forEach((v, i) => expect(got[i]).toBe(Number(v / d) + Number(v % d) / Number(d)));
      }
    });
  });
});
