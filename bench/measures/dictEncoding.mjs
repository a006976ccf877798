// What dictionary-encoded categories buy, simulated on the host (there is no switch): `Agency` as
// stored (`dict`: codes + dictionary) vs the same column as `utf8` (bytes + offsets + validity):
// bytes to read and copy, time to decode to JS strings, and an Arquero groupby over each result.
//   BENCH_ARGS='{"runs":7}' node bench/measures/dictEncoding.mjs
import * as aq from 'arquero';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { runs = 7 } = measureArgs();
const { openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
const ds = await openDataset(resolveDataSource({ dataPath: CSV, cacheDir: CACHE_DIR, env: {} }));
const d = ds.loadColumn('Agency');
if (d.kind !== 'dict') throw new Error(`Agency is ${d.kind}, expected dict`);
const n = d.codes.length;
const dec = new TextDecoder();
const dictStrings = Array.from({ length: d.dictOffsets.length - 1 }, (_, k) =>
  d.dictBytes.subarray(d.dictOffsets[k], d.dictOffsets[k + 1]),
);
// the same column as utf8: bytes per row, offsets, validity
let total = 0;
for (let i = 0; i < n; i++) if (d.codes[i] >= 0) total += dictStrings[d.codes[i]].length;
const bytes = new Uint8Array(total);
const offsets = new Int32Array(n + 1);
const valid = new Uint8Array(n);
for (let i = 0, at = 0; i < n; i++) {
  if (d.codes[i] >= 0) {
    bytes.set(dictStrings[d.codes[i]], at);
    at += dictStrings[d.codes[i]].length;
    valid[i] = 1;
  }
  offsets[i + 1] = at;
}
const size = (o) => Object.values(o).reduce((a, v) => a + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
const fromDict = () => {
  const dict = dictStrings.map((b) => dec.decode(b));
  return Array.from(d.codes, (k) => (k < 0 ? null : dict[k]));
};
const fromUtf8 = () =>
  Array.from({ length: n }, (_, i) => (valid[i] ? dec.decode(bytes.subarray(offsets[i], offsets[i + 1])) : null));
const amount = ds.loadColumn('Award Amount');
const amounts = Array.from(amount.values, (v, i) => (amount.valid[i] ? v : null));
const groupby = (agency) =>
  aq
    .table({ Agency: agency, 'Award Amount': amounts })
    .groupby('Agency')
    .rollup({ total: aq.op.sum('Award Amount') })
    .numRows();
const t = (fn) => {
  const ms = [];
  for (let i = 0; i < runs + 2; i++) {
    const s = performance.now();
    fn();
    if (i >= 2) ms.push(performance.now() - s);
  }
  return summarize(ms);
};
const dictArr = fromDict();
const utf8Arr = fromUtf8();
const result = {
  column: 'Agency',
  distinct: dictStrings.length,
  dictBytes: size(d),
  utf8Bytes: bytes.byteLength + offsets.byteLength + valid.byteLength,
  decodeMs: { dict: t(fromDict), utf8: t(fromUtf8) },
  groupbyMs: { dict: t(() => groupby(dictArr)), utf8: t(() => groupby(utf8Arr)) },
};
ds.close();
log(
  `dict encoding: ${result.dictBytes} vs ${result.utf8Bytes} bytes; decode ${result.decodeMs.dict.p50.toFixed(2)} vs ${result.decodeMs.utf8.p50.toFixed(2)} ms`,
);
emit(result);
