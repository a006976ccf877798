// Never a silent empty success: a run whose value is undefined and that printed nothing says why.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

describe('a run that produces nothing carries a note', () => {
  test('an unknown property of a table: the expression and the column it probably meant', async () => {
    const r = await h.run('award_data.agency');
    expect(r.ok).toBe(true);
    expect(r.value).toBeUndefined();
    expect(r.valueText).toMatch(/the last expression, `award_data.agency`, is undefined/);
    expect(r.valueText).toMatch(/did you mean award_data\['Agency'\]\?/);
    expect((await h.run("award_data['Awrd Amount']")).valueText).toMatch(/did you mean award_data\['Award Amount'\]/);
  });
  test('a declaration, a call returning undefined, an undefined result, async code', async () => {
    expect((await h.run('const t = award_data.head(2)')).valueText).toMatch(/ends with a declaration/);
    expect((await h.run('[1, 2].forEach(x => x)')).valueText).toMatch(/returned undefined/);
    expect((await h.run('result = undefined', { resultName: true })).valueText).toMatch(/`result` is undefined/);
    expect((await h.run('for (const x of [1]) {}')).valueText).toMatch(/ends with a for of statement/);
  });
  test("inside the host's top-level-locals wrapper, the note names the user's last statement", async () => {
    const p = prepareCode('let n = 0;\nfor (const x of [1, 2]) n += x;\naward_data.agency');
    expect(p.lineOffset).toBe(1);
    const r = await h.run(p.code, { lineOffset: p.lineOffset });
    expect(r.valueText).toMatch(/the last expression, `award_data.agency`, is undefined/);
    const q = prepareCode('let n = 0;\nfor (const x of [1, 2]) n += x;\nif (n > 5) n;');
    expect((await h.run(q.code, { lineOffset: q.lineOffset })).valueText).toMatch(/ends with a if statement/);
  });
  test('no note when the run printed, displayed or returned something', async () => {
    const printed = await h.run("print('hi')");
    expect(printed.valueText).toBeUndefined();
    expect((await h.run('display(award_data.head(1))')).valueText).toBeUndefined();
    expect((await h.run('award_data.Agency.nunique()')).valueText).toBe('3');
  });
});
