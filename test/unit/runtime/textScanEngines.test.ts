// `.str.len()` and `.str.contains()` on long text: isolated-vm answers them on the host from the
// UTF-8 bytes (bridge.textScan), QuickJS tests the decoded rows in the guest. Both must give the
// answers computed here in Node on the strings themselves, for every fold, with nulls, empty
// strings, non-ASCII text, surrogate pairs, and on the first run as on a run whose pages are held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/index.js';

const ROWS = 9_000; // three pages of 4,096 rows
const SPECIAL = [
  'Laser optics',
  'LASER',
  'café CAFÉ',
  '😀 pair 𝔘',
  'KELVIN \u212A',
  'İstanbul',
  'straße',
  '',
  'la\nser',
  'x.y',
];
function textOf(i: number): string | null {
  if (i % 13 === 0) return null;
  // page 0 stays ASCII except row 7; pages 1 and 2 carry every special row
  if (i < 4096)
    return i === 7 ? 'naïve laser' : `${i} plain ascii text about lasers ${i % 3 ? 'and optics' : 'DIGITAL twin'}`;
  return `${SPECIAL[i % SPECIAL.length]} ${i} ${i % 5 ? '' : 'digital Twin'}`;
}
const values = Array.from({ length: ROWS }, (_, i) => textOf(i));

const escape = (p: string) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
type Case = { code: string; expect: (v: string) => boolean; na?: boolean };
const cases: Case[] = [
  { code: "'laser'", expect: (v) => v.includes('laser') },
  { code: "'laser', { case: false }", expect: (v) => new RegExp(escape('laser'), 'i').test(v) },
  { code: "'DIGITAL TWIN', { case: false, regex: false }", expect: (v) => v.toLowerCase().includes('digital twin') },
  { code: "'k', { case: false }", expect: (v) => /k/i.test(v) },
  { code: "'k', { case: false, regex: false }", expect: (v) => v.toLowerCase().includes('k') },
  { code: "'café', { case: false }", expect: (v) => /café/i.test(v) },
  { code: "'😀'", expect: (v) => v.includes('😀') },
  { code: "''", expect: () => true },
  { code: "'la.er'", expect: (v) => /la.er/.test(v) },
  { code: "'x.y', { regex: false }", expect: (v) => v.includes('x.y') },
  { code: "'4097'", expect: (v) => v.includes('4097') },
  { code: '/LAS/i', expect: (v) => /LAS/i.test(v) },
  { code: "'ß', { na: true }", expect: (v) => v.includes('ß'), na: true },
];

const engines = [
  ['isolated-vm', {}],
  ['quickjs', { engine: 'quickjs' as const }],
] as const;
const boxes = new Map<string, Sandbox>();
beforeAll(async () => {
  const rows = values.map((body, id) => ({ id, body }));
  for (const [name, opts] of engines)
    boxes.set(name, await createSandbox({ awardData: false, tables: { docs: rows }, timeoutMs: 60_000, ...opts }));
}, 120_000);
afterAll(async () => {
  for (const b of boxes.values()) await b.close();
});

describe.each(engines.map(([n]) => n))('%s', (engine) => {
  it('str.len() counts code points per row, null stays null', async () => {
    const r = await boxes.get(engine)!.run("docs['body'].str.len().toArray()");
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(values.map((v) => (v === null ? null : [...v].length)));
  }, 60_000);

  // before any regex case: those read the pages into the session, after which the guest tests them
  it("an Arquero filter op.includes(d.body, 'literal') keeps the rows whose text holds it, also after another filter", async () => {
    const box = boxes.get(engine)!;
    const r = await box.run(
      `[docs.filter((d) => op.includes(d.body, 'laser')).numRows(), docs.filter((d) => op.includes(d.body, '😀')).numRows(), docs.filter((d) => d.id % 2 === 0).filter((d) => op.includes(d.body, 'Twin')).numRows(), docs.filter((d) => !op.includes(d.body, 'a')).numRows()]`,
    );
    expect(r.error).toBeUndefined();
    const rows = values.map((v, id) => ({ id, v }));
    expect(r.value).toEqual([
      rows.filter((x) => x.v?.includes('laser')).length,
      rows.filter((x) => x.v?.includes('😀')).length,
      rows.filter((x) => x.id % 2 === 0 && x.v?.includes('Twin')).length,
      rows.filter((x) => !x.v?.includes('a')).length,
    ]);
  }, 60_000);

  for (const c of cases) {
    it(`str.contains(${c.code}) gives the mask of the decoded strings`, async () => {
      const want = values.map((v) => (v === null ? (c.na ?? false) : c.expect(v))).map((b) => (b ? 1 : 0));
      const r = await boxes
        .get(engine)!
        .run(`Array.from(docs['body'].str.contains(${c.code}).toArray(), (b) => (b ? 1 : 0))`);
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual(want);
    }, 60_000);
  }

  it('the same answers once the session holds the pages', async () => {
    const box = boxes.get(engine)!;
    const r = await box.run(
      `const all = docs.array('body'); [docs['body'].str.contains('laser', { case: false }).sum(), docs['body'].str.len().sum()]`,
    );
    expect(r.error).toBeUndefined();
    const present = values.filter((v): v is string => v !== null);
    expect(r.value).toEqual([
      present.filter((v) => /laser/i.test(v)).length,
      present.reduce((a, v) => a + [...v].length, 0),
    ]);
  }, 60_000);

  // the answers of a column are kept per session (series/typed.ts containsAnswers): a needle asked
  // again, with the other `na`, over pages the session holds, must still be the decoded strings' mask
  it('every contains again with na both ways, the pages held and the answers kept', async () => {
    const box = boxes.get(engine)!;
    expect((await box.run("docs.array('body').length")).value).toBe(ROWS);
    const withNa = (code: string, na: boolean) =>
      code.includes('{') ? code.replace('{', `{ na: ${na},`) : `${code}, { na: ${na} }`;
    for (const c of cases.filter((x) => x.na === undefined))
      for (const na of [true, false]) {
        const want = values.map((v) => ((v === null ? na : c.expect(v)) ? 1 : 0));
        const r = await box.run(
          `Array.from(docs['body'].str.contains(${withNa(c.code, na)}).toArray(), (b) => (b ? 1 : 0))`,
        );
        expect(r.error, withNa(c.code, na)).toBeUndefined();
        expect(r.value, withNa(c.code, na)).toEqual(want);
      }
  }, 120_000);
});

it('the column is long text (utf8), not a dictionary: the host scan is what the isolated-vm runs test', async () => {
  const r = await boxes.get('isolated-vm')!.run("docs.column('body').kind");
  expect(r.value).toBe('utf8');
});
