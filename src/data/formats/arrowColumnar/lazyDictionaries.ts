import { Column, tableFromIPC } from '@uwdata/flechette';

type Options = Parameters<typeof tableFromIPC>[1];
type Cached = { cache(): unknown; _cache?: unknown };

/**
 * tableFromIPC without decoding dictionaries up front. flechette gives every dictionary-encoded
 * batch its dictionary's values as JS values while it reads the file (`Column.cache()`: a
 * string per entry, ~40 ms for the 250,000 entries of the benchmark table), which the columnar
 * path never reads: it hashes the entries' bytes. The cache is left empty while the file is read
 * (the method is swapped for the duration of this synchronous call, then restored); a column
 * that goes the per-value way gets it back first (eagerDictionaries).
 * @example const table = tableWithoutDictionaryValues(bytes, { useBigInt: true });
 */
export function tableWithoutDictionaryValues(bytes: Uint8Array, options: Options): ReturnType<typeof tableFromIPC> {
  const proto = Column.prototype as unknown as Cached;
  const eager = proto.cache;
  proto.cache = function (this: Cached) {
    return this._cache ?? null;
  };
  try {
    return tableFromIPC(bytes, options);
  } finally {
    proto.cache = eager;
  }
}

/**
 * Gives the dictionary-encoded batches of a column of a table read by
 * tableWithoutDictionaryValues their dictionary's values, as tableFromIPC would have, so that
 * the column can be read value by value (`toArray()`).
 * @example eagerDictionaries(child.data); child.toArray();
 */
export function eagerDictionaries(batches: readonly unknown[]): void {
  for (const b of batches as Array<{ dictionary?: unknown; setDictionary?(d: unknown): unknown }>) {
    if (b.dictionary && b.setDictionary) b.setDictionary(b.dictionary);
  }
}
