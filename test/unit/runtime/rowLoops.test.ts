// Which row loops and array-method chains on objects() are read without rows (src/runtime/prepare/rowLoops.ts, rowChains.ts): the analysis that the row
// never escapes, with one negative case per way it could, and the shape of the rewrite (inserted
// text only, between markers; every line kept). What the runs answer is checked against the loops as
// written in rowLoopsDifferential.test.ts.
import * as acorn from 'acorn';
import { describe, expect, it } from 'vitest';
import { isRowListLoop, planRowLoops, rowLoopReads } from '../../../src/runtime/prepare/rowLoops.js';
import { isBareObjectsCall, rowChain } from '../../../src/runtime/prepare/rowChains.js';
import type { AnyNode } from '../../../src/runtime/prepare/patternNames.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { INSERTED_CLOSE, INSERTED_OPEN, userColumn } from '../../../schema/rowLoop.js';

const parse = (code: string) => acorn.parse(code, { ecmaVersion: 'latest', allowReturnOutsideFunction: true }) as never;
/** The reads of the first statement (a loop), or undefined when it stays as written. */
const reads = (code: string) => rowLoopReads((parse(code) as { body: never[] }).body[0]!)?.sort();
const loop = (body: string, head = 'for (const r of t.objects())') => reads(`${head} ${body}`);
/** The prepared code with the inserted texts taken out: must be the user's code (var for const aside). */
const withoutInserts = (code: string) => code.replace(/\/\*\$sbtRow<\*\/.*?\/\*>\$sbtRow\*\//g, '');

describe('rowLoopReads: loops whose row is only read', () => {
  it('finds the fields a body reads, by name, string or number', () => {
    expect(loop("s += r['Award Amount'] || 0;")).toEqual(['Award Amount']);
    expect(loop('{ if (r.Agency === "DoD" && r[\'Award Year\'] >= 2015) s += r.Amount }')).toEqual([
      'Agency',
      'Amount',
      'Award Year',
    ]);
    expect(loop('m[r.Agency] = (m[r.Agency] || 0) + 1;')).toEqual(['Agency']);
    expect(loop('xs.push(r[0], r?.x, typeof r.y, r.z.length, `${r.w}`);')).toEqual(['0', 'w', 'x', 'y', 'z']);
    // reading a field's value and calling a method of that value is fine: `this` is the value
    expect(loop('if (r.Title && r.Title.toLowerCase().includes("q")) n++;')).toEqual(['Title']);
    // a field read inside a destructuring default or a computed key is a read
    expect(loop('{ const { a = r.x } = o; ({ [r.y]: b } = o); }')).toEqual(['x', 'y']);
    expect(loop('n++;')).toEqual([]);
  });

  it('covers let, labels, nested loops and any receiver of .objects()', () => {
    expect(reads('for (let r of a.b(c).filter(d => d.x).objects()) s += r.x')).toEqual(['x']);
    expect(
      reads('for (const r of t.objects()) { L: for (const q of u.objects()) if (q.y) continue L; s += r.x }'),
    ).toEqual(['x']);
  });

  it('leaves every other loop shape as written', () => {
    for (const head of [
      'for (const r of t.objects({ limit: 5 }))', // an argument
      'for (const r of t.objects)', // not a call
      'for (const r of t?.objects())', // optional chain
      'for (const r of t.objects?.())',
      'for (const r of t["objects"]())', // computed
      'for (const r of t.tolist())',
      'for (const r of t)',
      'for (var r of t.objects())', // var: r is seen after the loop
      'for (const [a, b] of t.objects())', // a pattern
      'for (const { x, ...rest } of t.objects())', // a rest pattern copies the row's other fields
      'for (const { x: { y } } of t.objects())', // nested
      'for (const { [k]: x } of t.objects())', // computed
      'for (const { x = f() } of t.objects())', // a default that runs code
      'for (const {} of t.objects())',
      'for (r of t.objects())', // an outer variable
      'for (const r in t.objects())',
    ])
      expect(reads(`${head} s += r.x;`), head).toBeUndefined();
    expect(reads('async function f() { for await (const r of t.objects()) s += r.x }')).toBeUndefined();
  });

  it('reads the fields a destructuring pattern names', () => {
    expect(reads("for (const { x, 'a b': y, z = 0, x: again } of t.objects()) s += x + y + z + again;")).toEqual([
      'a b',
      'x',
      'z',
    ]);
    expect(reads('for (let { Phase } of t.objects()) Phase = 1;')).toEqual(['Phase']);
  });

  it('keeps the loop when the row escapes (each way it can)', () => {
    for (const body of [
      'best = r;', // stored
      'rows.push(r);', // passed
      'f(r);',
      'xs.push({ r });', // shorthand property
      'xs.push({ ...r });', // spread
      'xs.push([...Object.values(r)]);',
      'if (r === prev) n++;', // compared
      'if (r) n++;',
      'n += r == null;',
      'console.log(JSON.stringify(r));',
      'r.f();', // called as a method: r is `this`
      'r?.f();',
      '(r.f)();',
      '(r?.f)();',
      'r.f`x`;', // tagged template
      'new r.C();',
      'r.x = 1;', // written
      'r.x += 1;',
      'r.x++;',
      'delete r.x;',
      '[r.x] = [1];', // destructuring targets
      '({ a: r.x } = o);',
      '[...r.x] = [1];',
      '[r.x = 1] = [];',
      'for (r.x of xs);',
      'for (r.x in o);',
      's += r[k];', // a computed key
      's += r[k + 1];',
      's += r.__proto__;',
      's += r["__proto__"];',
      'fns.push(() => r.x);', // captured by a closure
      'fns.push(function () { return r.x });',
      '{ class C { m() { return r.x } } }',
      '{ let r = 1; s += r }', // another r
      '{ const f = (r) => r; s += f(1) }',
      'try { s += r.x } catch (r) {}',
      '{ function r() {} }',
      'with (o) s += r.x;', // with and eval can reach r by name
      'eval("s += r.x");',
      'return r;',
      'throw r;',
    ])
      expect(loop(body), body).toBeUndefined();
  });
});

describe('isRowListLoop: loops whose rows can be built one at a time', () => {
  const first = (code: string) => (parse(code) as { body: never[] }).body[0]!;

  it('takes any left side and any body over objects(), tolist() and to_list()', () => {
    for (const code of [
      'for (const r of t.objects()) best = r;',
      'for (var r of t.objects()) rows.push(r);',
      'for (r of t.objects());',
      'for (const [a, b] of t.tolist()) s += a + b;',
      'for (const [, b = 1, ...rest] of t.to_list()) f(rest);',
      'for (const row of t.tolist()) kept.push(row);',
      'for (o.x of t.objects());',
    ])
      expect(isRowListLoop(first(code)), code).toBe(true);
  });

  it('leaves loops whose array is seen, or that are not over a bare call', () => {
    for (const code of [
      'for (const r of t.objects({ limit: 5 }));',
      'for (const r of t.tolist(opts));',
      'for (const r of t?.objects());',
      'for (const r of t.objects?.());',
      'for (const r of t["tolist"]());',
      'for (const r of t);',
      'for (const r of rows);',
      'for (const r of t.objects().slice(1));',
      'for (const r in t.objects());',
      'for (const r of t.array("x"));',
    ])
      expect(isRowListLoop(first(code)), code).toBe(false);
    expect(isRowListLoop(first('async function f() { for await (const r of t.objects()); }').body.body[0])).toBe(false);
  });

  it('marks such a loop with an empty field list and the rows op, a reading loop with its fields', () => {
    const out = prepareCode('for (const [a] of t.tolist()) s += a;\nfor (const r of t.objects()) s += r.x;').code;
    expect(out).toContain('t.tolist(/*$sbtRow<*/__sbirtools_rowLoop.open([], ["rows"])/*>$sbtRow*/)');
    expect(out).toContain('t.objects(/*$sbtRow<*/__sbirtools_rowLoop.open(["x"])/*>$sbtRow*/)');
  });
});

describe('planRowLoops: the rewrite', () => {
  const prepared = (code: string) => prepareCode(code).code;

  it('inserts text only, between markers, on the lines it was given (no line added)', () => {
    const code =
      "let total = 0;\nfor (const r of award_data.select('Award Amount').objects()) total += r['Award Amount'] || 0;\n" +
      'L: for (const r of t.objects()) {\n  if (r.x) continue L;\n}\ntotal';
    const out = prepared(code);
    // a sum into a top-level local (scalarLoops.ts): a block around the loop, its locals written back after it
    expect(out).toContain('{let $sbtRowK0;/*>$sbtRow*/for');
    expect(out).toContain('__sbirtools_rowLoop.open(["Award Amount"], ["keyed"], [["scalar",');
    // a text loop (textLoops.ts): its state declared in a block opened before the label
    expect(out).toContain('{const $sbtRowT0=__sbirtools_rowLoop.text([]);/*>$sbtRow*/L: for');
    expect(out).toContain('__sbirtools_rowLoop.open(["x"], ["text"], $sbtRowT0)');
    // the user's code with the inserts taken out (the locals wrapper adds one line before, one after)
    const lines = withoutInserts(out).split('\n').slice(1, -1);
    expect(lines.join('\n')).toBe(code.replace('let total', ';   total'));
  });

  it('writes a date loop as inserts only, the real-Date places on S.date() (no line added)', () => {
    const code =
      "let latest = null, n = 0;\nD: for (const r of t.select('d').objects()) {\n  const d = r.d;\n" +
      '  if (d && (!latest || d > latest)) latest = d;\n  n += d ? d.getUTCMonth() : 0;\n}\n[latest.toISOString(), n]';
    const out = prepared(code);
    expect(out).toContain('{const $sbtRowD0=__sbirtools_rowLoop.date(["getUTCMonth","getTime"]);/*>$sbtRow*/D: for');
    expect(out).toContain('__sbirtools_rowLoop.open(["d"], ["date"], $sbtRowD0)');
    // with a real-Date place, a feature reads its number only until the row's Date is made
    expect(out).toContain('($sbtRowD0.k!==$sbtRowD0.i?$sbtRowD0.f0[$sbtRowD0.i]:$sbtRowD0.date().getUTCMonth())');
    expect(out).toContain('latest = /*$sbtRow<*/($sbtRowD0.on&&d!==null?$sbtRowD0.date():/*>$sbtRow*/d');
    const lines = withoutInserts(out).split('\n').slice(1, -1);
    expect(lines.join('\n')).toBe(code.replace('let latest', ';   latest'));
  });

  it('rewrites nothing when the source names what the rewrite uses', () => {
    const loopCode = 'for (const r of t.objects()) s += r.x;';
    expect(planRowLoops(parse(loopCode), loopCode).edits).not.toEqual([]);
    for (const code of [
      `${loopCode} // $sbtRow`,
      `${loopCode} "__sbirtools_rowLoop"`,
      `${loopCode} var \\u0024sbtRow0;`,
    ])
      expect(planRowLoops(parse(code), code).edits, code).toEqual([]);
  });

  it('maps a column in a prepared line back to the user line', () => {
    const ins = (t: string) => INSERTED_OPEN + t + INSERTED_CLOSE;
    const user = 'for (const r of t.objects()) s += r.x.y();';
    const line =
      ins('{let a;') + 'for (const r of t.objects(' + ins('a=1') + ')) ' + ins('{') + 's += r.x.y();' + ins('}');
    for (const token of ['for', 't.objects', ')) ', 's += ', 'y();'])
      expect(userColumn(line, line.indexOf(token) + 1), token).toBe(user.indexOf(token) + 1);
    // a position inside an insert maps to where it was inserted
    expect(userColumn(line, 3)).toBe(1);
    expect(userColumn('no inserts here', 7)).toBe(7);
  });
});

describe('rowChain: array-method chains on objects() whose rows are only read', () => {
  /** The chain of the first `.objects()` call in `code` (ops and sorted reads), or undefined. */
  const chain = (code: string, sorted = true) => {
    const program = parse(code);
    const up = new Map<AnyNode, [AnyNode, string]>();
    let call: AnyNode | undefined;
    const stack: AnyNode[] = [program];
    while (stack.length) {
      const node = stack.pop()!;
      if (!call && isBareObjectsCall(node)) call = node;
      for (const k of Object.keys(node)) {
        const v = node[k];
        for (const c of Array.isArray(v) ? v : [v])
          if (c && typeof c === 'object' && typeof c.type === 'string') {
            up.set(c, [node, k]);
            stack.push(c);
          }
      }
    }
    const got = call && rowChain(call, up);
    return got && { ops: got.ops, reads: sorted ? got.reads.sort() : got.reads };
  };

  it('finds the links and the fields every callback reads', () => {
    expect(chain("t.objects().filter(r => r.Phase === 'Phase II').length")).toEqual({
      ops: ['filter', 'length'],
      reads: ['Phase'],
    });
    expect(chain("t.objects().filter(r => r['a b'] > 1).reduce((s, r, i) => s + r.y * i, 0)")).toEqual({
      ops: ['filter', 'reduce'],
      reads: ['a b', 'y'],
    });
    expect(chain('x = t.objects().filter((r, i) => i > 2).filter(r => r.x).map(r => r.z * 2)')).toEqual({
      ops: ['filter', 'filter', 'map'],
      reads: ['x', 'z'],
    });
    // a map that only reads one field is `pluck`, that field read last (the guest copies its values)
    expect(chain("x = t.objects().filter(r => r.z > r.x).map(r => r['z'])")).toEqual({
      ops: ['filter', 'pluck'],
      reads: ['x', 'z'],
    });
    expect(chain('x = t.objects().map(r => r.z)')).toEqual({ ops: ['pluck'], reads: ['z'] });
    expect(chain('x = t.objects().filter(r => r.z && r.x).map(r => r.z)', false)?.reads).toEqual(['x', 'z']);
    for (const code of [
      't.objects().map((r, i) => r.z)',
      't.objects().map(r => r?.z)',
      't.objects().map(r => r.__proto__)',
    ])
      expect(chain(code)?.ops ?? [], code).not.toContain('pluck');
    for (const m of ['map', 'forEach', 'some', 'every', 'findIndex'])
      expect(chain(`f(t.objects().${m}(r => { return r.class + r[0] }))`), m).toEqual({
        ops: [m],
        reads: ['0', 'class'],
      });
    expect(chain('t.objects().reduce(s => s + 1, 0)')).toEqual({ ops: ['reduce'], reads: [] });
    expect(chain('n = t.objects().length')).toEqual({ ops: ['length'], reads: [] });
  });

  it('keeps every chain that could show a row, the array, or differ from the methods', () => {
    for (const code of [
      't.objects()', // no link
      'const rows = t.objects(); rows.filter(r => r.x).length', // the rows held in a variable
      't.objects().find(r => r.x)', // answers a row
      't.objects().reduce((s, r) => s + r.x)', // no initial value: the first row is the accumulator
      't.objects().reduce((s, r) => s + r.x, ...init)',
      't.objects().map(r => r)', // the row itself
      't.objects().map(r => [r])',
      't.objects().map(r => r.f())', // r as `this`
      't.objects().map(r => () => r.x)', // a closure
      't.objects().forEach(r => rows.push(r))',
      't.objects().forEach(r => { last = r })',
      't.objects().filter((r, i, all) => all.length).length', // the array
      't.objects().filter(function (r) { return r.x }).length', // not an arrow
      't.objects().filter(async r => r.x).length',
      't.objects().filter(f).length', // a callback written elsewhere
      't.objects().filter(({ x }) => x).length', // a pattern
      't.objects().filter((r = 1) => r.x).length',
      't.objects().filter(r => r.x, ctx).length', // a second argument
      't.objects().filter(...fs).length',
      't.objects().filter(r => r[k]).length', // a computed key
      't.objects().filter(r => r.__proto__).length',
      't.objects()?.filter(r => r.x).length', // optional chains
      't.objects().filter?.(r => r.x).length',
      't.objects()["filter"](r => r.x).length',
      't.objects().length = 0', // written
      'delete t.objects().length',
      't.objects().sort((a, b) => a.x - b.x)', // another method
      't.objects(opts).filter(r => r.x).length', // an argument
      't.objects.filter(r => r.x).length',
    ])
      expect(chain(code), code).toBeUndefined();
  });

  it('ends a chain at a filter whose rows are then seen (the filter answers the real rows that passed)', () => {
    const one = { ops: ['filter'], reads: ['x'] };
    const cases: [string, unknown][] = [
      ['t.objects().filter(r => r.x)', one],
      ['t.objects().filter(r => r.x).slice(0, 2)', one],
      ['t.objects().filter(r => r.x)[0]', one],
      ['t.objects().filter(r => r.x)?.length', one],
      ['t.objects().filter(r => r.x).reduce((s, r) => s + r.y)', one],
      ['t.objects().filter(r => r.x).filter(r => r.y).map(f)', { ops: ['filter', 'filter'], reads: ['x', 'y'] }],
    ];
    for (const [code, want] of cases) expect(chain(code), code).toEqual(want);
  });

  it('inserts the chain after the fields, in the objects() call only', () => {
    const code = "const n = award_data.select('Phase').objects().filter(r => r.Phase === 'Phase II').length;\nn";
    const out = prepareCode(code).code;
    expect(out).toContain('.objects(/*$sbtRow<*/__sbirtools_rowLoop.open(["Phase"], ["filter","length"])/*>$sbtRow*/)');
    expect(withoutInserts(out)).toContain(code.replace('const n', 'var   n'));
  });
});
