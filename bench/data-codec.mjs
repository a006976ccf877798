// Which codec for the columns of a built data folder (issue 24)? For every buffer of every column
// of the full-size data: compressed size and decompression time per codec, in this process.
// Usage: node bench/data-codec.mjs <data-folder built by build-data, any format> [--rounds 3]
// zstd is compressed with the zstd CLI (Node 20 has no zstd encoder) and inflated with zstddec (WASM).
import { execFileSync } from 'node:child_process';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { ZSTDDecoder } from 'zstddec';
import { openDataset } from '../dist/src/data/openDataset.js';
import { ROLES } from '../dist/src/data/cache/format.js';

const dir = process.argv[2];
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 3) || 3;
const ds = await openDataset({ kind: 'csv', path: dir, cacheDir: '/nonexistent' });
const zstd = new ZSTDDecoder();
await zstd.init();

const codecs = {
  'gzip-1': { enc: (b) => gzipSync(b, { level: 1 }), dec: (z, n) => gunzipSync(z, { maxOutputLength: n }) },
  'gzip-6': {
    enc: (b) => gzipSync(b, { level: 6, memLevel: 9 }),
    dec: (z, n) => gunzipSync(z, { maxOutputLength: n }),
  },
  'gzip-9': {
    enc: (b) => gzipSync(b, { level: 9, memLevel: 9 }),
    dec: (z, n) => gunzipSync(z, { maxOutputLength: n }),
  },
  'brotli-5': {
    enc: (b) =>
      brotliCompressSync(b, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
      }),
    dec: (z) => brotliDecompressSync(z),
  },
  'brotli-9': {
    enc: (b) =>
      brotliCompressSync(b, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 9,
          [constants.BROTLI_PARAM_LGWIN]: 22,
          [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
        },
      }),
    dec: (z) => brotliDecompressSync(z),
  },
  'zstd-3': {
    enc: (b) => execFileSync('zstd', ['-3', '-c', '-q'], { input: b, maxBuffer: 2 ** 31 }),
    dec: (z, n) => zstd.decode(z, n),
  },
  'zstd-19': {
    enc: (b) => execFileSync('zstd', ['-19', '-c', '-q', '-T2'], { input: b, maxBuffer: 2 ** 31 }),
    dec: (z, n) => zstd.decode(z, n),
  },
};
const only = process.env.CODECS ? process.env.CODECS.split(',') : Object.keys(codecs);
const totals = Object.fromEntries(only.map((c) => [c, { bytes: 0, decMs: 0, encMs: 0 }]));
let raw = 0;
const abstract = {};
for (const { name, kind } of ds.meta.columns) {
  const col = ds.loadColumn(name);
  for (const role of ROLES[kind]) {
    const a = col[role];
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    if (b.length === 0) continue;
    raw += b.length;
    for (const c of only) {
      let t = performance.now();
      const z = codecs[c].enc(b);
      totals[c].encMs += performance.now() - t;
      const stored = Math.min(z.length, b.length);
      totals[c].bytes += stored;
      let best = Infinity;
      for (let r = 0; r < rounds; r++) {
        t = performance.now();
        const out = codecs[c].dec(z, b.length);
        best = Math.min(best, performance.now() - t);
        if (out.length !== b.length) throw new Error(`${c} ${name}.${role}: ${out.length} != ${b.length}`);
      }
      if (z.length < b.length) totals[c].decMs += best;
      if (name === 'Abstract')
        ((abstract[c] ??= { bytes: 0, ms: 0, raw: 0 }),
          (abstract[c].bytes += stored),
          (abstract[c].ms += best),
          (abstract[c].raw += b.length));
    }
  }
}
console.log(
  `raw buffers: ${(raw / 1e6).toFixed(1)} MB, ${ds.meta.columns.length} columns, ${ds.meta.numRows} rows; best of ${rounds} decodes per buffer`,
);
console.log(
  '| codec | folder MB | ratio | decode all columns ms | decode MB/s (raw out) | encode s | Abstract MB | Abstract decode ms |',
);
console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
for (const c of only) {
  const t = totals[c];
  const a = abstract[c];
  console.log(
    `| ${c} | ${(t.bytes / 1e6).toFixed(3)} | ${(raw / t.bytes).toFixed(2)} | ${t.decMs.toFixed(1)} | ${(raw / 1e6 / (t.decMs / 1000)).toFixed(0)} | ${(t.encMs / 1000).toFixed(1)} | ${(a.bytes / 1e6).toFixed(3)} | ${a.ms.toFixed(1)} |`,
  );
}
