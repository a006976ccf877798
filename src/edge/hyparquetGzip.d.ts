// hyparquet-compressors' pure-JS inflate, imported by its own file so that the edge bundle does not
// carry the package's other codecs (its index pulls in zstd, snappy, brotli and lz4; ~75 KB gzipped).
declare module 'hyparquet-compressors/src/gzip.js' {
  /** gzip -> bytes, into `output` when it is large enough. */
  export function gunzip(input: Uint8Array, output?: Uint8Array): Uint8Array;
}
