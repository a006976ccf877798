// Chains of array methods on `t.array(col)` evaluated on the column's typed data
// (src/runtime/prepare/arrayChains.ts, prelude/fast/arrayChain.ts) change how a chain is evaluated,
// never what it answers: each sequence of runs goes through a real sandbox session twice, rewritten
// and with the rewrite defeated (a comment naming `$sbtRow` turns it off), on both engines; values,
// output, errors with line and column, and what later runs see must be the same. Each step marked
// `rewritten` also checks that the preparation did rewrite it (and the others that it did not).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { ARRAY_CHAIN_GLOBAL } from '../../../schema/arrayChain.js';
import { INSERTED_CLOSE } from '../../../schema/rowLoop.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

type Step = string | { code: string; rewritten: boolean; bound?: boolean; sorted?: boolean; sized?: boolean };
const rw = (code: string): Step => ({ code, rewritten: true });
/** A chain sorted at once through the guest's `by`: the chain itself is handed there (`e(<chain>, 2)`). */
const rws = (code: string): Step => ({ code, rewritten: true, sorted: true });
const SORTED = `, 2${INSERTED_CLOSE}`;
/** A chain whose array only fills `new Set(...)` whose size is read (`e(<chain>, 3)`, arrayChains.ts `setSizeOf`). */
const rwz = (code: string): Step => ({ code, rewritten: true, sized: true });
const SIZED = `, 3${INSERTED_CLOSE}`;
/** A chain bound to a name whose sum reduces read the chain (arrayChains.ts `boundChain`). */
const rwb = (code: string): Step => ({ code, rewritten: true, bound: true });
const BOUND = `${ARRAY_CHAIN_GLOBAL}.r(`;

/** Every value, -0 and NaN told apart, in one string (an array's answer compared whole). */
const SETUP = `var sig = (xs) => xs.map((v) => (Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : typeof v + ':' + String(v))).join(',');
1`;

const SEQUENCES: Record<string, Step[]> = {
  'counts, sums and means over a number column with nulls': [
    rw("award_data.array('Award Amount').filter(a => a > 1e5).length"),
    rw(
      "const a = award_data.array('Award Amount').filter(v => v != null);\n[a.reduce((s, v) => s + v, 0) / a.length, a.length, sig(a.slice(0, 50))]",
    ),
    rw("award_data.array('Award Amount').reduce((s, v) => s + v, 0)"),
    rw(
      "[award_data.array('Award Amount').filter(v => 1e5 < v).length, award_data.array('Number Employees').filter(v => null >= v).length, award_data.array('Award Amount').filter(v => NaN > v).length, award_data.array('Number Employees').filter(v => v <= 1e5 && v > -1).length]",
    ),
    rw("award_data.array('Award Amount').filter(v => v !== null).reduce(function (s, v) { return s + v; }, -0.5)"),
    rw("award_data.array('Award Amount').map(a => a / 1e6).filter(m => m > 0.5).length"),
    rw("sig(award_data.array('Award Amount').map(a => a === null ? -0 : 1 / (a - a)).slice(0, 80))"),
    rw("award_data.array('Number Employees').filter(v => v == undefined).length"),
    rw(
      "award_data.array('Number Employees').filter(v => v !== NaN && v > -Infinity).map(v => -v).reduce((s, v) => s + v, 0)",
    ),
    rw("award_data.array('Award Amount').map(v => v > 1e5 ? 1 : 0).reduce((s, v) => s + v, 0)"),
    rw("award_data.array('Award Amount').map(v => typeof v).filter(t => t !== 'number').length"),
    rw("award_data.array('Award Amount').map(v => v + 'x').filter(s => s.length > 0).length"),
  ],
  'some, every and find': [
    rw("[award_data.array('Award Amount').some(v => v > 1e5), award_data.array('Award Amount').some(v => v > 1e12)]"),
    rw("[award_data.array('Award Amount').every(v => v != null), award_data.array('Award Year').every(v => v > 1900)]"),
    rw("award_data.array('Award Amount').filter(v => v != null).every(v => v >= 0)"),
    rw("[award_data.array('Award Amount').find(v => v > 1e5), award_data.array('Award Amount').find(v => v < -1)]"),
    rw("award_data.array('Phase').map(p => p === 'Phase II' ? 2 : p === null ? -0 : 1).find(x => x !== 2)"),
    rw("award_data.array('Agency').find(a => a === null)"),
    rw("award_data.array('Award Amount').map(v => v + ' dollars').find(s => s > 'x')"),
    "award_data.array('Award Amount').some((v, i) => i > 3)",
  ],
  'arrays made whole, then sorted, spread, put in a Set': [
    rws(
      "const s = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[s.length, s[0], s[s.length - 1], s[(s.length / 2) | 0], Array.isArray(s)]",
    ),
    rw("const y = award_data.array('Award Year').filter(v => v != null);\n[Math.min(...y), Math.max(...y), y.length]"),
    rwz("new Set(award_data.array('Company').filter(c => c != null)).size"),
    rw("sig(award_data.array('Phase').map(p => p === 'Phase II').slice(0, 30))"),
    rw(
      "const ph = award_data.array('Phase').filter(p => p === 'Phase II');\n[ph.length, ph[0], Object.keys(ph).length]",
    ),
    rw("award_data.array('Agency').filter((a) => { return a !== null && a < 'E' }).map(a => a + '!').slice(0, 3)"),
  ],
  // a session keeps the last few chains' results (fast/arrayChain.ts `memo`): the same chain again
  // answers a fresh array equal to the first, whatever was done to the arrays handed out before
  'the same chains again, their arrays changed in between, more chains than are kept': [
    rw("var k1 = award_data.array('Award Amount').filter(v => v != null);\n[k1.length, sig(k1.slice(0, 20))]"),
    rw(
      "k1[0] = 'changed'; k1.length = 3;\nvar k2 = award_data.array('Award Amount').filter(v => v != null);\n[k1 === k2, k1.length, k2.length, sig(k2.slice(0, 20)), k2.reduce((s, v) => s + v, 0)]",
    ),
    rw(
      "k2.reverse(); k2.push('x');\nvar k3 = award_data.array('Award Amount').filter(v => v != null);\n[k3 === k2, k3.length, sig(k3.slice(-20)), Object.keys(k3).length]",
    ),
    rw(
      "[award_data.array('Award Amount').filter(x => x != null).length, award_data.array('Award Amount').filter(v => v !== null).length, award_data.array('Number Employees').filter(v => v != null).length]",
    ),
    rw(
      "[award_data.array('Award Amount').filter(v => v > 1e5).length, award_data.array('Award Amount').filter(v => v > 1e6).length, award_data.array('Award Amount').filter(v => v >  1e6).length, award_data.array('Award Year').filter(v => v > 2010).length]",
    ),
    rw(
      "var k4 = award_data.array('Award Amount').map(a => a / 1e6);\nk4[5] = -0;\nvar k5 = award_data.array('Award Amount').map(a => a / 1e6);\n[k4 === k5, sig(k5.slice(0, 10)), k5.filter(m => m > 0.5).length]",
    ),
    rw(
      "[award_data.array('Award Amount').map(a => a / 1e6).filter(m => m > 2).length, award_data.array('Award Amount').map(a => a / 1e6).filter(m => m > 2).length]",
    ),
    rw("var k6 = award_data.array('Award Amount').filter(v => v != null);\n[k6.length, sig(k6.slice(0, 20))]"),
    rw(
      "sig(award_data.array('Phase').filter(p => p === 'Phase II').slice(0, 5)) + sig(award_data.array('Phase').filter(p => p === 'Phase II').slice(-5))",
    ),
    rw(
      "class Mine2 extends Array {}\nconst keepSpecies2 = Object.getOwnPropertyDescriptor(Array, Symbol.species);\nObject.defineProperty(Array, Symbol.species, { get: () => Mine2, configurable: true });\nlet k8;\ntry { k8 = award_data.array('Award Amount').filter(v => v != null) } finally { Object.defineProperty(Array, Symbol.species, keepSpecies2) }\n[k8 instanceof Mine2, k8.length]",
    ),
    rw(
      "var k9 = award_data.array('Award Amount').filter(v => v != null);\n[k9 === k6, k9.length, sig(k9.slice(0, 20))]",
    ),
  ],
  // `const a = <chain>` read only as `a.length` and `a.reduce((s, v) => s + v, <number>)` (session 17)
  'a chain bound to a name: its sums read from the chain': [
    rwb(
      "const b1 = award_data.array('Award Amount').filter(v => v != null);\n[b1.reduce((s, v) => s + v, 0) / b1.length, b1.reduce((s, v) => s + v, -0), b1.reduce(function (s, v) { return s + v; }, 0.5), b1.length]",
    ),
    '[b1.length, sig(b1.slice(0, 5)), b1.reduce((s, v) => s + v, 0)]',
    // the same chain again: the name holds the session's kept copy during the run, the global a copy of its own
    rwb(
      "const b1 = award_data.array('Award Amount').filter(v => v != null);\nb1.reduce((s, v) => s + v, 0) / b1.length",
    ),
    "b1[0] = 'changed'; b1.length = 3; b1.push(-0);\n[b1.length, sig(b1)]",
    rwb(
      "const b1 = award_data.array('Award Amount').filter(v => v != null);\n[b1.reduce((s, v) => s + v, 0), b1.length]",
    ),
    rw("[sig(b1.slice(0, 8)), b1.length, sig(award_data.array('Award Amount').filter(v => v != null).slice(0, 8))]"),
    rwb("const b1b = award_data.array('Award Amount').filter(v => v != null);\nb1b.reduce((s, v) => s + v, 0)"),
    'b1b.reverse(); sig(b1b.slice(0, 4))',
    rw("const b1c = award_data.array('Award Amount').filter(v => v != null);\n[b1c.length, sig(b1c.slice(0, 4))]"),
    rwb(
      "const b2 = award_data.array('Phase').filter(p => p !== null).map(p => p === 'Phase II' ? 1 : 0);\nb2.reduce((s, v) => s + v, 0) / b2.length",
    ),
    rwb(
      "const b3 = award_data.array('State').filter(s => s === 'Alaska' || s === null);\nb3.reduce((s, v) => s + v, 0)",
    ),
    rwb(
      "const b4 = award_data.array('Award Amount').map(v => v / 7).filter(v => v !== 0);\nb4.reduce((s, v) => s + v, 0)",
    ),
    "const b12 = award_data.array('Award Amount');\nb12.reduce((s, v) => s + v, 0)",
    // the reduce a name's reduce finds is the run's own: as written, the first call and every later one
    // (no `this` in it: a kept function holding `this` keeps every later run's names global, off this
    // path; set after the chain: one set before it keeps the chain as written)
    rw(
      "var keepReduce = Object.getPrototypeOf([]).reduce;\nvar reduces = 0;\nvar patched = function (f, i) { reduces++; return 'patched ' + i };\nvar pre5 = award_data.array('Award Amount').filter(v => v > 1e5);\npre5.length",
    ),
    rwb(
      "const b5 = award_data.array('Award Amount').filter(v => v > 1e5);\nObject.getPrototypeOf([]).reduce = patched;\n[b5.reduce((s, v) => s + v, 0), b5.reduce((s, v) => s + v, 1), reduces, b5.length]",
    ),
    'Object.getPrototypeOf([]).reduce = keepReduce;\n[b5[0], b5.reduce((s, v) => s + v, 0), reduces]',
    rw("sig(award_data.array('Award Amount').filter(v => v > 1e5).slice(0, 6))"),
    rwb(
      "const b8 = award_data.array('Award Amount').filter(v => v != null);\nconst b9 = b8.reduce((s, v) => s + v, 0);\nnull.x",
    ),
    '[b8.length, b9, b8[0]]',
    // any other use of the name, a name in a function, `let`: the chain's array as before, the reduce as written
    rw(
      "const b7 = award_data.array('Award Amount').filter(v => v > 1e5);\nObject.defineProperty(b7, 'reduce', { value: () => 'own' });\nb7.reduce((s, v) => s + v, 0)",
    ),
    rw(
      "const b10 = award_data.array('Award Amount').filter(v => v > 1e5);\nconst f10 = () => b10.length;\n[b10.reduce((s, v) => s + v, 0), f10()]",
    ),
    rw("let b11 = award_data.array('Award Amount').filter(v => v > 1e5);\nb11.reduce((s, v) => s + v, 0)"),
    rw(
      "const b13 = award_data.array('Award Amount').filter(v => v > 1e5);\nb13[0] = 1;\nb13.reduce((s, v) => s + v, 0)",
    ),
    rw("const b14 = award_data.array('Award Amount').filter(v => v > 1e5);\nb14.reduce((s, v) => s * v, 1)"),
    rwb(
      "const b15 = award_data.array('Award Amount').filter(v => v > 1e5);\nb15.reduce((s, v) => s + v, 0) + Math.max(...b15)",
    ),
  ],
  // a kept evaluation keeps its sums by their start, and a lent array's least and greatest
  // (fast/arrayChain.ts `sums`, `lentExtreme`; the spreads wrapped by sortCalls.ts count as uses)
  'a chain bound to a name, asked again: its sums by their start, its least and greatest': [
    ...[1, 2, 3].map(() =>
      rwb(
        "const s1 = award_data.array('Award Amount').filter(v => v > 1e15);\n[Object.is(s1.reduce((s, v) => s + v, -0), -0), Object.is(s1.reduce((s, v) => s + v, 0), -0), s1.reduce((s, v) => s + v, 2)]",
      ),
    ),
    ...[1, 2, 3].map(() =>
      rwb(
        "const s2 = award_data.array('Award Amount').filter(v => v > 1e5);\n[s2.reduce((s, v) => s + v, 0), s2.reduce((s, v) => s + v, 0.5), s2.reduce((s, v) => s + v, -1.5), Math.min(...s2), s2.length]",
      ),
    ),
    ...[1, 2, 3].map(() =>
      rw(
        "const y1 = award_data.array('Award Year').filter(v => v != null);\n[Math.min(...y1), Math.max(...y1), y1.length]",
      ),
    ),
    // the spread runs the run's own iterator (a Proxy, not a function holding `this`, which would keep
    // the names global: it writes into the array) or Math.min: as written, and the array is the run's
    // own from there on; the next runs read the chain again
    rw(
      "const y1 = award_data.array('Award Year').filter(v => v != null);\nconst AP = Object.getPrototypeOf([]);\nconst keepIter = AP[Symbol.iterator];\nAP[Symbol.iterator] = new Proxy(keepIter, { apply: (f, xs, args) => { if (xs.length > 3) { xs[0] = -5; xs[1] = 1e9; } return f.apply(xs, args); } });\nlet got1;\ntry { got1 = [Math.min(...y1), Math.max(...y1)] } finally { AP[Symbol.iterator] = keepIter }\ngot1",
    ),
    '[y1.length, sig(y1.slice(0, 3))]',
    rw(
      "const y1 = award_data.array('Award Year').filter(v => v != null);\n[Math.min(...y1), Math.max(...y1), y1.length]",
    ),
    '[y1.length, sig(y1.slice(0, 3))]',
    rw(
      "const y1 = award_data.array('Award Year').filter(v => v != null);\nconst keepMin = Math.min;\nMath.min = (...xs) => xs.length;\nlet got2;\ntry { got2 = [Math.min(...y1), Math.max(...y1)] } finally { Math.min = keepMin }\ngot2",
    ),
    rw(
      "const y1 = award_data.array('Award Year').filter(v => v != null);\n[Math.min(...y1), Math.max(...y1), y1.length]",
    ),
    // nulls kept (the call reads them as +0), -0 and 0, NaN
    ...[1, 2, 3].map(() =>
      rw(
        "const y2 = award_data.array('Number Employees').filter(v => v == null || v > 3);\nconst y3 = award_data.array('Award Amount').map(v => v === null ? -0 : v - v);\nconst y4 = award_data.array('Award Amount').map(v => v > 1e6 ? NaN : v);\nconst y5 = award_data.array('Award Amount').map(v => v > 5e5 ? v + 1 : v < 2e5 ? null : -v);\n[Math.min(...y2), Math.max(...y2), Object.is(Math.min(...y3), -0), Object.is(Math.max(...y3), -0), Math.max(...y4), Math.min(...y4), Math.min(...y5), Math.max(...y5)]",
      ),
    ),
    '[y1.length, sig(y1.slice(0, 5)), Math.min(...y1), sig(y3.slice(0, 5))]',
    // not bound: `let`, a write, a spread elsewhere
    rw("let y6 = award_data.array('Award Year').filter(v => v != null);\nMath.min(...y6)"),
    rw("const y7 = award_data.array('Award Year').filter(v => v != null);\ny7[0] = 1;\nMath.min(...y7)"),
    rw("const y8 = award_data.array('Award Year').filter(v => v != null);\n[Math.min(...y8, 5), [...y8].length]"),
  ],
  // `new Set(<chain>).size` (session 21): the size read from the chain's evaluation, the Set filled from
  // an empty array, when the Set, its add and size and the array iterator are the session's own
  "the size of a Set of a chain's array": [
    ...[
      "new Set(award_data.array('Company').filter(c => c != null)).size",
      "[new Set(award_data.array('State')).size, new Set(award_data.array('Branch')).size, new Set(award_data.array('Agency').filter(a => a < 'E')).size]",
      "[new Set(award_data.array('Award Amount')).size, new Set(award_data.array('Award Year').filter(y => y > 2010)).size]",
      "new Set(award_data.array('Award Amount').map(v => v === null ? NaN : v > 5e5 ? -0 : v < 1e5 ? 0 : v)).size",
      "new Set(award_data.array('Number Employees').map(v => v === null ? null : v > 50 ? v / 0 : -v / 0)).size",
      "[new Set(award_data.array('Phase').map(p => p === 'Phase II')).size, new Set(award_data.array('Award Amount').filter(v => v > 1e15)).size]",
      "[new Set(award_data.objects().map(r => r.Agency)).size, new Set(award_data.select('Company').objects().map(r => r.Company).filter(c => c !== null)).size]",
      "new Set(award_data.array('Company').filter(c => c != null)).size + new Set(award_data.array('Company').filter(c => c != null)).size\n",
    ].flatMap((c) => [rwz(c), rwz(c)]),
    // Dates (each its own object), long text, a filtered table, a user table: the array made as written
    rwz("new Set(award_data.array('Proposal Award Date').filter(d => d != null)).size"),
    rwz("new Set(award_data.array('Abstract').filter(a => a != null)).size"),
    rwz("const ft = award_data.filter(d => d.Phase === 'Phase I');\nnew Set(ft.array('Company')).size"),
    rwz(
      "const zt = aq.table({ x: Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? null : i % 11 === 0 ? NaN : i % 13 === 0 ? -0 : i % 50)) });\n[new Set(zt.array('x')).size, new Set(zt.array('x').filter(v => v !== 3)).size]",
    ),
    // the run's own add, size getter, array iterator or Set: as written, and the next run reads the chain again
    rwz(
      "const SP = Object.getPrototypeOf(new Set());\nconst keepAdd = SP.add;\nlet adds = 0;\nSP.add = function (v) { adds++; return keepAdd.call(this, v) };\nlet z1;\ntry { z1 = new Set(award_data.array('Phase').filter(p => p != null)).size } finally { SP.add = keepAdd }\n[z1, adds]",
    ),
    rwz(
      "const SP2 = Object.getPrototypeOf(new Set());\nconst keepSize = Object.getOwnPropertyDescriptor(SP2, 'size');\nObject.defineProperty(SP2, 'size', { get() { return 'own ' + keepSize.get.call(this) }, configurable: true });\nlet z2;\ntry { z2 = new Set(award_data.array('Phase').filter(p => p != null)).size } finally { Object.defineProperty(SP2, 'size', keepSize) }\nz2",
    ),
    rwz(
      "const AP = Object.getPrototypeOf([]);\nconst keepIter = AP[Symbol.iterator];\nAP[Symbol.iterator] = function () { return keepIter.call(this.length > 100 ? this.slice(0, 3) : this) };\nlet z3;\ntry { z3 = new Set(award_data.array('Company').filter(c => c != null)).size } finally { AP[Symbol.iterator] = keepIter }\nz3",
    ),
    'var KeepSet = Set;\nSet = class extends KeepSet { add(v) { return super.add(typeof v) } };\n1',
    rwz("new Set(award_data.array('Company').filter(c => c != null)).size"),
    'Set = KeepSet;\n1',
    rwz("new Set(award_data.array('Company').filter(c => c != null)).size"),
    // a Set the program binds, parentheses around the Set, the size written or called: not the size path
    rw(
      "function own(Set) { return new Set(award_data.array('Phase').filter(p => p != null)).size }\nown(class { constructor(xs) { this.size = xs.length } })",
    ),
    rw("(new Set(award_data.array('Phase').filter(p => p != null))).size"),
    rw("new Set(award_data.array('Phase').filter(p => p != null)).size = 5"),
    rw("[...new Set(award_data.array('Phase').filter(p => p != null))].length"),
  ],
  'what the rewrite leaves alone or cannot copy runs as written': [
    "award_data.array('Award Amount').filter(v => v > limit).length",
    "let hits = 0;\naward_data.array('Award Amount').filter(v => { hits++; return v > 1e5 }).length + hits",
    "award_data.array('Award Amount').filter(v => Math.abs(v) > 1e5).length",
    "award_data.array('Award Amount').filter(function (v) { return arguments.length }).length",
    "award_data.array('Award Amount').length",
    "function f(undefined) { return award_data.array('Award Amount').filter(v => v !== undefined).length }\nf(null)",
    "award_data.array('Award Amount')?.filter(v => v > 1).length",
    rw(
      "const t = award_data.filter(d => d['Award Year'] > 2000);\nt.array('Award Amount').filter(v => v != null).length",
    ),
    rw("const few = aq.table({ x: [1, null, 3] });\nfew.array('x').filter(v => v != null).length"),
    rw("sig(award_data.array('Proposal Award Date').filter(d => d != null).slice(0, 3))"),
    rw("award_data.array('Abstract').filter(a => a == null || a === 'N/A').length"),
  ],
  'an array a guest changed, patched methods and species: the chain as written': [
    rw(
      "const keepArray = award_data.array;\naward_data.array = function (c) { const r = keepArray.call(this, c); r[7] = -0; return r };\nsig(award_data.array('Award Amount').map(v => 1 / v).slice(0, 10))",
    ),
    'delete award_data.array\n1',
    rw(
      "const P = Object.getPrototypeOf(award_data);\nconst keepColumn = P.column;\nlet cols = 0;\nP.column = function (n) { cols++; return keepColumn.call(this, n) };\nlet got;\ntry { got = award_data.array('Award Amount').filter(v => v > 1e5).length } finally { P.column = keepColumn }\n[got, cols]",
    ),
    rw(
      "const PP = Object.getPrototypeOf(Object.getPrototypeOf(award_data));\nconst keepTotal = PP.totalRows;\nlet totals = 0;\nPP.totalRows = function () { totals++; return keepTotal.call(this) };\nlet got2;\ntry { got2 = award_data.array('Phase').filter(p => p === 'Phase I').length } finally { PP.totalRows = keepTotal }\n[got2, totals]",
    ),
    rw(
      "award_data.column = (n) => ({ length: 3, at: () => 1 });\nlet got3;\ntry { got3 = award_data.array('Award Amount').filter(v => v > 0).length } finally { delete award_data.column }\ngot3",
    ),
    rw(
      "const seen = award_data.array('Award Amount');\nseen[3] = 'changed';\nconst wrap = { array: () => seen };\nwrap.array('x').filter(v => typeof v === 'string').length",
    ),
    rw(
      "const keepFilter = Object.getPrototypeOf([]).filter;\nObject.getPrototypeOf([]).filter = function () { return ['patched'] };\nlet out;\ntry { out = award_data.array('Award Amount').filter(v => v > 1).length } finally { Object.getPrototypeOf([]).filter = keepFilter }\nout",
    ),
    rw(
      "class Mine extends Array {}\nconst keepSpecies = Object.getOwnPropertyDescriptor(Array, Symbol.species);\nObject.defineProperty(Array, Symbol.species, { get: () => Mine, configurable: true });\nlet made;\ntry { made = award_data.array('Award Amount').filter(v => v > 1) } finally { Object.defineProperty(Array, Symbol.species, keepSpecies) }\n[made instanceof Mine, made.length]",
    ),
  ],
  // `<expr>.objects().map(r => r.F)` (rowChains.ts `pluck`) starts a chain as `t.array(F)` does
  'chains on the values of objects().map(r => r.F)': [
    rws(
      "const med = award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).sort((x, y) => x - y);\n[med.length, med[0], med[med.length >> 1], med[med.length - 1], Array.isArray(med)]",
    ),
    rw(
      "[award_data.objects().map(r => r.Phase).filter(p => p === 'Phase II').length, award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v > 1e6).map(v => v / 1e6).reduce((s, v) => s + v, 0), award_data.objects().map(r => r['Number Employees']).some(v => v > 400), award_data.objects().map(r => r['Number Employees']).find(v => v > 100)]",
    ),
    rw(
      "sig(award_data.select('Award Amount').objects().map(r => r['Award Amount']).map(v => v === null ? -0 : v / 0).filter(v => v !== 1).slice(0, 40))",
    ),
    // filtered and ordered tables, dates, a user table: the plucked array is not the column's
    rw(
      "[award_data.filter(d => d.Phase === 'Phase I').objects().map(r => r['Award Amount']).filter(v => v > 1e5).length, award_data.orderby('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).slice(0, 3), award_data.objects().map(r => r['Proposal Award Date']).filter(d => d !== null).length]",
    ),
    rw(
      'const u = aq.table({ x: Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? null : i % 11 === 0 ? NaN : i % 13 === 0 ? -0 : i - 1500)) });\nsig(u.objects().map(r => r.x).filter(v => v !== 5 && v < 0))',
    ),
    // side effects and reads of more than the value: the methods as written
    "let calls = 0;\nconst big = award_data.objects().map(r => r['Award Amount']).filter(v => { calls++; return v > 1e6 });\n[big.length, calls]",
    rw(
      "const keepFilterP = Object.getPrototypeOf([]).filter;\nObject.getPrototypeOf([]).filter = function () { return ['patched'] };\nlet outP;\ntry { outP = award_data.objects().map(r => r['Award Amount']).filter(v => v > 1).length } finally { Object.getPrototypeOf([]).filter = keepFilterP }\noutP",
    ),
    rw(
      "const keepMapP = Object.getPrototypeOf([]).map;\nlet mapsP = 0;\nObject.getPrototypeOf([]).map = function (f) { mapsP++; return keepMapP.call(this, f) };\nlet outM;\ntry { outM = award_data.objects().map(r => r['Award Amount']).filter(v => v > 1).length } finally { Object.getPrototypeOf([]).map = keepMapP }\n[outM, mapsP]",
    ),
  ],
  // a chain sorted at once by `(a, b) => a - b` / `b - a` (session 20): the sort is kept with the chain's
  // evaluation and a repeat answers a fresh copy of it; each program runs twice (the second is the kept one)
  'chains sorted at once, and again': [
    ...[
      "const a = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2, a.length, sig(a.slice(0, 30)), sig(a.slice(-30))]",
      "const d = award_data.array('Award Amount').filter(v => v > 1e5).sort((p, q) => q - p);\n[d.length, sig(d.slice(0, 30)), sig(d.slice(-30)), Array.isArray(d)]",
      "const e = award_data.array('Number Employees').map(v => v === null ? 7 : v * 2).sort(function (a, b) { return a - b; });\n[e.length, sig(e.slice(0, 20)), sig(e.slice(-20))]",
      // -0 and 0 among the values: the sort is stable, each keeps its place among the equal ones
      "const z = award_data.array('Award Amount').filter(v => v != null).map(v => v > 5e5 ? -0 : v < 1e5 ? 0 : v).sort((a, b) => a - b);\n[z.length, sig(z.slice(0, 300))]",
      // nulls, NaN and strings: no kept sort (its elements are not all numbers), the same answer
      "const n = award_data.array('Award Amount').map(v => v).sort((a, b) => a - b);\n[n.length, sig(n.slice(0, 20)), sig(n.slice(-20))]",
      "const nn = award_data.array('Award Amount').map(v => v === null ? NaN : v).sort((a, b) => b - a);\n[nn.length, sig(nn.slice(0, 20)), sig(nn.slice(-20))]",
      "const ph = award_data.array('Phase').filter(p => p != null).sort((a, b) => a - b);\n[ph.length, sig(ph.slice(0, 10)), sig(ph.slice(-10))]",
      "const pl = award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).sort((x, y) => x - y);\n[pl.length, pl[pl.length >> 1], sig(pl.slice(-10))]",
    ].flatMap((c) => [rws(c), rws(c)]),
    // the same chain the other way
    rws(
      "const dd = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => y - x);\n[dd.length, sig(dd.slice(0, 5)), sig(dd.slice(-5))]",
    ),
    // the sorted array is the run's own: written, cut and pushed, the next sort of the same chain does not see it
    rws(
      "const w = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nw[0] = 'written'; w.reverse(); w.length = 5; w.push(-0);\nsig(w)",
    ),
    rws(
      "const w2 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[w2.length, sig(w2.slice(0, 5)), sig(w2.slice(-5))]",
    ),
    // a sort replaced on Array.prototype: the run's sort on the chain's array, asked again while it is replaced
    ...[0, 1].map(() =>
      rws(
        "const AP = Object.getPrototypeOf([]);\nconst keepSort = AP.sort;\nlet sorts = 0;\nAP.sort = function (c) { sorts++; return keepSort.call(this, c); };\nlet rs;\ntry { rs = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y); } finally { AP.sort = keepSort; }\n[sorts, rs.length, sig(rs.slice(0, 5))]",
      ),
    ),
    rws(
      "const AP2 = Object.getPrototypeOf([]);\nconst keepSort2 = AP2.sort;\nAP2.sort = function (c) { return 'own'; };\nlet rs2;\ntry { rs2 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y); } finally { AP2.sort = keepSort2; }\nrs2",
    ),
    // a sort by a key, a slice in between, a name in between: the sorts of before (no chain handed to `by`)
    rw(
      "const sl = award_data.array('Award Amount').filter(v => v != null).slice().sort((x, y) => x - y);\n[sl.length, sig(sl.slice(0, 5))]",
    ),
    rw(
      "const nm = award_data.array('Award Amount').filter(v => v != null);\nnm[0] = -1;\nnm.sort((x, y) => x - y);\n[nm.length, sig(nm.slice(0, 5))]",
    ),
  ],
  'errors keep their message, line and column': [
    rw("award_data.array('No Such Column').filter(v => v > 1).length"),
    rw('const mine = { objects() { return { map: () => 5 } } };\nmine.objects().map(r => r.x).filter(v => v).length'),
    rw(
      'const mine2 = { objects: () => [{ x: 1 }, { x: null }] };\nmine2.objects().map(r => r.x).filter(v => v).length',
    ),
    rw('[1, 2].objects().map(r => r.x).filter(v => v).length'),
    rw('award_data.array(42).filter(v => v > 1).length'),
    rw("const q = 5;\nq.array('x').filter(v => v).length"),
    rw("let u;\nu.array('x').filter(v => v).length"),
    rw("const nested = { t: { array: 1 } };\nnested.t.array('x').map(v => v)"),
    rw("const o = { array: () => 5 };\no.array('x').filter(v => v).length"),
    rw("const p = { array: () => null };\np.array('x').filter(v => v).length"),
    rw("award_data.array('Phase').filter(p => p === 'Phase I')()"),
    rw("award_data.array('Award Amount').reduce((s, v) => s + v, 0)()"),
    // the run's Set no constructor, or its size called: V8 names the expression as written
    rwz(
      "var KeepSet2 = Set;\nSet = 5;\ntry { new Set(award_data.array('Phase').filter(p => p != null)).size } finally { Set = KeepSet2 }",
    ),
    rw("new Set(award_data.array('Phase').filter(p => p != null)).size()"),
    // a text feature of the value is rewritten (a long text column reads it from the host) and replayed here
    rw("award_data.array('Award Amount').filter(v => v.length > 1).length"),
  ],
  'async code, lines without semicolons, functions a later run calls': [
    rw("await 0;\naward_data.array('Award Amount').filter(v => v != null).length"),
    rw("const z = 1\naward_data.array('Award Amount').filter(v => v > 1e5).length"),
    rw("function big(t, min) { return t.array('Award Amount').filter(v => v > 1e5).length + min }\nbig(award_data, 1)"),
    'big(award_data, 2)',
    rw("const r = await Promise.resolve(award_data.array('Award Year').filter(v => v > 2010));\nr.length"),
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('chains on t.array(col) on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the chains as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const box of [rewritten, plain]) expect((await box.run(SETUP)).ok).toBe(true);
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      const prepared = prepareCode(code).code;
      expect(prepared.includes(ARRAY_CHAIN_GLOBAL), code).toBe(typeof step !== 'string' && step.rewritten);
      expect(prepared.includes(BOUND), code).toBe(typeof step !== 'string' && step.bound === true);
      expect(prepared.includes(SORTED), code).toBe(typeof step !== 'string' && step.sorted === true);
      expect(prepared.includes(SIZED), code).toBe(typeof step !== 'string' && step.sized === true);
      expect(prepareCode(asWritten(code)).code, 'the reference is not rewritten').not.toContain(ARRAY_CHAIN_GLOBAL);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      // the policy check refuses before anything runs: a step it refuses would compare nothing
      expect(a.ok || a.error.type !== 'POLICY_VIOLATION', code).toBe(true);
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('the guest records the chain on V8 and hands the array back on QuickJS', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      "const xs = award_data.array('Award Amount');\nconst c = __sbirtools_chain.a(xs);\n[c === xs, __sbirtools_chain.a([1, 2]) !== null, __sbirtools_chain.e(5)]",
    );
    expect(r.value).toEqual([engine === 'quickjs', true, 5]);
  });
});

describe('chains on objects().map(r => r.F): the guest takes the path', () => {
  it('records a chain for the values of every row of an unfiltered table, never for a filtered one', async () => {
    await using box = byHand(await createSandbox({ engine: 'isolated-vm' }));
    const pluck = (t: string) =>
      `__sbirtools_chain.a(${t}.objects(__sbirtools_rowLoop.open(['Award Amount'], ['pluck'])).map(r => r['Award Amount']))`;
    const r = await box.run(
      `[Array.isArray(${pluck('award_data')}), Array.isArray(${pluck("award_data.select('Award Amount')")}), ` +
        `Array.isArray(${pluck("award_data.filter(d => d.Phase === 'Phase I')")}), Array.isArray(${pluck("award_data.orderby('Award Amount')")})]`,
    );
    expect(r.value).toEqual([false, false, true, true]);
  });

  it('is planned only for a map that reads one field', () => {
    for (const code of [
      't.objects().map(r => r.x).filter(v => v).length',
      "t.select('a b').objects().map(r => r['a b']).filter(v => v > 1).sort()",
    ])
      expect(prepareCode(code).code, code).toContain(`${ARRAY_CHAIN_GLOBAL}.a(`);
    for (const code of [
      't.objects().map(r => r.x + 1).filter(v => v).length',
      't.objects().map((r, i) => r.x).filter(v => v).length',
      't.objects().map(r => r.x).filter(v => f(v)).length',
      'rows.map(r => r.x).filter(v => v).length',
    ])
      expect(prepareCode(code).code, code).not.toContain(ARRAY_CHAIN_GLOBAL);
  });
});

describe('planArrayChains: the text it inserts', () => {
  const strip = (s: string) => s.replace(/\/\*\$sbtRow<\*\/.*?\/\*>\$sbtRow\*\//g, '');
  it('inserts text only, inside the wrapper of a sort at the same place; a receiver holding a call is left alone', () => {
    const code =
      "const a = award_data.array('A').filter(v => v != null).sort((x, y) => x - y);\n" +
      "[a, tableOf(1).array('B').filter(v => v).length, award_data.array('C').map(v => -v).length]";
    const out = prepareCode(code).code;
    expect(out).toContain(`__sbirtools_sort.by(/*>$sbtRow*//*$sbtRow<*/${ARRAY_CHAIN_GLOBAL}.e(`);
    expect(out).toContain("tableOf(1).array('B').filter(v => v).length");
    expect(out).toContain(`${ARRAY_CHAIN_GLOBAL}.t(/*>$sbtRow*/award_data/*$sbtRow<*//*=chain-t:award_data*/))`);
    expect(strip(out)).toBe(strip(prepareCode(`${code} // $sbtRow`).code).replace(' // $sbtRow', ''));
  });

  it('hands the sort helper the chain itself only where it wraps the sort, and a pluck a chain only under a(...)', () => {
    const sorted = (code: string) => prepareCode(code).code.includes(', 2/*>$sbtRow*/');
    expect(sorted("award_data.array('A').filter(v => v != null).sort((x, y) => x - y)")).toBe(true);
    expect(sorted("award_data.array('A').map(v => v * 2).sort(function (x, y) { return y - x; })")).toBe(true);
    // a key, another comparator, a slice between, a name, `?.`: no chain handed on
    expect(sorted("award_data.array('A').filter(v => v).sort((x, y) => x[0] - y[0])")).toBe(false);
    expect(sorted("award_data.array('A').filter(v => v).sort((x, y) => x - y || 1)")).toBe(false);
    expect(sorted("award_data.array('A').filter(v => v).slice().sort((x, y) => x - y)")).toBe(false);
    expect(sorted("const f = award_data.array('A').filter(v => v);\nf.sort((x, y) => x - y)")).toBe(false);
    expect(sorted("award_data.array('A').filter(v => v)?.sort((x, y) => x - y)")).toBe(false);
    const chained = (code: string) => prepareCode(code).code.includes('["pluck"], 1)');
    expect(chained('award_data.objects().map(r => r.A).filter(v => v != null).length')).toBe(true);
    expect(chained('const p = award_data.objects().map(r => r.A);\np.length')).toBe(false);
    expect(chained('award_data.objects().map(r => r.A).slice(0, 3)')).toBe(false);
  });
});
