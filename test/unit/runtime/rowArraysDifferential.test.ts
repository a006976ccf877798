// Row arrays bound to a name (src/runtime/prepare/rowArrays.ts, `useRows` in prelude/data/rowLoop.ts)
// change how their uses are evaluated, never what they answer: each sequence of runs goes through a
// real sandbox session twice, as written (`const rows = t.objects()` still makes the real array, and a
// loop over it reads the kept column values) and with the rewrite defeated (a comment naming
// `$sbtRow` turns it off), on both engines; values, output, errors with line and column, and what later
// runs see (the name holds the real rows, built at the write-back when only loops read it, and a
// later run that changed them loops over what it changed) must be the same. Steps marked `rewritten`
// also check that the preparation did rewrite a use of the name.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

/**
 * Runs, in order, in one session; `rewritten: true` marks a run the preparation rewrites (a loop put
 * through the helper), `bind: false` one whose bound array it leaves as written (its loops may still
 * go through the helper, which hands the real array back).
 */
type Step = string | { code: string; rewritten?: boolean; bind?: boolean; chains?: boolean };
const rw = (code: string): Step => ({ code, rewritten: true });
/** A run whose bound array chains read: its own methods answer them (`['chains', ...]`, session 19). */
const cw = (code: string): Step => ({ code, rewritten: true, chains: true });
const unbound = (code: string): Step => ({ code, bind: false });

const SEQUENCES: Record<string, Step[]> = {
  'loops, chains and length over one bound array, then later runs read the real rows': [
    rw(
      "const rows = award_data.select('Award Amount').objects();\nlet s = 0, n = 0;\nfor (const r of rows) if (r['Award Amount'] != null) { s += r['Award Amount']; n++; }\ns / n",
    ),
    '[rows.length, rows[0], rows[rows.length - 1], Object.keys(rows[3]), Array.isArray(rows), rows[4] === rows[4]]',
    rw(
      "const wo = award_data.select('Woman Owned', 'Phase').objects();\nconst share = wo.filter(r => r['Woman Owned'] === 'Y').length / wo.length;\nlet p2 = 0;\nfor (let r of wo) if (r.Phase === 'Phase II') p2++;\n[share, p2, wo.map(r => r.Phase).slice(0, 3), wo.some(r => r.Phase === 'Phase I'), wo.findIndex(r => r['Woman Owned'] === 'Y'), wo.reduce((a, r, i) => a + (i < 10 ? 1 : 0), 0)]",
    ),
    'wo.slice(0, 4)',
    rw(
      "let hz = award_data.select('HUBZone Owned', 'Award Amount').objects();\nconst seenHz = [];\nhz.forEach((r, i) => { if (i < 3) seenHz.push([i, r['HUBZone Owned']]) });\nlet hzN = 0;\nfor (const r of hz) if (r['HUBZone Owned'] === 'Y') hzN++;\n[seenHz, hzN, hz.filter(r => r['HUBZone Owned'] === 'Y').reduce((a, r) => a + (r['Award Amount'] || 0), 0)]",
    ),
    'hz.length + hz.filter(r => r.Company === undefined).length',
  ],
  'filtered, ordered, derived and user tables; a field the table lacks; no rows': [
    rw(
      "const big = award_data.filter(d => d.Phase === 'Phase II').orderby(aq.desc('Award Amount')).objects();\nconst top = [];\nfor (const r of big) if (top.length < 4) top.push([r.Company, r['Award Amount']]);\n[top, big.filter(r => r.State === 'Texas').length]",
    ),
    rw(
      "const dm = award_data.derive({ m: d => d['Award Amount'] / 1e6 }).select('m').objects();\nlet over = 0;\nfor (const r of dm) if (r.m > 1) over++;\n[over, dm.filter(r => r.m > 2).length]",
    ),
    rw(
      "const xs = [1, 2, null, 4];\nconst ut = aq.table({ a: xs, b: ['w', 'x', 'y', 'z'] });\nconst ur = ut.objects();\nxs[0] = 100;\nlet us = '';\nfor (const r of ur) us += r.b + r.a;\n[us, ur.map(r => r.a)]",
    ),
    rw(
      "const typo = award_data.select('Award Amount').objects();\nlet ts = 0;\nfor (const r of typo) ts += r['Award Amout'] || 1;\n[ts, typo.filter(r => r.Nope === undefined).length]",
    ),
    rw(
      "const none = award_data.filter(d => d.Phase === 'no such phase').objects();\nlet nn = 0;\nfor (const r of none) nn += r.Phase.length;\n[nn, none.map(r => r.Phase), none.reduce((a, r) => a + r.x, 'init'), none.length]",
    ),
    rw(
      "const few = award_data.filter(d => d['Award Amount'] > 1.5e6).objects();\nlet fc = 0;\nfor (const r of few) fc += r['Award Amount'] > 1.6e6 ? 1 : 0;\n[fc, few.length]",
    ),
  ],
  'dates: a Date changed through the loop is the one the array holds': [
    rw(
      "const ds = award_data.select('Proposal Award Date').objects();\nlet firstD = null;\nfor (const r of ds) if (r['Proposal Award Date']) { firstD = r['Proposal Award Date']; firstD.setUTCFullYear(1901); break }\nconst k = ds.findIndex(r => r['Proposal Award Date'] !== null);\n[k, firstD.getUTCFullYear()]",
    ),
    "[ds.find(r => r['Proposal Award Date'])['Proposal Award Date'].getUTCFullYear(), ds.find(r => r['Proposal Award Date'])['Proposal Award Date'] === firstD]",
  ],
  'errors: in a loop body, in a callback, a user objects() that returns no rows': [
    rw(
      "const e1 = award_data.select('Phase').objects();\nlet got = 0;\nfor (const r of e1) { got++; if (got > 5) r.Phase.nope.deeper }",
    ),
    'got',
    rw("const e2 = award_data.select('Phase').objects();\nfor (const r of e2) r.Phase.toUpperCase().foo()"),
    rw(
      'const mine = { objects() { return [{ x: 1 }, { x: 2 }, { y: 3 }] } };\nconst m1 = mine.objects();\nlet mx = 0;\nfor (const r of m1) mx += r.x ?? 100;\n[mx, m1.filter(r => r.x).length]',
    ),
    rw(
      'const fake = { objects() { return 5 } };\nconst f1 = fake.objects();\nlet fx = 0;\nfor (const r of f1) fx += r.x;\nfx',
    ),
    rw(
      'const fake2 = { objects() { return { length: 2 } } };\nconst f2 = fake2.objects();\nlet fy = 0;\nfor (const r of f2) fy += r.x;\nfy',
    ),
    rw('const fake3 = { objects() { return undefined } };\nconst f3 = fake3.objects();\nfor (const r of f3) r.x'),
    rw("const f4 = award_data.select('Nope').objects();\nfor (const r of f4) r.x"),
  ],
  'chains and length only (session 19): own methods of the array over the kept values, then the real rows': [
    cw(
      "const wo2 = award_data.select('HUBZone Owned').objects();\nwo2.filter(r => r['HUBZone Owned'] === 'Y').length / wo2.length",
    ),
    '[wo2.length, wo2[0], wo2[wo2.length - 1], Object.getOwnPropertyNames(wo2).length, wo2.hasOwnProperty("filter"), wo2.filter === [].filter]',
    cw(
      "const ch = award_data.select('Phase', 'Award Amount', 'Award Year').objects();\nlet fe = 0;\nch.forEach((r, i) => { if (r.Phase === 'Phase I') fe += i % 7 });\n" +
        "const red = ch.reduce((s, r) => s + (r['Award Amount'] || 0), 0);\nconst red2 = ch.filter(r => r['Award Year'] >= 2015).reduce((s, r) => s + r['Award Amount'], -0);\n" +
        "[fe, red, red2, ch.some(r => r.Phase === 'nope'), ch.every(r => r['Award Year'] > 1900), ch.findIndex(r => r['Award Amount'] > 1e6), ch.map(r => r.Phase).slice(-2), ch.filter(r => r.Phase === 'Phase II').filter(r => r['Award Year'] < 2010).map(r => r['Award Amount']).slice(0, 3), ch.length]",
    ),
    '[ch.length, ch[2], Object.keys(ch[7])]',
    cw(
      "const ch2 = award_data.filter(d => d.Phase === 'Phase II').orderby(aq.desc('Award Amount')).select('Company', 'Award Amount', 'Proposal Award Date').objects();\n" +
        "[ch2.map(r => r.Company).slice(0, 3), ch2.filter(r => r['Award Amount'] > 1e6).length, ch2.findIndex(r => r['Proposal Award Date'] === null), ch2.filter(r => r.Nope === undefined).length, ch2.reduce((s, r, i) => s + (i < 4 ? r['Award Amount'] : 0), 0)]",
    ),
    'ch2.slice(0, 2)',
    // every row, ordered; most rows, filtered: the chains read the rows through the table's indices
    cw(
      "const ch3 = award_data.orderby(aq.desc('Award Amount'), 'Company').select('Company', 'Award Amount', 'Phase').objects();\n" +
        "[ch3.map(r => r.Company).slice(0, 4), ch3.findIndex(r => r.Phase === 'Phase II'), ch3.filter(r => r.Phase === 'Phase I').map(r => r['Award Amount']).slice(0, 3), ch3.reduce((s, r, i) => i < 5 ? s + r['Award Amount'] : s, 0), ch3.filter(r => r.Phase === 'Phase II').reduce((s, r) => s + r['Award Amount'], 0)]",
    ),
    cw(
      "const ch4 = award_data.filter(d => d.Phase !== 'Phase II').orderby('Award Year').select('Award Year', 'Phase').objects();\n" +
        "[ch4.length, ch4.map(r => r['Award Year']).slice(0, 3), ch4.some(r => r.Phase === 'Phase II'), ch4.findIndex(r => r['Award Year'] > 2010), ch4.filter(r => r.Phase === 'Phase I').length]",
    ),
    cw(
      "const xs3 = [1, 2, null, 4];\nconst ut3 = aq.table({ a: xs3, b: ['w', 'x', 'y', 'z'] });\nconst ur3 = ut3.objects();\nxs3[0] = 100;\n[ur3.map(r => r.a), ur3.filter(r => r.a > 1).length, ur3.reduce((s, r) => s + r.b, '')]",
    ),
    '[ur3, xs3]',
    cw(
      "const tt3 = award_data.select('Award Title', 'Phase').objects();\n[tt3.filter(r => r['Award Title'] === null).length, tt3.some(r => r['Award Title'] === 'x'), tt3.filter(r => r.Phase === 'Phase I').length]",
    ),
    // a callback that throws midway: the name is written back, its rows built when read
    cw(
      "const th3 = award_data.select('Phase').objects();\nlet k3 = 0;\nth3.forEach(r => { k3++; if (k3 === 6) throw new Error('at ' + r.Phase) })",
    ),
    '[k3, th3.length, th3[5]]',
    // the first method replaced before the chain: the run's method on the real rows, no own method left on them
    cw(
      "const AP5 = Object.getPrototypeOf([]);\nconst os5 = AP5.some;\nconst rp = award_data.select('Phase').objects();\nAP5.some = (f, ...rest) => ['replaced', rest.length, typeof f];\n" +
        "let out5;\ntry { out5 = rp.some(r => r.Phase === 'Phase I') } finally { AP5.some = os5 }\n[out5, rp.some(r => r.Phase === 'Phase II'), rp.length]",
    ),
    // a later link replaced by a callback: that link runs on the rows that passed
    cw(
      "const AP6 = Object.getPrototypeOf([]);\nconst om6 = AP6.map;\nconst rm = award_data.select('Phase', 'Award Year').objects();\nlet done6 = false;\n" +
        "let out6;\ntry { out6 = rm.filter(r => { if (!done6) { done6 = true; AP6.map = (f, ...rest) => ['mine', rest.length, f({ 'Award Year': 1 })] } return r.Phase === 'Phase II' }).map(r => r['Award Year']) } finally { AP6.map = om6 }\nout6",
    ),
    cw(
      "const rl = award_data.select('Award Amount').objects();\nconst n12 = rl.filter(r => r['Award Amount'] > 1e6).length;\n[n12, rl.length, rl.map(r => r['Award Amount']).filter(v => v != null).length]",
    ),
    'rl.slice(0, 3)',
    unbound(
      "const sq = award_data.select('Award Amount').objects();\nsq.reduce((s, r) => s + (r['Award Amount'] || 0), (1, 0)) / sq.length",
    ),
  ],
  'a later run changes a bound array, then loops over it: the binding ended with the run': [
    rw(
      "const lr = award_data.select('Award Amount').objects();\nlet ls = 0;\nfor (const r of lr) ls += r['Award Amount'] || 0;\nls",
    ),
    rw(
      "lr[0]['Award Amount'] = 1e15;\nlr.length = 3;\nlet ls2 = 0;\nfor (const r of lr) ls2 += r['Award Amount'] || 0;\nls2",
    ),
    rw(
      "const lb = award_data.select('Phase').objects();\nlet lc = 0;\nfor (const r of lb) lc += r.Phase === 'Phase I';\n[lc, lb.length]",
    ),
    rw(
      "lb.splice(0, lb.length, { Phase: 'Phase I' });\nlet lc2 = 0;\nfor (const r of lb) lc2 += r.Phase === 'Phase I';\nlc2",
    ),
    // the same cell again: a new array, bound again; the old one is the previous run's
    'const lrOld = lr;\n1',
    rw(
      "const lr = award_data.select('Award Amount').objects();\nlet ls = 0;\nfor (const r of lr) ls += r['Award Amount'] || 0;\nls",
    ),
    '[lr === lrOld, lr.length, lrOld.length, lr[0], lrOld[0]]',
  ],
  'rows built at the write-back (only loops read the name): values of the call, throws, replaced iterators': [
    rw(
      'const xs2 = [1, 2, null];\nconst ut2 = aq.table({ a: xs2, b: ["p", "q", "r"] });\nconst dr = ut2.objects();\nxs2[0] = 50;\nlet dsum = 0;\nfor (const r of dr) dsum += r.a ?? 7;\nxs2[1] = 60;\ndsum',
    ),
    '[dr, xs2, Object.keys(dr[2])]',
    rw(
      "const th = award_data.select('Phase', 'Award Year').objects();\nlet tn = 0;\nfor (const r of th) { tn++; if (tn === 10) throw new Error('stop at ' + r.Phase) }",
    ),
    '[th.length, th[9], th[th.length - 1], tn]',
    rw(
      "const fo = award_data.filter(d => d.Phase === 'Phase II').orderby('Award Amount').select('Company', 'Award Amount').objects();\nlet fs = 0, fk = 0;\nfor (const r of fo) fs += r['Award Amount'] || 0;\nfor (const r of fo) fk += r.Company === null;\n[fs, fk]",
    ),
    '[fo.length, fo[0], fo[fo.length - 1], Object.keys(fo[5]), fo[7] === fo[7]]',
    rw(
      "const AP3 = Object.getPrototypeOf([]);\nconst oi3 = AP3[Symbol.iterator];\nconst di = award_data.select('Phase').objects();\nlet dits = 0;\nAP3[Symbol.iterator] = function () { dits++; return oi3.call(this) };\nlet dc = 0;\ntry { for (const r of di) dc += r.Phase === 'Phase II' } finally { AP3[Symbol.iterator] = oi3 }\n[dc, dits]",
    ),
    '[di.length, di[2]]',
    rw(
      "const few2 = award_data.filter(d => d['Award Amount'] > 1.5e6).objects();\nlet fc2 = 0;\nfor (const r of few2) fc2 += r['Award Amount'] > 1.6e6 ? 1 : 0;\nfc2",
    ),
    '[few2.length, few2[0]]',
  ],
  'a list bound to a name only destructuring loops read: rows as arrays, built as the loops reach them': [
    rw(
      "const tl = award_data.select('Phase', 'Award Amount').tolist();\nlet ts = 0, tc = 0;\nfor (const [ph, am] of tl) if (ph === 'Phase I') ts += am || 0;\nfor (let [ph, , ] of tl) tc += ph === 'Phase II';\n[ts, tc]",
    ),
    '[tl.length, tl[0], tl[tl.length - 1], Array.isArray(tl[2]), tl[2] === tl[2]]',
    rw(
      "const xl = [1, null, 3];\nconst ll = aq.table({ a: xl, b: ['x', 'y', 'z'] }).filter(d => d.b !== 'y').tolist();\nxl[0] = 99;\nlet lsum = '';\nfor (const [a, b] of ll) lsum += b + a;\nlsum",
    ),
    '[ll, xl]',
    rw(
      "const tt2 = award_data.select('Phase').tolist();\nlet k2 = 0;\nfor (const [p] of tt2) { k2++; if (k2 === 3) throw new Error('at ' + p) }",
    ),
    '[tt2.length, tt2[1], k2]',
    rw(
      "const vcl = award_data.groupby('Phase').rollup({ n: op.count() }).tolist();\nlet vn = '';\nfor (const [a, b] of vcl) vn += a + b;\nvn",
    ),
    rw('const nl = { tolist() { return 4 } }.tolist();\nfor (const [a] of nl) a'),
    unbound(
      "const tl5 = award_data.select('Phase').tolist();\nlet s5 = 0;\nfor (const r of tl5) s5 += r[0] === 'Phase I';\ns5",
    ),
    unbound(
      "const tl6 = award_data.select('Phase').tolist();\nlet s6 = 0;\nfor (const [p] of tl6) s6++;\n[s6, tl6.length]",
    ),
    unbound("const tl7 = award_data.select('Phase').tolist();\nlet s7 = 0;\nfor (const [p = 1] of tl7) s7++;\ns7"),
    // `this` in the replaced iterator keeps every name global: as written, rows at the call
    "const AP4 = Object.getPrototypeOf([]);\nconst oi4 = AP4[Symbol.iterator];\nconst tl4 = award_data.select('Phase').tolist();\nlet n4 = 0;\nAP4[Symbol.iterator] = function () { n4++; return oi4.call(this) };\nlet c4 = 0;\ntry { for (const [p] of tl4) c4 += p === 'Phase I' } finally { AP4[Symbol.iterator] = oi4 }\n[c4, n4]",
    '[tl4.length, tl4[0]]',
  ],
  'a session that replaced the array iterator or a method between the declaration and the use': [
    rw(
      "const AP = Object.getPrototypeOf([]);\nconst origIt = AP[Symbol.iterator];\nconst origFilter = AP.filter;\nconst ri = award_data.select('Phase').objects();\nlet its = 0, c1 = 0;\nAP[Symbol.iterator] = () => { its++; return origIt.call([{ Phase: 'Phase II' }, { Phase: 'Phase II' }]) };\nfor (const r of ri) c1 += r.Phase === 'Phase II';\nAP[Symbol.iterator] = origIt;\nAP.filter = (f) => origFilter.call([{ Phase: 'Phase I' }], f);\nconst c2 = ri.filter(r => r.Phase === 'Phase I').length;\nAP.filter = origFilter;\n[c1, its, c2]",
    ),
  ],
  'loops over a table itself: a name or a call': [
    rw("let n = 0;\nfor (const r of award_data.select('Agency')) if (r.Agency === 'Department of Defense') n++;\nn"),
    rw(
      "const ph2 = award_data.filter(d => d.Phase === 'Phase II').orderby(aq.desc('Award Amount'));\nconst topT = [];\nfor (const r of ph2) if (topT.length < 3) topT.push([r.Company, r['Award Amount']]);\nlet s2 = 0;\nfor (let r of award_data) s2 += r['Number Employees'] ?? 0;\n[topT, s2]",
    ),
    rw(
      "const ut = aq.table({ a: [1, null, 3], b: ['x', 'y', 'z'] });\nlet us = '';\nfor (const r of ut) us += r.b + r.a + r.nope;\nus",
    ),
    rw(
      "function countIn(t, col, v) { let k = 0; for (const r of t.select(col)) if (r[col] === v) k++; return k }\nlet k2 = 0;\nfor (const r of award_data.select('Phase')) if (r.Phase === 'Phase I') k2++;\n[k2, countIn(award_data, 'Phase', 'Phase II')]",
    ),
    // nested in a loop or a function: as written (the helper would cost a call per start)
    "let nn2 = 0;\nfor (let j = 0; j < 3; j++) for (const r of award_data.select('Phase')) nn2 += r.Phase === 'Phase I';\nnn2",
    "const cnt = t => { let k = 0; for (const r of t) k += r.Phase === 'Phase II'; return k };\ncnt(award_data.select('Phase'))",
    rw('const plainArr = [{ x: 1 }, { x: 2 }, { y: 3 }];\nlet px = 0;\nfor (const r of plainArr) px += r.x ?? 10;\npx'),
    rw('const st = new Set([{ x: 1 }, { x: 5 }]);\nlet sx = 0;\nfor (const r of st) sx += r.x;\nsx'),
    "let nx = 0;\nfor (const r of 'abc') nx += r.length;\nnx",
    rw("const grp = award_data.groupby('Phase');\nlet gn = 0;\nfor (const r of grp) gn += r.Phase === 'Phase I';\ngn"),
    // not iterable: the same message and column as the loop as written, on both engines
    rw('const obj = { a: 1 };\nlet on = 0;\nfor (const r of obj) on += r.a;\non'),
    rw('let un;\nfor (const r of un) r.a;'),
    rw("const o2 = { select() { return 5 } };\nlet s3 = 0;\nfor (const r of o2.select('x')) s3 += r.a;\ns3"),
    rw("const o3 = { select() { return undefined } };\nfor (const r of o3.select('x')) r.a;"),
    rw("const sel = () => ({});\nlet s4 = 0;\n  for (const r of sel('x')) s4 += r.a;\ns4"),
    rw('const o4 = { inner: { f() { return null } } };\nfor (const r of o4.inner.f()) r.a;'),
    rw("for (const r of award_data.select('Nope')) r.x"),
    rw('for (const r of award_data.nope()) r.x'),
    rw('for (const r of notDefinedHere) r.x'),
    // a session that replaced the array iterator: the table's iterator runs it, as written
    rw(
      "const AP2 = Object.getPrototypeOf([]);\nconst oi = AP2[Symbol.iterator];\nlet its2 = 0;\nAP2[Symbol.iterator] = function () { its2++; return oi.call(this) };\nlet c9 = 0;\ntry { for (const r of award_data.select('Phase')) c9 += r.Phase === 'Phase II' } finally { AP2[Symbol.iterator] = oi }\n[c9, its2]",
    ),
    // a table's own iterator replaced by the run
    rw(
      "const tt = award_data.select('Phase');\ntt[Symbol.iterator] = function* () { yield { Phase: 'mine' } };\nlet c10 = '';\nfor (const r of tt) c10 += r.Phase;\nc10",
    ),
  ],
  'names the rewrite leaves alone': [
    unbound("const a1 = award_data.select('Phase').objects();\nlet k1 = 0;\nfor (const r of a1) k1++;\na1"),
    unbound(
      "const a2 = award_data.select('Phase').objects();\nlet best = null;\nfor (const r of a2) if (!best) best = r;\nbest === a2[0]",
    ),
    unbound(
      "let a3 = award_data.select('Phase').objects();\nlet k3 = 0;\nfor (const r of a3) k3 += r.Phase === 'Phase I';\na3 = a3.slice(0, 2);\n[k3, a3]",
    ),
    unbound(
      "const a4 = award_data.select('Phase').objects();\nconst f = () => a4.length;\nlet k4 = 0;\nfor (const r of a4) k4 += r.Phase === 'Phase I';\n[k4, f()]",
    ),
    unbound(
      "const a5 = award_data.select('Phase').objects();\nlet k5 = 0;\nfor (let i = 0; i < a5.length; i++) k5 += a5[i].Phase === 'Phase I';\nk5",
    ),
    unbound(
      "const a6 = award_data.select('Phase').objects();\na6.push({ Phase: 'mine' });\na6.filter(r => r.Phase === 'mine').length",
    ),
    unbound(
      "const a7 = award_data.select('Phase').objects();\nprint(a7.length);\nconst g = globalThis;\na7.filter(r => r.Phase === 'Phase I').length",
    ),
    unbound(
      "const a8 = award_data.select('Phase').objects(), z8 = 1;\na8.filter(r => r.Phase === 'Phase I').length + z8",
    ),
    unbound(
      "const a10 = award_data.select('Phase').objects();\nconst p1 = a10.filter(r => r.Phase === 'Phase I');\np1[0].Phase = 'x';\nlet k10 = 0;\nfor (const r of a10) k10 += r.Phase === 'x';\nk10",
    ),
    unbound(
      "const a11 = award_data.select('Phase').objects();\na11.forEach(r => { r.Phase = 'y' });\nlet k11 = 0;\nfor (const r of a11) k11 += r.Phase === 'y';\nk11",
    ),
    unbound(
      "const a13 = award_data.select('Phase').objects();\nlet k13 = 0;\nfor (let j = 0; j < 2; j++) for (const r of a13) k13 += r.Phase === 'Phase I';\nk13",
    ),
    unbound(
      "const a9 = award_data.select('Phase').objects();\nlet k9 = 0;\nfor (const r of a9) { k9 += r.Phase === 'Phase I'; await 0 }\nk9",
    ),
  ],
};

/** The same program with the rewrite defeated: a comment naming its prefix turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('row arrays bound to a name on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      const prepared = prepareCode(code).code;
      if (typeof step === 'string' || step.rewritten !== undefined)
        expect(prepared.includes('__sbirtools_rowLoop.'), code).toBe(typeof step !== 'string' && step.rewritten);
      if (typeof step !== 'string' && step.chains) expect(prepared, code).toMatch(/\["chains","[a-zA-Z]+"/);
      if (typeof step !== 'string' && step.bind === false)
        expect(prepared, code).not.toMatch(/\["(bind|defer|chains)"/);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('the guest takes the path: the declared array is real, its uses read the kept values', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      "const t = award_data.select('Phase', 'Company');\nconst rows = t.objects(__sbirtools_rowLoop.open(['Phase'], ['bind']));\n" +
        "const it = __sbirtools_rowLoop.rows(rows, ['Phase']);\nconst a = it.next().value, b = it.next().value;\n" +
        "const plain = t.objects();\nconst same = __sbirtools_rowLoop.rows(plain, ['Phase']);\n" +
        "[Array.isArray(rows), Object.keys(rows[0]), Array.isArray(it), a === b, Object.keys(a), same === plain, __sbirtools_rowLoop.rows(5, ['x'])]",
    );
    expect(r.value).toEqual([true, ['Phase', 'Company'], false, true, ['Phase'], true, 5]);
  });

  it('a declaration only loops read gets an empty array, filled and unbound when it is written back', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      "const t = award_data.filter(d => d.Phase === 'Phase II').select('Phase', 'Company');\n" +
        "const rows = t.objects(__sbirtools_rowLoop.open(['Phase'], ['defer']));\nconst before = rows.length;\n" +
        "const it = __sbirtools_rowLoop.rows(rows, ['Phase']);\nconst first = it.next().value.Phase;\n" +
        'const back = __sbirtools_rowLoop.release(rows);\n' +
        "[before, first, back === rows, rows.length === t.numRows(), Object.keys(rows[1]), __sbirtools_rowLoop.rows(rows, ['Phase']) === rows, __sbirtools_rowLoop.release(5)]",
    );
    expect(r.value).toEqual([0, 'Phase II', true, true, ['Phase', 'Company'], true, 5]);
    const prepared = prepareCode(
      "const rows = award_data.select('Phase').objects();\nlet n = 0;\nfor (const r of rows) n += r.Phase === 'Phase I';\nn",
    ).code;
    expect(prepared).toContain('["defer"]');
    // written back under its name: the rows stay pending on the global (pendingRowsDifferential.test.ts)
    expect(prepared).toContain('__sbirtools_rowLoop.release(rows,"rows")');
  });
});
