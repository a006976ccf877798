// Every example in docs/prelude.md runs: a ```js block must succeed (```js error: must fail), and a
// following ```text block must equal what it printed (stdout, then stderr; for `js error` blocks the
// error as "Name: message"). Blocks run in order in one session. UPDATE_DOCS=1 rewrites the
// ```text blocks from the actual output (review the diff).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness, type Outcome } from './harness.js';

const DOC = fileURLToPath(new URL('../../../docs/prelude.md', import.meta.url));
const BLOCK = /```(js(?: error)?)\n([\s\S]*?)```\n(?:\n?```text\n([\s\S]*?)```\n)?/g;

interface Example {
  kind: string;
  code: string;
  expected?: string;
  index: number;
  length: number;
}

function examples(md: string): Example[] {
  return [...md.matchAll(BLOCK)].map((m) => ({
    kind: m[1],
    code: m[2],
    expected: m[3],
    index: m.index!,
    length: m[0].length,
  }));
}

function actual(r: Outcome, kind: string): string {
  if (kind === 'js error') return r.ok ? '(no error)\n' : `${r.error!.name}: ${r.error!.message}\n`;
  return r.stdout + (r.stderr ? r.stderr : '');
}

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

describe('docs/prelude.md', () => {
  const md = readFileSync(DOC, 'utf8');
  const list = examples(md);
  test('has examples', () => expect(list.length).toBeGreaterThan(20));
  if (process.env.UPDATE_DOCS) {
    test('update the expected outputs', async () => {
      let out = '';
      let at = 0;
      for (const ex of list) {
        const r = await h.run(ex.code);
        const text = actual(r, ex.kind);
        out +=
          md.slice(at, ex.index) +
          '```' +
          ex.kind +
          '\n' +
          ex.code +
          '```\n' +
          (text.trim() ? '\n```text\n' + text.replace(/\n*$/, '\n') + '```\n' : '');
        at = ex.index + ex.length;
      }
      writeFileSync(DOC, out + md.slice(at));
    });
    return;
  }
  list.forEach((ex, i) => {
    test(`example ${i + 1}: ${ex.code.split('\n')[0].slice(0, 60)}`, async () => {
      const r = await h.run(ex.code);
      if (ex.kind === 'js') expect(r.ok, r.error ? `${r.error.name}: ${r.error.message}` : '').toBe(true);
      else expect(r.ok).toBe(false);
      if (ex.expected !== undefined) expect(actual(r, ex.kind).replace(/\n*$/, '\n')).toBe(ex.expected);
    });
  });
});
