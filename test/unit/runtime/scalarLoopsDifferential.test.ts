// Scalar accumulation loops answered from the columns (src/runtime/prepare/scalarLoops.ts,
// prelude/data/scalarLoop.ts) change how a loop is evaluated, never what it leaves: each sequence of
// runs goes through a real sandbox session twice, rewritten and as written (a comment naming
// `$sbtRow` turns every row rewrite off), on both engines; values, output, errors with line and
// column, and what later runs see must be the same. Steps marked `rw` also check that the
// preparation rewrote the loop as a scalar one; `as` steps that it did not. A user table (tables
// option) brings what award_data lacks: -0, negative numbers, nulls in a number column, 2^53.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { byHand } from '../../helpers/byHand.js';
import { runOutcome } from '../../helpers/runOutcome.js';

let dir = '';
let edgeCsv = '';
let dateCsv = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scalar-'));
  edgeCsv = join(dir, 'edge.csv');
  // every string at least twice: the string column is dictionary-coded (dictEncode's rule)
  const rows = [
    ['a', '-0', '1'],
    ['b', '0', '-2'],
    ['a', '', '7'],
    ['c', '1.5', ''],
    ['b', '-3', '3'],
    ['c', '9007199254740991', '4'],
    ['a', '-0', '-0'],
    ['b', '2', '0.1'],
  ];
  const lines = ['S,V,W'];
  for (let k = 0; k < 3; k++)
    for (let i = 0; i < rows.length; i++) lines.push(rows[(i * 3 + k) % rows.length]!.join(','));
  writeFileSync(edgeCsv, lines.join('\n') + '\n');
  // dates before 1970 (a null compares as 0, above them), missing ones, a tie
  dateCsv = join(dir, 'dates.csv');
  const dates = ['1960-01-01', '', '1950-05-05', '2001-02-03', '', '1969-12-31', '2001-02-03', '1940-07-01'];
  writeFileSync(dateCsv, `D,N\n${dates.map((d, i) => `${d},${i}`).join('\n')}\n`);
});
afterAll(async () => {
  await shutdown();
  rmSync(dir, { recursive: true, force: true });
});

type Step = string | { code: string; scalar: boolean };
const rw = (code: string): Step => ({ code, scalar: true });
const as = (code: string): Step => ({ code, scalar: false });

const SEQUENCES: Record<string, Step[]> = {
  'sums, counts, means and ranges of the model styles, written several ways': [
    rw(
      "let total = 0;\nfor (const r of award_data.select('Award Amount').objects()) total += r['Award Amount'] || 0;\ntotal",
    ),
    rw(
      "let s = 0, n = 0;\nfor (const r of award_data.select('Number Employees').objects()) if (r['Number Employees'] != null) { s += r['Number Employees']; n++; }\ns / n",
    ),
    rw(
      "let big = 0;\nfor (const row of award_data.select('Award Amount').objects()) if (row['Award Amount'] > 1e6) big++;\nbig",
    ),
    rw(
      "let lo = Infinity, hi = -Infinity;\nfor (const r of award_data.select('Award Year').objects()) { const y = r['Award Year']; if (y == null) continue; if (y < lo) lo = y; if (y > hi) hi = y; }\n[lo, hi]",
    ),
    rw(
      "let first = 3000, last = 0;\nfor (const r of award_data.objects()) { if (r['Award Year'] === null) continue; first = Math.min(first, r['Award Year']); last = Math.max(r['Award Year'], last); }\n[first, last]",
    ),
    rw(
      "let dod = 0;\nfor (const r of award_data.select('Agency', 'Award Year', 'Award Amount').objects()) {\n  if (r.Agency === 'Department of Defense' && r['Award Year'] >= 2015) dod += r['Award Amount'] || 0;\n}\ndod",
    ),
    rw(
      "let k2 = 0, amt2 = 0;\nfor (const r of award_data.select('Phase', 'Award Amount')) {\n  if (r.Phase !== 'Phase II') continue;\n  ++k2;\n  amt2 = amt2 + (r['Award Amount'] ?? 0);\n}\n[k2, amt2]",
    ),
    rw(
      "const rows = award_data.select('Award Amount').objects();\nlet s3 = 0, n3 = 0;\nfor (const r of rows) if (r['Award Amount'] != null) { s3 += r['Award Amount']; n3++; }\n[s3 / n3, rows.length]",
    ),
    'rows.length',
    rw(
      "let nsf = 0;\nfor (const r of award_data.filter(d => d.Agency === 'National Science Foundation').orderby(aq.desc('Award Amount'))) nsf += r['Award Amount'];\nnsf",
    ),
    rw(
      "let wo = 0, dates = 0;\nfor (const r of award_data) { if (r['Woman Owned'] === 'Y') wo += 1; if (r['Award Year'] <= 2000) dates += 2; }\n[wo, dates]",
    ),
    rw(
      "let amin = 1e12;\nfor (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] !== null && r['Award Amount'] <= amin) amin = r['Award Amount'];\namin",
    ),
    rw(
      "let p1 = 0, p1n = 0;\nfor (const { 'Award Amount': amt, Phase } of award_data.select('Phase', 'Award Amount').objects()) if (Phase === 'Phase I' && amt != null) { p1 += amt; p1n++; }\n[p1, p1n]",
    ),
    rw(
      "let l1 = 0;\nfor (const [phase, amount] of award_data.select('Phase', 'Award Amount').tolist()) if (phase === 'Phase I') l1 += amount || 0;\nl1",
    ),
    rw(
      "let l2 = 0, l2n = 0;\nfor (const [, yr, , amt] of award_data.select('Agency', 'Award Year', 'Phase', 'Award Amount').filter(d => d.Phase === 'Phase II').to_list()) { if (yr < 2010) continue; l2 += amt ?? 0; l2n += 1; }\n[l2, l2n]",
    ),
    rw(
      "let l5 = 0;\nfor (const [y, a] of award_data.select('Award Year', 'Award Amount').tolist()) if (y >= 2020) l5 += a || 0;\nl5",
    ),
    // a pattern longer than the row: the value past the last column is undefined
    rw("let l3 = 0;\nfor (const [a, b] of award_data.select('Award Year').tolist()) l3 += b || 1;\nl3"),
    rw("let l4 = 0;\nfor (const [d] of award_data.select('Proposal Award Date').tolist()) if (d) l4++;\nl4"),
    '[total, s, n, big, lo, hi, dod, k2, nsf, wo, p1, l1, l2]',
  ],
  'values pushed into an array (session 19): the rows that pass, in order, nulls and -0 as they are': [
    rw(
      "const xs = [];\nfor (const r of award_data.select('Agency', 'Award Year', 'Award Amount').objects())\n  if (r.Agency === 'National Science Foundation' && r['Award Year'] >= 2015 && r['Award Amount'] != null) xs.push(r['Award Amount']);\n[xs.length, xs.slice(0, 3), xs.reduce((a, b) => a + b, 0) / xs.length]",
    ),
    rw(
      "const xs = [];\nfor (const r of award_data.select('Agency', 'Award Year', 'Award Amount').objects())\n  if (r.Agency === 'National Science Foundation' && r['Award Year'] >= 2015 && r['Award Amount'] != null) xs.push(r['Award Amount']);\n[xs.length, xs.slice(0, 3), xs.reduce((a, b) => a + b, 0) / xs.length]",
    ),
    rw(
      "const xs = [];\nfor (const r of award_data.select('Agency', 'Award Year', 'Number Employees').objects())\n  if (r.Agency === 'National Science Foundation' && r['Award Year'] >= 2015) xs.push(r['Number Employees']);\n[xs.length, xs.slice(0, 5), xs.filter(v => v === null).length]",
    ),
    rw(
      "const ys = [];\nfor (const r of k.objects()) if (r.S !== 'b') ys.push(r.V);\n[ys.length, ys.map(v => Object.is(v, -0) ? '-0' : v)]",
    ),
    rw(
      'const zs = [];\nfor (const r of k) { if (r.V == null) continue; zs.push(r.W) }\nzs.map(v => Object.is(v, -0) ? "-0" : v)',
    ),
    rw('const ws = [];\nfor (const { V, W } of k.objects()) if (W > 0) ws.push(V);\nws'),
    rw("const ps = [];\nfor (const [s, v] of k.select('S', 'V').tolist()) if (s === 'a') ps.push(v);\nps"),
    rw(
      'const rows = k.objects();\nconst bs = [];\nfor (const r of rows) if (r.V > 0) bs.push(r.W);\n[bs, rows.length]',
    ),
    'rows[2]',
    rw(
      "const fs = [];\nfor (const r of award_data.filter(d => d.Phase === 'Phase II').orderby('Award Amount').objects()) if (r['Award Year'] > 2015) fs.push(r['Award Amount']);\n[fs.length, fs.slice(0, 3), fs[fs.length - 1]]",
    ),
    rw("const xs2 = [];\nxs2.push('first');\nfor (const r of k) if (r.V < 1) xs2.push(r.W);\nxs2"),
    // arrays a push would reach code through, or could not grow: as written
    rw(
      'const xs3 = [];\nxs3.push = (v) => 0;\nfor (const r of k) if (r.V > 0) xs3.push(r.W);\n[xs3.length, typeof xs3.push]',
    ),
    rw('const xs5 = [];\nObject.freeze(xs5);\nfor (const r of k) if (r.V > 0) xs5.push(r.W);\nxs5'),
    rw(
      "const xs6 = [];\nfor (const r of award_data.select('Phase').objects()) if (r.Phase !== null) xs6.push(r.Phase);\n[xs6.length, xs6[0]]",
    ),
    as('const xs7 = [];\nfor (const r of k) if (r.V > 0) xs7.push(r.W * 2);\nxs7'),
    rw('let xs8 = [];\nfor (const r of k) if (r.V > 0) xs8.push(r.W);\nxs8'),
    // a `let` assigned again (here after the loop: any other binding could make it a Proxy first)
    as('let xs9 = [];\nfor (const r of k) if (r.V > 0) xs9.push(r.W);\nxs9 = [xs9.length];\nxs9'),
    as(
      'let xs10 = [];\nconst f10 = () => { xs10 = new Proxy([], {}) };\nfor (const r of k) if (r.V > 0) xs10.push(r.W);\nxs10',
    ),
  ],
  'the same loop again, from other starts, and over other tables: what a session keeps': [
    rw("let t1 = 0;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw("let t1 = 0;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw("let t1 = 5;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw("let t1 = -0;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw("let t1 = NaN;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw(
      "let t1 = 0;\nfor (const r of award_data.filter(d => d['Award Year'] > 2019).objects()) t1 += r['Award Amount'] || 0;\nt1",
    ),
    rw(
      "let t1 = 0;\nfor (const r of award_data.filter(d => d['Award Year'] > 2020).objects()) t1 += r['Award Amount'] || 0;\nt1",
    ),
    rw(
      "let t1 = 0;\nfor (const r of award_data.select('Number Employees').objects()) t1 += r['Number Employees'] || 0;\nt1",
    ),
    rw("let t1 = 0;\nfor (const r of award_data.select('Award Amount').objects()) t1 += r['Award Amount'] || 0;\nt1"),
    rw('let c1 = 0;\nfor (const r of k) if (r.V > 0) c1++;\nc1'),
    rw('let c1 = 0;\nfor (const r of k) if (r.V > 1) c1++;\nc1'),
  ],
  'nulls, -0, 2^53, starts that are no integer or no number, text terms: exact or as written': [
    rw(
      'let a = 0, b = -0, c = 0;\nfor (const r of k.objects()) { a += r.V; b += r.W ?? 0; c = c + (r.W || 0); }\n[a, b, c]',
    ),
    rw("let d = -0;\nfor (const r of k.objects()) if (r.S === 'zz') d += r.V;\n[Object.is(d, -0), d]"),
    rw(
      'let lo = 10, hi = -10;\nfor (const r of k.objects()) { if (r.W < lo) lo = r.W; if (hi < r.W) hi = r.W; }\n[lo, hi]',
    ),
    rw('let lo2 = 0;\nfor (const r of k.objects()) if (r.V > lo2) lo2 = r.V;\nlo2'),
    rw(
      'let mx = -0, mn = 0;\nfor (const r of k.objects()) { mx = Math.max(mx, r.V); mn = Math.min(r.W || 0, mn); }\n[Object.is(mx, -0), mx, Object.is(mn, -0), mn]',
    ),
    rw(
      "let half = 0.5, big = 9007199254740991;\nfor (const r of k.objects()) { if (r.S === 'a') half++; if (r.S !== 'a') big++; }\n[half, big]",
    ),
    rw("let txt = '';\nfor (const r of k.objects()) txt += r.V;\ntxt"),
    rw('let cat = 0;\nfor (const r of k.objects()) cat += r.S;\ncat'),
    rw('let obj = { valueOf() { return 7 } };\nfor (const r of k.objects()) obj += r.V;\nobj'),
    rw('let miss = 0;\nfor (const r of k.objects()) miss += r.Nope || 1;\nmiss'),
    rw(
      "let dt = 0;\nfor (const r of award_data.select('Proposal Award Date').objects()) if (r['Proposal Award Date']) dt++;\ndt",
    ),
    // a top-level var stays a global of the session (localize.ts): as written
    as("var vw = 0;\nfor (const r of award_data.select('Award Year').objects()) vw += r['Award Year'] || 0;\nvw"),
    as(
      "let wl = 0;\nfor (const r of award_data.select('Woman Owned').objects()) wl += r['Woman Owned'] === 'Y' ? 1 : 0;\nwl",
    ),
  ],
  'after the run changed things: Math, the array iterator, a bound array written': [
    'var origMax = Math.max, mathCalls = 0;\nMath.max = function (a, b) { mathCalls++; return origMax(a, b) };\nmathCalls',
    rw(
      "let m1 = 0;\nfor (const r of award_data.select('Award Year').objects()) m1 = Math.max(m1, r['Award Year']);\nMath.max = origMax;\n[m1, mathCalls]",
    ),
    'var ArrIt = Array.prototype[Symbol.iterator], itCalls = 0;\nArray.prototype[Symbol.iterator] = function () { itCalls++; return ArrIt.call(this) };\nitCalls',
    rw(
      "let m2 = 0;\nfor (const r of award_data.select('Award Year').objects()) m2 += r['Award Year'] || 0;\nArray.prototype[Symbol.iterator] = ArrIt;\n[m2, itCalls]",
    ),
    rw(
      "const wr = award_data.select('Award Amount').objects();\nwr.length = 3;\nlet m3 = 0;\nfor (const r of wr) m3 += r['Award Amount'];\nm3",
    ),
  ],
  'the array style: index loops, for-of over array() and over a bound name (session 19)': [
    rw(
      "const amounts = award_data.array('Award Amount');\nlet total = 0;\nfor (let i = 0; i < amounts.length; i++) total += amounts[i] || 0;\ntotal",
    ),
    rw(
      "const ag = award_data.array('Agency'), yr = award_data.array('Award Year'), am = award_data.array('Award Amount');\nlet dod = 0, m = 0;\nfor (let i = 0; i < ag.length; i++) if (ag[i] === 'Department of Defense' && yr[i] >= 2015) { dod += am[i] || 0; m++; }\n[dod, m, ag.length, yr[3], am[5]]",
    ),
    rw(
      "let es = 0, en = 0;\nfor (const v of award_data.array('Number Employees')) if (v != null) { es += v; en++; }\nes / en",
    ),
    rw(
      "const wo = award_data.array('Woman Owned');\nlet y = 0;\nfor (const v of wo) if (v === 'Y') y++;\n[y / wo.length, wo[0]]",
    ),
    // no semicolons: the block's end may not run on into the loop's last statement
    rw("let s0 = 0\nfor (const v of k.array('V')) s0 += v ?? 0\ns0"),
    rw(
      "const kv = k.array('V')\nlet s1 = -0\nfor (let i = 0; i < kv.length; ++i) s1 = s1 + kv[i];\n[s1, Object.is(s1, -0)]",
    ),
    // -0, nulls, 2^53, ranges and Math over a user table's columns
    rw(
      "const v = k.array('V'), w = k.array('W');\nlet a = -0, b = 0, lo = Infinity, hi = -Infinity, mx = -0;\nfor (let i = 0; i < v.length; i += 1) { a += v[i]; b += w[i] ?? 0; mx = Math.max(mx, w[i]); if (v[i] < lo) lo = v[i]; if (hi < v[i]) hi = v[i]; }\n[a, b, lo, hi, Object.is(a, -0), mx]",
    ),
    // a body that reads the value only for its truth or equality: a text loop's (the host's scans answer long text)
    "let cs = 0, cn = 0;\nfor (const x of k.array('S')) { if (x === 'a') continue; cn++; }\n[cs, cn]",
    rw(
      "const ks = k.array('S'), kw = k.array('W');\nlet wn = 0;\nfor (let i = 0; i < ks.length; i++) if (ks[i] !== 'b' && kw[i] != null) wn++;\nwn",
    ),
    // the same loops again: answers the session keeps
    rw(
      "const amounts = award_data.array('Award Amount');\nlet total = 0;\nfor (let i = 0; i < amounts.length; i++) total += amounts[i] || 0;\ntotal",
    ),
    rw(
      "let es = 5, en = 1;\nfor (const v of award_data.array('Number Employees')) if (v != null) { es += v; en++; }\nes / en",
    ),
    // arrays the run wrote into, or that are not array()'s: the loop runs as written
    rw("const v = k.array('V'); v[2] = 100;\nlet a = 0;\nfor (let i = 0; i < v.length; i++) a += v[i];\na"),
    rw(
      "const v = k.array('V'), w = k.array('W'); w[0] = -0; w[5] = NaN;\nlet a = 0, b = 0;\nfor (let i = 0; i < v.length; i++) { a += v[i]; b += w[i] || 0; }\n[a, b]",
    ),
    rw("const v = k.array('V'); v.push(1);\nlet a = 0;\nfor (const x of v) a += x;\na"),
    rw(
      "const v = k.array('V'), amt = award_data.array('Award Amount');\nlet a = 0;\nfor (let i = 0; i < v.length; i++) a += amt[i] || 0;\na",
    ),
    rw(
      "const f = award_data.filter(d => d.Phase === 'Phase II').array('Award Amount');\nlet a = 0;\nfor (let i = 0; i < f.length; i++) a += f[i] || 0;\na",
    ),
    rw(
      "const v = k.array('V'), w = k.array('W');\nconst sh = w.slice(1);\nlet a = 0;\nfor (let i = 0; i < v.length; i++) a += sh[i] ?? 0;\na",
    ),
    // a text value added: a string, as written
    rw("let t = 0;\nfor (const x of k.array('S')) t += x;\nt"),
    rw("const ks = k.array('S');\nlet t = 0;\nfor (let i = 0; i < ks.length; i++) t += ks[i];\nt"),
    // a date column's values are Dates: as written
    "let dn = 0;\nfor (const d of award_data.array('Proposal Award Date')) if (d != null) dn++;\ndn",
    // an index kept past the loop: the largest, the smallest, ties, nulls, no row, starts of every kind
    rw(
      "const amt = award_data.array('Award Amount');\nlet kx = -1;\nfor (let i = 0; i < amt.length; i++) if (amt[i] != null && (kx < 0 || amt[i] > amt[kx])) kx = i;\n[award_data.get('Company', kx), amt[kx], kx]",
    ),
    rw(
      "const kv = k.array('V');\nlet k1 = -1, k2 = -1;\nfor (let i = 0; i < kv.length; i++) if (k1 === -1 || kv[i] >= kv[k1]) k1 = i;\nfor (let i = 0; i < kv.length; i++) if (-1 == k2 || kv[k2] > kv[i]) k2 = i;\n[k1, k2]",
    ),
    rw(
      "const kw = k.array('W');\nlet k3 = -7;\nfor (let i = 0; i < kw.length; i++) if (0 > k3 || kw[i] < kw[k3]) k3 = i;\nk3",
    ),
    rw(
      "const kw = k.array('W'), ks = k.array('S');\nlet k4 = -2;\nfor (let i = 0; i < kw.length; i++) { if (ks[i] === 'zz') continue; if (kw[i] != null && (k4 < 0 || kw[i] <= kw[k4])) k4 = i; }\nk4",
    ),
    rw(
      "const kv = k.array('V');\nlet k5 = 3;\nfor (let i = 0; i < kv.length; i++) if (k5 < 0 || kv[i] > kv[k5]) k5 = i;\nk5",
    ),
    rw(
      "const kv = k.array('V');\nlet k6 = -1.5;\nfor (let i = 0; i < kv.length; i++) if (k6 === -1 || kv[i] > kv[k6]) k6 = i;\nk6",
    ),
    rw(
      "const ks = k.array('S');\nlet k7 = -1;\nfor (let i = 0; i < ks.length; i++) if (k7 < 0 || ks[i] > ks[k7]) k7 = i;\nk7",
    ),
    rw(
      "const ks = k.array('S'), kv = k.array('V');\nlet k9 = -4;\nfor (let i = 0; i < ks.length; i++) if (ks[i] === 'zz' && (k9 < 0 || kv[i] > kv[k9])) k9 = i;\nk9",
    ),
    rw(
      "const kv = k.array('V'); kv[4] = 1e300;\nlet k8 = -1;\nfor (let i = 0; i < kv.length; i++) if (k8 < 0 || kv[i] > kv[k8]) k8 = i;\nk8",
    ),
    // the array iterator found through a Proxy (its `get` takes the receiver as a parameter: a function
    // holding `this` would keep every later run's names global): the for-of's run as written, the index
    // loop's need no iterator
    'var seen4 = 0;\nvar AP4 = Object.getPrototypeOf([]);\nvar keepIt4 = AP4[Symbol.iterator];\nvar OP4 = Object.getPrototypeOf(AP4);\nObject.setPrototypeOf(AP4, new Proxy(OP4, { get(t, k, rcv) { if (k === Symbol.iterator) { seen4++; return keepIt4; } return Reflect.get(t, k, rcv); } }));\ndelete AP4[Symbol.iterator];\n1',
    rw(
      "const c0 = seen4;\nconst wo = award_data.array('Woman Owned');\nlet y = 0;\nfor (const v of wo) if (v === 'Y') y++;\n[y, seen4 - c0]",
    ),
    rw(
      "const c1 = seen4;\nlet es = 0;\nfor (const v of award_data.array('Number Employees')) if (v != null) es += v;\n[es, seen4 - c1]",
    ),
    rw(
      "const c2 = seen4;\nconst kv = k.array('V');\nlet s2 = 0;\nfor (let i = 0; i < kv.length; i++) s2 += kv[i];\n[s2, seen4 - c2]",
    ),
    'AP4[Symbol.iterator] = keepIt4;\nObject.setPrototypeOf(AP4, OP4);\n[total, dod, m, es, en, y, a, t]',
    // a const local, a name used by a function, and a loop with a second statement kept: as written
    as("const v = k.array('V');\nconst c0 = 0;\nfor (let i = 0; i < v.length; i++) c0 += v[i];\nc0"),
    as(
      "const v = k.array('V');\nlet c1 = 0;\nfor (let i = 0; i < v.length; i++) { c1 += v[i]; if (i > 3) break; }\nc1",
    ),
    as("const v = k.array('V');\nlet c2 = 0;\nfor (let i = 0; i < v.length; i++) c2 += v[i] * i;\nc2"),
    as("let c3 = 0;\nfor (const x of k.array('V')) c3 += x;"),
  ],
  'arrays an answered index loop reads in place, and a loop it declines (session 19)': [
    // every array of the loop is the column's kept values: none is copied, the answer read from the columns
    rw(
      "const ag = award_data.array('Agency'), ph = award_data.array('Phase'), am = award_data.array('Award Amount');\nlet n = 0, s = 0;\nfor (let i = 0; i < ag.length; i++) if (ag[i] === 'Department of Defense' && ph[i] === 'Phase II' && am[i] > 1e6) { n++; s += am[i]; }\n[n, s]",
    ),
    '[ag.length, ph[0], am[7], ag === award_data.array("Agency")]',
    // the other array shorter than the loop's bound: declined; the loop as written reads past its end,
    // where a Proxy under Array.prototype writes into the array it is read on (a copy of its own, never
    // the kept values). A getter would need `this`, which keeps every later run's names global
    "var hooked = 0;\nObject.setPrototypeOf(Object.getPrototypeOf([]), new Proxy(Object.getPrototypeOf({}), { get(t, key, rec) { if (key === '30') { hooked++; rec[0] = 99; return 1; } return t[key]; } }));\nhooked",
    rw(
      "const kv = k.array('V'), amt = award_data.array('Award Amount');\nlet a = 0;\nfor (let i = 0; i < amt.length; i++) a += kv[i] ?? 0;\na",
    ),
    "[k.array('V')[0], kv[0], kv.length, hooked]",
    rw(
      "const kv = k.array('V'), kw = k.array('W');\nlet b = 0;\nfor (let i = 0; i < kv.length; i++) b += kw[i] || 0;\nb",
    ),
    "Object.setPrototypeOf(Object.getPrototypeOf([]), Object.getPrototypeOf({}));\n[k.array('V')[0], kw[0], hooked]",
    // the same with both arrays of the user table: in bounds, answered
    rw(
      "const ka = k.array('V'), kb = k.array('W');\nlet c = 0;\nfor (let i = 0; i < ka.length; i++) c += kb[i] ?? 0;\nc",
    ),
  ],
  // `i < xs.length && n < 20` (session 20, keyedLoops.ts `indexLoopStop`): the rows end at the first
  // whose turn finds the local past its limit
  'index loops that stop on a local they update (session 20)': [
    rw(
      "const ag = award_data.array('Agency'), ph = award_data.array('Phase'), am = award_data.array('Award Amount');\nlet s = 0, n = 0;\nfor (let i = 0; i < ag.length && n < 20; i++) if (ag[i] === 'National Science Foundation' && ph[i] === 'Phase II') { s += am[i] || 0; n++; }\n[s, n]",
    ),
    rw(
      "const ag = award_data.array('Agency'), am = award_data.array('Award Amount');\nlet s = 0, n = 3;\nfor (let i = 0; n <= 7 && i < ag.length; i++) if (ag[i] === 'Department of Defense') { n++; s += am[i] || 0; }\n[s, n]",
    ),
    '[ag.length, am[3], n]',
    // never stopped, stopped before the first row, a sum as the stop, a count by 2, no condition
    rw(
      "const am = award_data.array('Award Amount');\nlet c = 0, t = 0;\nfor (let i = 0; i < am.length && c < 1e9; i++) if (am[i] > 1e6) { c++; t += am[i]; }\n[c, t]",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nlet c = 50, t = 0;\nfor (let i = 0; i < am.length && c < 20; i++) { c++; t += am[i] || 0; }\n[c, t]",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nlet t = 0, c = 0;\nfor (let i = 0; i < am.length && t < 5e6; i++) { t += am[i] || 0; c++; }\n[t, c]",
    ),
    rw(
      "const ph = award_data.array('Phase');\nlet c = 0;\nfor (let i = 0; i < ph.length && c <= 9; i++) if (ph[i] === 'Phase II') c += 2;\nc",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nlet c = 0;\nfor (let i = 0; i < am.length && c < 3; i++) c++;\nc",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nlet lo = Infinity, hi = 0;\nfor (let i = 0; i < am.length && hi < 2e6; ++i) { if (am[i] != null && am[i] < lo) lo = am[i]; if (am[i] > hi) hi = am[i]; }\n[lo, hi]",
    ),
    // the same loop again (a kept answer), and from another start
    rw(
      "const ag = award_data.array('Agency'), ph = award_data.array('Phase'), am = award_data.array('Award Amount');\nlet s = 0, n = 0;\nfor (let i = 0; i < ag.length && n < 20; i++) if (ag[i] === 'National Science Foundation' && ph[i] === 'Phase II') { s += am[i] || 0; n++; }\n[s, n]",
    ),
    rw(
      "const ag = award_data.array('Agency'), ph = award_data.array('Phase'), am = award_data.array('Award Amount');\nlet s = 0, n = 15;\nfor (let i = 0; i < ag.length && n < 20; i++) if (ag[i] === 'National Science Foundation' && ph[i] === 'Phase II') { s += am[i] || 0; n++; }\n[s, n]",
    ),
    // the user table: -0, nulls, 2^53
    rw(
      "const kv = k.array('V'), ks = k.array('S');\nlet c = 0, t = -0;\nfor (let i = 0; i < kv.length && c < 5; i++) if (ks[i] === 'a' && kv[i] != null) { t += kv[i]; c++; }\n[Object.is(t, -0), t, c]",
    ),
    rw(
      "const kv = k.array('V');\nlet c = 0, t = 0;\nfor (let i = 0; i < kv.length && t < 1e15; i++) { t += kv[i] ?? 0; c++; }\n[t, c]",
    ),
    // left as written: a stop on a local the loop does not update, on a negative literal, on a call,
    // with `||`, and a stop local that is no number
    as(
      "const am = award_data.array('Award Amount');\nlet m = 5, c = 0;\nfor (let i = 0; i < am.length && m > 2; i++) c++;\nc",
    ),
    as(
      "const am = award_data.array('Award Amount');\nlet c = 0;\nfor (let i = 0; i < am.length && c > -1; i++) if (c < 4) c++;\nc",
    ),
    as(
      "const am = award_data.array('Award Amount');\nlet c = 0;\nfor (let i = 0; i < am.length && Math.abs(c) < 3; i++) c++;\nc",
    ),
    as(
      "const am = award_data.array('Award Amount');\nlet c = 0;\nfor (let i = 0; i < am.length || c < 3; i++) c++;\nc",
    ),
    rw(
      "const am = award_data.array('Award Amount');\nlet c = '0', t = 0;\nfor (let i = 0; i < am.length && c < 3; i++) { c++; t += am[i] || 0; }\n[c, t]",
    ),
  ],
  // `for (let i = 0; i < N; i++) ... t.get(col, i)` (session 20, scalarLoops.ts `getLoop`,
  // prelude/data/keyedGets.ts): the columns read as get() would read them, row by row
  'loops of t.get(col, i) (session 20)': [
    rw(
      "let n = 0;\nconst rows = award_data.numRows();\nfor (let i = 0; i < rows; i++) if (award_data.get('Agency', i) === 'Department of Defense') n++;\nn",
    ),
    '[rows, n]',
    rw(
      "let n2 = 0, s2 = 0;\nfor (let i = 0; i < award_data.numRows() && n2 < 50; i++) if (award_data.get('Agency', i) === 'Department of Defense') { n2++; s2 += award_data.get('Award Amount', i) || 0; }\n[n2, s2]",
    ),
    rw(
      "const t = award_data;\nconst N = t.numRows();\nlet c = 0, hi = -Infinity;\nfor (let i = 0; i < N; ++i) { const a = t.get('Award Amount', i); if (t.get('Phase', i) === 'Phase II' && a > 1e6) c++; if (a > hi) hi = a; }\n[c, hi]",
    ),
    rw(
      "const kn = k.numRows();\nlet ks = -0, kc = 0;\nfor (let i = 0; i < kn; i += 1) { const v = k.get('V', i); if (v == null) continue; ks += v; kc++; }\n[Object.is(ks, -0), ks, kc]",
    ),
    rw("let kt = 0;\nfor (let i = 0; i < k.numRows(); i++) if (k.get('S', i) !== 'b') kt += k.get('W', i) ?? 1;\nkt"),
    // fewer rows than the table's; more, or a bound that is no integer: as written (the guest declines)
    rw(
      "const few = 7;\nlet fs2 = 0;\nfor (let i = 0; i < few; i++) fs2 += award_data.get('Award Amount', i) || 0;\nfs2",
    ),
    rw(
      "const more = award_data.numRows() + 2;\nlet m2 = 0;\nfor (let i = 0; i < more; i++) if (award_data.get('Phase', i) == null) m2++;\nm2",
    ),
    rw("const half = 2.5;\nlet h2 = 0;\nfor (let i = 0; i < half; i++) h2 += award_data.get('Award Year', i);\nh2"),
    rw("let z = 0;\nconst none = '3';\nfor (let i = 0; i < none; i++) z += award_data.get('Award Year', i);\nz"),
    // a filtered table, a date column, a long text column, a column that is not there: as written
    rw(
      "const f = award_data.filter(r => r.Phase === 'Phase I');\nconst fn = f.numRows();\nlet fa = 0;\nfor (let i = 0; i < fn; i++) fa += f.get('Award Amount', i) || 0;\n[fa, fn]",
    ),
    rw(
      "let d = 0;\nfor (let i = 0; i < award_data.numRows(); i++) if (award_data.get('Proposal Award Date', i) != null) d++;\nd",
    ),
    rw(
      "let ab = 0;\nfor (let i = 0; i < award_data.numRows(); i++) if (award_data.get('Abstract', i) === 'N/A') ab++;\nab",
    ),
    rw("let q = 0;\nfor (let i = 0; i < award_data.numRows(); i++) if (award_data.get('No Such', i) === 1) q++;\nq"),
    // a table's own get(), and award_data as a getter: what the loop as written calls, it calls
    'var keepGet = award_data.get;\nvar gets = 0;\naward_data.get = function (c, i) { gets++; return keepGet.call(award_data, c, i); };\n1',
    rw(
      "let g2 = 0;\nfor (let i = 0; i < award_data.numRows(); i++) if (award_data.get('Phase', i) === 'Phase I') g2++;\n[g2, gets]",
    ),
    'delete award_data.get;\ngets',
    "var keepAd = award_data;\nvar adReads = 0;\nObject.defineProperty(globalThis, 'award_data', { get() { adReads++; return keepAd; }, configurable: true });\n1",
    rw(
      "let g3 = 0;\nconst r3 = keepAd.numRows();\nfor (let i = 0; i < r3; i++) if (award_data.get('Phase', i) === 'Phase I') g3++;\n[g3, adReads]",
    ),
    "Object.defineProperty(globalThis, 'award_data', { value: keepAd, writable: true, configurable: true });\n[adReads, award_data.numRows()]",
    // left as written: two tables, a write to the bound, the index read, a bound of another table
    as(
      "let two = 0;\nfor (let i = 0; i < k.numRows(); i++) if (award_data.get('Agency', i) === k.get('S', i)) two++;\ntwo",
    ),
    as("let w = 0, lim = 5;\nfor (let i = 0; i < lim; i++) { w += award_data.get('Award Year', i); lim--; }\nw"),
    as(
      "let ix = 0;\nfor (let i = 0; i < award_data.numRows(); i++) ix += award_data.get('Award Year', i + 1) || 0;\nix",
    ),
    as("let ot = 0;\nfor (let i = 0; i < k.numRows(); i++) ot += award_data.get('Award Year', i);\not"),
  ],
  // `const seen = new Set(); for (...) if (C) seen.add(r.F)` (session 20, prelude/data/setAddLoop.ts)
  'values added to a Set (session 20): first appearances in order, nulls, -0': [
    rw(
      "const seen = new Set();\nfor (const r of award_data.select('Company').objects()) if (r.Company != null) seen.add(r.Company);\n[seen.size, [...seen].slice(0, 3), [...seen].slice(-2)]",
    ),
    '[seen.size, seen.has(null)]',
    rw(
      "const years = new Set();\nfor (const r of award_data.objects()) if (r['Award Year'] > 2015) years.add(r['Award Year']);\n[...years]",
    ),
    rw(
      "const st = new Set();\nfor (const r of award_data.select('State').objects()) st.add(r.State);\n[st.size, st.has(null), [...st].slice(0, 8)]",
    ),
    rw(
      "const br = new Set();\nfor (const r of award_data.select('Branch').objects()) br.add(r.Branch);\n[br.size, br.has(null), [...br]]",
    ),
    rw('const ph = new Set();\nfor (const { Phase } of award_data.objects()) ph.add(Phase);\n[...ph]'),
    rw(
      "let ks = new Set();\nfor (const r of k.objects()) ks.add(r.V);\n[...ks].map((v) => (Object.is(v, -0) ? '-0' : v))",
    ),
    rw(
      "const kw = new Set();\nfor (const r of k) if (r.S !== 'c') kw.add(r.W);\n[...kw].map((v) => (Object.is(v, -0) ? '-0' : v))",
    ),
    rw(
      "const few = new Set();\nfor (const r of award_data.filter(d => d.Phase === 'Phase I').orderby('Award Amount').objects()) few.add(r.Agency);\n[...few]",
    ),
    // left as written: a Set made with values, a call on the field, a Set of a class of the run's
    as("const q = new Set([1]);\nfor (const r of award_data.objects()) q.add(r['Award Year']);\nq.size"),
    as('const q2 = new Set();\nfor (const r of award_data.objects()) q2.add(String(r.Phase));\nq2.size'),
    as(
      'class MySet extends Set {}\nconst q3 = new MySet();\nfor (const r of award_data.objects()) q3.add(r.Phase);\nq3.size',
    ),
    // an own add (an arrow naming the Set keeps it global: as written), and Set.prototype.add replaced:
    // the loop as written calls them
    as(
      'const own = new Set();\nlet owns = 0;\nown.add = (v) => { owns++; return own; };\nfor (const r of award_data.objects()) own.add(r.Phase);\n[own.size, owns]',
    ),
    rw(
      'const own2 = new Set();\nown2.add = Math.max;\nfor (const r of award_data.objects()) own2.add(r.Phase);\nown2.size',
    ),
    'var SP = Object.getPrototypeOf(new Set());\nvar keepAdd = SP.add;\nvar protoAdds = 0;\nSP.add = (v) => { protoAdds++; };\n1',
    rw('const pa = new Set();\nfor (const r of award_data.objects()) pa.add(r.Phase);\n[pa.size, protoAdds]'),
    'SP.add = keepAdd;\nprotoAdds',
  ],
  // `if (d && (!latest || d > latest)) latest = d` over a date column (session 21): the Date the loop
  // keeps, made fresh, from the column's numbers; nulls as the comparisons read them
  'the latest or earliest date a loop keeps (session 21)': [
    rw(
      "let latest = null;\nfor (const r of award_data.select('Proposal Award Date').objects()) { const d = r['Proposal Award Date']; if (d && (!latest || d > latest)) latest = d; }\nlatest.toISOString().slice(0, 10)",
    ),
    '[latest instanceof Date, latest.getTime(), Object.keys(latest)]',
    rw(
      "let first = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d !== null && (first === null || d < first)) first = d; }\n[first, typeof first]",
    ),
    rw(
      "let lt;\nfor (const r of award_data.select('Proposal Award Date').objects()) if (!lt || r['Proposal Award Date'] >= lt) lt = r['Proposal Award Date'];\nlt",
    ),
    rw(
      "let e1 = null;\nfor (const { 'Proposal Award Date': d } of award_data.objects()) if (d != null && (null == e1 || e1 >= d)) e1 = d;\ne1",
    ),
    rw(
      "let e2 = null;\nfor (const r of award_data.filter(d => d.Phase === 'Phase II').orderby(aq.desc('Award Amount')).objects()) { const d = r['Proposal Award Date']; if (d && (e2 === null || e2 < d)) e2 = d; }\ne2",
    ),
    rw(
      "let e3 = null;\nfor (const r of award_data.filter(d => false).objects()) { const d = r['Proposal Award Date']; if (d && (!e3 || d > e3)) e3 = d; }\ne3.toISOString()",
    ),
    // user dates before 1970 with nulls, no guard: a null row taken (`null > d` is 0 > d), then the test of none again
    ...['>', '<', '>=', '<='].map((op) =>
      rw(
        `let u = null;\nfor (const r of dt.objects()) if (!u || r.D ${op} u) u = r.D;\n[u, u === null ? 'null' : u.getTime()]`,
      ),
    ),
    // 1960, null, 1950: the null row is taken (0 > 1960's time), then 1950 as the first Date again
    ...['>', '>='].map((op) =>
      rw(`let f1 = null;\nfor (const r of dt.filter(d => d.N < 3).objects()) if (!f1 || r.D ${op} f1) f1 = r.D;\nf1`),
    ),
    rw('let u2;\nfor (const r of dt.objects()) if (u2 == null || u2 > r.D) u2 = r.D;\nu2'),
    rw('let u3;\nfor (const r of dt.objects()) if (u3 === null || u3 > r.D) u3 = r.D;\nu3'),
    rw('let u4 = null;\nfor (const r of dt.objects()) { const d = r.D; if (d && (!u4 || d < u4)) u4 = d; }\nu4'),
    // the values of a date column's array (the date loop's path otherwise)
    rw(
      "let a1 = null;\nfor (const d of award_data.array('Proposal Award Date')) if (d && (!a1 || d > a1)) a1 = d;\na1",
    ),
    rw(
      "let a2 = null;\nfor (const d of award_data.array('Proposal Award Date')) { const x = d; if (x != null && (a2 === null || x <= a2)) a2 = x; }\n[a2, a2 instanceof Date]",
    ),
    rw("let a3 = null;\nfor (const v of dt.array('D')) if (!a3 || v > a3) a3 = v;\na3"),
    rw("let a4 = null;\nfor (const v of award_data.array('Award Amount')) if (v && (!a4 || v > a4)) a4 = v;\na4"),
    as(
      "const ds = award_data.array('Proposal Award Date');\nlet a5 = null;\nfor (const d of ds) if (d && (!a5 || d > a5)) a5 = d;\na5",
    ),
    // other starts, a number field, a bound row array (the loop keeps one of its rows' Dates): as written
    rw(
      "let s1 = new Date(0);\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!s1 || d > s1)) s1 = d; }\ns1",
    ),
    rw(
      "let s2 = 0;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (s2 === null || d > s2)) s2 = d; }\ns2",
    ),
    rw(
      "let n1 = null;\nfor (const r of award_data.objects()) { const a = r['Award Amount']; if (a && (!n1 || a > n1)) n1 = a; }\nn1",
    ),
    as(
      "const rows = award_data.objects();\nlet b1 = null;\nfor (const r of rows) { const d = r['Proposal Award Date']; if (d && (!b1 || d > b1)) b1 = d; }\n[b1, rows.some((r) => r['Proposal Award Date'] === b1)]",
    ),
    rw(
      "const rows2 = award_data.objects();\nlet b2 = null;\nfor (const r of rows2) { const d = r['Proposal Award Date']; if (d && (!b2 || d > b2)) b2 = d; }\nb2",
    ),
    "[b2, rows2.some((r) => r['Proposal Award Date'] === b2), rows2.length]",
    // the run's own conversions of a Date: the comparisons call them (the loop as written; Proxies, not
    // functions holding `this`, which would keep every later run's names global, off this path)
    'var DP = Object.getPrototypeOf(new Date());\nvar keepValueOf = DP.valueOf;\nvar calls = 0;\nDP.valueOf = new Proxy(keepValueOf, { apply: (f, me, args) => { calls++; return -Reflect.apply(f, me, args); } });\n1',
    rw(
      "let p1 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!p1 || d > p1)) p1 = d; }\n[p1, calls]",
    ),
    rw(
      "let p4 = null;\nfor (const d of award_data.array('Proposal Award Date')) if (d && (!p4 || d > p4)) p4 = d;\n[p4, calls]",
    ),
    'DP.valueOf = keepValueOf;\nvar keepPrim = Object.getOwnPropertyDescriptor(DP, Symbol.toPrimitive);\nObject.defineProperty(DP, Symbol.toPrimitive, { value: new Proxy(keepPrim.value, { apply: (f, me) => me.getUTCDate() }), configurable: true });\n1',
    rw(
      "let p2 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!p2 || d > p2)) p2 = d; }\np2",
    ),
    'Object.defineProperty(DP, Symbol.toPrimitive, keepPrim);\n1',
    rw(
      "let p3 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!p3 || d > p3)) p3 = d; }\n[p3, calls]",
    ),
    // other shapes: as written (the first the scalar kernel's `if (v > s) s = v`, which reads no date column)
    rw(
      "let o1 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d > o1) o1 = d; }\no1",
    ),
    as(
      "let o2 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!o2 || d > o2)) o2 = r['Award Year']; }\no2",
    ),
    as(
      "let o3 = null;\nfor (const r of award_data.objects()) { const d = r['Proposal Award Date']; if (d && (!o3 || r['Award Year'] > o3)) o3 = d; }\no3",
    ),
  ],
  'a row kept past the loop: the largest, the smallest, ties, nulls, other tables': [
    rw(
      "let best = null;\nfor (const r of award_data.select('Company', 'Award Amount').objects()) if (r['Award Amount'] != null && (best === null || r['Award Amount'] > best['Award Amount'])) best = r;\n[best.Company, best['Award Amount'], Object.keys(best)]",
    ),
    rw(
      "let first = null;\nfor (const r of award_data.objects()) { if (r.Agency !== 'National Science Foundation') continue; if (!first || r['Award Year'] <= first['Award Year']) first = r; }\n[first, Object.keys(first).length]",
    ),
    rw(
      "let tie = null;\nfor (const r of award_data.select('Award Year', 'Company')) if (tie == null || tie['Award Year'] < r['Award Year']) tie = r;\ntie",
    ),
    rw(
      'let kb = null;\nfor (const r of k.objects()) if (kb === null || r.V >= kb.V) kb = r;\n[kb, Object.is(kb.V, -0)]',
    ),
    // the same shape over another column, and the same loop again: what the session keeps is per column
    rw('let kw = null;\nfor (const r of k.objects()) if (kw === null || r.W >= kw.W) kw = r;\nkw'),
    rw(
      'let kb = null;\nfor (const r of k.objects()) if (kb === null || r.V >= kb.V) kb = r;\n[kb, Object.is(kb.V, -0)]',
    ),
    rw('let kn = null;\nfor (const r of k.objects()) if (null == kn || r.W < kn.W) kn = r;\nkn'),
    rw(
      "let fb = null;\nfor (const r of award_data.filter(d => d.State === 'California').orderby(aq.desc('Award Year')).objects()) if (fb === null || r['Number Employees'] > fb['Number Employees']) fb = r;\nfb",
    ),
    rw(
      "let none = null;\nfor (const r of award_data.select('Phase').objects()) if (r.Phase === 'Phase IX' && (none === null || r.x > none.x)) none = r;\nnone",
    ),
    // not null as the loop starts, a date field, a text field: the loop runs as written, its rows kept
    rw(
      "let seed = { 'Award Amount': 1.5e6 };\nfor (const r of award_data.select('Award Amount').objects()) if (seed === null || r['Award Amount'] > seed['Award Amount']) seed = r;\nseed",
    ),
    rw(
      "let tseed = { 'Award Amount': 1.5e6 };\nfor (const r of award_data.select('Company', 'Award Amount')) if (tseed === null || r['Award Amount'] > tseed['Award Amount']) tseed = r;\ntseed",
    ),
    rw(
      "let late = null;\nfor (const r of award_data.select('Proposal Award Date').objects()) if (late === null || r['Proposal Award Date'] > late['Proposal Award Date']) late = r;\nlate",
    ),
    rw(
      "let st = null;\nfor (const r of award_data.select('State').objects()) if (st === null || r.State > st.State) st = r;\nst",
    ),
    rw(
      "const brows = award_data.select('Award Amount').objects();\nlet bb = null;\nfor (const r of brows) if (bb === null || r['Award Amount'] > bb['Award Amount']) bb = r;\n[bb, brows.indexOf(bb)]",
    ),
    'best.Company = 1;\n[best, first.Agency, tie]',
  ],
  'functions of earlier runs: their parameters are no globals, what they read stays global': [
    'var addTo = (s, v) => s + v;\nvar peek = (n) => (k) => n + k + total;\nvar total = 1;\n0',
    rw(
      "let s = 0, n = 0;\nfor (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] > 5e5) { s += r['Award Amount']; n++; }\n[s, n, addTo(s, 1), peek(n)(2)]",
    ),
    // `total`, which peek reads, stays global in this session (the session's prepare, not prepareCode's)
    "let total = 0;\nfor (const r of award_data.select('Award Amount').objects()) total += r['Award Amount'] || 0;\n[total, peek(1)(2)]",
    '[s, n, total, peek(0)(0)]',
  ],
  'loops the rewrite leaves as written, and errors': [
    // the loop is the program's last statement: its completion value is the answer
    as("let e1 = 0;\nfor (const r of award_data.select('Award Amount').objects()) e1 += r['Award Amount'] || 0;"),
    // a const: the loop as written throws at its first update
    as("const e2 = 0;\nfor (const r of award_data.select('Award Amount').objects()) e2 += r['Award Amount'] || 0;\ne2"),
    // a function reads the local: it is no true local of the run
    as(
      "let e3 = 0;\nconst peek = () => e3;\nfor (const r of award_data.select('Award Amount').objects()) e3 += r['Award Amount'] || 0;\n[e3, peek()]",
    ),
    // the row escapes, a call in the body, a field read of a field
    as(
      "let e4 = 0, keep = null;\nfor (const r of award_data.select('Award Amount').objects()) { e4 += r['Award Amount'] || 0; keep = r; }\n[e4, keep]",
    ),
    as("let e5 = 0;\nfor (const r of award_data.select('Branch').objects()) e5 += r.Branch.length;\ne5"),
    as(
      "let e6 = 0;\nfor (const r of award_data.select('Award Amount').objects()) { e6 += r['Award Amount'] || 0; if (e6 > 1e9) break; }\ne6",
    ),
    // a name declared after the loop: the loop as written throws in its dead zone
    as("for (const r of award_data.select('Award Amount').objects()) e7 += 1;\nlet e7 = 0;\ne7"),
    // a loop over something that is no table or no iterable
    as('let e8 = 0;\nfor (const r of [{ x: 1 }, { x: 2 }]) e8 += r.x;\ne8'),
    as('let e9 = 0;\nfor (const r of 42) e9 += r.x;\ne9'),
    rw('let e10 = 0;\nfor (const r of missingTable) e10 += r.x;\ne10'),
    'e10',
  ],
};

/** The same program with the rewrite defeated: a comment naming its prefix turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;
const isScalar = (prepared: string) =>
  prepared.includes('["scalar",') ||
  prepared.includes('["pick",') ||
  prepared.includes('["push",') ||
  prepared.includes('["add",') ||
  prepared.includes('["latest",') ||
  prepared.includes('["pickAt",');

describe.each(['isolated-vm', 'quickjs'] as const)('scalar accumulation loops on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine, tables: { k: edgeCsv, dt: dateCsv } });
    await using plain = await createSandbox({ engine, tables: { k: edgeCsv, dt: dateCsv } });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      if (typeof step !== 'string') expect(isScalar(prepareCode(code).code), code).toBe(step.scalar);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it("a for-of over a bound array is answered only while the array iterator is the session's", async () => {
    await using box = byHand(await createSandbox({ engine, tables: { k: edgeCsv } }));
    const spec = '["scalar", 1, null, [[0, "+", null, ["f", 0]]]]';
    const r = await box.run(
      `const v = k.array('V');\nconst intact = __sbirtools_rowLoop.keyed(${spec}, [0], [v], 1);\nconst t1 = __sbirtools_rowLoop.took(1);\n` +
        `const AP = Object.getPrototypeOf([]), keep = AP[Symbol.iterator];\nAP[Symbol.iterator] = function () { return keep.call(this); };\n` +
        `const replaced = __sbirtools_rowLoop.keyed(${spec}, [0], [v], 1);\nconst t2 = __sbirtools_rowLoop.took(1);\n` +
        `const asIndex = __sbirtools_rowLoop.keyed(${spec}, [0], [v], 0);\nconst t3 = __sbirtools_rowLoop.took(1);\nAP[Symbol.iterator] = keep;\n` +
        '[intact, t1 !== null, replaced, t2, asIndex, t3 !== null]',
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([true, true, false, null, true, true]);
  });

  it('the guest answers from the columns when it can, and hands nothing back when it cannot', async () => {
    await using box = byHand(await createSandbox({ engine, tables: { k: edgeCsv } }));
    const spec = '["scalar", 2, null, [[0, "+", null, ["f", 0]], [1, "+", null, ["n", 1]]]]';
    const r = await box.run(
      `const v = k.array('V');\nconst a = __sbirtools_rowLoop.keyed(${spec}, [0, 0], [v]);\n` +
        `const t = __sbirtools_rowLoop.took(2);\nconst none = __sbirtools_rowLoop.took(2);\n` +
        `const loops = [];\nfor (const r of k.objects(__sbirtools_rowLoop.open(['V'], ['keyed'], [${spec}, [1, 0]]))) loops.push(r);\n` +
        `const got = __sbirtools_rowLoop.took(2);\nconst wrong = (() => { for (const r of k.objects(__sbirtools_rowLoop.open(['V'], ['keyed'], [${spec}, [1, 0]]))) loops.push(r); return __sbirtools_rowLoop.took(3) })();\n` +
        `for (const r of k.objects(__sbirtools_rowLoop.open(['V'], ['keyed'], [${spec}, ['1', 0]]))) loops.push(1);\n` +
        `const text = __sbirtools_rowLoop.took(2);\n` +
        "let ref = 1;\nconst vv = k.array('V');\nfor (let i = 0; i < vv.length; i++) ref += vv[i];\n" +
        '[a, t && [...t], none, loops.length, got && [...got], got && Object.is(got[0], ref), wrong, text]',
    );
    expect(r.error).toBeUndefined();
    // an index loop's arrays are read through their columns (session 19); a start that is no number declines
    const [a, t, none, loops, got, same, wrong, text] = r.value as unknown[];
    expect(t).toEqual([(got as number[])[0]! - 1, 24]);
    expect([a, none, loops, (got as number[])[1], same, wrong, text]).toEqual([true, null, 24, 24, true, null, null]);
  });
});
