// `op.includes(op.lower(d.X), 'literal')` in a filter (the verbs form of a case-blind search) is
// answered by the host's byte search folded as `toLowerCase` (bridge.textScan `contains`, fold
// `lower`) when the literal is its own lowercase; otherwise, or when the guest replaced `lower` or
// `includes`, Arquero's compiled code runs on the rows. Same rows as Arquero on a plain copy, for
// Unicode case rules (Kelvin sign, dotted I, sharp s), nulls and empty rows.
import { afterEach, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from '../harness.js';
import { columnar, dict, utf8 } from '../fixture.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';

const ROWS = 9000;
const SPECIAL = ['QUANTUM dots', 'Quantum', 'KELVIN \u212A', 'İstanbul', 'STRASSE straße', '', 'naïve CAFÉ', '😀 Qu'];
const rowValues = Array.from({ length: ROWS }, (_, i) =>
  i % 13 === 0 ? null : i < 4096 ? `title ${i} ${i % 7 ? 'plain' : 'quantum'}` : `${SPECIAL[i % SPECIAL.length]} ${i}`,
);
const TABLE = columnar('award_data', {
  T: utf8(rowValues),
  K: dict(Array.from({ length: ROWS }, (_, i) => ['a', 'b'][i % 2]!)),
});

const NEEDLES = ['quantum', 'qu', 'k', 'i̇', 'ss', 'ß', 'café', '', 'Quantum', 'İ', '😀 q'];
const EXPRS = NEEDLES.map((n) => `(X) => X.filter((d) => op.includes(op.lower(d.T), ${JSON.stringify(n)})).array('T')`);
const DUMP = 'var __dump = (x) => JSON.stringify(x);';

let h: Harness | null = null;
afterEach(() => {
  h?.dispose();
  h = null;
});

describe("op.includes(op.lower(d.X), 'literal') from the host's folded byte search", () => {
  test('same rows as Arquero on a plain copy, for any literal', async () => {
    h = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    await install(h, `${differentialHelpers(['award_data'], DUMP)}\nvar tables = { award_data }; true`);
    expect(await diffRuns(h, EXPRS)).toEqual([]);
    // after a filter on another column too
    expect(
      await diffRuns(h, [
        "(X) => X.filter((d) => d.K === 'b' && op.includes(op.lower(d.T), 'quantum')).array('T')",
        "(X) => X.filter((d) => !op.includes(op.lower(d.T), 'k')).numRows()",
      ]),
    ).toEqual([]);
  }, 120_000);

  test('a lowercase literal reads no text page; one with capitals is left to the compiled code', async () => {
    h = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    const r = await h.run("award_data.filter((d) => op.includes(op.lower(d.T), 'quantum')).numRows()");
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toBe(rowValues.filter((v) => v !== null && v.toLowerCase().includes('quantum')).length);
    expect(h.fetched.filter((f) => f.startsWith('award_data/T{'))).toEqual([]);
    expect(h.fetched.some((f) => f.startsWith('award_data/T(contains:'))).toBe(true);
    const upper = await h.run("award_data.filter((d) => op.includes(op.lower(d.T), 'Quantum')).numRows()");
    expect(upper.value).toBe(0);
  }, 60_000);

  test('a guest that replaces lower or includes gets its own function called', async () => {
    h = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    const r = await h.run(`let calls = 0;
aq.addFunction('lower', (s) => { calls++; return s == null ? s : String(s).toUpperCase(); }, { override: true });
const n = award_data.filter((d) => op.includes(op.lower(d.T), 'quantum')).numRows();
[n, calls]`);
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toEqual([0, ROWS]);
    const h2 = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    try {
      const r2 = await h2.run(`aq.addFunction('includes', (s, v) => s != null && s.startsWith(v), { override: true });
award_data.filter((d) => op.includes(op.lower(d.T), 'quantum')).numRows()`);
      expect(r2.ok, r2.error?.message).toBe(true);
      expect(r2.value).toBe(rowValues.filter((v) => v !== null && v.toLowerCase().startsWith('quantum')).length);
    } finally {
      h2.dispose();
    }
  }, 60_000);
});
