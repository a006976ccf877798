/**
 * The data card: a summary of a table computed from its columnar transfer form (schema/columnar.ts)
 * without decoding long text: row count, per column type, null rate, distinct count, top values or
 * min/max/mean, date range, and where the data came from. Pure and import-free: the prelude
 * (describeData()) and the host (src/result/dataCard.ts) share it, each passing its UTF-8 decoder.
 */

/** Structural copies of schema/columnar.ts column kinds (this module imports nothing). */
export type CardColumnData =
  | { kind: 'float64'; type: string; values: Float64Array; valid: Uint8Array }
  | { kind: 'dict'; type: string; codes: Int32Array; dictBytes: Uint8Array; dictOffsets: Int32Array }
  | { kind: 'utf8'; type: string; bytes: Uint8Array; offsets: Int32Array; valid: Uint8Array }
  | { kind: 'bool'; type: string; values: Uint8Array; valid: Uint8Array }
  | PagedText;

/** Long text served in row ranges (pages), so the card never holds the whole column. */
export interface PagedText {
  kind: 'utf8-pages';
  type: string;
  /** The column's rows as consecutive utf8 chunks (offsets rebased to each chunk). */
  pages(): Iterable<{ start: number; data: Utf8Data }>;
  /** The text of one row (null when missing). */
  text(row: number): string | null;
}

type Utf8Data = { bytes: Uint8Array; offsets: Int32Array; valid: Uint8Array };

/** Identity of the data (a subset of schema/result.ts DatasetInfo). */
export interface CardDataset {
  name: string;
  synthetic: boolean;
  source: string;
  identity?: string;
  rows?: number;
  asOf?: string;
}

/** What buildDataCard reads. */
export interface CardInput {
  table: string;
  numRows: number;
  columns: Array<{ name: string; type: string; data: CardColumnData }>;
  dataset?: CardDataset;
  /** UTF-8 decoder for bytes[start..end). */
  decode: (bytes: Uint8Array, start: number, end: number) => string;
}

/** One column of the card. */
export interface ColumnCard {
  name: string;
  type: string;
  nullCount: number;
  /** nullCount / rows, 0..1. */
  nullRate: number;
  distinct: number;
  /** Most frequent values with counts (low-cardinality columns). */
  top?: Array<{ value: string | number | boolean; count: number }>;
  min?: number | string;
  max?: number | string;
  mean?: number;
  /** Text columns: mean and max length in UTF-8 bytes. */
  meanLength?: number;
  maxLength?: number;
  /** Text columns: the first value, clipped. */
  example?: string;
}

/** The card. */
export interface DataCard {
  table: string;
  rows: number;
  dataset: CardDataset | null;
  columns: ColumnCard[];
  /** The card as compact text for a model. */
  summary: string;
}

const TOP = 5;
const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 100) / 100);

function topOf(
  counts: Map<number | string | boolean, number>,
  label: (k: number | string | boolean) => string | number | boolean,
): ColumnCard['top'] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, count]) => ({ value: label(k), count }));
}

/**
 * A 53-bit hash of bytes[s..e) for distinct counts. Values longer than 512 bytes hash their length,
 * first and last 192 bytes and 128 bytes sampled in between (so 300 MB of abstracts hash in well
 * under a second); distinct counts of long text are therefore near-exact, not exact.
 */
function hashRange(b: Uint8Array, s: number, e: number): number {
  let h1 = 0x811c9dc5 ^ (e - s);
  let h2 = 5381 + (e - s);
  const mix = (x: number) => {
    h1 = Math.imul(h1 ^ x, 0x01000193);
    h2 = (Math.imul(h2, 33) + x) | 0;
  };
  if (e - s <= 512) {
    for (let i = s; i < e; i++) mix(b[i]);
  } else {
    for (let i = s; i < s + 192; i++) mix(b[i]);
    const step = (e - s - 384) / 128;
    for (let k = 0; k < 128; k++) mix(b[s + 192 + Math.floor(k * step)]);
    for (let i = e - 192; i < e; i++) mix(b[i]);
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}

/** Text columns: nulls, distinct (hashing bytes, never decoding), lengths, top values or an example. */
function textStats(
  card: ColumnCard,
  pages: Iterable<{ start: number; data: Utf8Data }>,
  text: (row: number) => string,
): void {
  const counts = new Map<number, number>();
  const first = new Map<number, number>();
  let total = 0,
    maxLen = 0,
    valid = 0,
    example = -1,
    rows = 0;
  for (const { start, data: c } of pages) {
    const n = c.valid.length;
    rows += n;
    for (let i = 0; i < n; i++) {
      if (!c.valid[i]) continue;
      const s = c.offsets[i];
      const e = c.offsets[i + 1];
      valid++;
      total += e - s;
      if (e - s > maxLen) maxLen = e - s;
      if (example < 0 && e > s) example = start + i;
      const h = hashRange(c.bytes, s, e);
      const cnt = counts.get(h);
      if (cnt === undefined) {
        counts.set(h, 1);
        first.set(h, start + i);
      } else counts.set(h, cnt + 1);
    }
  }
  card.nullCount = rows - valid;
  card.distinct = counts.size;
  if (!valid) return;
  card.meanLength = Math.round(total / valid);
  card.maxLength = maxLen;
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  if (top.length && top[0][1] > 1 && counts.size <= Math.max(50, valid / 2)) {
    card.top = top.map(([h, count]) => ({ value: clip(text(first.get(h)!), 40), count }));
  } else if (example >= 0) {
    card.example = clip(text(example).replace(/\s+/g, ' '), 80);
  }
}

function columnCard(name: string, type: string, c: CardColumnData, n: number, decode: CardInput['decode']): ColumnCard {
  const card: ColumnCard = { name, type, nullCount: 0, nullRate: 0, distinct: 0 };
  if (c.kind === 'float64') {
    const seen = new Map<number, number>();
    let min = Infinity,
      max = -Infinity,
      sum = 0,
      valid = 0;
    for (let i = 0; i < n; i++) {
      if (!c.valid[i]) continue;
      const v = c.values[i];
      valid++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      seen.set(v, (seen.get(v) ?? 0) + 1);
    }
    card.nullCount = n - valid;
    card.distinct = seen.size;
    if (valid) {
      card.min = type === 'date' ? isoDate(min) : min;
      card.max = type === 'date' ? isoDate(max) : max;
      if (type !== 'date') card.mean = round(sum / valid);
      if (type === 'integer' && seen.size <= 12) card.top = topOf(seen, (k) => k);
    }
  } else if (c.kind === 'dict') {
    const size = c.dictOffsets.length - 1;
    const counts = new Int32Array(size);
    for (let i = 0; i < n; i++) {
      const k = c.codes[i];
      if (k < 0) card.nullCount++;
      else counts[k]++;
    }
    const used = new Map<number, number>();
    counts.forEach((cnt, k) => {
      if (cnt) used.set(k, cnt);
    });
    card.distinct = used.size;
    card.top = topOf(used, (k) =>
      clip(decode(c.dictBytes, c.dictOffsets[k as number], c.dictOffsets[(k as number) + 1]), 40),
    );
  } else if (c.kind === 'utf8') {
    textStats(card, [{ start: 0, data: c }], (i) =>
      decode(c.bytes, c.offsets[i], Math.min(c.offsets[i + 1], c.offsets[i] + 240)),
    );
  } else if (c.kind === 'utf8-pages') {
    textStats(card, c.pages(), (i) => (c.text(i) ?? '').slice(0, 240));
  } else {
    const counts = new Map<boolean, number>();
    for (let i = 0; i < n; i++) {
      if (!c.valid[i]) card.nullCount++;
      else counts.set(c.values[i] !== 0, (counts.get(c.values[i] !== 0) ?? 0) + 1);
    }
    card.distinct = counts.size;
    card.top = topOf(counts as Map<boolean, number>, (k) => k);
  }
  card.nullRate = n ? card.nullCount / n : 0;
  return card;
}

/** One line per column, plus a header naming the data's origin. */
export function dataCardText(card: Omit<DataCard, 'summary'>): string {
  const d = card.dataset;
  const origin = !d
    ? ''
    : d.synthetic
      ? ' - SYNTHETIC SAMPLE (made-up rows for trying the tools; not real awards)'
      : ` - real data from ${d.source}${d.asOf ? `, as of ${d.asOf.slice(0, 10)}` : ''}`;
  const lines = [`${card.table}: ${card.rows} rows x ${card.columns.length} columns${origin}`];
  for (const c of card.columns) {
    const parts = [
      `${(c.nullRate * 100).toFixed(c.nullRate > 0 && c.nullRate < 0.01 ? 1 : 0)}% null`,
      `${c.distinct} distinct`,
    ];
    if (c.type === 'date' && c.min !== undefined) parts.push(`range ${c.min} .. ${c.max}`);
    else if (c.min !== undefined)
      parts.push(`min ${c.min}, max ${c.max}${c.mean !== undefined ? `, mean ${c.mean}` : ''}`);
    if (c.top)
      parts.push(
        `top: ${c.top.map((t) => `${typeof t.value === 'string' ? JSON.stringify(t.value) : t.value} (${t.count})`).join(', ')}`,
      );
    if (c.meanLength !== undefined && !c.top)
      parts.push(`avg length ${c.meanLength}${c.example ? `, e.g. ${JSON.stringify(c.example)}` : ''}`);
    lines.push(`- ${c.name} (${c.type}): ${parts.join('; ')}`);
  }
  return lines.join('\n');
}

/**
 * Computes the card.
 * @example buildDataCard({ table: 'award_data', numRows: 2, columns: [...], decode }).summary
 */
export function buildDataCard(input: CardInput): DataCard {
  const columns = input.columns.map((c) => columnCard(c.name, c.type, c.data, input.numRows, input.decode));
  const card = { table: input.table, rows: input.numRows, dataset: input.dataset ?? null, columns };
  return { ...card, summary: dataCardText(card) };
}
