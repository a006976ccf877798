// Column arrays read in place (src/runtime/prepare/sharedArrays.ts, prelude/data/columnArrays.ts and
// rowLoop.ts `release`): a top-level `const a = t.array(col)` that the run only reads in bounds
// (`a[i]` under `for (let i = 0; i < a.length; i++)`, and `a.length`) gets the column's kept values
// instead of a copy, and the global gets a copy of its own at the write-back. Each sequence runs in a
// real session twice, rewritten and with the rewrite defeated (a comment naming `$sbtRow`), on both
// engines; values, errors and what later runs see (the global, changed or not) must be the same.
// Steps marked `rw` must be rewritten, the others must not.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

type Step = string | { code: string; rewritten: boolean; token: string };
const rw = (code: string): Step => ({ code, rewritten: true, token: '["shared"]' });
const rwv = (code: string): Step => ({ code, rewritten: true, token: '["values"]' });
const rwi = (code: string): Step => ({ code, rewritten: true, token: '["sharedIter"]' });
const TOKENS = ['["shared"]', '["values"]', '["sharedIter"]'];

const SEQUENCES: Record<string, Step[]> = {
  'sums, counts and the global after the run': [
    rw(
      "const amounts = award_data.array('Award Amount');\nlet total = 0;\nfor (let i = 0; i < amounts.length; i++) total += amounts[i] || 0;\ntotal",
    ),
    "[amounts.length, amounts[0], amounts[amounts.length - 1], Array.isArray(amounts), amounts === award_data.array('Award Amount')]",
    "amounts[0] = 'changed'; amounts.length = 2; amounts.push(-0);\n[amounts.length, amounts[0], Object.is(amounts[2], -0)]",
    rw(
      "const amounts = award_data.array('Award Amount');\nlet total = 0;\nfor (let i = 0; i < amounts.length; i++) total += amounts[i] || 0;\n[total, amounts.length]",
    ),
    "[award_data.array('Award Amount')[0], amounts[0], amounts.length]",
    rw(
      "const ph = award_data.array('Phase');\nlet n2 = 0, none = 0;\nfor (let i = 0; i < ph.length; i += 1) { if (ph[i] === 'Phase II') n2++; else if (ph[i] == null) none++; }\n[n2, none, ph.length]",
    ),
    rw(
      "const ys = award_data.array('Award Year');\nlet lo = Infinity;\nfor (let i = 0; i < ys.length; ++i) { const y = ys[i]; if (y != null && y < lo) lo = y; }\nfor (let i = 0; i < ys.length; i++) for (let j = 0; j < 1; j++) lo = Math.min(lo, ys[i] ?? lo);\nlo",
    ),
    'ys.reverse(); [ys[0], ys.length]',
    // never read by a later run: the copy is not needed, and a later declaration replaces it
    rw(
      "const amounts = award_data.array('Award Amount');\nlet big = 0;\nfor (let i = 0; i < amounts.length; i++) if (amounts[i] > 1e6) big++;\nbig",
    ),
    rw(
      "const amounts = award_data.array('Number Employees');\nlet e = 0;\nfor (let i = 0; i < amounts.length; i++) e += amounts[i] ?? 0;\n[e, amounts.length]",
    ),
    'amounts.slice(0, 5)',
  ],
  'errors in the loop, and what the run leaves': [
    rw(
      "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) { s += a[i] || 0; if (i === 7) throw new Error('stop at ' + s); }\ns",
    ),
    'a[3] = 1; [a.length, a[3], s]',
    rw(
      "const b = award_data.array('Award Amount');\nlet t = 0;\nfor (let i = 0; i < b.length; i++) t += b[i].toFixed(0).length;\nt",
    ),
    '[b.length, typeof b[0]]',
    rw(
      "const c = award_data.array('No Such Column');\nlet u = 0;\nfor (let i = 0; i < c.length; i++) u += c[i] == null ? 1 : 0;\nu",
    ),
  ],
  'what is left as written: other reads, writes, escapes, other tables and columns': [
    // a read at a kept index is in place since session 20 ("elements read at a kept index" below)
    rw(
      "const a = award_data.array('Award Amount');\nlet k = 0;\nfor (let i = 0; i < a.length; i++) if (a[i] > a[k]) k = i;\n[k, a[k]]",
    ),
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) { s += a[i] || 0; a[i] = 0; }\n[s, a[5]]",
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) { s += a[i] || 0; i++; }\ns",
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i + 1] || 0;\ns",
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += [a][0][i] || 0;\ns",
    "const a = award_data.array('Award Amount');\nconst f = () => a.length;\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] || 0;\n[s, f()]",
    "let a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] || 0;\na = [s];\na",
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] || 0;\na",
    // one declarator among several is read in place as one alone
    rw(
      "const a = award_data.array('Award Amount'), b = 1;\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] || 0;\ns",
    ),
    "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) { const f = () => { i = a.length; }; s += a[i] || 0; }\ns",
    // an element's own methods are the element's (a number), not the array's
    rw(
      "const a = award_data.array('Award Amount');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] !== null && a[i].valueOf.call(a[i]) > 0 ? 1 : 0;\ns",
    ),
    // a date column's Dates, a filtered table's rows: copies all the same (the guest's choice)
    rw(
      "const d = award_data.array('Proposal Award Date');\nlet late = 0;\nfor (let i = 0; i < d.length; i++) { if (d[i] && d[i].getTime() > 1.5e12) late++; if (d[i]) d[i].setTime(0); }\nlate",
    ),
    rw(
      "const d2 = award_data.array('Proposal Award Date');\nlet zero = 0;\nfor (let i = 0; i < d2.length; i++) if (d2[i] && d2[i].getTime() === 0) zero++;\nzero",
    ),
    rw(
      "const few = award_data.filter(r => r.Phase === 'Phase I');\nconst fa = few.array('Award Amount');\nlet fsum = 0;\nfor (let i = 0; i < fa.length; i++) fsum += fa[i] || 0;\n[fsum, fa.length]",
    ),
    rw(
      "const small = aq.table({ x: [1, null, 3] });\nconst xs = small.array('x');\nlet sx = 0;\nfor (let i = 0; i < xs.length; i++) sx += xs[i] ?? 10;\n[sx, xs.length]",
    ),
    'xs.push(4); xs',
    // getters on the prototypes never see the array: reads in bounds do not reach them
    "var leaked = null;\nObject.defineProperty(Object.getPrototypeOf([]), '999999', { get() { leaked = this; return 1; }, configurable: true });\n1",
    rw(
      "const g = award_data.array('Award Amount');\nlet gs = 0;\nfor (let i = 0; i < g.length; i++) gs += g[i] || 0;\ngs",
    ),
    "delete Object.getPrototypeOf([])['999999'];\n[leaked, g.length]",
    // a keyed accumulation reads its arrays in place since session 19 (prelude/data/keyedArrays.ts)
    rw(
      "const ag = award_data.array('Agency');\nconst amt = award_data.array('Award Amount');\nconst m = {};\nfor (let i = 0; i < ag.length; i++) m[ag[i]] = (m[ag[i]] || 0) + (amt[i] || 0);\nObject.entries(m).sort((x, y) => y[1] - x[1]).slice(0, 3)",
    ),
  ],
  // `a[k]` outside a loop bounded by a's length (session 20, sharedArrays.ts `keyRead`): read in place
  // while k is an index of a's own elements, else a becomes a copy of its own first
  'elements read at a kept index': [
    rw(
      "const a = award_data.array('Award Amount');\nlet k = -1;\nfor (let i = 0; i < a.length; i++) if (a[i] != null && (k < 0 || a[i] > a[k])) k = i;\n[award_data.get('Company', k), a[k], k]",
    ),
    '[a.length, a[k], a[0]]',
    rw(
      "const emp = award_data.array('Number Employees');\nlet j = -1;\nfor (let i = 0; i < emp.length; i++) if (emp[i] != null && (j === -1 || emp[i] <= emp[j])) j = i;\n[j, emp[j], emp[0], emp[3]]",
    ),
    rw(
      "const yr = award_data.array('Award Year');\nconst amt = award_data.array('Award Amount');\nlet k2 = -1;\nfor (let i = 0; i < yr.length; i++) if (yr[i] === 2015 && amt[i] != null && (k2 < 0 || amt[i] < amt[k2])) k2 = i;\n[k2, amt[k2], yr[k2]]",
    ),
    // no row passes: a[-1] reaches the prototypes, whose getter sees (and writes into) a copy, as written
    // (a Proxy under Array.prototype, no `this`: a kept function holding `this` keeps later runs' names global)
    "var seen = null;\nvar AP4 = Object.getPrototypeOf([]), OP4 = Object.getPrototypeOf(AP4);\nObject.setPrototypeOf(AP4, new Proxy(OP4, { get(t, key, rcv) { if (key === '-1') { seen = rcv; rcv[0] = 'got'; return 'proto'; } return Reflect.get(t, key, rcv); } }));\n1",
    rw(
      "const b = award_data.array('Award Amount');\nlet kb = -1;\nfor (let i = 0; i < b.length; i++) if (b[i] === -5 && (kb < 0 || b[i] > b[kb])) kb = i;\n[kb, b[kb], b[0], seen[0], seen.length, b.length]",
    ),
    "Object.setPrototypeOf(AP4, OP4);\n[b[0], award_data.array('Award Amount')[0], b.length]",
    // the column's kept values, read in place again, were never written
    rw(
      "const b2 = award_data.array('Award Amount');\nlet t2 = 0;\nfor (let i = 0; i < b2.length; i++) t2 += b2[i] || 0;\n[t2, b2[0]]",
    ),
    // keys that are no index of its own elements: a string, a fraction, past the end, an object with toString
    rw(
      "const c = award_data.array('Phase');\nlet ks = '3', kf = 2.5, kp = 1e9;\nvar calls = 0;\nconst ko = { toString() { calls++; return '1'; } };\nlet s = 0;\nfor (let i = 0; i < c.length; i++) if (c[i] === 'Phase I') s += ks.length + (kf > kp ? 1 : 0) + (ko ? 0 : 1);\n[c[ks], c[kf], c[kp], c[ko], calls, c[0], c[2], s]",
    ),
    "c.push('more'); [c.length, c[c.length - 1], award_data.array('Phase').length]",
    rw(
      "const d = award_data.array('Award Amount');\nlet t = 0;\nfor (let i = 0; i < d.length; i++) t += d[i] || 0;\n[t, d[0], d[4999], d[5000], d.length]",
    ),
    // a key that is no true local, or an expression: a copy, as before
    "var kv = 2;\nconst e = award_data.array('Award Amount');\nlet u = 0;\nfor (let i = 0; i < e.length; i++) u += e[i] || 0;\n[u, e[kv]]",
    "const f = award_data.array('Award Amount');\nlet v = 0, m = 1;\nfor (let i = 0; i < f.length; i++) v += f[i] || 0;\n[v, f[m + 1], f[f.length - 1]]",
  ],
  // several declarators in one statement (session 17): each read as it would be alone
  'arrays declared together': [
    rw(
      "const h = award_data.array('HUBZone Owned'), a2 = award_data.array('Award Amount');\nlet s2 = 0;\nfor (let i = 0; i < h.length; i++) if (h[i] === 'Y') s2 += a2[i] || 0;\ns2",
    ),
    "h[0] = 'Z'; [h[0], h.length, a2.length, award_data.array('HUBZone Owned')[0] !== 'Z']",
    rw(
      "const p3 = award_data.array('Phase'), y3 = award_data.array('Award Year');\nlet n3 = 0, m3 = 0;\nfor (let i = 0; i < p3.length; i++) if (p3[i] === 'Phase II') n3++;\nfor (let i = 0; i < y3.length; i++) if (y3[i] > 2015) m3++;\n[n3, m3, p3.length + y3.length]",
    ),
    // a later declarator reads the name: as written
    "const p4 = award_data.array('Phase'), n4 = p4.length;\nlet c4 = 0;\nfor (let i = 0; i < p4.length; i++) if (p4[i]) c4++;\n[c4, n4]",
    "let q5 = award_data.array('Phase'), r5 = award_data.array('State');\nlet c5 = 0;\nfor (let i = 0; i < q5.length; i++) if (q5[i] === 'Phase I') c5++;\nr5 = q5;\n[c5, r5.length]",
  ],
  // `const w = X.array(col); ... for (const v of w)` (session 17): the kept values, through the session's
  // array iterator, when only literal declarations stand between the call and the loop
  'for-of over a bound column array': [
    rwi(
      "const w = award_data.array('Woman Owned');\nlet y = 0;\nfor (const v of w) if (v === 'Y') y++;\n[y / w.length, y]",
    ),
    "w[0] = 'Q'; [w[0], w.length, award_data.array('Woman Owned')[0] !== 'Q']",
    rwi(
      "const w3 = award_data.array('Phase');\nlet c3 = 0, last = null, none = [];\nfor (const v of w3) { last = v; if (++c3 > 5) break; }\n[c3, last, w3.length]",
    ),
    rwi(
      "const w8 = award_data.array('Number Employees');\nlet s8 = 0, n8 = 0;\nfor (let v of w8) { if (v == null) continue; v = v * 2; s8 += v; n8++; }\nfor (let i = 0; i < w8.length; i++) if (w8[i] === 0) n8--;\n[s8, n8]",
    ),
    rwi(
      "const w9 = award_data.array('Award Amount');\nlet e9 = 0;\nfor (const v of w9) { e9++; if (e9 === 4) throw new Error('fourth ' + v); }\ne9",
    ),
    '[e9, w9.length, w9[3]]',
    rwi(
      "const w12 = award_data.array('State');\nconst by12 = {};\nfor (const v of w12) by12[v] = (by12[v] || 0) + 1;\n[Object.keys(by12).length, by12.null, w12.length]",
    ),
    // a labelled loop, two loops, code between the call and the loop, a later declarator: as written
    "const w2 = award_data.array('Phase');\nlet c2 = 0;\nL: for (const v of w2) { if (c2++ > 5) break L; }\n[c2, w2.length]",
    "const w6 = award_data.array('Phase');\nlet a6 = 0;\nfor (const v of w6) a6++;\nfor (const v of w6) a6++;\na6",
    "const w4 = award_data.array('Phase');\nconst m4 = new Map();\nfor (const v of w4) m4.set(v, 1);\nm4.size",
    "const w7 = award_data.array('Phase'), z7 = 1;\nlet c7 = 0;\nfor (const v of w7) c7++;\nc7",
    "const w10 = award_data.array('Phase');\nlet c10 = 0;\nfor await (const v of w10) c10++;\nc10",
    // the array iterator found elsewhere by an earlier run (a Proxy's `get` sees the array as its receiver;
    // no `this` anywhere: a kept function holding `this` keeps later runs' names global, off this path):
    // the call answers a copy, and the copy is what the run can reach and write
    'var leaked = null;\nvar AP3 = Object.getPrototypeOf([]);\nvar keepIt3 = AP3[Symbol.iterator];\nvar OP3 = Object.getPrototypeOf(AP3);\nObject.setPrototypeOf(AP3, new Proxy(OP3, { get(t, k, rcv) { if (k === Symbol.iterator) { leaked = rcv; return keepIt3; } return Reflect.get(t, k, rcv); } }));\ndelete AP3[Symbol.iterator];\n1',
    rwi(
      "const w5 = award_data.array('Award Amount');\nlet c5 = 0;\nfor (const v of w5) if (v != null && v % 7 === 0) c5++;\nleaked[0] = 'seen';\n[c5, leaked === null]",
    ),
    "AP3[Symbol.iterator] = keepIt3;\nObject.setPrototypeOf(AP3, OP3);\n[w5[0], award_data.array('Award Amount')[0], award_data.array('Award Amount').length]",
    // a table's own array() that hands the token on gets a copy (only the installed array() shares)
    'var keepArr = Object.getPrototypeOf(award_data).array;\nvar got = null;\naward_data.array = function (c, o) { got = keepArr.call(award_data, c, o); return got; };\n1',
    rwi("const w11 = award_data.array('Phase');\nlet c11 = 0;\nfor (const v of w11) if (v === 'own') c11++;\nc11"),
    "delete award_data.array;\ngot[1] = 'own';\n[award_data.array('Phase')[1], w11[1]]",
  ],
  // `const p = X['col'].tolist()` (session 20, sharedArrays.ts `listDeclarations`): a Series of a host
  // column hands the token to array(); anything else answers its own list
  'Series lists bound to a name': [
    rw(
      "const p = award_data['Phase'].tolist(), a = award_data['Award Amount'].tolist();\nlet s = 0;\nfor (let i = 0; i < p.length; i++) if (p[i] === 'Phase I') s += a[i] || 0;\ns",
    ),
    "[p.length, p[0], a[0], Array.isArray(a), a === award_data['Award Amount'].tolist()]",
    "p[0] = 'changed'; a.length = 1;\n[p[0], a.length, award_data['Phase'].tolist()[0] !== 'changed', award_data.array('Award Amount').length]",
    rw(
      "const ys = award_data['Award Year'].to_list();\nlet lo = Infinity, hi = -Infinity;\nfor (let i = 0; i < ys.length; i++) { const y = ys[i]; if (y != null && y < lo) lo = y; if (y != null && y > hi) hi = y; }\n[lo, hi, ys.length]",
    ),
    rw(
      "const st = award_data.State.tolist();\nlet ca = 0;\nfor (let i = 0; i < st.length; i++) if (st[i] === 'CA') ca++;\nca",
    ),
    rwi(
      "const wo = award_data['Woman Owned'].tolist();\nlet y = 0;\nfor (const v of wo) if (v === 'Y') y++;\n[y, wo.length]",
    ),
    // a filtered table's Series, a Series that is no column, a date column: their own lists, as written
    rw(
      "const few = award_data.filter(r => r.Phase === 'Phase II');\nconst fa = few['Award Amount'].tolist();\nlet fs2 = 0;\nfor (let i = 0; i < fa.length; i++) fs2 += fa[i] || 0;\n[fs2, fa.length]",
    ),
    rw(
      "const da = award_data['Proposal Award Date'].tolist();\nlet late = 0;\nfor (let i = 0; i < da.length; i++) if (da[i] && da[i].getTime() > 1.5e12) late++;\nlate",
    ),
    "const m2 = award_data['Award Amount'].mul(2).tolist();\nlet s2 = 0;\nfor (let i = 0; i < m2.length; i++) s2 += m2[i] || 0;\ns2",
    "const p3 = award_data['Phase'].tolist(Float64Array);\nlet c3 = 0;\nfor (let i = 0; i < p3.length; i++) if (p3[i] === 'Phase I') c3++;\nc3",
    // read past the loop at a literal or a kept index: in place since session 20 (`at`); written: a copy, as written
    rw(
      "const p4 = award_data['Phase'].tolist();\nlet c4 = 0;\nfor (let i = 0; i < p4.length; i++) if (p4[i] === 'Phase I') c4++;\n[c4, p4[0]]",
    ),
    "const p6 = award_data['Phase'].tolist();\nlet c6 = 0;\nfor (let i = 0; i < p6.length; i++) if (p6[i] === 'Phase I') c6++;\n[c6, p6[c6 + 1]]",
    "const p5 = award_data['Phase'].tolist();\nfor (let i = 0; i < p5.length; i++) p5[i] = 1;\np5.length",
  ],
  // `for (... of X.array(col))` (rowLoops.ts `['values']`): the session's array iterator over the kept values
  'for-of over a column array: the kept values through the array iterator': [
    // a sum and a count: the columns answer it since session 19 (scalarLoops.ts), the other loops below read the values
    "let s = 0, n = 0;\nfor (const v of award_data.array('Number Employees')) if (v != null) { s += v; n++; }\n[s / n, n]",
    rwv(
      "let y = 0;\nfor (const p of award_data.array('Phase')) { y += p ? p.charCodeAt(p.length - 1) : 1; if (y > 100000) break; }\ny",
    ),
    rwv(
      "const seen = [];\nfor (let v of award_data.array('Award Year')) { v = v ?? -1; if (seen.length < 5) seen.push(v); }\nseen",
    ),
    rwv(
      "let first;\nlabel: for (const a of award_data.array('Award Amount')) { for (const b of [1]) { first = a; break label; } }\nfirst",
    ),
    rwv(
      "let e = 0;\ntry { for (const v of award_data.array('Award Amount')) { e++; if (e === 3) throw new Error('third ' + v); } } catch (x) { e = x.message; }\ne",
    ),
    rwv(
      "function count(t) { let k = 0; for (const v of t.array('Agency')) if (v && v.charCodeAt(0) > 64) k++; return k; }\n[count(award_data), count(award_data.filter(r => r.Phase === 'Phase I'))]",
    ),
    // a date column's loop is a date loop's (dateLoops.ts), not this one
    "let d = 0;\nfor (const v of award_data.array('Proposal Award Date')) if (v && v.getUTCFullYear() > 2015) d++;\nd",
    rwv(
      "let d2 = 0;\nfor (const v of award_data.array('Proposal Award Date')) if (v && String(v).length > 3) d2++;\nd2",
    ),
    // a replaced array iterator, or its next: the copy, iterated as written
    rwv(
      "const keepNext = Object.getPrototypeOf([][Symbol.iterator]()).next;\nlet nexts = 0;\nObject.getPrototypeOf([][Symbol.iterator]()).next = function () { nexts++; return keepNext.call(this); };\nlet m = 0;\ntry { for (const v of award_data.array('Award Amount')) m++; } finally { Object.getPrototypeOf([][Symbol.iterator]()).next = keepNext; }\n[m, nexts]",
    ),
    rwv(
      "const AP = Object.getPrototypeOf([]);\nconst keepIter = AP[Symbol.iterator];\nlet iters = 0;\nAP[Symbol.iterator] = function () { iters++; return keepIter.call(this); };\nlet m2 = 0;\ntry { for (const v of award_data.array('Award Amount')) m2++; } finally { AP[Symbol.iterator] = keepIter; }\n[m2, iters]",
    ),
    rwv(
      "let returns = 0;\nconst IP = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));\nIP.return = function () { returns++; return {}; };\nlet got = 0;\ntry { for (const v of award_data.array('Award Amount')) { got = v; break; } } finally { delete IP.return; }\n[got, returns]",
    ),
    "let w = 0;\nfor (const v of award_data.array('Award Amount', Float64Array)) w++;\nw",
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('column arrays read in place on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the arrays as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      const prepared = prepareCode(code).code;
      for (const token of TOKENS)
        expect(prepared.includes(token), `${token} ${code}`).toBe(typeof step !== 'string' && step.token === token);
      for (const token of TOKENS)
        expect(prepareCode(asWritten(code)).code, 'the reference is not rewritten').not.toContain(token);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      // the policy check refuses before anything runs: a step it refuses would compare nothing
      expect(a.ok || a.error.type !== 'POLICY_VIOLATION', code).toBe(true);
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });
});

describe('column arrays read in place: the guest takes the path', () => {
  it('hands the rewritten local the same array twice, and the global a copy of its own', async () => {
    await using box = byHand(await createSandbox({ engine: 'isolated-vm' }));
    // the token a rewrite inserts, written by hand: the two calls answer one array, a bare call a copy
    const r = await box.run(
      "const open = () => __sbirtools_rowLoop.open(['Award Amount'], ['shared']);\n" +
        "const x1 = award_data.array('Award Amount', open()), x2 = award_data.array('Award Amount', open());\n" +
        "[x1 === x2, x1 === award_data.array('Award Amount'), __sbirtools_rowLoop.release(x1, 'nope') === x1, __sbirtools_rowLoop.release(x1, 'nope').length === x1.length]",
    );
    expect(r.value).toEqual([true, false, false, true]);
  });

  it("hands a Series' tolist() the kept values with the token only, and any other argument its plain list", async () => {
    await using box = byHand(await createSandbox({ engine: 'isolated-vm' }));
    const r = await box.run(
      "const open = () => __sbirtools_rowLoop.open(['Phase'], ['shared']);\n" +
        "const l1 = award_data['Phase'].tolist(open()), l2 = award_data.Phase.to_list(open()), l3 = award_data['Phase'].tolist();\n" +
        "const f = award_data['Phase'].tolist(Float64Array);\n" +
        "[l1 === l2, l1 === l3, Array.isArray(f), typeof f[0], f.length === l3.length, award_data.filter(d => d.Phase === 'Phase I')['Phase'].tolist(open()) === l1]",
    );
    expect(r.value).toEqual([true, false, true, 'string', true, false]);
  });

  it('hands a for-of over a column array the kept values, and a copy once the array iterator is replaced', async () => {
    await using box = byHand(await createSandbox({ engine: 'isolated-vm' }));
    const r = await box.run(
      "const open = () => __sbirtools_rowLoop.open(['Award Amount'], ['values']);\nconst i1 = award_data.array('Award Amount', open()), i2 = award_data.array('Award Amount', open());\nconst AP = Object.getPrototypeOf([]), keep = AP[Symbol.iterator];\nAP[Symbol.iterator] = function () { return keep.call(this); };\nconst i3 = award_data.array('Award Amount', open());\nAP[Symbol.iterator] = keep;\n[Array.isArray(i1), i1 === i2, i3 === i1, i3.length === award_data.numRows()]",
    );
    expect(r.value).toEqual([true, true, false, true]);
  });
});
