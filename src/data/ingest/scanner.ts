/**
 * A resumable RFC 4180 record scanner over bytes. It never decodes text: it reports each record's
 * field boundaries inside its window buffer, and the column builders read the bytes they need.
 *
 * Rules: fields are separated by `,`; records end at LF or CRLF outside quotes; a bare CR outside
 * quotes is data. Inside quotes anything goes (`,`, CR, LF); `""` is a literal quote. A quoted field
 * followed by stray text (`"ab"c`) is kept raw, quotes included, and flagged MALFORMED.
 */

/** Field flag: the field was quoted (bytes exclude the quotes). */
export const QUOTED = 1;
/** Field flag: the field contains `""` pairs that must be collapsed to `"`. */
export const ESCAPED = 2;
/** Field flag: stray text after a closing quote; the bytes are the raw field, kept as-is. */
export const MALFORMED = 4;

/** Receives one complete record: field i is `buf[starts[i], ends[i])` with `flags[i]`. */
export type RecordSink = (buf: Buffer, starts: Int32Array, ends: Int32Array, flags: Uint8Array, count: number) => void;

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

const FIELD_START = 0;
const UNQUOTED = 1;
const IN_QUOTES = 2;
const QUOTE_SEEN = 3;

/**
 * Feed bytes with `push`, then call `finish` at end of input.
 * @example
 * const s = new RecordScanner((buf, st, en, fl, n) => console.log(n));
 * s.push(Buffer.from('a,b\n1,2\n')); s.finish();
 */
export class RecordScanner {
  /** True when the input ended inside a quoted field (the last field runs to end of input). */
  unterminatedQuote = false;
  /** Number of fields flagged MALFORMED so far. */
  malformedFields = 0;

  private buf: Buffer;
  private len = 0;
  private recStart = 0;
  private pos = 0;
  private state = FIELD_START;
  private fieldStart = 0;
  private flag = 0;
  private count = 0;
  private starts: Int32Array = new Int32Array(64);
  private ends: Int32Array = new Int32Array(64);
  private flags: Uint8Array = new Uint8Array(64);

  constructor(
    private readonly sink: RecordSink,
    initialBytes = 1 << 22,
  ) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** Appends bytes and emits every record they complete. */
  push(data: Uint8Array): void {
    this.compactAndAppend(data);
    this.scan(false);
  }

  /** Ends the input: emits the last record even without a final newline. */
  finish(): void {
    this.scan(true);
    if (this.state === FIELD_START && this.count === 0) return;
    const end = this.len;
    if (this.state === IN_QUOTES) {
      this.unterminatedQuote = true;
      this.endField(end);
    } else if (this.state === QUOTE_SEEN) this.endField(end - 1);
    else if (this.state === UNQUOTED) this.endField(end);
    else {
      this.flag = 0; // a trailing comma: the last field is empty
      this.endField(end, end);
    }
    this.emit(end);
  }

  /**
   * True when every byte pushed so far ends a complete record: no field or record is open, so the
   * next byte starts a record exactly as it would for a fresh scanner (how a split of the file
   * between two parsers is proven, csvInParts.ts).
   */
  atRecordStart(): boolean {
    return this.state === FIELD_START && this.count === 0 && this.pos === this.len && this.recStart === this.len;
  }

  private compactAndAppend(data: Uint8Array): void {
    const shift = this.recStart;
    if (shift > 0) {
      this.buf.copy(this.buf, 0, shift, this.len);
      this.len -= shift;
      this.pos -= shift;
      this.fieldStart -= shift;
      for (let i = 0; i < this.count; i++) {
        this.starts[i] -= shift;
        this.ends[i] -= shift;
      }
      this.recStart = 0;
    }
    const need = this.len + data.length;
    if (need > this.buf.length) {
      // doubling keeps a huge record (e.g. an unterminated quote) linear, not quadratic
      const grown = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(grown, 0, 0, this.len);
      this.buf = grown;
    }
    this.buf.set(data, this.len);
    this.len = need;
  }

  private scan(final: boolean): void {
    const buf = this.buf;
    const len = this.len;
    let i = this.pos;
    let state = this.state;
    loop: while (i < len) {
      if (state === FIELD_START) {
        if (buf[i] === QUOTE) {
          this.fieldStart = i + 1;
          this.flag = QUOTED;
          state = IN_QUOTES;
          i++;
          continue;
        }
        this.fieldStart = i;
        this.flag = 0;
        state = UNQUOTED;
      }
      if (state === UNQUOTED) {
        let c = 0;
        while (i < len) {
          c = buf[i];
          if (c === COMMA || c === LF || c === CR) break;
          i++;
        }
        if (i === len) break;
        if (c === COMMA) {
          this.endField(i);
          i++;
          state = FIELD_START;
        } else if (c === LF) {
          this.endField(i);
          i = this.emit(i + 1);
          state = FIELD_START;
        } else if (i + 1 === len) {
          if (!final) break; // a CR at the window's end may be the first half of CRLF
          this.endField(i);
          i = this.emit(i + 1);
          state = FIELD_START;
        } else if (buf[i + 1] === LF) {
          this.endField(i);
          i = this.emit(i + 2);
          state = FIELD_START;
        } else i++; // bare CR outside quotes: data
        continue;
      }
      if (state === IN_QUOTES) {
        const q = buf.indexOf(QUOTE, i);
        if (q < 0 || q >= len) {
          i = len;
          break;
        }
        i = q + 1;
        state = QUOTE_SEEN;
        continue;
      }
      // QUOTE_SEEN: the quote at i - 1 either closes the field or starts a `""` pair
      const c = buf[i];
      if (c === QUOTE) {
        this.flag |= ESCAPED;
        state = IN_QUOTES;
        i++;
      } else if (c === COMMA) {
        this.endField(i - 1);
        state = FIELD_START;
        i++;
      } else if (c === LF) {
        this.endField(i - 1);
        i = this.emit(i + 1);
        state = FIELD_START;
      } else if (c === CR && i + 1 === len && !final) {
        break loop;
      } else if (c === CR && (i + 1 === len || buf[i + 1] === LF)) {
        this.endField(i - 1);
        i = this.emit(i + 2 > len ? len : i + 2);
        state = FIELD_START;
      } else {
        // stray text after the closing quote: keep the whole raw field from its opening quote
        this.fieldStart -= 1;
        this.flag = MALFORMED;
        this.malformedFields++;
        state = UNQUOTED;
      }
    }
    this.pos = i;
    this.state = state;
  }

  private endField(end: number, start = this.fieldStart): void {
    const n = this.count;
    if (n === this.starts.length) {
      const cap = n * 2;
      const s = new Int32Array(cap);
      s.set(this.starts);
      const e = new Int32Array(cap);
      e.set(this.ends);
      const f = new Uint8Array(cap);
      f.set(this.flags);
      this.starts = s;
      this.ends = e;
      this.flags = f;
    }
    this.starts[n] = start;
    this.ends[n] = end;
    this.flags[n] = this.flag;
    this.count = n + 1;
  }

  /** Hands the finished record to the sink; returns the next record's start. */
  private emit(next: number): number {
    this.sink(this.buf, this.starts, this.ends, this.flags, this.count);
    this.count = 0;
    this.recStart = next;
    return next;
  }
}
