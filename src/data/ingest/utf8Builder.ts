import type { DictColumn, Utf8Column } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { ByteStore, MAX_COLUMN_BYTES } from '../columns/byteStore.js';
import { exact, growI32, growU8 } from '../columns/grow.js';
import { dictCodes, dictEncode, dictLimit, MAX_DICT_SIZE } from '../columns/dictEncode.js';
import { releaseBuffers } from '../columns/releaseBuffers.js';
import { distinctAtLeast, distinctSketch } from '../columns/distinctSketch.js';
import { totalNonNull, type PartDecision, type PartSummary, type PartText } from './partColumn.js';
import { isBlank } from './blank.js';
import { ESCAPED } from './scanner.js';
import { TextCoder, unescapeInto } from './textCoder.js';
import type { IssueLog } from './report.js';

/** Per-cell rule: plain text, DUNS (legacy apostrophes removed), or a Y/N/U flag (others reported). */
export type StringRule = 'text' | 'duns' | 'flag';

const MAX_BYTES = MAX_COLUMN_BYTES;
const APOS = 0x27;

/** Builds a string column from raw UTF-8 cells without creating JS strings. */
export class Utf8Builder {
  length = 0;
  nonNull = 0;
  /** Validity so far, once the column is kept as text (while coded, a null is code -1). */
  private valid: Uint8Array = new Uint8Array(1024);
  private offsets: Int32Array = new Int32Array(1025);
  private readonly store: ByteStore;
  private byteLen = 0;
  /**
   * A column that may become a dictionary (`encoding` 'auto') is coded as its cells are read, and
   * written as text only when the coder gives up (textCoder.ts) or a part's text is asked for.
   */
  private coder: TextCoder | null;
  /** A quoted cell with its `""` pairs collapsed, before it is coded. */
  private scratch: Buffer = Buffer.allocUnsafe(256);

  constructor(
    readonly name: string,
    private readonly rule: StringRule,
    private readonly issues: IssueLog,
    private readonly reportBlank = false,
    private readonly encoding: 'auto' | 'utf8' = 'auto',
    /** Upper bound of the column's bytes (the input's size, x3 for U+FFFD repairs). */
    maxBytes = MAX_BYTES,
    /** Most distinct values of a dictionary column (dictEncode.ts: 65,535; user tables 2,097,152). */
    private readonly maxDict = MAX_DICT_SIZE,
  ) {
    this.store = new ByteStore(maxBytes);
    this.coder = encoding === 'auto' ? new TextCoder(maxDict) : null;
  }

  /** Appends the cell `buf[s, e)`; `flags & ESCAPED` collapses `""` pairs. */
  add(buf: Buffer, s: number, e: number, flags: number): void {
    if (this.rule === 'duns' && e - s >= 2 && buf[s] === APOS && buf[e - 1] === APOS) {
      s++;
      e--;
    }
    if (isBlank(buf, s, e)) {
      this.addNull();
      if (this.reportBlank)
        this.issues.invalid(this.name, 'blank in a column that is always filled; stored null', () => '');
      return;
    }
    if (this.rule === 'flag' && !(e - s === 1 && (buf[s] === 0x59 || buf[s] === 0x4e || buf[s] === 0x55))) {
      this.issues.invalid(this.name, "not 'Y', 'N' or 'U'; kept as is", () => buf.toString('utf8', s, e));
    }
    if (this.byteLen + (e - s) > MAX_BYTES) {
      throw new DataError(
        'DATA_TOO_LARGE',
        `Column "${this.name}" holds more than 2 GiB of text; split the CSV into smaller files.`,
      );
    }
    if (this.coder) {
      let value = buf;
      let vs = s;
      let ve = e;
      if (flags & ESCAPED) {
        if (this.scratch.length < e - s) this.scratch = Buffer.allocUnsafe(Math.max(e - s, 2 * this.scratch.length));
        value = this.scratch;
        vs = 0;
        ve = unescapeInto(buf, s, e, value);
      }
      if (this.coder.add(value, vs, ve)) {
        this.length++;
        this.nonNull++;
        this.byteLen += ve - vs;
        return;
      }
      this.writeCodedText();
    }
    const i = this.length;
    if (i === this.valid.length) this.valid = growU8(this.valid, i + 1);
    if (i + 1 === this.offsets.length) this.offsets = growI32(this.offsets, i + 2);
    this.length = i + 1;
    this.byteLen = flags & ESCAPED ? this.store.appendUnescaped(buf, s, e) : this.store.append(buf, s, e);
    this.offsets[i + 1] = this.byteLen;
    this.valid[i] = 1;
    this.nonNull++;
  }

  /** Appends a null (a cell missing from a short record). */
  addNull(): void {
    const i = this.length;
    this.length = i + 1;
    if (this.coder) {
      this.coder.addNull();
      return;
    }
    if (i === this.valid.length) this.valid = growU8(this.valid, i + 1);
    if (i + 1 === this.offsets.length) this.offsets = growI32(this.offsets, i + 2);
    this.valid[i] = 0;
    this.offsets[i + 1] = this.byteLen;
  }

  /** The rows coded so far written as text (the column is kept as text from here on). */
  private writeCodedText(): void {
    const coder = this.coder;
    if (!coder) return;
    this.coder = null;
    const text = coder.writeText(this.store, this.offsets, this.valid);
    this.offsets = text.offsets;
    this.valid = text.valid;
    this.byteLen = text.bytes;
  }

  /** Utf8 column, or a dictionary when `encoding` is 'auto' and few values repeat a lot. */
  finish(): Utf8Column | DictColumn {
    if (this.coder) {
      // coded as read: dictEncode's rule on the distinct values counted (its column when within it)
      if (this.coder.distinct <= dictLimit(this.nonNull, this.maxDict)) {
        const coded = this.coder.column();
        this.coder = null;
        return coded;
      }
      this.writeCodedText();
      return this.utf8();
    }
    const col = this.utf8();
    if (this.encoding !== 'auto') return col;
    // a column its sketch proves past the limit (an all-distinct Abstract) is not hashed for one
    const limit = dictLimit(this.nonNull, this.maxDict);
    if (distinctAtLeast([distinctSketch(col, this.nonNull, limit)]) > limit) return col;
    const coded = dictEncode(col, this.nonNull, this.maxDict);
    if (coded === null) return col;
    // the text the codes were made from (a category column's bytes and offsets: tens of MB at
    // millions of rows) is given back now, not at the holder's next collection
    this.store.release();
    releaseBuffers([this.offsets.buffer as ArrayBuffer, this.valid.buffer as ArrayBuffer]);
    return coded;
  }

  summary(): PartSummary {
    return { nonNull: this.nonNull, sketch: this.sketch() };
  }

  /** The part's {@link distinctSketch} when the column may become a dictionary. */
  sketch(): Uint32Array | null {
    return this.encoding === 'auto' ? distinctSketch(this.utf8(), this.nonNull, this.maxDict) : null;
  }

  /**
   * Text, coded against the whole column's dictionary limit (dictEncode's rule over every part);
   * never coded when the parts' sketches already prove more distinct values than the limit.
   */
  decide(parts: readonly PartSummary[]): PartDecision {
    if (this.encoding !== 'auto') return { as: 'text', dictLimit: null };
    const limit = dictLimit(totalNonNull(parts), this.maxDict);
    return { as: 'text', dictLimit: distinctAtLeast(parts.map((p) => p.sketch)) > limit ? null : limit };
  }

  /** The part's text, and its codes against the whole column's limit when it may be a dictionary. */
  finishPart(decision: PartDecision): Utf8Column | PartText {
    const text = this.utf8();
    const limit = decision.as === 'text' ? decision.dictLimit : null;
    return limit === null ? text : { kind: 'part-text', text, coded: dictCodes(text, limit) };
  }

  private utf8(): Utf8Column {
    this.writeCodedText();
    return {
      kind: 'utf8',
      type: 'string',
      bytes: this.store.finish(),
      offsets: exact(this.offsets, this.length + 1),
      valid: exact(this.valid, this.length),
    };
  }
}
