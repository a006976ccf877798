// Hand-written sorts and Math.min/max spreads through the guest's fast paths
// (src/runtime/prepare/sortCalls.ts, prelude/fast/handSort.ts) change how a call is evaluated, never
// what it answers: each sequence of runs goes through a real sandbox session twice, rewritten and with
// the rewrite defeated (a comment naming `$sbtRow` turns it off), on both engines; values, output,
// errors with line and column, and what later runs see must be the same. The arrays are long enough
// for the fast paths (HAND_SORT_MIN_LENGTH, HAND_SPREAD_MIN_LENGTH); each step marked `rewritten`
// also checks that the preparation did rewrite it.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import {
  HAND_SORT_MEMO_MIN_LENGTH,
  HAND_SORT_MIN_LENGTH,
  HAND_SPREAD_MAX_LENGTH,
  HAND_SPREAD_MIN_LENGTH,
} from '../../../schema/handSort.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

type Step = string | { code: string; rewritten: boolean };
const rw = (code: string): Step => ({ code, rewritten: true });

/** A seeded generator every sequence starts with (the same numbers in both sessions). */
const SETUP = `var N = ${HAND_SORT_MIN_LENGTH + 904}, M = ${HAND_SPREAD_MIN_LENGTH + 500}, L = ${HAND_SORT_MEMO_MIN_LENGTH + 123};
var seed = 7; var rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
var sig = (xs) => xs.map((v) => (Object.is(v, -0) ? '-0' : typeof v === 'number' ? v : typeof v + ':' + String(v))).join(',');
1`;

const SEQUENCES: Record<string, Step[]> = {
  'numbers ascending and descending, duplicates, -0 and 0, infinities and extremes': [
    rw(
      'const a = Array.from({ length: N }, () => Math.round(rnd() * 2000) / 8 - 100);\nconst r = a.sort((x, y) => x - y);\n[r === a, sig(a)]',
    ),
    rw('const d = Array.from({ length: N }, () => Math.floor(rnd() * 50));\nsig(d.sort((x, y) => y - x))'),
    rw(
      'const z = Array.from({ length: N }, (_, i) => [0, -0, 1, -1, -0, 0, Infinity, -Infinity, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE][i % 12]);\n[sig(z.slice().sort((a, b) => a - b)), sig(z.sort(function (a, b) { return b - a; }))]',
    ),
    rw(
      'const ints = Array.from({ length: N }, (_, i) => (i * 7919) % 1000 - 500);\nsig(ints.sort((a, b) => { return a - b }))',
    ),
  ],
  'numbers by value: whole numbers, hundredths, wide spans, -0, and the sorts the session keeps': [
    rw(
      'const cents = Array.from({ length: L }, () => Math.round(rnd() * 2e8) / 100 - 5e5);\n[sig(cents.slice().sort((a, b) => a - b)), sig(cents.sort((a, b) => b - a))]',
    ),
    rw(
      'const wide = Array.from({ length: N }, (_, i) => (i % 3 ? 1e12 : -1e12) + ((i * 7919) % 5000));\n[sig(wide.slice().sort((a, b) => a - b)), sig(wide.sort((a, b) => b - a))]',
    ),
    rw(
      'const inexact = Array.from({ length: N }, (_, i) => (i % 10) / 10 + 0.2 + ((i * 31) % 7));\nsig(inexact.sort((a, b) => a - b))',
    ),
    rw(
      'const onlyInf = Array.from({ length: N }, (_, i) => (i % 2 ? Infinity : -Infinity));\n[sig(onlyInf.slice().sort((a, b) => a - b)), sig(Array.from({ length: N }, () => Infinity).sort((a, b) => a - b).slice(0, 3))]',
    ),
    rw(
      'const zc = Array.from({ length: L }, (_, i) => (i % 97 === 0 ? (i % 2 ? -0 : 0) : Math.round(rnd() * 1e4) / 100));\n[sig(zc.slice().sort((a, b) => b - a)), sig(zc.slice().sort((a, b) => a - b))]',
    ),
    rw(
      'const sub2 = Array.from({ length: L }, (_, i) => (i % 5) * 2 ** 32 + (i % 7) / 4);\nsig(sub2.sort((a, b) => a - b))',
    ),
    // the same numbers sorted again (kept by the session), then with one changed, then the other way
    rw(
      'var again = () => Array.from({ length: L }, (_, i) => ((i * 7919) % 20011) / 100);\nsig(again().sort((a, b) => a - b))',
    ),
    rw('sig(again().sort((a, b) => a - b))'),
    rw('const changed = again(); changed[L - 1] = -0.01;\nsig(changed.sort((a, b) => a - b))'),
    rw('sig(again().sort((a, b) => b - a))'),
    rw(
      'const one0 = again(); one0[9] = -0;\n[sig(one0.slice().sort((a, b) => a - b)), sig(one0.sort((a, b) => a - b))]',
    ),
    // keyed sorts of the same keys and other elements: the kept order, the new elements
    rw(
      "var ents = (tag) => Array.from({ length: L }, (_, i) => [tag + i, (i * 13) % 101]);\nents('a').sort((p, q) => q[1] - p[1]).slice(0, 30).map((p) => p[0]).join(' ')",
    ),
    rw("ents('b').sort((p, q) => q[1] - p[1]).slice(0, 30).map((p) => p[0]).join(' ')"),
    rw("ents('c').sort((p, q) => p[1] - q[1]).slice(-30).map((p) => p[0]).join(' ')"),
    rw(
      "const amt2 = award_data.array('Award Amount').filter((v) => v != null).sort((x, y) => y - x);\n[amt2.length, amt2[0], amt2[amt2.length - 1], amt2[(amt2.length / 3) | 0]]",
    ),
  ],
  'keyed sorts are stable: entries, objects, string keys, equal keys keep their order': [
    rw(
      "const e = Array.from({ length: N }, (_, i) => ['k' + i, Math.floor(rnd() * 10)]);\ne.sort((a, b) => b[1] - a[1]).map((p) => p[0]).join(' ')",
    ),
    rw(
      'const o = Array.from({ length: N }, (_, i) => ({ id: i, amount: i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : Math.floor(rnd() * 4) }));\no.sort((a, b) => a.amount - b.amount).map((x) => x.id + (Object.is(x.amount, -0) ? "-" : "")).join(" ")',
    ),
    rw(
      "const w = Array.from({ length: N }, (_, i) => ({ 'Award Amount': (i * 31) % 97, n: i }));\nw.sort((p, q) => q['Award Amount'] - p['Award Amount']).slice(0, 50).map((x) => x.n)",
    ),
    rw(
      'const lens = Array.from({ length: N }, (_, i) => "x".repeat(i % 13).split(""));\nlens.sort((a, b) => a.length - b.length).map((x) => x.length).join("")',
    ),
    rw(
      'const nul = Array.from({ length: N }, (_, i) => Object.assign(Object.create(null), { v: (i * 13) % 7 }));\nnul.sort((a, b) => a.v - b.v).map((x) => x.v).join("")',
    ),
  ],
  'what the fast path cannot copy runs as the native sort: NaN, strings, undefined, holes, mixed': [
    rw(
      'const nan = Array.from({ length: N }, (_, i) => (i % 17 === 0 ? NaN : (i * 37) % 101));\nsig(nan.sort((a, b) => a - b))',
    ),
    rw('const s = Array.from({ length: N }, (_, i) => String((i * 7) % 23));\nsig(s.sort((a, b) => a - b))'),
    rw(
      'const u = Array.from({ length: N }, (_, i) => (i % 9 === 0 ? undefined : (i * 11) % 29));\ndelete u[5]; delete u[77]; u.length += 3;\nconst keys = Object.keys(u).length;\nu.sort((a, b) => b - a);\n[keys, Object.keys(u).length, u.indexOf(undefined), u.length, 5 in u, sig(u.slice(0, 40)), u.lastIndexOf(undefined)]',
    ),
    rw(
      "const mix = Array.from({ length: N }, (_, i) => (i === 100 ? null : i === 200 ? true : i === 300 ? '3' : i === 400 ? [4] : (i * 3) % 41));\nsig(mix.sort((a, b) => a - b))",
    ),
    rw(
      "const ke = Array.from({ length: N }, (_, i) => [i, i % 50 === 0 ? '7' : i % 51 === 0 ? undefined : (i * 17) % 43]);\nke.sort((a, b) => a[1] - b[1]).map((p) => p[0]).join(' ')",
    ),
    rw(
      'const sub = Array.from({ length: N }, (_, i) => (i * 5) % 19);\nclass A extends Array {}\nconst sa = A.from(sub);\n[sig(sa.sort((a, b) => a - b).slice(0, 30)), sa instanceof A]',
    ),
    rw(
      'const ta = Float64Array.from({ length: N }, (_, i) => (i * 5) % 19 - 0.5);\nArray.from(ta.sort((a, b) => b - a).slice(0, 30))',
    ),
  ],
  'getters, valueOf and prototypes see the same calls, in the same order': [
    rw(
      "let reads = 0;\nconst g = Array.from({ length: N }, (_, i) => (i % 100 === 0 ? { get v() { reads++; return i % 7 } } : { v: i % 7, i }));\ng.sort((a, b) => a.v - b.v);\n[reads, g.slice(0, 20).map((x) => x.i ?? 'g')]",
    ),
    rw(
      "let calls = 0;\nconst vo = Array.from({ length: N }, (_, i) => (i === 3 ? { valueOf() { calls++; return 5 } } : (i * 3) % 11));\nvo.sort((a, b) => a - b);\n[calls, sig(vo.filter((x) => typeof x === 'number').slice(0, 30))]",
    ),
    rw(
      'let got = 0;\nconst ga = Array.from({ length: N }, (_, i) => (i * 7) % 13);\nObject.defineProperty(ga, 10, { get() { got++; ga.length = N; return 4 }, set(v) { got += 100 }, configurable: true });\nga.sort((a, b) => a - b);\n[got, sig(ga.slice(0, 12))]',
    ),
    rw(
      "const own = Array.from({ length: N }, (_, i) => (i * 3) % 7);\nown.sort = function (c) { return 'own sort' };\nown.sort((a, b) => a - b)",
    ),
    rw(
      "const keep = Array.prototype.sort;\nArray.prototype.sort = function (c) { return 'replaced' };\nlet out;\ntry { out = Array.from({ length: N }, (_, i) => i % 5).sort((a, b) => a - b) } finally { Array.prototype.sort = keep }\nout",
    ),
  ],
  'errors: receivers without a native sort, comparators that throw, frozen arrays': [
    rw('const big = Array.from({ length: N }, (_, i) => (i === 2000 ? 3n : i % 9));\nbig.sort((a, b) => a - b)'),
    rw(
      'const en = Array.from({ length: N }, (_, i) => (i === 99 ? null : [i, i % 4]));\nen.sort((a, b) => b[1] - a[1])',
    ),
    rw("award_data['Award Amount'].sort((a, b) => a - b)"),
    rw('const fr = Object.freeze(Array.from({ length: N }, (_, i) => N - i));\nfr.sort((a, b) => a - b)'),
    rw('let nothing;\nnothing.sort((a, b) => a - b)'),
    rw("'a string'.sort((a, b) => a - b)"),
    // V8 names the receiver in the message: the user's expression, never the helper
    rw("const box2 = { 'x y': { n: 1 }, f() { return {} } };\nbox2['x y'].sort((a, b) => a.n - b.n)"),
    rw('box2.f(1).sort(function (a, b) { return b - a })'),
    rw('new Map().sort((a, b) => a - b)'),
    rw('`tpl`.sort((a, b) => a - b)'),
    rw('this.sort((a, b) => a - b)'),
    rw('const lst = [1, 2];\nlst.length.sort((a, b) => a - b)'),
    rw('let un;\nMath.min(...un)'),
    rw('const ob = {};\nMath.max(1, 2) + Math.max(...ob)'),
    rw('const num = 5;\n[Math.min(...lst), Math.min(...num)]'),
    'typeof big === "object" ? [big.length, en.length] : 0',
  ],
  'small arrays, award data, async code and functions called by a later run': [
    rw('const few = [3, 1, -0, 0, 2];\nsig(few.sort((a, b) => a - b))'),
    // lines without semicolons: what is inserted must not continue the line before
    rw(
      'const asi = Array.from({ length: N }, (_, i) => i % 7)\nasi.sort((a, b) => b - a)\nconst asi2 = asi.slice()\n// note;\nasi2.sort((a, b) => a - b)\n;[asi[0], asi2[0]]',
    ),
    rw('let nul = null\nnul.sort((a, b) => a - b)'),
    rw(
      "const byCo = {};\nfor (const c of award_data.array('Company')) byCo[c] = (byCo[c] || 0) + 1;\nObject.entries(byCo).sort((a, b) => b[1] - a[1]).slice(0, 5)",
    ),
    rw(
      "const amt = award_data.array('Award Amount').filter((v) => v != null).sort((x, y) => x - y);\n[amt.length, amt[0], amt[amt.length - 1], amt[(amt.length / 2) | 0]]",
    ),
    rw(
      'const later = await Promise.resolve(Array.from({ length: N }, (_, i) => (i * 11) % 31));\nsig(later.sort((a, b) => b - a).slice(0, 40))',
    ),
    rw(
      'function top(xs, k) { return xs.sort((a, b) => b.s - a.s).slice(0, k).map((x) => x.id) }\ntop(Array.from({ length: N }, (_, i) => ({ id: i, s: i % 10 })), 3)',
    ),
    'top(Array.from({ length: N }, (_, i) => ({ id: i, s: (i * 7) % 10 })), 12)',
  ],
  'Math.min and Math.max of a spread array': [
    rw(
      'const ys = Array.from({ length: M }, () => 1980 + Math.floor(rnd() * 45));\n[Math.min(...ys), Math.max(...ys)]',
    ),
    rw(
      'const zs = Array.from({ length: M }, (_, i) => (i % 2 ? 0 : -0));\n[Object.is(Math.min(...zs), -0), Object.is(Math.max(...zs), -0)]',
    ),
    rw(
      'const pz = Array.from({ length: M }, () => 0); pz[700] = -0;\n[Object.is(Math.min(...pz), -0), Object.is(Math.max(...pz), 0)]',
    ),
    rw('const ns = Array.from({ length: M }, (_, i) => i); ns[900] = NaN;\n[Math.min(...ns), Math.max(...ns)]'),
    rw(
      "const st = Array.from({ length: M }, (_, i) => i + 5); st[3] = '2'; st[8] = null;\n[Math.min(...st), Math.max(...st)]",
    ),
    rw('const un = Array.from({ length: M }, (_, i) => i); un[10] = undefined;\nMath.max(...un)'),
    rw('const ho = Array.from({ length: M }, (_, i) => i); delete ho[4];\nMath.min(...ho)'),
    rw(
      'let vcalls = 0;\nconst vv = Array.from({ length: M }, (_, i) => (i === 600 ? { valueOf() { vcalls++; return -3 } } : i));\n[Math.min(...vv), vcalls]',
    ),
    rw(
      'let gets = 0;\nconst gg = Array.from({ length: M }, (_, i) => i + 1);\nObject.defineProperty(gg, 3, { get() { gets++; gg.push(-7); return 2 } });\n[Math.min(...gg), gets, gg.length]',
    ),
    rw(
      "let gets2 = 0;\nconst g2 = Array.from({ length: M }, (_, i) => i + 1);\nObject.defineProperty(g2, 5, { get() { gets2++; return 'x' } });\n[Math.max(...g2), gets2]",
    ),
    rw("const sy = Array.from({ length: M }, (_, i) => i); sy[50] = Symbol('s');\nMath.min(...sy)"),
    rw('const fl = Float64Array.from({ length: M }, (_, i) => i - 3);\n[Math.min(...fl), Math.max(...fl)]'),
    rw('const it = new Set(Array.from({ length: M }, (_, i) => i));\nMath.max(...it)'),
    // the scan's buffer is the session's: a shorter array after a longer one reads only its own values
    rw('const long1 = Array.from({ length: 4 * M }, (_, i) => i - 9);\n[Math.min(...long1), Math.max(...long1)]'),
    rw(
      "const late = Array.from({ length: 4 * M }, (_, i) => 100 - i); late[3 * M] = '7';\nconst short1 = Array.from({ length: M }, (_, i) => 100 + i); short1[700] = 'x';\n[Math.min(...late), Math.max(...late), Math.min(...short1), Math.max(...short1.slice(0, 700))]",
    ),
    rw(
      'let grew = 0;\nconst gr = Array.from({ length: M }, (_, i) => i + 3);\nObject.defineProperty(gr, 1, { get() { if (!grew++) for (let k = 0; k < 3 * M; k++) gr.push(-k); return 1 } });\n[Math.min(...gr), grew, gr.length]',
    ),
  ],
  'Math.min replaced or shadowed: the call runs as written': [
    rw(
      'const mm = Array.from({ length: M }, (_, i) => i);\nconst keepMin = Math.min;\nMath.min = (...a) => a.length;\nlet got;\ntry { got = Math.min(...mm) } finally { Math.min = keepMin }\n[got, Math.min(...mm)]',
    ),
    rw(
      'const ms = Array.from({ length: M }, (_, i) => i);\nconst keepIt = Array.prototype[Symbol.iterator];\nArray.prototype[Symbol.iterator] = function* () { yield 42 };\nlet seen;\ntry { seen = Math.max(...ms) } finally { Array.prototype[Symbol.iterator] = keepIt }\nseen',
    ),
    'class Math { static min(...a) { return "mine " + a.length } static max() { return "max" } }\n1',
    rw('const after = Array.from({ length: M }, (_, i) => i);\n[Math.min(...after), Math.max(...after)]'),
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('hand-written sorts and min/max on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the calls as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const box of [rewritten, plain]) expect((await box.run(SETUP)).ok).toBe(true);
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      const isRewritten = prepareCode(code).code.includes('__sbirtools_sort');
      expect(isRewritten, code).toBe(typeof step !== 'string' && step.rewritten);
      expect(prepareCode(asWritten(code)).code, 'the reference is not rewritten').not.toContain('__sbirtools_sort');
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('the guest takes the fast paths on V8 (no comparator call, no spread), none on QuickJS', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      `const xs = Array.from({ length: ${HAND_SORT_MIN_LENGTH} }, (_, i) => (i * 7) % 11);\n` +
        "let out;\ntry { out = __sbirtools_sort.by(xs, 1).sort(() => { throw new Error('the comparator was called') }) } catch (e) { out = e.message }\n" +
        `const ys = Array.from({ length: ${HAND_SPREAD_MIN_LENGTH} }, (_, i) => i - 5);\n` +
        '[out === xs, xs[0], xs[xs.length - 1], __sbirtools_sort.min(ys), __sbirtools_sort.max(ys) === ys]',
    );
    // QuickJS interprets: the radix sort and the scan lose to the native calls, which run as written
    expect(r.value).toEqual(
      engine === 'quickjs'
        ? [
            false,
            0,
            ((HAND_SORT_MIN_LENGTH - 1) * 7) % 11,
            Array.from({ length: HAND_SPREAD_MIN_LENGTH }, (_, i) => i - 5),
            true,
          ]
        : [true, 10, 0, [-5], false],
    );
    // below the threshold, or not an array: the argument comes back and the call runs as written
    const back = await box.run(
      'const s3 = [3, 1]; [__sbirtools_sort.by(s3, 0) === s3, __sbirtools_sort.min(s3) === s3]',
    );
    expect(back.value).toEqual([true, true]);
    const replaced = await box.run('__sbirtools_sort = 1; typeof __sbirtools_sort');
    expect(replaced.value).toBe('object');
  });

  it('a spread of more elements than a call takes throws its RangeError, rewritten or not', async () => {
    await using box = await createSandbox({ engine, memoryLimitMb: 1024 });
    // QuickJS takes at most 65,534 arguments; V8 runs out of stack near a million from the top level
    const n = engine === 'quickjs' ? 70_000 : 3_000_000;
    const code = `const many = Array.from({ length: ${n} }, (_, i) => i % 1000 - 1);\n[Math.min(...many), Math.max(...many)]`;
    expect(prepareCode(code).code).toContain('__sbirtools_sort.min(');
    const [fast, plain] = [await box.run(code), await box.run(asWritten(code))];
    expect(plain.error?.name).toBe('RangeError');
    expect(runOutcome(fast)).toEqual(runOutcome(plain));
    // elements that are not all numbers: the spread as written, and its RangeError
    const mixed = await box.run(`${code.replace('i % 1000 - 1', "i === 5 ? '5' : i")}`);
    expect(mixed.error?.name).toBe('RangeError');
  });

  it('the scan answers up to HAND_SPREAD_MAX_LENGTH elements; past it the spread runs as written', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      `const at = Array.from({ length: ${HAND_SPREAD_MAX_LENGTH} }, (_, i) => (i * 11) % 1000 - 3);\n` +
        `const past = Array.from({ length: ${HAND_SPREAD_MAX_LENGTH + 1} }, (_, i) => i);\n` +
        '[__sbirtools_sort.min(at), __sbirtools_sort.max(at), __sbirtools_sort.min(past) === past, Math.min(...at), Math.max(...past)]',
    );
    // QuickJS: the native call wins every time, and refuses both lengths ("too many arguments")
    if (engine === 'quickjs') expect(r.error?.name).toBe('RangeError');
    else expect(r.value).toEqual([[-3], [996], true, -3, HAND_SPREAD_MAX_LENGTH]);
  });
});
