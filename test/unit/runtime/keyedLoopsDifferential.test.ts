// Keyed accumulation loops answered from the columns (src/runtime/prepare/keyedLoops.ts,
// prelude/data/keyedLoop.ts) change how a loop is evaluated, never what it leaves: each sequence of
// runs goes through a real sandbox session twice, rewritten and as written (a comment naming
// `$sbtRow` turns every row rewrite off), on both engines; values (entries in order: property and
// entry order are part of the answer), output, errors with line and column, and what later runs see
// must be the same. Steps marked `rw` also check that the preparation rewrote the loop as keyed;
// `as` steps that it did not. A user table (tables option) brings what award_data lacks: keys that
// meet as property keys (null and 'null', '1' and 1 through a `+`), keys on Object.prototype, -0.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

let dir = '';
let edgeCsv = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'keyed-'));
  edgeCsv = join(dir, 'edge.csv');
  // every value at least twice: the string column is dictionary-coded (dictEncode's rule)
  const rows = [
    ['constructor', '-0', '1'],
    ['null', '0', '2'],
    ['', '5', ''],
    ['1', '1', '7'],
    ['x1', '2', '3'],
    ['x', '12', '4'],
    ['__proto__', '-0', '5'],
    ['toString', '', '6'],
    ['null', '1.5', '-0'],
    ['Army', '3', '8'],
  ];
  const lines = ['S,K,V'];
  for (let k = 0; k < 3; k++)
    for (let i = 0; i < rows.length; i++) lines.push(rows[(i * 7 + k) % rows.length]!.join(','));
  writeFileSync(edgeCsv, lines.join('\n') + '\n');
});
afterAll(async () => {
  await shutdown();
  rmSync(dir, { recursive: true, force: true });
});

type Step = string | { code: string; keyed: boolean };
const rw = (code: string): Step => ({ code, keyed: true });
const as = (code: string): Step => ({ code, keyed: false });

const SEQUENCES: Record<string, Step[]> = {
  'the model-style programs: counts and sums, objects, arrays and index loops, filters, two-field keys': [
    rw(
      "const counts = {};\nfor (const r of award_data.select('Agency').objects()) counts[r.Agency] = (counts[r.Agency] || 0) + 1;\nObject.entries(counts)",
    ),
    rw(
      "const counts2 = new Map();\nfor (const a of award_data.array('Agency')) counts2.set(a, (counts2.get(a) || 0) + 1);\n[...counts2]",
    ),
    rw(
      "const totals = {};\nfor (const r of award_data.select('Agency', 'Award Amount').objects()) {\n  totals[r.Agency] = (totals[r.Agency] || 0) + (r['Award Amount'] || 0);\n}\nObject.entries(totals)",
    ),
    rw(
      "const ag = award_data.array('Agency'), amt = award_data.array('Award Amount');\nconst tm = new Map();\nfor (let i = 0; i < ag.length; i++) tm.set(ag[i], (tm.get(ag[i]) || 0) + (amt[i] || 0));\n[...tm]",
    ),
    rw(
      "const byState = {};\nfor (const r of award_data.select('Phase', 'State').objects()) {\n  if (r.Phase !== 'Phase II' || r.State == null) continue;\n  byState[r.State] = (byState[r.State] || 0) + 1;\n}\nObject.entries(byState)",
    ),
    rw(
      "const phase = award_data.array('Phase'), state = award_data.array('State');\nconst pm = new Map();\nfor (let i = 0; i < phase.length; i++) if (phase[i] === 'Phase II' && state[i] != null) pm.set(state[i], (pm.get(state[i]) || 0) + 1);\n[...pm]",
    ),
    rw(
      "const yn = {};\nfor (const r of award_data.select('Award Year').objects()) yn[r['Award Year']] = (yn[r['Award Year']] || 0) + 1;\nObject.entries(yn)",
    ),
    rw(
      "const ym = new Map();\nfor (const y of award_data.array('Award Year')) ym.set(y, (ym.get(y) || 0) + 1);\n[...ym]",
    ),
    rw(
      "const by = new Map();\nfor (const r of award_data.select('Company', 'Award Amount').objects()) by.set(r.Company, (by.get(r.Company) || 0) + (r['Award Amount'] || 0));\n[...by].slice(0, 40)",
    ),
    rw(
      "const c = award_data.array('Company'), a = award_data.array('Award Amount');\nconst byc = {};\nfor (let i = 0; i < c.length; i++) byc[c[i]] = (byc[c[i]] || 0) + (a[i] || 0);\nObject.entries(byc).slice(0, 40)",
    ),
    rw(
      "const m = {};\nfor (const r of award_data.select('Agency', 'Phase').objects()) { const k = r.Agency + ' / ' + r.Phase; m[k] = (m[k] || 0) + 1; }\nObject.entries(m)",
    ),
    rw(
      "const a2 = award_data.array('Agency'), p2 = award_data.array('Phase');\nconst m2 = new Map();\nfor (let i = 0; i < a2.length; i++) { const k = a2[i] + ' / ' + p2[i]; m2.set(k, (m2.get(k) || 0) + 1); }\n[...m2]",
    ),
    rw(
      "const dy = {};\nfor (const r of award_data.select('Award Year', 'Award Amount').objects()) if (r['Award Year'] >= 2018) dy[r['Award Year']] = (dy[r['Award Year']] || 0) + (r['Award Amount'] || 0);\nObject.entries(dy)",
    ),
    rw(
      "const br = {};\nfor (const r of award_data.select('Agency', 'Branch').objects()) if (r.Agency === 'Department of Defense' && r.Branch != null) br[r.Branch] = (br[r.Branch] || 0) + 1;\nObject.entries(br)",
    ),
    rw(
      "const st = award_data.array('Program'), sa = award_data.array('Agency');\nconst sm = new Map();\nfor (let i = 0; i < st.length; i++) if (st[i] === 'STTR') sm.set(sa[i], (sm.get(sa[i]) || 0) + 1);\n[...sm]",
    ),
    '[counts.Agency, Object.keys(totals).length, tm.size, typeof byState, Object.keys(yn)[0], [...ym][0]]',
  ],
  'nulls, ?? and terms without || 0, filtered and ordered tables, conditions of every kind': [
    rw(
      "const t1 = {};\nfor (const r of award_data.select('Branch', 'Award Amount').objects()) t1[r.Branch] = (t1[r.Branch] ?? 0) + r['Award Amount'];\nObject.entries(t1)",
    ),
    rw(
      "const t2 = new Map();\nfor (const r of award_data.select('Branch', 'Award Amount').objects()) t2.set(r.Branch, (t2.get(r.Branch) || 0) + (r['Award Amount'] ?? 1));\n[...t2]",
    ),
    rw(
      "const t3 = {};\nfor (const r of award_data.filter(d => d['Award Amount'] > 100000).orderby(aq.desc('Award Amount')).objects()) t3[r.State] = (t3[r.State] || 0) + 1;\nObject.entries(t3)",
    ),
    rw(
      "const t4 = new Map();\nfor (const r of award_data.select('Phase', 'Award Year', 'Branch').objects()) {\n  if (!r.Branch) continue;\n  if (r['Award Year'] < 2010 || r['Award Year'] > 2020) continue;\n  t4.set(r.Phase + r['Award Year'], (t4.get(r.Phase + r['Award Year']) || 0) + 2.5);\n}\n[...t4]",
    ),
    rw(
      "const t5 = {};\nfor (const r of award_data.select('Agency', 'Award Year').objects()) if (!(r.Agency == 'National Science Foundation') && r['Award Year'] != -1 && r['Award Year'] == '2015') t5[r['Award Year'] + r.Agency] = (t5[r['Award Year'] + r.Agency] || 0) + 1;\nObject.entries(t5)",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nconst t6 = new Map();\nfor (let i = 0; i < am.length; i += 1) t6.set(am[i], (t6.get(am[i]) || 0) + 1);\n[t6.size, [...t6].slice(0, 20)]",
    ),
    rw(
      "const t7 = {};\nfor (const r of award_data.select('Award Amount').objects()) t7[r['Award Amount']] = (t7[r['Award Amount']] || 0) + 1;\n[Object.keys(t7).length, Object.entries(t7).slice(0, 20)]",
    ),
  ],
  'a user table: keys that meet, keys on Object.prototype, -0 and null keys': [
    rw('const e1 = {};\nfor (const r of k.objects()) e1[r.S] = (e1[r.S] || 0) + 1;\nObject.entries(e1)'),
    rw('const e2 = new Map();\nfor (const r of k.objects()) e2.set(r.S, (e2.get(r.S) || 0) + r.V);\n[...e2]'),
    rw(
      "const e3 = new Map();\nfor (const x of k.array('K')) e3.set(x, (e3.get(x) || 0) + 1);\n[...e3].map(([a, b]) => [Object.is(a, -0), a, b])",
    ),
    rw('const e4 = {};\nfor (const r of k.objects()) e4[r.K] = (e4[r.K] || 0) + (r.V || 0);\nObject.entries(e4)'),
    rw('const e5 = {};\nfor (const r of k.objects()) e5[r.S + r.K] = (e5[r.S + r.K] || 0) + 1;\nObject.entries(e5)'),
    rw('const e6 = new Map();\nfor (const r of k.objects()) e6.set(r.S + r.K, (e6.get(r.S + r.K) || 0) + 1);\n[...e6]'),
    rw(
      "const ks = k.array('S'), kv = k.array('V');\nconst e7 = {};\nfor (let i = 0; i < ks.length; i++) if (ks[i] !== 'constructor' && ks[i] !== '__proto__' && ks[i] !== 'toString') e7[ks[i]] = (e7[ks[i]] || 0) + (kv[i] ?? 0);\nObject.entries(e7)",
    ),
    rw(
      'const e8 = {};\nfor (const r of k.objects()) if (r.V === -0) e8[r.S] = (e8[r.S] || 0) + r.V;\nObject.entries(e8).map(([a, b]) => [a, Object.is(b, -0)])',
    ),
  ],
  'what the run changed first: a patched Map.prototype.set or get, a setter on Object.prototype, a written array, a replaced Map':
    [
      'const MP = Object.getPrototypeOf(new Map());\nvar origSet = MP.set, origGet = MP.get, sets = 0, gets = 0;\nMP.set = function (k, v) { sets++; return origSet.call(this, k, v) };\nMP.get = function (k) { gets++; return origGet.call(this, k) };\n[sets, gets]',
      rw(
        "const p1 = new Map();\nfor (const a of award_data.array('Phase')) p1.set(a, (p1.get(a) || 0) + 1);\n[sets, gets, [...p1]]",
      ),
      rw(
        "const p2 = new Map();\nconst pa = award_data.array('Phase');\nfor (let i = 0; i < pa.length; i++) p2.set(pa[i], (p2.get(pa[i]) || 0) + 1);\n[sets, gets, [...p2]]",
      ),
      'MP.set = origSet;\n[sets, gets]',
      rw(
        "const p2b = new Map();\nconst pb = award_data.array('Phase');\nfor (let i = 0; i < pb.length; i++) p2b.set(pb[i], (p2b.get(pb[i]) || 0) + 1);\n[sets, gets, [...p2b]]",
      ),
      'MP.get = origGet;\n[sets, gets]',
      rw(
        "const OP = Object.getPrototypeOf({});\nlet hits = 0;\nObject.defineProperty(OP, 'Phase I', { set(v) { hits++ }, get() { return 10 }, configurable: true });\nconst p3 = {};\nfor (const r of award_data.select('Phase').objects()) p3[r.Phase] = (p3[r.Phase] || 0) + 1;\ndelete OP['Phase I'];\n[hits, Object.entries(p3)]",
      ),
      rw(
        "const OP2 = Object.getPrototypeOf({});\nlet hits2 = 0;\nObject.defineProperty(OP2, '2015', { set(v) { hits2++ }, configurable: true });\nconst p7 = {};\nfor (const y of award_data.array('Award Year')) p7[y] = (p7[y] || 0) + 1;\ndelete OP2['2015'];\n[hits2, Object.entries(p7)]",
      ),
      rw(
        "const wa = award_data.array('Agency');\nwa[3] = 'Mine';\nwa[7] = null;\nconst p4 = {};\nfor (let i = 0; i < wa.length; i++) p4[wa[i]] = (p4[wa[i]] || 0) + 1;\nObject.entries(p4)",
      ),
      rw(
        "const wn = award_data.array('Award Year');\nwn.length = 10;\nconst wy = award_data.array('Agency');\nconst p5 = {};\nfor (let i = 0; i < wn.length; i++) p5[wy[i]] = (p5[wy[i]] || 0) + 1;\nObject.entries(p5)",
      ),
      rw(
        "const wg = award_data.array('Agency'), wm = award_data.array('Award Amount');\nwm[5] = '7';\nconst p8 = new Map();\nfor (let i = 0; i < wg.length; i++) p8.set(wg[i], (p8.get(wg[i]) || 0) + (wm[i] || 0));\n[...p8]",
      ),
      rw(
        "const wp = award_data.array('Phase'), ws = award_data.array('State');\nwp[wp.length - 1] = wp[wp.length - 1] === 'Phase I' ? 'Phase II' : 'Phase I';\nws[0] = { toString() { return 'Obj' } };\nconst p9 = {};\nfor (let i = 0; i < wp.length; i++) if (wp[i] === 'Phase II') p9[ws[i]] = (p9[ws[i]] || 0) + 1;\nObject.entries(p9)",
      ),
      'var vcalls = 0;\nvar vobj = { valueOf() { vcalls++; return 2020 } };\nvcalls',
      rw(
        "const wq = award_data.array('Phase'), wr = award_data.array('Award Year'), wk = award_data.array('Agency');\nwq[3] = vobj;\nwr[4] = vobj;\nconst p10 = {};\nfor (let i = 0; i < wq.length; i++) if (wq[i] == 'Phase II' && wr[i] >= 2018) p10[wk[i]] = (p10[wk[i]] || 0) + 1;\n[vcalls, Object.entries(p10)]",
      ),
      rw(
        "const wt = award_data.array('Phase'), wu = award_data.array('Agency');\nwt[3] = vobj;\nwt[4] = undefined;\nconst p11 = new Map();\nfor (let i = 0; i < wt.length; i++) if (wt[i] !== 'Phase I' && wt[i] != null) p11.set(wu[i], (p11.get(wu[i]) || 0) + 1);\n[vcalls, [...p11]]",
      ),
      'const NativeMap0 = Map;\nvar mapNews = 0;\nMap = class extends NativeMap0 { constructor() { super(); mapNews++ } };\nmapNews',
      rw(
        "const p6 = new Map();\nfor (const a of award_data.array('Phase')) p6.set(a, (p6.get(a) || 0) + 1);\n[mapNews, [...p6]]",
      ),
      'Map = NativeMap0;\nmapNews',
    ],
  'index loops over arrays read in place (session 19): every array the kept values, a loop declined': [
    rw(
      "const p = award_data.array('Program'), ag = award_data.array('Agency');\nconst m = new Map();\nfor (let i = 0; i < p.length; i++) if (p[i] === 'STTR') m.set(ag[i], (m.get(ag[i]) || 0) + 1);\n[...m]",
    ),
    '[p.length, ag[3], m.size]',
    "var hooked = 0;\nObject.setPrototypeOf(Object.getPrototypeOf([]), new Proxy(Object.getPrototypeOf({}), { get(t, key, rec) { if (key === '40') { hooked++; rec[1] = 'Mine'; return 'x1'; } return t[key]; } }));\nhooked",
    // the other array shorter than the bound: declined, and its reads past the end reach the run's Proxy,
    // which writes into the array it is read on (a copy of its own, never the kept values)
    rw(
      "const ks = k.array('S'), amt = award_data.array('Award Amount');\nconst o = {};\nfor (let i = 0; i < amt.length; i++) o[ks[i]] = (o[ks[i]] || 0) + 1;\nObject.entries(o)",
    ),
    "Object.setPrototypeOf(Object.getPrototypeOf([]), Object.getPrototypeOf({}));\n[k.array('S')[1], ks[1], ks.length, hooked]",
  ],
  'the same loops again (session 19): what a session keeps, and what changed since': [
    rw("const m = new Map();\nfor (const y of award_data.array('Award Year')) m.set(y, (m.get(y) || 0) + 1);\n[...m]"),
    rw("const m = new Map();\nfor (const y of award_data.array('Award Year')) m.set(y, (m.get(y) || 0) + 1);\n[...m]"),
    rw(
      "const p = award_data.array('Phase'), a = award_data.array('Award Amount');\nconst acc = new Map();\nfor (let i = 0; i < p.length; i++) { if (a[i] == null) continue; const e = acc.get(p[i]) || [0, 0]; e[0] += a[i]; e[1]++; acc.set(p[i], e); }\nvar first = acc;\n[...acc]",
    ),
    // the entries a repeat makes are its own: the first run's, written since, are not what it reads
    "first.get('Phase I')[0] = -1;\nfirst.get('Phase I').push(7);\n[...first]",
    rw(
      "const p = award_data.array('Phase'), a = award_data.array('Award Amount');\nconst acc = new Map();\nfor (let i = 0; i < p.length; i++) { if (a[i] == null) continue; const e = acc.get(p[i]) || [0, 0]; e[0] += a[i]; e[1]++; acc.set(p[i], e); }\n[...acc, acc === first, [...first]]",
    ),
    rw("const o = {};\nfor (const s of award_data.array('Phase')) o[s] = (o[s] || 0) + 1;\nObject.entries(o)"),
    rw("const o = {};\nfor (const s of award_data.array('Phase')) o[s] = (o[s] || 0) + 1;\nObject.entries(o)"),
    // a key put on Object.prototype since: the loop as written reads it there
    "Object.defineProperty(Object.getPrototypeOf({}), 'Phase II', { value: 100, writable: true, configurable: true });\n0",
    rw(
      "const o = {};\nfor (const s of award_data.array('Phase')) o[s] = (o[s] || 0) + 1;\n[Object.entries(o), o['Phase II']]",
    ),
    "delete Object.getPrototypeOf({})['Phase II'];\n0",
    rw("const o = {};\nfor (const s of award_data.array('Phase')) o[s] = (o[s] || 0) + 1;\nObject.entries(o)"),
    // the same shape over another table's column
    rw("const o = {};\nfor (const s of k.array('S')) o[s] = (o[s] || 0) + 1;\nObject.entries(o)"),
    as("const o = { pre: 1 };\nfor (const s of k.array('S')) o[s] = (o[s] || 0) + 1;\nObject.entries(o)"),
  ],
  'pair accumulators: one array or object per key, sums and counts in its slots': [
    rw(
      "const q1 = {};\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) {\n  if (r['Award Amount'] == null) continue;\n  const e = (q1[r.Phase] ||= [0, 0]);\n  e[0] += r['Award Amount']; e[1]++;\n}\nObject.entries(q1).map(([k, [s, n]]) => [k, s / n])",
    ),
    rw(
      "const qp = award_data.array('Phase'), qa = award_data.array('Award Amount');\nconst q2 = new Map();\nfor (let i = 0; i < qp.length; i++) { if (qa[i] == null) continue; const e = q2.get(qp[i]) || [0, 0]; e[0] += qa[i]; e[1]++; q2.set(qp[i], e); }\n[...q2]",
    ),
    rw(
      "const q3 = {};\nfor (const r of award_data.select('Agency', 'Award Amount').objects()) { if (r['Award Amount'] == null) continue; const k = r.Agency; q3[k] ||= [0, 0]; q3[k][0] += r['Award Amount']; q3[k][1]++; }\nObject.entries(q3)",
    ),
    rw(
      "const q4 = new Map();\nfor (const r of award_data.select('State', 'Award Amount').objects()) { const k = r.State; const v = r['Award Amount']; if (!q4.has(k)) q4.set(k, { sum: 0, n: 0 }); const e = q4.get(k); e.sum += v; e.n++; }\n[...q4].map(([k, e]) => [k, Object.keys(e), e.sum, e.n])",
    ),
    rw(
      "const q5 = {};\nfor (const r of award_data.select('Branch', 'Award Amount').objects()) (q5[r.Branch] ??= { s: 0, n: -1 }).s += r['Award Amount'];\nObject.entries(q5).map(([k, e]) => [k, e.s, Object.is(e.n, -0)])",
    ),
    as(
      "const q5b = {};\nfor (const r of award_data.select('Branch', 'Award Amount').objects()) (q5b[r.Branch] ??= { s: 0, n: -0 }).s += r['Award Amount'];\nObject.entries(q5b).map(([k, e]) => [k, e.s, Object.is(e.n, -0)])",
    ),
    rw(
      "const q6 = {};\nfor (const a of award_data.array('Award Year')) { if (!q6[a]) q6[a] = { n: 0, twice: 1 }; q6[a].n++; q6[a].twice += 2; q6[a].n += 1; }\nObject.entries(q6)",
    ),
    rw(
      "const q7 = new Map();\nfor (const r of award_data.select('Agency', 'Phase', 'Award Amount').objects()) { if (r.Phase !== 'Phase II') continue; const e = q7.get(r.Agency + '|' + r.Phase) ?? [0, 0, 0]; e[0] += r['Award Amount'] || 0; e[2]++; q7.set(r.Agency + '|' + r.Phase, e); }\n[...q7]",
    ),
    rw(
      "const q12 = new Map();\nfor (const r of award_data.select('Company', 'Award Amount', 'Number Employees').objects()) {\n  if (!(r['Number Employees'] >= 10)) continue;\n  const e = q12.get(r.Company) || { s: 0, e: 0 };\n  e.s += r['Award Amount'] || 0; e.e = Math.max(e.e, r['Number Employees']);\n  q12.set(r.Company, e);\n}\n[...q12].map(([c, v]) => [c, v.s / v.e]).sort((a, b) => b[1] - a[1]).slice(0, 30)",
    ),
    rw(
      "const qc = award_data.array('Company'), qn = award_data.array('Number Employees');\nconst q13 = new Map();\nfor (let i = 0; i < qc.length; i++) { const e = q13.get(qc[i]) || [1e9, -1]; e[0] = Math.min(qn[i], e[0]); e[1] = Math.max(e[1], qn[i]); q13.set(qc[i], e); }\n[q13.size, [...q13].slice(0, 30)]",
    ),
    // keys on Object.prototype (__proto__, constructor, toString), null and 'null', -0
    rw(
      'const q8 = {};\nfor (const r of k.objects()) { const e = (q8[r.S] ||= [0, 0]); e[0] += r.V; e[1]++; }\nObject.entries(q8)',
    ),
    rw(
      'const q9 = new Map();\nfor (const r of k.objects()) { const e = q9.get(r.K) || { s: 0, n: 0 }; e.s += r.V; e.n++; q9.set(r.K, e); }\n[...q9].map(([a, e]) => [Object.is(a, -0), a, e.s, e.n])',
    ),
    rw(
      'const q10 = {};\nfor (const r of k.objects()) { q10[r.S + r.K] ||= [0]; q10[r.S + r.K][0]++; }\nObject.entries(q10)',
    ),
    rw(
      "const ks = k.array('S'), kv = k.array('V');\nconst q11 = {};\nfor (let i = 0; i < ks.length; i++) { if (ks[i] === '__proto__' || ks[i] === 'constructor' || ks[i] === 'toString') continue; const e = (q11[ks[i]] ||= [0, 0]); e[0] += kv[i] ?? 0; e[1]++; }\nObject.entries(q11)",
    ),
    rw(
      'const q14 = {};\nfor (const r of k.objects()) { const e = (q14[r.S] ||= { lo: 5, hi: -5 }); e.lo = Math.min(e.lo, r.K); e.hi = Math.max(r.V, e.hi); }\nObject.entries(q14).map(([a, e]) => [a, Object.is(e.lo, -0), e.lo, e.hi])',
    ),
    '[Object.keys(q1), q2.size, typeof q3, q4.size, Object.keys(q5).length, Object.keys(q8), q9.size, Object.keys(q10).length]',
  ],
  'pair accumulators after the run changed things: getters and setters on the prototypes, a patched has, a written array':
    [
      rw(
        "const OPa = Object.getPrototypeOf({});\nlet got = 0;\nObject.defineProperty(OPa, 'Phase II', { get() { got++; return [100, 100] }, configurable: true });\nconst g1 = {};\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { const e = (g1[r.Phase] ||= [0, 0]); e[0] += r['Award Amount'] || 0; e[1]++; }\nconst seen = OPa['Phase II'];\ndelete OPa['Phase II'];\n[got, seen, Object.entries(g1)]",
      ),
      rw(
        "const OPb = Object.getPrototypeOf({});\nlet sets = 0;\nObject.defineProperty(OPb, 'n', { set(v) { sets++ }, get() { return 5 }, configurable: true });\nconst g2 = {}, g3 = new Map();\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { const e = (g2[r.Phase] ||= [0, 0]); e[0] += r['Award Amount'] || 0; e[1]++; }\nfor (const a of award_data.array('Phase')) { if (!g3.has(a)) g3.set(a, { n: 0 }); g3.get(a).n++; }\ndelete OPb.n;\n[sets, Object.entries(g2), [...g3]]",
      ),
      'const MPh = Object.getPrototypeOf(new Map());\nvar origHas = MPh.has, hasCalls = 0;\nMPh.has = function (k) { hasCalls++; return origHas.call(this, k) };\nhasCalls',
      rw(
        "const g4 = new Map();\nfor (const a of award_data.array('Agency')) { if (!g4.has(a)) g4.set(a, { n: 0 }); const e = g4.get(a); e.n++; }\nMPh.has = origHas;\n[hasCalls, [...g4]]",
      ),
      rw(
        "const wa2 = award_data.array('Agency'), wb2 = award_data.array('Award Amount');\nwb2[2] = '5';\nwa2[4] = null;\nconst g5 = new Map();\nfor (let i = 0; i < wa2.length; i++) { const e = g5.get(wa2[i]) || [0, 0]; e[0] += wb2[i]; e[1]++; g5.set(wa2[i], e); }\n[...g5]",
      ),
      'var mathCalls = 0;\nvar origMax = Math.max;\nMath.max = function (a, b) { mathCalls++; return origMax(a, b) };\nmathCalls',
      rw(
        "const g11 = {};\nfor (const a of award_data.array('Phase')) { const e = (g11[a] ||= { hi: 0 }); e.hi = Math.max(e.hi, 1); }\nMath.max = origMax;\n[mathCalls, Object.entries(g11)]",
      ),
      as(
        "const g12 = {};\nfor (const a of award_data.array('Phase')) { const e = (g12[a] ||= { hi: 0 }); e.hi = Math.max(e.hi, 1); }\n{ class Math {} }\nObject.entries(g12)",
      ),
      // a pre-existing property: the loop runs as written
      as(
        "const g6 = {};\ng6['Phase I'] = [1000, 1];\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { const e = (g6[r.Phase] ||= [0, 0]); e[0] += r['Award Amount'] || 0; e[1]++; }\nObject.entries(g6)",
      ),
      // a text term concatenates: the guest declines
      rw(
        "const g7 = {};\nfor (const r of award_data.select('Phase', 'Agency').objects()) { const e = (g7[r.Phase] ||= [0, 0]); e[0] += r.Agency; e[1]++; }\nObject.entries(g7).map(([a, [s, n]]) => [a, s.length, n])",
      ),
      // a slot the entry lacks, a second statement on the entry, a throw midway: as written
      as(
        "const g8 = {};\nfor (const r of award_data.select('Phase').objects()) { const e = (g8[r.Phase] ||= [0, 0]); e[2]++; }\nObject.entries(g8)",
      ),
      as(
        "const g9 = {};\nfor (const r of award_data.select('Branch').objects()) { const e = (g9[r.Branch] ||= [0, 0]); e[0] += r.Branch.length; e[1]++; }\nObject.keys(g9)",
      ),
      'Object.entries(g9)',
      as(
        "const g10 = new Map();\nfor (const a of award_data.array('Phase')) { const e = g10.get(a) || [0, 0]; e[1]++; }\n[...g10]",
      ),
    ],
  'loops over a table itself: a name, select(), filter(), a bound row array, a row list that is no table': [
    rw(
      "const u1 = {};\nfor (const r of award_data.select('Agency')) u1[r.Agency] = (u1[r.Agency] || 0) + 1;\nObject.entries(u1)",
    ),
    rw(
      "const u2 = new Map();\nfor (const r of award_data) { if (r['Award Amount'] == null) continue; const e = u2.get(r.Phase) || [0, 0]; e[0] += r['Award Amount']; e[1]++; u2.set(r.Phase, e); }\n[...u2]",
    ),
    rw(
      "const u3 = {};\nfor (const r of award_data.filter(d => d.State === 'CA').orderby('City')) u3[r.City] = (u3[r.City] || 0) + (r['Award Amount'] || 0);\nObject.entries(u3).slice(0, 30)",
    ),
    rw('const u4 = {};\nfor (const r of k) { const e = (u4[r.S] ||= [0]); e[0] += r.V; }\nObject.entries(u4)'),
    "const urows = award_data.select('Phase').objects();\nurows.length",
    rw(
      'const u5 = {};\nfor (const r of urows) u5[r.Phase] = (u5[r.Phase] || 0) + 1;\n[Object.entries(u5), urows.length, urows[0]]',
    ),
    rw(
      "const plainRows = [{ Phase: 'a' }, { Phase: 'b' }, { Phase: 'a' }];\nconst u6 = {};\nfor (const r of plainRows) u6[r.Phase] = (u6[r.Phase] || 0) + 1;\nObject.entries(u6)",
    ),
    rw(
      "const u7 = {};\nfor (const r of award_data.select('Nope')) u7[r.Nope] = (u7[r.Nope] || 0) + 1;\nObject.entries(u7)",
    ),
    as('const u8 = {};\nfor (const r of 42) u8[r.x] = (u8[r.x] || 0) + 1;\nu8'),
    rw('const u9 = {};\nfor (const r of missingTable) u9[r.x] = (u9[r.x] || 0) + 1;\nu9'),
  ],
  'loops the rewrite leaves as written, and errors': [
    // the loop is the program's last statement: its completion value is the answer
    as("const l1 = {};\nfor (const r of award_data.select('Phase').objects()) l1[r.Phase] = (l1[r.Phase] || 0) + 1;"),
    as(
      "const l2 = {};\nl2.seed = 1;\nfor (const r of award_data.select('Phase').objects()) l2[r.Phase] = (l2[r.Phase] || 0) + 1;\nObject.entries(l2)",
    ),
    as(
      "const l3 = {};\nconst put = () => { l3['Phase I'] = 100 };\nput();\nfor (const r of award_data.select('Phase').objects()) l3[r.Phase] = (l3[r.Phase] || 0) + 1;\nObject.entries(l3)",
    ),
    as(
      "const l4 = new Map();\nfor (const r of award_data.select('Phase').objects()) { l4.set(r.Phase, (l4.get(r.Phase) || 0) + 1); print(r.Phase) }\nl4.size",
    ),
    rw(
      "const l5 = {};\nfor (const r of award_data.select('Phase').objects()) l5[r.Phase] = (l5[r.Phase] || 0) + r.Phase;\nObject.entries(l5)",
    ),
    as(
      "const l6 = {};\nfor (const r of award_data.select('Phase').objects()) l6[r.Phase] = (l6[r.Phase] || 1) + 1;\nObject.entries(l6)",
    ),
    as(
      "const l7 = {};\nfor (const r of award_data.select('Phase').objects()) l7[r.Phase] = (l7[r.Program] || 0) + 1;\nObject.entries(l7)",
    ),
    // a loop that throws midway: the partial state is what the next run sees
    as(
      "const l8 = {};\nfor (const r of award_data.select('Branch').objects()) l8[r.Branch.length] = (l8[r.Branch.length] || 0) + 1;\nl8",
    ),
    'Object.entries(l8)',
    // an array declared after the loop: the loop as written throws at its `.length`
    as(
      "const l14 = new Map();\nfor (let i = 0; i < la.length; i++) l14.set(la[i], (l14.get(la[i]) || 0) + 1);\nconst la = award_data.array('Phase');\nl14.size",
    ),
    as(
      "const l15 = {};\nconst l15a = award_data.array('Phase');\nfor (let i = 0; i < l15.length; i++) l15[l15[i]] = (l15[l15[i]] || 0) + 1;\nObject.entries(l15)",
    ),
    // the Map's name declared by the run: `new Map()` is not the session's
    as(
      "class Map { set() { return 1 } get() { return 0 } }\nconst l9 = new Map();\nfor (const a of award_data.array('Phase')) l9.set(a, (l9.get(a) || 0) + 1);\ntypeof l9",
    ),
    // a field the table lacks, a column that is text, a key that is a Date: the loop runs as written
    rw(
      "const l10 = {};\nfor (const r of award_data.select('Phase').objects()) l10[r.Nope] = (l10[r.Nope] || 0) + 1;\nObject.entries(l10)",
    ),
    rw(
      "const l11 = new Map();\nfor (const r of award_data.select('Abstract').objects()) l11.set(r.Abstract, (l11.get(r.Abstract) || 0) + 1);\nl11.size",
    ),
    rw(
      "const l12 = {};\nfor (const r of award_data.select('Proposal Award Date').objects()) l12[r['Proposal Award Date']] = (l12[r['Proposal Award Date']] || 0) + 1;\nObject.keys(l12).length",
    ),
    rw(
      "const l13 = {};\nfor (const r of award_data.select('Phase').objects()) l13[r.Phase] = (l13[r.Phase] || 0) + 1;\nl13.x.y",
    ),
  ],
};

/** The same program with the rewrite defeated: a comment naming its prefix turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;
const isKeyed = (prepared: string) => prepared.includes('["keyed"]') || prepared.includes('__sbirtools_rowLoop.keyed(');

describe.each(['isolated-vm', 'quickjs'] as const)('keyed accumulation loops on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine, tables: { k: edgeCsv } });
    await using plain = await createSandbox({ engine, tables: { k: edgeCsv } });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      if (typeof step !== 'string') expect(isKeyed(prepareCode(code).code), code).toBe(step.keyed);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('the guest answers from the columns when it can, and declines before writing anything when it cannot', async () => {
    await using box = byHand(await createSandbox({ engine, tables: { k: edgeCsv } }));
    const spec = (kind: string, term: string) => `["${kind}", "||", ["f", 0], null, ${term}]`;
    const r = await box.run(
      "const ag = award_data.array('Agency'), amt = award_data.array('Award Amount');\n" +
        `const m = new Map(), o = {};\nconst took = [__sbirtools_rowLoop.keyed(${spec('map', '["L", "||", ["f", 1], ["n", 0]]')}, m, [ag, amt]), __sbirtools_rowLoop.keyed(${spec('object', '["n", 1]')}, o, [ag])];\n` +
        "ag[0] = 'Mine';\nconst m2 = new Map();\nconst after = __sbirtools_rowLoop.keyed(" +
        spec('map', '["n", 1]') +
        ', m2, [ag]);\n' +
        `const o2 = { x: 1 };\nconst notFresh = __sbirtools_rowLoop.keyed(${spec('object', '["n", 1]')}, o2, [amt]);\n` +
        `const ks = k.array('S'), ko = {};\nconst protoKey = __sbirtools_rowLoop.keyed(${spec('object', '["n", 1]')}, ko, [ks]);\n` +
        `const km = new Map();\nconst mapKeys = __sbirtools_rowLoop.keyed(${spec('map', '["n", 1]')}, km, [ks]);\n` +
        `const bad = __sbirtools_rowLoop.keyed(["map", "||", ["x", 0], null, ["n", 1]], new Map(), [amt]);\n` +
        '[took, m.size > 3, Object.keys(o).length === m.size, after, m2.size, notFresh, Object.keys(o2), protoKey, Object.keys(ko).length, mapKeys, km.size, bad]',
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([[true, true], true, true, false, 0, false, ['x'], false, 0, true, 9, false]);
  });
});
