/**
 * One CSV cell writer per column plan (files/parquet/plan.ts): `write(k)` appends the field of
 * output row k. Host columns are read from their typed arrays; a dictionary entry's field bytes
 * are made once per entry, not per row. Fields follow files/csv.ts's rules: nulls and non-finite
 * numbers empty, dates ISO-8601 UTC, quoted when they hold `"`, `,`, a line break, or start or
 * end with white space; with `escape`, text a spreadsheet would run as a formula starts with `'`.
 */
import type { ColumnPlan, DictPlan, Utf8Plan } from '../parquet/plan.js';
import { ByteSink } from '../parquet/byteSink.js';
import { writeUtf8 } from '../parquet/writeText.js';
import { textOf } from '../columnsOf.js';
import { utf8Decode } from '../../polyfills/utf8.js';
import { writeIsoDate } from './isoDate.js';

const NEEDS_QUOTES = /[",\n\r]|^\s|\s$/;
const MAX_MS = 8.64e15;
/** Text a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, tab or CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** ...unless it is a plain number (`-5`, `+1.5e3`), which a spreadsheet reads as that number. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** True for text that a spreadsheet opening the CSV would execute (OWASP "CSV injection"). */
export function isFormulaText(s: string): boolean {
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s);
}

/** Appends a text field, quoted when needed; with `escape`, formula text gets a leading `'` (and quotes). */
export function writeField(out: ByteSink, s: string, escape = false): void {
  if (escape && isFormulaText(s)) {
    writeUtf8(out, '"\'' + s.replace(/"/g, '""') + '"');
    return;
  }
  writeUtf8(out, NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s);
}

/** Appends UTF-8 bytes `src[start..end)` as a field (quoting decided on the bytes; non-ASCII edges decoded to check). */
function writeBytesField(out: ByteSink, src: Uint8Array, start: number, end: number, escape: boolean): void {
  if (escape && end > start) {
    const first = src[start];
    // = + - @ tab CR: decide on the text (rare, so decoding it costs nothing in the common case)
    if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) {
      writeField(out, utf8Decode(src, start, end), true);
      return;
    }
  }
  let quote = false;
  for (let i = start; i < end; i++) {
    const c = src[i];
    if (c === 34 || c === 44 || c === 10 || c === 13) {
      quote = true;
      break;
    }
  }
  if (!quote && end > start) {
    const first = src[start];
    const last = src[end - 1];
    if (first >= 0x80 || last >= 0x80) {
      writeField(out, utf8Decode(src, start, end)); // rare: a non-ASCII first or last character may be Unicode white space
      return;
    }
    quote = first === 32 || (first >= 9 && first <= 13) || last === 32 || (last >= 9 && last <= 13);
  }
  out.ensure((end - start) * 2 + 2);
  const b = out.buf;
  let w = out.pos;
  if (quote) b[w++] = 34;
  for (let i = start; i < end; i++) {
    const c = src[i];
    b[w++] = c;
    if (quote && c === 34) b[w++] = 34;
  }
  if (quote) b[w++] = 34;
  out.pos = w;
}

/** The cell writer of `p` over `out` (reads `out.buf` afresh: the sink may grow). */
export function csvCells(p: ColumnPlan, out: ByteSink, escape = false): (k: number) => void {
  switch (p.kind) {
    case 'double':
    case 'int64': {
      const { values, valid, rows } = p;
      return (k) => {
        const r = rows ? rows[k] : k;
        if (valid && valid[r] !== 1) return;
        const v = values[r];
        if (v - v === 0) writeNumber(out, v); // finite
      };
    }
    case 'timestamp': {
      const { values, valid, rows } = p;
      return (k) => {
        const r = rows ? rows[k] : k;
        const v = values[r];
        if ((valid && valid[r] !== 1) || !(v >= -MAX_MS && v <= MAX_MS)) return;
        writeIsoDate(out, Math.trunc(v) + 0);
      };
    }
    case 'boolean': {
      const { values, valid, rows } = p;
      return (k) => {
        const r = rows ? rows[k] : k;
        if (valid && valid[r] !== 1) return;
        writeUtf8(out, values[r] ? 'true' : 'false');
      };
    }
    case 'dict':
      return dictCells(p, out, escape);
    case 'utf8': {
      const { bytes, offsets, valid, rows }: Utf8Plan = p;
      return (k) => {
        const r = rows ? rows[k] : k;
        if (valid[r]) writeBytesField(out, bytes, offsets[r], offsets[r + 1], escape);
      };
    }
    case 'bigint':
    case 'text': {
      const { values, rows } = p;
      const at = p.kind === 'text' ? p.at : undefined;
      return (k) => {
        const r = rows ? rows[k] : k;
        const v = values ? values[r] : at!(r);
        if (v === null || v === undefined) return;
        if (typeof v === 'string') writeField(out, v, escape);
        else if (typeof v === 'number') {
          if (v - v === 0) writeNumber(out, v);
        } else if (v instanceof Date) {
          const ms = v.getTime();
          if (ms === ms) writeIsoDate(out, ms);
        } else writeField(out, textOf(v) ?? '', escape);
      };
    }
    case 'null':
      return () => {};
  }
}

/** Dictionary cells: each entry's field bytes are made once (the first time a row uses it) into one arena. */
function dictCells(p: DictPlan, out: ByteSink, escape: boolean): (k: number) => void {
  const { codes, dictBytes, dictOffsets, rows } = p;
  const size = dictOffsets.length - 1;
  const at = new Int32Array(size).fill(-1);
  const len = new Int32Array(size);
  const arena = new ByteSink(4096);
  return (k) => {
    const c = codes[rows ? rows[k] : k];
    if (c < 0 || c >= size) return;
    let start = at[c];
    if (start < 0) {
      start = at[c] = arena.pos;
      writeBytesField(arena, dictBytes, dictOffsets[c], dictOffsets[c + 1], escape);
      len[c] = arena.pos - start;
    }
    const n = len[c];
    out.ensure(n);
    const b = out.buf;
    const a = arena.buf;
    let w = out.pos;
    for (let i = start; i < start + n; i++) b[w++] = a[i];
    out.pos = w;
  };
}

/** Appends a finite number as JavaScript prints it; whole numbers within 32 bits without a string. */
function writeNumber(out: ByteSink, v: number): void {
  if ((v | 0) !== v || (v === 0 && 1 / v < 0)) {
    writeUtf8(out, '' + v); // fractions, -0 ('0'), large and exponent forms: JavaScript's own text
    return;
  }
  out.ensure(11);
  const b = out.buf;
  let w = out.pos;
  if (v < 0) {
    b[w++] = 45;
    v = -v;
  }
  let d = 1;
  while (d * 10 <= v) d *= 10;
  for (; d >= 1; d = (d / 10) | 0) {
    const q = (v / d) | 0;
    b[w++] = 48 + q;
    v -= q * d;
  }
  out.pos = w;
}
