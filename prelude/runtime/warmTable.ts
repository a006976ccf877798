/**
 * The synthetic table the warm-up (warmUp.ts) runs on: made here, in the isolate, with the kinds
 * and shapes the host sends for award_data (Float64Array numbers, integers and dates with a
 * validity byte per row, dictionary codes, text read in pages of host-decoded rows with the host's
 * contains scan), and nulls in most columns so the loops' null branches are taken too. Built from a
 * fixed-seed generator: no Math.random, no host call, no column of any real table. Its own text
 * cache: the session's page budget is never touched.
 */
import type {
  ColumnData,
  ColumnMeta,
  Float64Column,
  TableMeta,
  TextPage,
  TextScanRequest,
} from '../../schema/columnar.js';
import { hostTables } from '../data/hostTables.js';
import { TextCache } from '../data/textCache.js';
import { utf8Encode } from '../polyfills/utf8.js';
import { ArrayIsArray as NativeArrayIsArray } from '../intrinsics.js';
import type { ColumnTable } from 'arquero';

/** Rows: enough for a loop to gather type feedback, few enough that the warm-up takes tens of ms. */
const WARM_ROWS = 4_096;

const AGENCIES = ['Department of Defense', 'Department of Energy', 'National Science Foundation', 'NASA', 'HHS'];
const PHASES = ['Phase I', 'Phase II'];
const WORDS = ['quantum', 'sensor', 'machine learning', 'materials', 'battery', 'imaging', 'novel', 'system', 'data'];

const COLUMNS: ColumnMeta[] = [
  { name: 'amount', type: 'number', kind: 'float64' },
  { name: 'year', type: 'integer', kind: 'float64' },
  { name: 'date', type: 'date', kind: 'float64' },
  { name: 'agency', type: 'string', kind: 'dict' },
  { name: 'phase', type: 'string', kind: 'dict' },
  { name: 'company', type: 'string', kind: 'dict' },
  { name: 'title', type: 'string', kind: 'utf8' },
];

/** A fixed-seed generator (never Math.random: a deterministic run's sequence must not move). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function floats(
  rand: () => number,
  n: number,
  make: (r: number) => number,
  nulls: number,
  type: Float64Column['type'] = 'number',
): Float64Column {
  const values = new Float64Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rand() < nulls) continue;
    values[i] = make(rand());
    valid[i] = 1;
  }
  return { kind: 'float64', type, values, valid };
}

function dict(rand: () => number, n: number, words: readonly string[], nulls: number): ColumnData {
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) codes[i] = rand() < nulls ? -1 : Math.floor(rand() * words.length);
  const bytes = words.map((w) => utf8Encode(w));
  const dictOffsets = new Int32Array(words.length + 1);
  for (let k = 0; k < words.length; k++) dictOffsets[k + 1] = dictOffsets[k]! + bytes[k]!.length;
  const dictBytes = new Uint8Array(dictOffsets[words.length]!);
  for (let k = 0; k < words.length; k++) dictBytes.set(bytes[k]!, dictOffsets[k]!);
  return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
}

function text(rand: () => number, n: number, words: number, nulls: number): Array<string | null> {
  const rows = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    if (rand() < nulls) {
      rows[i] = null;
      continue;
    }
    let s = 'A';
    const count = 1 + Math.floor(rand() * words);
    for (let w = 0; w < count; w++) s += ` ${WORDS[Math.floor(rand() * WORDS.length)]!}`;
    rows[i] = s;
  }
  return rows;
}

/** Text rows as the host sends a whole utf8 column (bytes, offsets, validity). */
function utf8Column(rows: Array<string | null>): ColumnData {
  const parts = rows.map((r) => (r === null ? null : utf8Encode(r)));
  const offsets = new Int32Array(rows.length + 1);
  const valid = new Uint8Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    offsets[i + 1] = offsets[i]! + (parts[i]?.length ?? 0);
    valid[i] = parts[i] ? 1 : 0;
  }
  const bytes = new Uint8Array(offsets[rows.length]!);
  for (let i = 0; i < rows.length; i++) if (parts[i]) bytes.set(parts[i]!, offsets[i]!);
  return { kind: 'utf8', type: 'string', bytes, offsets, valid };
}

/** What the host's textScan answers (src/data/columns/textScan.ts), over rows already in the isolate. */
function scan(rows: Array<string | null>, start: number, end: number, req: TextScanRequest): Int32Array | Uint8Array {
  if (req.op === 'len' || req.op === 'units') {
    // the warm table's text is ASCII: characters and UTF-16 units are the same
    const out = new Int32Array(end - start);
    for (let i = start; i < end; i++) out[i - start] = rows[i] === null ? -1 : rows[i]!.length;
    return out;
  }
  if (req.op === 'distinct') {
    const seen = new Set<string>();
    let missing = 0;
    for (let i = start; i < end; i++) {
      const s = rows[i];
      if (s === null || s === undefined) missing = 1;
      else seen.add(s);
    }
    return Int32Array.of(seen.size, missing);
  }
  const out = new Uint8Array(end - start);
  if (req.op === 'equals') {
    for (let i = start; i < end; i++) out[i - start] = rows[i] === null ? 2 : rows[i] === req.needle ? 1 : 0;
    return out;
  }
  const needle = req.fold === 'none' ? req.needle : req.needle.toLowerCase();
  for (let i = start; i < end; i++) {
    const s = rows[i];
    out[i - start] =
      s === null || s === undefined ? 2 : (req.fold === 'none' ? s : s.toLowerCase()).includes(needle) ? 1 : 0;
  }
  return out;
}

/** A fresh synthetic table (an Arquero table over lazy columns, as award_data is). */
export function warmTable(): ColumnTable {
  const n = WARM_ROWS;
  // each column made on its first fetch, from its own seed: the cost falls in the step that reads it
  const makers: Record<string, (rand: () => number) => ColumnData | Array<string | null>> = {
    amount: (rand) => floats(rand, n, (r) => Math.round(r * r * 2e6), 0.02),
    year: (rand) => floats(rand, n, (r) => 1983 + Math.floor(r * 42), 0, 'integer'),
    date: (rand) => floats(rand, n, (r) => Date.UTC(1990, 0, 1) + Math.floor(r * 12_000) * 86_400_000, 0.05, 'date'),
    agency: (rand) => dict(rand, n, AGENCIES, 0.01),
    phase: (rand) => dict(rand, n, PHASES, 0),
    company: (rand) =>
      dict(
        rand,
        n,
        Array.from({ length: 500 }, (_, k) => `Company ${k}`),
        0.01,
      ),
    title: (rand) => text(rand, n, 8, 0),
  };
  const made: Record<string, ColumnData | Array<string | null>> = {};
  const column = (c: string) => (made[c] ??= makers[c]!(lcg(c.length * 7919 + c.charCodeAt(0))));
  const rows = (c: string) => column(c) as Array<string | null>;
  const meta: TableMeta = { name: 'warm', numRows: n, columns: COLUMNS };
  const tables = hostTables(
    [meta],
    (_t, c) => {
      const data = column(c);
      return NativeArrayIsArray(data) ? utf8Column(data) : data;
    },
    {
      fetchText: (_t, c, start, end): TextPage => ({ kind: 'text', rows: rows(c).slice(start, end), charBytes: 1 }),
      scanText: (_t, c, start, end, req) => scan(rows(c), start, end, req),
      textCache: new TextCache(64 * 2 ** 20, 0),
    },
  );
  return tables.warm!;
}
