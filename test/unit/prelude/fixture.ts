// Hand-built ColumnarTable fixtures (schema/columnar.ts) for prelude tests: nulls, ties, NaN, blanks.
import type { ColumnData, ColumnMeta, ColumnarTable } from '../../../schema/columnar.js';

const enc = new TextEncoder();

/** UTF-8 strings + offsets + validity. */
export function utf8(values: Array<string | null>): ColumnData {
  const parts = values.map((v) => enc.encode(v ?? ''));
  const offsets = new Int32Array(values.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const bytes = new Uint8Array(offsets[values.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)) };
}

/** Dictionary-encoded strings (dictionary in first-appearance order). */
export function dict(values: Array<string | null>): ColumnData {
  const keys: string[] = [];
  const codes = Int32Array.from(values, (v) => {
    if (v === null) return -1;
    let k = keys.indexOf(v);
    if (k < 0) k = keys.push(v) - 1;
    return k;
  });
  const d = utf8(keys) as Extract<ColumnData, { kind: 'utf8' }>;
  return { kind: 'dict', type: 'string', codes, dictBytes: d.bytes, dictOffsets: d.offsets };
}

/** float64 numbers/integers/dates (dates given as 'YYYY-MM-DD' strings) with nulls. */
export function f64(values: Array<number | string | null>, type: 'number' | 'integer' | 'date' = 'number'): ColumnData {
  const nums = values.map((v) => (v === null ? 0 : typeof v === 'string' ? Date.parse(`${v}T00:00:00Z`) : v));
  return {
    kind: 'float64',
    type,
    values: Float64Array.from(nums),
    valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}

/** Booleans with nulls. */
export function bool(values: Array<boolean | null>): ColumnData {
  return {
    kind: 'bool',
    type: 'boolean',
    values: Uint8Array.from(values, (v) => (v ? 1 : 0)),
    valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}

/** A ColumnarTable from named columns. */
export function columnar(name: string, cols: Record<string, ColumnData>): ColumnarTable {
  const entries = Object.entries(cols);
  const numRows = entries.length
    ? entries[0][1].kind === 'dict'
      ? entries[0][1].codes.length
      : entries[0][1].kind === 'utf8'
        ? entries[0][1].offsets.length - 1
        : entries[0][1].values.length
    : 0;
  return {
    name,
    numRows,
    columns: entries.map(
      ([n, data]) => ({ name: n, type: data.type, kind: data.kind, data }) as ColumnMeta & { data: ColumnData },
    ),
  };
}

/**
 * The award_data fixture: 8 rows. Agency has a null and ties (DOD 3, NASA 2, NSF 2); Award Amount has
 * a null and a tie; Award Title has a blank and a null; Abstract has newlines and non-ASCII text.
 */
export const AWARDS = columnar('award_data', {
  Agency: dict(['DOD', 'NASA', 'DOD', 'NSF', 'DOD', null, 'NASA', 'NSF']),
  Phase: dict(['Phase I', 'Phase II', 'Phase I', 'Phase I', 'Phase II', 'Phase I', 'Phase II', 'Phase I']),
  'Award Amount': f64([150000, 750000, null, 99999.5, 1500000, 50000, 750000, 125000.25]),
  'Award Year': f64([2019, 2020, 2019, 2021, 2022, 2020, 2021, 2023], 'integer'),
  'Proposal Award Date': f64(
    ['2019-03-15', '2020-07-01', null, '2021-01-31', '2022-12-01', '2020-02-29', '2021-06-15', '2023-09-30'],
    'date',
  ),
  'Award Title': utf8([
    'Quantum sensing for navigation',
    'AI-driven logistics',
    '',
    'Solar cells',
    'quantum computing at scale',
    null,
    'Café ümlaut ✓ test',
    'Hypersonic materials',
  ]),
  Abstract: utf8([
    'Line one.\nLine two.',
    'We propose\nan AI system.',
    'Short.',
    'Photovoltaics research with a long description that goes on and on.',
    'Qubits.',
    null,
    'Ünïcødé abstract ✓',
    'Materials.',
  ]),
});

/** The DatasetInfo for the fixture. */
export const DATASET = {
  name: 'award_data',
  synthetic: true,
  source: 'embedded-synthetic-sample',
  identity: 'test',
  rows: 8,
};
