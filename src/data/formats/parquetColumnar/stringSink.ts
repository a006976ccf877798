import type { DictColumn, Utf8Column } from '../../../../schema/columnar.js';
import { MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import type { ColumnSink, PageRows } from './columnSink.js';
import { deltaInts } from './delta.js';
import { dictIndices } from './dictIndices.js';
import { hashBytes, viewOf } from '../../columns/hashBytes.js';
import { DistinctFloor } from './distinctFloor.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';
import { plainBytes, type ByteRanges } from './plainBytes.js';
import { StringBuilder } from './stringBuilder.js';
import { TextStage } from './textStage.js';

/** A Parquet dictionary page: its entries, which of them rows use, and (once hashed) their hashes. */
interface DictStep {
  kind: 'dict';
  ranges: ByteRanges;
  used: Uint8Array;
  hashes: Int32Array;
  /** Per entry: its column code once a row used it, else -1 (set up when the rows are built). */
  codeOf: Int32Array | null;
  /** Set once every entry has its code in `codeOf`: 'identity' when each entry's code is its index. */
  coded?: 'all' | 'identity';
}
/**
 * A PLAIN or DELTA_LENGTH_BYTE_ARRAY page: its values (copied into the column's TextStage when
 * `staged`, else in place in the page), and (once hashed) their hashes.
 */
interface ValuesStep {
  kind: 'values';
  ranges: ByteRanges;
  staged: boolean;
  hashes: Int32Array;
  defs: Int32Array | null;
  rows: number;
}
/** A dictionary-coded page: an index into `dict` per value. */
interface IndexStep {
  kind: 'indices';
  idx: Int32Array;
  dict: DictStep;
  defs: Int32Array | null;
  rows: number;
}
type Step = DictStep | ValuesStep | IndexStep;

/**
 * A string transfer column (dictionary-coded or UTF-8) built from PLAIN, DELTA_LENGTH_BYTE_ARRAY
 * and dictionary-coded BYTE_ARRAY pages. Pages are checked as they come (a damaged page fails
 * in its row group) and the column is built once all of them are known, so its form is decided
 * up front: when a lower bound on the distinct values (DistinctFloor) already breaks dictEncode's
 * rule, the rows are copied straight into UTF-8 bytes + offsets, with no interning; otherwise
 * StringBuilder interns them (with the hashes the bound computed), and the rule is applied exactly.
 * Either way the column is the one typedColumn + dictEncode would build.
 * @example const s = new StringSink(numRows); ... s.finish();
 */
export class StringSink implements ColumnSink {
  private readonly steps: Step[] = [];
  private dict: DictStep | undefined;
  private nonNull = 0;
  private rows = 0;
  /**
   * The builder, once dictionary-coded pages are replayed as they come (see `page`): set at the
   * first data page when it is dictionary-coded and the dictionaries so far hold no more entries
   * than a dictionary of this column may; `steps` then holds only the pages after the last replayed one.
   */
  private out: StringBuilder | null = null;
  /** Whether pages still go to `out` as they come (false once a PLAIN page or a large dictionary came). */
  private eager = true;
  /** Dictionary entries of the pages so far (the eager replay's bound). */
  private entries = 0;
  /** The indices of the page being replayed (one array for every page). */
  private scratch = new Int32Array(0);
  /** The values of the PLAIN and DELTA_LENGTH_BYTE_ARRAY pages, copied out as they come. */
  private stage: TextStage | null = null;

  /**
   * @param maxDict the most distinct values of a dictionary column. @default MAX_DICT_SIZE
   * @param onStep called after each page the column is built from (the lazy decode's heartbeat).
   * @param ruleRows for a part of a column: the whole column's rows, whose half bounds the distinct
   *   values a part may keep as a dictionary (the joined parts then apply the exact rule).
   * @param capacity for the first part of a column: the whole column's rows (StringBuilder's capacity).
   * @param bytesBound the most bytes the pages' values can hold (for a first part, the whole
   *   column's), from the file's metadata: the stage's size (TextStage).
   */
  constructor(
    private readonly numRows: number,
    private readonly maxDict: number = MAX_DICT_SIZE,
    private readonly onStep?: () => void,
    private readonly ruleRows?: number,
    private readonly capacity?: number,
    private readonly bytesBound?: number,
  ) {}

  dictionary(buf: Uint8Array, pos: number, end: number, count: number): void {
    this.dict = {
      kind: 'dict',
      ranges: plainBytes(buf, pos, end, count).ranges,
      used: new Uint8Array(count),
      hashes: new Int32Array(count),
      codeOf: null,
    };
    this.steps.push(this.dict);
    this.entries += count;
    if (this.eager && this.entries > this.dictBound()) this.eager = false;
  }

  page(p: PageRows): void {
    if (this.rows + p.rows > this.numRows) throw new PageCorrupt('more values than rows');
    const coded = p.encoding === 'PLAIN_DICTIONARY' || p.encoding === 'RLE_DICTIONARY';
    if (this.eager && coded && this.steps.every((s) => s.kind === 'dict')) {
      // A category column (its dictionaries hold no more entries than it may keep): the page goes
      // to the builder now, its indices decoded into one reused array, instead of an index array
      // per page held until finish. Every value still reaches the builder in row order, so the
      // column is the one the deferred replay builds (which differs only in skipping the
      // interning of a column proven to be text, and this one cannot be proven so yet).
      const dict = this.dict;
      const out = (this.out ??= new StringBuilder(this.numRows, this.maxDict, this.ruleRows, this.capacity));
      for (const step of this.steps) if (step.kind === 'dict') prepare(out, step);
      this.steps.length = 0;
      if (p.defs === null && dict?.coded !== undefined && !out.isText)
        // every entry already has its code (a later row group's dictionary of the same values):
        // the indices go straight into the column's codes
        out.addCodedPage(p.buf, p.pos, p.end, p.nonNull, dict.codeOf!, dict.coded === 'identity');
      else {
        if (this.scratch.length < p.nonNull)
          this.scratch = new Int32Array(Math.max(p.nonNull, 2 * this.scratch.length));
        const idx = dictIndices(p.buf, p.pos, p.end, p.nonNull, dict?.used.length, this.scratch);
        replayIndices(out, { kind: 'indices', idx, dict: dict!, defs: p.defs, rows: p.rows });
        markCoded(dict!);
      }
      this.nonNull += p.nonNull;
      this.rows += p.rows;
      return;
    }
    this.eager = false;
    if (p.encoding === 'PLAIN' || p.encoding === 'DELTA_LENGTH_BYTE_ARRAY') this.steps.push(this.valuesStep(p));
    else if (p.encoding === 'PLAIN_DICTIONARY' || p.encoding === 'RLE_DICTIONARY') {
      const dict = this.dict;
      const idx = dictIndices(p.buf, p.pos, p.end, p.nonNull, dict?.used.length);
      // which entries rows use is marked in finish, only where the distinct count could matter
      this.steps.push({ kind: 'indices', idx, dict: dict!, defs: p.defs, rows: p.rows });
    } else throw new NeedsFallback(`encoding ${p.encoding}`);
    this.nonNull += p.nonNull;
    this.rows += p.rows;
  }

  finish(): DictColumn | Utf8Column {
    const stage = this.stage;
    if (stage !== null)
      for (const step of this.steps) if (step.kind === 'values' && step.staged) stage.rebind(step.ranges);
    const column = this.build();
    // the column was copied out of the stage (a dictionary, or text replayed with other pages): its memory goes now
    if (stage !== null && !(column.kind === 'utf8' && column.bytes.buffer === stage.bytes.buffer)) stage.release();
    return column;
  }

  /**
   * A page's values, copied into the stage (the page is then not held: it is the inflated page's
   * size, twice the column's text when pages and the built column are alive together), unless the
   * stage would pass the 2 GiB a text column may hold (a dictionary column's pages can: they stay
   * in place then, as before).
   */
  private valuesStep(p: PageRows): ValuesStep {
    const stage = (this.stage ??= new TextStage(Math.max(this.numRows, this.capacity ?? 0), this.bytesBound));
    const rest = { hashes: new Int32Array(p.nonNull), defs: p.defs, rows: p.rows };
    if (p.encoding === 'PLAIN' && stage.fits(p.end - p.pos)) {
      const from = stage.addPlain(p.buf, p.pos, p.end, p.nonNull);
      return { kind: 'values', ranges: stage.ranges(from, p.nonNull), staged: true, ...rest };
    }
    const ranges =
      p.encoding === 'PLAIN'
        ? plainBytes(p.buf, p.pos, p.end, p.nonNull).ranges
        : deltaLengthBytes(p.buf, p.pos, p.end, p.nonNull);
    if (!stage.fits(p.end - p.pos)) return { kind: 'values', ranges, staged: false, ...rest };
    const from = stage.addRanges(ranges);
    return { kind: 'values', ranges: stage.ranges(from, p.nonNull), staged: true, ...rest };
  }

  private build(): DictColumn | Utf8Column {
    if (this.out !== null) return this.finishAfterEager(this.out);
    const out = new StringBuilder(this.numRows, this.maxDict, this.ruleRows, this.capacity);
    const limit = Math.min(this.maxDict, Math.floor((this.ruleRows ?? this.nonNull) / 2));
    // Distinct values are at most every dictionary entry plus every PLAIN value: within the limit
    // (a few dictionaries of a category column), no count can pass it, so which entries rows use
    // is not marked (a pass over every row) and every entry is hashed. Otherwise the unused
    // entries of a dictionary must not count: they are marked first.
    const bound = this.steps.reduce(
      (n, s) => n + (s.kind === 'dict' ? s.used.length : s.kind === 'values' ? s.hashes.length : 0),
      0,
    );
    const marked = bound > limit;
    if (marked) markUsed(this.steps);
    // a part of a column (ruleRows) gets text bytes that joinColumns can grow in place
    if (this.moreDistinctThan(limit, marked)) {
      const staged = this.stagedText();
      if (staged !== null) return staged;
      out.startText(this.textBytes(), this.ruleRows !== undefined);
    }
    for (const step of this.steps) {
      if (step.kind === 'values') replayValues(out, step);
      else if (step.kind === 'indices') replayIndices(out, step);
      else out.reserve(marked ? countUsed(step.used) : step.used.length);
      this.onStep?.();
    }
    return out.finish();
  }

  /**
   * The column as UTF-8 when every row came from a staged page (no dictionary-coded page): the
   * stage's bytes as they are, its value ends as the offsets when no row is null (rebuilt around
   * the nulls otherwise); null when rows came another way (they are replayed then). For the first
   * part of a column the offsets and validity have room for the whole column (`capacity`), as its
   * bytes do (a resizable buffer): joinColumns.ts fills the later parts in after them.
   */
  private stagedText(): Utf8Column | null {
    const stage = this.stage;
    if (stage === null || stage.count !== this.nonNull) return null;
    let nulls = false;
    for (const step of this.steps) {
      if (step.kind === 'indices' || (step.kind === 'values' && !step.staged)) return null;
      if (step.kind === 'values' && step.defs !== null) nulls = true;
    }
    const n = this.numRows;
    const room = stage.ends.length - 1;
    const valid = new Uint8Array(room);
    if (!nulls) {
      valid.fill(1, 0, n);
      return {
        kind: 'utf8',
        type: 'string',
        bytes: stage.take(),
        offsets: stage.ends.subarray(0, n + 1),
        valid: valid.subarray(0, n),
      };
    }
    const ends = stage.ends;
    const offsets = new Int32Array(room + 1);
    let row = 0;
    let k = 0;
    for (const step of this.steps) {
      if (step.kind !== 'values') continue;
      const defs = step.defs;
      for (let i = 0; i < step.rows; i++, row++) {
        if (defs === null || defs[i] !== 0) {
          valid[row] = 1;
          k++;
        }
        offsets[row + 1] = ends[k];
      }
    }
    return {
      kind: 'utf8',
      type: 'string',
      bytes: stage.take(),
      offsets: offsets.subarray(0, n + 1),
      valid: valid.subarray(0, n),
    };
  }

  /** The most distinct values this column (or, for a part, the whole column) may keep as a dictionary. */
  private dictBound(): number {
    return Math.min(this.maxDict, Math.floor((this.ruleRows ?? this.numRows) / 2));
  }

  /**
   * The pages after the replayed ones, into the builder that holds the rows before them: every
   * value hashed (no proof of text can skip the interning once rows are in), then replayed.
   */
  private finishAfterEager(out: StringBuilder): DictColumn | Utf8Column {
    for (const step of this.steps) {
      if (step.kind === 'values') {
        const { buf, begin, end } = step.ranges;
        const view = viewOf(buf);
        for (let k = 0; k < begin.length; k++) step.hashes[k] = hashBytes(view, buf, begin[k], end[k]);
        replayValues(out, step);
      } else if (step.kind === 'indices') replayIndices(out, step);
      else prepare(out, step);
      this.onStep?.();
    }
    return out.finish();
  }

  /**
   * Hashes the values in column order (each dictionary entry once, where a row uses it; every
   * entry when the use is not `marked`), and says whether more than `limit` distinct ones are proven. Unless it returns true, every
   * value's hash is left in its step for the interning.
   */
  private moreDistinctThan(limit: number, marked: boolean): boolean {
    const floor = new DistinctFloor(limit);
    for (const step of this.steps) {
      if (step.kind === 'indices') continue;
      const { buf, begin, end } = step.ranges;
      const view = viewOf(buf);
      const hashes = step.hashes;
      const used = step.kind === 'dict' && marked ? step.used : null;
      for (let k = 0; k < begin.length; k++) {
        if (used !== null && used[k] === 0) continue;
        const h = hashBytes(view, buf, begin[k], end[k]);
        hashes[k] = h;
        floor.add(h);
      }
      this.onStep?.();
      if (floor.above) return true;
    }
    return false;
  }

  /** The UTF-8 bytes of all rows together. */
  private textBytes(): number {
    let total = 0;
    for (const step of this.steps) {
      if (step.kind === 'values') {
        const { begin, end } = step.ranges;
        for (let k = 0; k < begin.length; k++) total += end[k] - begin[k];
      } else if (step.kind === 'indices') {
        const { begin, end } = step.dict.ranges;
        const idx = step.idx;
        for (let k = 0; k < idx.length; k++) total += end[idx[k]] - begin[idx[k]];
      }
    }
    return total;
  }
}

/**
 * A dictionary page before its rows reach the builder: every entry hashed, room made for them,
 * and the code of each entry whose value the column dictionary already holds set in `codeOf` (its
 * code whenever a row uses it; the others are interned when a row first does, in row order).
 */
function prepare(out: StringBuilder, step: DictStep): void {
  if (step.codeOf !== null) return;
  const { buf, begin, end } = step.ranges;
  const view = viewOf(buf);
  const codeOf = new Int32Array(begin.length);
  for (let k = 0; k < begin.length; k++) {
    const h = hashBytes(view, buf, begin[k], end[k]);
    step.hashes[k] = h;
    codeOf[k] = out.codeOf(view, buf, begin[k], end[k], h);
  }
  step.codeOf = codeOf;
  out.reserve(begin.length);
  markCoded(step);
}

/** Entries a page checks completeness for (a larger dictionary is not scanned after each page). */
const CODED_CHECK_MAX = 1 << 16;

/** Notes in `step.coded` whether every entry of the dictionary has its code now. */
function markCoded(step: DictStep): void {
  const codeOf = step.codeOf;
  if (step.coded !== undefined || codeOf === null || codeOf.length > CODED_CHECK_MAX) return;
  let identity = true;
  for (let k = 0; k < codeOf.length; k++) {
    if (codeOf[k] < 0) return;
    if (codeOf[k] !== k) identity = false;
  }
  step.coded = identity ? 'identity' : 'all';
}

function replayValues(out: StringBuilder, step: ValuesStep): void {
  const { buf, begin, end } = step.ranges;
  if (step.defs === null && out.isText) out.appendAll(buf, begin, end);
  else out.addValues(buf, begin, end, step.hashes, step.defs, step.rows);
}

/** Rows of a dictionary-coded page: an entry is interned when a row first uses it; later rows copy its column code. */
function replayIndices(out: StringBuilder, step: IndexStep): void {
  const { defs, rows, idx } = step;
  const { buf, begin, end } = step.dict.ranges;
  const hashes = step.dict.hashes;
  // per entry of the Parquet dictionary: its column code, or -1 before first use (one array per dictionary)
  const codeOf = (step.dict.codeOf ??= new Int32Array(begin.length).fill(-1));
  const view = viewOf(buf);
  if (defs === null && !out.isText) {
    out.addIndexed(idx, codeOf, view, buf, begin, end, hashes);
    return;
  }
  for (let i = 0, k = 0; i < rows; i++) {
    if (defs !== null && defs[i] === 0) {
      out.nul();
      continue;
    }
    const e = idx[k++];
    const code = codeOf[e];
    // a cached code is valid only while the column is still dictionary-coded
    if (code >= 0 && !out.isText) out.addCode(code);
    else codeOf[e] = out.add(view, buf, begin[e], end[e], hashes[e]);
  }
}

/** Marks, per dictionary, the entries its rows use. */
function markUsed(steps: Step[]): void {
  for (const step of steps) {
    if (step.kind !== 'indices') continue;
    const { idx } = step;
    const used = step.dict.used;
    for (let k = 0; k < idx.length; k++) used[idx[k]] = 1;
  }
}

function countUsed(used: Uint8Array): number {
  let n = 0;
  for (let k = 0; k < used.length; k++) n += used[k];
  return n;
}

/** DELTA_LENGTH_BYTE_ARRAY: the lengths (DELTA_BINARY_PACKED), then the values back to back; each length checked. */
function deltaLengthBytes(buf: Uint8Array, pos: number, stop: number, n: number): ByteRanges {
  const { bytes, pos: at } = deltaInts(buf, pos, stop, n, false);
  const lengths = new Int32Array(bytes.buffer, bytes.byteOffset, n);
  const begin = new Int32Array(n);
  const end = new Int32Array(n);
  let p = at;
  for (let i = 0; i < n; i++) {
    const len = lengths[i];
    if (len < 0 || len > stop - p)
      throw new PageCorrupt(`a text value of ${len} bytes, with ${stop - p} bytes left in the page`);
    begin[i] = p;
    p += len;
    end[i] = p;
  }
  return { buf, begin, end };
}
