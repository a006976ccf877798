/**
 * Thrift compact protocol, write side only, for Parquet's page headers and footer: field headers
 * with id deltas, zigzag varints for i16/i32/i64 (numbers up to 2^53, no BigInt), binary and
 * strings as a varint length + bytes, lists and nested structs.
 */
import { utf8Encode } from '../../polyfills/utf8.js';
import type { ByteSink } from './byteSink.js';

/** Compact protocol type ids. */
export const T = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  STRUCT: 12,
} as const;

/** A writer of one message into a ByteSink; structs nest with begin()/end(). */
export class ThriftWriter {
  private last = 0;
  private readonly stack: number[] = [];

  constructor(readonly out: ByteSink) {}

  private field(id: number, type: number): void {
    const delta = id - this.last;
    if (delta > 0 && delta <= 15) this.out.byte((delta << 4) | type);
    else {
      this.out.byte(type);
      this.zigzag(id);
    }
    this.last = id;
  }

  private zigzag(v: number): void {
    this.out.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  i32(id: number, v: number): this {
    this.field(id, T.I32);
    this.zigzag(v);
    return this;
  }

  i64(id: number, v: number): this {
    this.field(id, T.I64);
    this.zigzag(v);
    return this;
  }

  bool(id: number, v: boolean): this {
    this.field(id, v ? T.TRUE : T.FALSE);
    return this;
  }

  binary(id: number, bytes: Uint8Array): this {
    this.field(id, T.BINARY);
    this.out.varint(bytes.length);
    this.out.bytes(bytes);
    return this;
  }

  string(id: number, s: string): this {
    return this.binary(id, utf8Encode(s));
  }

  /** Starts a struct-valued field (id > 0) or a struct element of a list (id 0). */
  begin(id = 0): this {
    if (id) this.field(id, T.STRUCT);
    this.stack.push(this.last);
    this.last = 0;
    return this;
  }

  end(): this {
    this.out.byte(0);
    this.last = this.stack.pop() ?? 0;
    return this;
  }

  /** A list field header; the caller then writes `size` elements (ints with listI32, structs with begin/end). */
  list(id: number, elemType: number, size: number): this {
    this.field(id, T.LIST);
    if (size < 15) this.out.byte((size << 4) | elemType);
    else {
      this.out.byte(0xf0 | elemType);
      this.out.varint(size);
    }
    return this;
  }

  /** An i32 list element. */
  item32(v: number): this {
    this.zigzag(v);
    return this;
  }

  /** A binary/string list element. */
  itemString(s: string): this {
    const b = utf8Encode(s);
    this.out.varint(b.length);
    this.out.bytes(b);
    return this;
  }
}
