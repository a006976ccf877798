// Loops over a long text column whose body uses the value only through its class (null, empty,
// another string) and what the host answers per row (`.length` in UTF-16 units, `.includes(lit)`,
// `.toLowerCase().includes(lit)`, `.indexOf(lit)` against -1/0, equality with a literal) run over the
// host's answers (src/runtime/prepare/textLoops.ts, prelude/data/textLoop.ts): they must answer
// exactly what the loops as written do. Each sequence runs in two sandbox sessions, rewritten and
// with the rewrite defeated (a comment naming `$sbtRow` turns it off), on both engines; values,
// output and errors with line and column must be the same. The text holds nulls, empty strings,
// astral characters (surrogate pairs: `.length` counts two units), lone surrogates, U+FFFD, upper
// case outside ASCII and a needle split across two rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 9_000; // three pages of 4,096 rows
const SPECIAL = [
  'N/A',
  '',
  'café “Machine Learning”',
  '😀 pair 𝔘 machine learning',
  'ends with machine ',
  'learning starts this one',
  '\uD83D lone high',
  'lone low \uDE00',
  '\uFFFD',
  'İSTANBUL QUANTUM',
  'ΣΊΣΥΦΟΣ quantum',
  'machine learning',
];
function textOf(i: number): string | null {
  // the needle split across two rows, inside a page and across the first page boundary
  if (i === 101 || i === 4095) return 'this row ends with machine';
  if (i === 102 || i === 4096) return ' learning starts this row';
  if (i % 13 === 0) return null;
  if (i % 7 === 0) return SPECIAL[(i / 7) % SPECIAL.length]!;
  return `${i} plain text ${'lorem '.repeat(i % 20)}${i % 11 === 0 ? 'machine learning' : ''}`;
}
const rows = Array.from({ length: ROWS }, (_, id) => ({ id, body: textOf(id), full: textOf(id) ?? 'was null' }));
const tables = { docs: rows };

/** A step the preparation leaves as written. */
type Step = string | { code: string; rewritten: false };
const left = (code: string): Step => ({ code, rewritten: false });

const SEQUENCES: Record<string, Step[]> = {
  'lengths and contains over the array': [
    "let total = 0, n = 0;\nfor (const a of docs.array('body')) if (a && a.length >= 30) { total += a.length; n++; }\n[total, n]",
    "let n = 0;\nfor (const a of docs.array('body')) if (a && a.includes('machine learning')) n++;\nn",
    "let n = 0, m = 0;\nfor (let a of docs.array('full')) { if (a.toLowerCase().includes('quantum')) n++; if (a.indexOf('machine') !== -1) m++; }\n[n, m]",
    "let s = 0;\nfor (const a of docs.array('body')) { if (a == null) continue; s += a.length; if (a === 'N/A' || a !== '') s += 1; }\ns",
    "let c = [0, 0, 0, 0];\nfor (const a of docs.array('body')) { c[0] += typeof a === 'string'; c[1] += !a; c[2] += a === '' ? 1 : 0; c[3] += (a ?? 'x') ? 1 : 0; }\nc",
    "let n = 0;\nfor (const a of docs.array('full')) if (a.indexOf('learning') >= 0 && !(a.indexOf('machine') === -1) && a.indexOf('x') < 0) n++;\nn",
    "let n = 0;\nfor (const a of docs.array('body')) if (a !== undefined && a != null && a.length > 20 && 'machine learning' != a) n++;\nn",
  ],
  'control flow, labels and side effects in the body': [
    "let out = [];\nfor (const a of docs.array('body')) { if (a && a.includes('machine learning')) out.push(a.length); if (out.length > 20) break; }\nout",
    "let n = 0;\nouter: for (const a of docs.array('body')) { for (let k = 0; k < 2; k++) { if (!a) continue outer; n += k; } if (a.length > 100) break outer; }\nn",
    "let log = [];\nfunction note(x) { log.push(x); return x; }\nfor (const a of docs.array('body')) if (a && note(a.length) > 120) break;\nlog.length + ':' + log.slice(-3)",
    "let n = 0;\nif (true) for (const a of docs.array('body')) n += a ? a.length : -1;\nn",
    "const lens = [];\nfor (const a of docs.array('body')) lens.push(a === null ? null : a.length);\nlens.slice(0, 30).concat(lens.length)",
  ],
  'objects() rows: one text field and others read': [
    "let total = 0, n = 0;\nfor (const r of docs.select('body').objects()) if (r.body && r.body.length >= 100) { total += r.body.length; n++; }\n[total, n]",
    "let n = 0;\nfor (const r of docs.objects()) if (r['body'] && r.body.includes('machine learning')) n++;\nn",
    "let n = 0;\nfor (const r of docs.objects()) if (r.full.toLowerCase().includes('machine learning')) n++;\nn",
    'let n = 0;\nfor (const r of docs.objects()) if (r.body && r.id > 3) n += r.body.length;\nn',
    "const m = {};\nfor (const r of docs.objects()) if (r.body && r.body.includes('machine learning')) m[r.id % 3] = (m[r.id % 3] || 0) + r.body.length + r.full.length;\nm",
    "let s = 0;\nfor (const r of docs.select('full', 'body', 'id').objects()) s += r.body ? r.body.length : r.full.length * 1000 + r.id;\ns",
  ],
  'a null row reaches a feature: the same TypeError at the same place': [
    "let s = 0;\nfor (const a of docs.array('body')) s += a.length;\ns",
    "let n = 0;\nfor (const r of docs.select('body').objects()) if (r.body.includes('x')) n++;\nn",
    "let n = 0;\nfor (const a of docs.array('body')) {\n  n++;\n  if (a.toLowerCase().includes('n/a')) n += 10;\n}\nn",
  ],
  'what this path cannot answer runs as written': [
    left("let n = 0;\nfor (const a of docs.array('body')) if (a && a.startsWith('N')) n++;\nn"),
    left("let n = 0;\nfor (const a of docs.array('body')) if (a && a.toUpperCase().includes('QUANTUM')) n++;\nn"),
    left("let n = 0;\nfor (const a of docs.array('body')) if (a && a.toLowerCase().includes('Quantum')) n++;\nn"),
    left("const f = [];\nfor (const a of docs.array('body')) f.push(() => a);\nf[7]()"),
    left("let n = 0;\nfor (let a of docs.array('body')) { a = a || ''; n += a.length; }\nn"),
    left("let s = '';\nfor (const a of docs.array('body')) if (a && a.length < 4) s += a;\ns"),
    left('let n = 0;\nfor (const r of docs.objects()) { r.id = 1; if (r.body) n += r.body.length; }\nn'),
    left('let n = 0;\nfor (const r of docs.objects()) if (r.body && r.id) n++;\nn'),
    left("let n = 0;\nfor (const a of docs.array('body')) if (a && a.includes('')) n++;\nn"),
    left('let n = 0;\nfor (const r of docs.objects()) if (r\n  .body && r\n  .body.length > 3) n++;\nn'),
    "const half = docs.filter(d => d.id % 2 === 0);\nlet n = 0;\nfor (const a of half.array('body')) if (a && a.includes('machine learning')) n += a.length;\nn",
    "let n = 0;\nfor (const a of docs.array('id')) if (a && a.length) n++;\nn",
    "let n = 0;\nconst fake = { array: () => ['abc', null, 'machine learning'] };\nfor (const a of fake.array('body')) if (a && a.includes('machine learning')) n += a.length;\nn",
    "String.prototype.includes = function () { return true; };\nlet n = 0;\nfor (const a of docs.array('body')) if (a && a.includes('zzz')) n++;\nn",
    "let n = 0;\nfor (const a of docs.array('nope')) if (a) n++;\nn",
    "let n = 0;\nfor (const a of nope.array('body')) if (a) n++;\nn",
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('text loops on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))(
    '%s: same answers as the loops as written',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      for (const step of SEQUENCES[name]!) {
        const code = typeof step === 'string' ? step : step.code;
        expect(prepareCode(code).code.includes('$sbtRowT'), code).toBe(typeof step === 'string');
        // twice: the second run reads the answers the first kept
        for (let k = 0; k < 2; k++) {
          const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
          expect(runOutcome(a), code).toEqual(runOutcome(b));
        }
      }
    },
    120_000,
  );
});

// Chains whose callbacks read the same features (prelude/fast/textClasses.ts `featureNode`): a filter
// then `.length`, some/every/find, a last map to numbers then the sum, on t.array(col) and on
// objects() rows.
const CHAINS: string[] = [
  "docs.array('body').filter(a => a && a.includes('machine learning')).length",
  "docs.select('body').objects().filter(r => r.body && r.body.includes('machine learning')).length",
  "[docs.array('body').filter(a => a != null && a.length > 40).length, docs.array('full').filter(a => a.length === 2 || a.length === 0).length]",
  "[docs.objects().filter(r => !!r.body && r.body.toLowerCase().includes('quantum')).length, docs.objects().filter(r => r.full.toLowerCase().includes('machine learning') || r.full === 'N/A').length]",
  "[docs.array('body').some(a => a !== null && a.length > 1000), docs.array('body').find(a => a !== null && a.includes('😀')), docs.objects().every(r => r.full.length >= 0)]",
  "docs.array('body').filter(a => a === '' || (a !== null && a.includes('lone'))).filter(a => a !== 'N/A').length",
  // a last map to numbers, counted or summed
  "docs.array('body').map(a => a ? a.length : 0).reduce((s, v) => s + v, 0)",
  "[docs.array('body').filter(a => a !== null).map(a => a.length).reduce((s, v) => s + v, 0), docs.array('full').map(a => a.length).length]",
  "docs.array('body').map(a => (a === 'N/A' ? -1 : a == null ? 0 : a.includes('machine learning') ? 2 : 1)).reduce((s, v) => s + v, 0)",
  "docs.array('full').map(a => a.length).filter(x => x > 3).length",
  "docs.array('full').map(a => a.length > 3).reduce((s, v) => s + v, 0)",
  "docs.array('body').map(a => a && a.length).reduce((s, v) => s + v, 0)",
  // a null row reaches the feature: replayed as written, the TypeError and its place
  "docs.array('body').map(a => a.length).reduce((s, v) => s + v, 0)",
  "docs.array('body').filter(a => a.length > 3).length",
  "docs.objects().filter(r => r.body.includes('x')).length",
  "docs.array('id').filter(a => a.length > 3).length",
];

describe.each(['isolated-vm', 'quickjs'] as const)('text features in chains on %s', (engine) => {
  it('same answers as the chains as written', async () => {
    await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
    await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
    for (const code of CHAINS) {
      expect(prepareCode(code).code.includes('__sbirtools_'), code).toBe(true);
      for (let k = 0; k < 2; k++) {
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    }
  }, 120_000);
});

// A CSV file whose text holds bytes that are not UTF-8 (a lone 0xff, a sequence cut short, an
// overlong form, a surrogate encoded directly): each decodes to U+FFFD, one unit, as the host's
// answers count it; 4-byte characters count two.
describe('text loops over a CSV file with invalid UTF-8', () => {
  const dir = mkdtempSync(join(tmpdir(), 'textloops-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const BAD = [[0xff], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98, 0x80]];
  const parts: Buffer[] = [Buffer.from('id,body\n')];
  for (let i = 0; i < 9000; i++) {
    const text = i % 17 === 0 ? '' : `row ${i} ${i % 5 === 0 ? 'machine learning ' : ''}${'text '.repeat(i % 9)}`;
    parts.push(Buffer.from(`${i},"${text}`));
    if (i % 40 === 7) parts.push(Buffer.from(BAD[((i / 40) % BAD.length) | 0]!), Buffer.from(' tail'));
    parts.push(Buffer.from('"\n'));
  }
  const path = join(dir, 'bad.csv');
  writeFileSync(path, Buffer.concat(parts));
  it.each(['isolated-vm', 'quickjs'] as const)(
    '%s: same answers as the loops as written',
    async (engine) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables: { bad: path } });
      await using plain = await createSandbox({ engine, awardData: false, tables: { bad: path } });
      for (const code of [
        "let s = 0, n = 0;\nfor (const a of bad.array('body')) if (a) { s += a.length; if (a.includes('\\ufffd')) n++; }\n[s, n]",
        "let s = 0;\nfor (const r of bad.objects()) s += r.body == null ? -1 : r.body.length + (r.body.includes('machine learning') ? 1e6 : 0);\ns",
        "bad.array('body').map(a => (a ? a.length : 0)).reduce((s, v) => s + v, 0)",
      ]) {
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(a.ok, code).toBe(true);
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    },
    120_000,
  );
});
