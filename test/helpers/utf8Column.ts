import type { Utf8Column } from '../../schema/columnar.js';

/** A UTF-8 column of these values (null: a null cell), as the ingest builds one. */
export function utf8Column(values: (string | null)[]): Utf8Column {
  const parts = values.map((v) => Buffer.from(v ?? ''));
  const offsets = new Int32Array(values.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  return {
    kind: 'utf8',
    type: 'string',
    bytes: new Uint8Array(Buffer.concat(parts)),
    offsets,
    valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}
