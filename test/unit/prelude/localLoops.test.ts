// Top-level loops over block-scoped copies of the session's globals (prelude/runtime/localLoops.ts,
// applied by globalize.ts): which loops are wrapped, that the loop's own text and every column stay
// in place, and (in a real isolate) that values, write-back on a throw, the run's completion value
// and error positions are those of the unwrapped program.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { globalize } from '../../../prelude/runtime/globalize.js';
import { createHarness, type Harness } from './harness.js';

const DOD = `var agency = ['DOD', 'NASA', 'DOD'];
var total = 0;
for (let i = 0; i < agency.length; i++) {
  if (agency[i] === 'DOD') total += 1.5;
}
total`;

describe('which loops run over local copies', () => {
  test('a loop that calls nothing: wrapped, its own text and lines unchanged', () => {
    const out = globalize(DOD);
    expect(out).toContain('try { let agency = $sbl0, total = $sbl1; try {');
    expect(out).toContain('} finally { agency = $sbl0; total = $sbl1; } }');
    const lines = out.split('\n');
    expect(lines.length).toBe(DOD.split('\n').length);
    for (const l of [2, 3, 5]) expect(lines[l]).toBe(DOD.split('\n')[l]); // the loop's lines and what follows
    expect(lines[3].indexOf('total += 1.5')).toBe(DOD.split('\n')[3].indexOf('total += 1.5'));
  });
  test('the column array in a for-of head is the one call allowed', () => {
    expect(globalize("var c = 0;\nfor (const a of award_data.array('Abstract')) if (a && a.length > 2) c++;\nc")).toContain('let c = $sbl0;');
  });
  test('left alone: calls, functions, this, var inside, same-line loops, nothing declared', () => {
    for (const code of [
      'var m = new Map();\nfor (const a of arr) m.set(a, 1);',
      'var c = 0;\nfor (const a of award_data.array(k)) c++;',
      'var c = 0;\nfor (const a of other.array("Agency")) c++;',
      'var c = 0;\nfor (let i = 0; i < 3; i++) c += [1].map((x) => x)[0];',
      'var c = 0;\nfor (let i = 0; i < 3; i++) c += this.k;',
      'var c = 0;\nfor (let i = 0; i < 3; i++) { var k = i; c += k; }',
      'var c = 0; for (let i = 0; i < 3; i++) c++;',
      'var c = 0;\nfor (let i = 0; i < 3; i++) c++; c',
      'for (let i = 0; i < 3; i++) x++;',
      'var c = 0;\nouter: for (let i = 0; i < 3; i++) c++;',
    ]) expect(globalize(code), code).not.toContain('$sbl');
  });
});

describe('the wrapped program behaves as the unwrapped one', () => {
  let h: Harness;
  beforeAll(() => { h = createHarness(); });
  afterAll(() => h.dispose());
  const run = async (code: string) => { const r = await h.run(globalize(code)); return r.ok ? r.value : `${r.error!.name}: ${r.error!.message} @${r.error!.line}:${r.error!.column}`; };

  test('values, the completion value, later runs', async () => {
    expect(await run(DOD)).toBe(3);
    expect(await run('var s = 0;\nfor (let i = 0; i < 3; i++) { s += i; }')).toBe(3); // the loop is the last statement
    expect(await run('var s0 = 7;\nfor (let i = 0; i < 0; i++) { s0 += i; }')).toBe(undefined);
    expect(await run('total * 2')).toBe(6); // the global was written back
    expect(await run('var o = {}, keys = ["a", "b", "a"];\nfor (const k of keys) o[k] = (o[k] || 0) + 1;\no')).toEqual({ a: 2, b: 1 });
    expect(await run('var n = 0, u = [3, 1];\nwhile (n < u.length) { u[n] *= 2; n++ } // done\n[u, n]')).toEqual([[6, 2], 2]);
    expect(await run('var d = 0;\ndo { d++ } while (d < 4)\nd')).toBe(4);
  });
  test('a throw mid-loop: the error at its own line and column, the globals as far as the loop got', async () => {
    expect(await run('var w = 1;\nfor (const x of [1, null]) { w += 10; x.y; }')).toMatch(/^TypeError: .*reading 'y'.* @2:41$/);
    expect(await run('w')).toBe(21);
  });
});
