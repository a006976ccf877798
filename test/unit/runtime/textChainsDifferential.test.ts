// Chains on a long text column's array whose callbacks only test the value against null, the empty
// string and string literals (prelude/fast/textClasses.ts) are answered from the host's scans of the
// column's bytes on isolated-vm, with no row decoded: they must answer exactly what the chains as
// written do. Each sequence of runs goes through two sandbox sessions, rewritten and with the rewrite
// defeated (a comment naming `$sbtRow` turns it off), on both engines; values, output and errors with
// line and column must be the same. The table holds nulls, empty strings, 'N/A' and near misses,
// non-ASCII and surrogate pairs, U+FFFD; `full` has no null.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { ARRAY_CHAIN_GLOBAL } from '../../../schema/arrayChain.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 9_000; // three pages of 4,096 rows
const SPECIAL = ['N/A', '', 'café “quoted”', '😀 pair 𝔘', 'n/a', 'N/A ', '\uFFFD', 'N/A\u0000', ' '];
function textOf(i: number): string | null {
  if (i % 13 === 0) return null;
  if (i % 7 === 0) return SPECIAL[(i / 7) % SPECIAL.length]!;
  return `${i} plain text ${'lorem '.repeat(i % 20)}`;
}
const rows = Array.from({ length: ROWS }, (_, id) => ({
  id,
  body: textOf(id),
  full: textOf(id) ?? 'was null',
}));
const tables = { docs: rows };

/** A step the preparation leaves as written (its callback reads more than the value, or its receiver is a call). */
type Step = string | { code: string; rewritten: false };
const left = (code: string): Step => ({ code, rewritten: false });

const SEQUENCES: Record<string, Step[]> = {
  'null, equality and truth tests, counted': [
    "docs.array('body').filter(a => a == null || a === 'N/A').length",
    "docs.array('body').filter(a => a != null && a !== 'N/A').length",
    "[docs.array('body').filter(a => 'N/A' == a).length, docs.array('body').filter(a => null === a).length, docs.array('body').filter(a => a === undefined).length, docs.array('body').filter(a => a == undefined).length]",
    "[docs.array('body').filter(a => a).length, docs.array('body').filter(a => !a).length, docs.array('body').filter(a => !!a && a !== '').length]",
    "[docs.array('body').filter(a => a === '').length, docs.array('body').filter(a => a !== '').length, docs.array('body').filter(a => a == '').length]",
    "[docs.array('body').filter(a => a === 'café “quoted”').length, docs.array('body').filter(a => a === '😀 pair 𝔘').length, docs.array('body').filter(a => a === '\\uFFFD').length]",
    "[docs.array('body').filter(a => a === '\\ud83d').length, docs.array('body').filter(a => a !== '\\ude00').length, docs.array('body').filter(a => a === 'N/A\\u0000').length]",
    "docs.array('body').filter(a => a ? a !== 'n/a' : a === null).length",
    "docs.array('body').filter(a => (a ?? 'N/A') && a !== ' ').filter(a => a !== 'N/A ').length",
    "[docs.array('body').filter(a => a === 5 || a === true || a === NaN).length, docs.array('body').filter(a => a !== null ? 1 : 0).length]",
    "[docs.array('full').filter(a => a == null).length, docs.array('full').filter(a => a === 'was null' || !a).length]",
  ],
  'some, every and find': [
    "[docs.array('body').some(a => a === ''), docs.array('body').some(a => a === 'absent'), docs.array('body').every(a => a !== undefined)]",
    "[docs.array('body').filter(a => a != null).every(a => a), docs.array('full').every(a => a != null)]",
    "[docs.array('body').find(a => a === '😀 pair 𝔘'), docs.array('body').find(a => a === 'absent'), docs.array('body').filter(a => a !== null).find(a => !a)]",
    "docs.array('body').find(a => a !== null && a !== '0 plain text ')",
  ],
  'arrays made whole': [
    "const kept = docs.array('body').filter(a => a == null || a === 'N/A' || a === '');\n[kept.length, kept.slice(0, 6), Array.isArray(kept)]",
    "docs.array('body').filter(a => a !== null && a !== '').slice(-3)",
  ],
  'what this path cannot answer runs as written': [
    "docs.array('body').filter(a => a == 5).length",
    "docs.array('body').filter(a => a > 'N').length",
    "docs.array('body').filter(a => a === a).length",
    "docs.array('body').filter(a => (a || 'x') === 'N/A').length",
    "docs.array('body').map(a => a === null).filter(b => b).length",
    "docs.array('body').map(a => a).filter(a => a === 'N/A').length",
    "docs.array('body').filter(a => a == null).reduce((s, v) => s + v, 0)",
    "docs.array('body').filter(a => typeof a === 'string').length",
    "const half = docs.filter(d => d.id % 2 === 0);\nhalf.array('body').filter(a => a == null || a === 'N/A').length",
    "const back = docs.orderby(aq.desc('id'));\n[back.array('body').filter(a => a === '').length, back.array('body').find(a => a !== null)]",
    left("docs.filter(d => d.id % 2 === 0).array('body').filter(a => a == null || a === 'N/A').length"),
  ],
  'the same tests on objects() rows': [
    "docs.select('body').objects().filter(r => r.body == null || r.body === 'N/A').length",
    "[docs.objects().filter(r => !r.body).length, docs.objects().filter(r => r['body'] !== '' && r.body != undefined).length]",
    "[docs.objects().some(r => r.body === '😀 pair 𝔘'), docs.objects().every(r => r.body !== '\\ud83d'), docs.objects().filter(r => r.body).every(r => r.body)]",
    "docs.objects().filter(r => r.body === 'N/A').filter(r => r.body !== null).length",
    "docs.objects().filter(r => r.body === 'N/A').filter(r => r.id % 2 === 0).length",
    "docs.objects().filter(r => r.body === 'N/A').map(r => r.body).length",
    'docs.objects().filter(r => r.body == 5).length',
    'docs.objects().filter(r => r.body === undefined).length',
    'docs.objects().filter(r => r.body.length > 3).length',
    'const few = docs.filter(d => d.id < 3000);\nfew.objects().filter(r => r.body == null).length',
    "docs.objects().filter(r => r.body === 'N/A')()",
  ],
  'errors keep their message, line and column': [
    "docs.array('nope').filter(a => a == null).length",
    // a null row reaches the feature: the chain is replayed as written
    "docs.array('body').filter(a => a.length > 3).length",
    "docs.array('body').filter(a => a === 'N/A')()",
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('text tests in chains on t.array(col) on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))(
    '%s: same answers as the chains as written',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      for (const step of SEQUENCES[name]!) {
        const code = typeof step === 'string' ? step : step.code;
        const marker = name.includes('objects()') ? '__sbirtools_rowLoop' : ARRAY_CHAIN_GLOBAL;
        expect(prepareCode(code).code.includes(marker), code).toBe(typeof step === 'string');
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    },
    120_000,
  );
});

describe('award_data: the abstracts', () => {
  it('a non-ASCII abstract as the literal, and the missing ones, as the chains as written count them', async () => {
    await using rewritten = await createSandbox({ engine: 'isolated-vm' });
    await using plain = await createSandbox({ engine: 'isolated-vm' });
    const found = await plain.run(
      "award_data.array('Abstract').find(a => a != null && /[^\\x00-\\x7f]/.test(a)) ?? 'none'",
    );
    const literal = JSON.stringify(found.value);
    for (const code of [
      `[award_data.array('Abstract').filter(a => a === ${literal}).length, award_data.array('Abstract').some(a => ${literal} == a)]`,
      "award_data.array('Abstract').filter(a => a == null || a === 'N/A').length",
      "award_data.array('Abstract').filter(a => !a).length",
      "award_data.select('Abstract').objects().filter(r => r.Abstract == null || r.Abstract === 'N/A').length",
    ]) {
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });
});
