/**
 * JSON text built piece by piece against a byte budget shared by the whole outcome
 * (value, valueText, table, displays, charts <= maxResultBytes). Every piece is counted in UTF-8
 * bytes before it is added, so shared subtrees ("billion laughs") stop at the cap instead of
 * expanding; a container reserves its closing bracket when it opens, so the text is always valid.
 */
import { JSONStringify } from '../intrinsics.js';
import { utf8Length } from '../polyfills/utf8.js';
import { cutToBytes } from '../output/output.js';

/** The remaining result bytes of one run, and whether anything was cut. */
export class Budget {
  truncated = false;
  constructor(public remaining: number) {}
}

/** Appends JSON pieces while the budget allows. */
export class JsonOut {
  private readonly parts: string[] = [];
  constructor(readonly budget: Budget) {}

  /** Appends `s` if it fits; otherwise marks the budget truncated and returns false. */
  push(s: string): boolean {
    return this.append(s, utf8Length(s));
  }

  /** `push` of a piece known to be ASCII (a number's text, `null`, a comma): its length is its bytes. */
  pushAscii(s: string): boolean {
    return this.append(s, s.length);
  }

  /** Appends `s` of `n` UTF-8 bytes if they fit; otherwise marks the budget truncated and returns false. */
  private append(s: string, n: number): boolean {
    if (n > this.budget.remaining) {
      this.budget.truncated = true;
      return false;
    }
    this.budget.remaining -= n;
    this.parts[this.parts.length] = s;
    return true;
  }

  /** Opens a container, reserving the byte of its closing bracket. */
  open(bracket: '[' | '{'): boolean {
    if (this.budget.remaining < 2) {
      this.budget.truncated = true;
      return false;
    }
    this.budget.remaining -= 2;
    this.parts[this.parts.length] = bracket;
    return true;
  }

  /** Closes a container (its byte was reserved by open). */
  close(bracket: ']' | '}'): void {
    this.parts[this.parts.length] = bracket;
  }

  /** Appends a JSON string literal, cutting the string to fit (and marking truncation) if needed. */
  string(s: string): boolean {
    const q = JSONStringify(s) as string;
    if (this.push(q)) return true;
    let room = this.budget.remaining - 2;
    while (room > 0) {
      const cut = JSONStringify(cutToBytes(s, room)) as string;
      if (utf8Length(cut) <= this.budget.remaining) {
        this.push(cut);
        this.budget.truncated = true;
        return true;
      }
      room = Math.floor(room * 0.7);
    }
    return false;
  }

  /** A point to roll back to (used to drop a comma or key whose value did not fit). */
  mark(): [number, number] {
    return [this.parts.length, this.budget.remaining];
  }

  /** Drops everything appended since `m` and refunds its bytes. */
  rollback(m: [number, number]): void {
    this.parts.length = m[0];
    this.budget.remaining = m[1];
  }

  /** The JSON text so far. */
  text(): string {
    let out = '';
    for (let i = 0; i < this.parts.length; i++) out += this.parts[i];
    return out;
  }
}
