// Long text through the real holder process (bridge.fetchTextPage in isolatedVmSession.ts): decoded by
// the host, cached in the session, and bounded by the isolate's memory limit. A text column larger
// than the whole isolate can still be scanned row by row; holding all of it is a MEMORY_LIMIT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/index.js';

const ROWS = 60_000;
const UNICODE = ['Café ümlaut', '✓ check\r\nline', '😀 𝔘 pair', '', 'plain'];
/** Row i: ~1.3 KB, mostly ASCII; some rows unicode, empty or null. */
function textOf(i: number): string | null {
  if (i % 97 === 0) return null;
  const tag = UNICODE[i % UNICODE.length]!;
  return `${i} ${tag} ${'lorem ipsum dolor '.repeat(70 + (i % 5))}`;
}

let box: Sandbox;
let expectedChars = 0;
let expectedUnicode = 0;
beforeAll(async () => {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: i, body: textOf(i) }));
  for (const r of rows) {
    if (r.body === null) continue;
    expectedChars += r.body.length;
    if (r.body.includes('😀')) expectedUnicode++;
  }
  // ~80 MB of text in an isolate limited to 64 MB
  box = await createSandbox({ awardData: false, tables: { docs: rows }, memoryLimitMb: 64, timeoutMs: 60_000 });
}, 120_000);
afterAll(async () => box?.close());

describe('long text in the holder process', () => {
  it('a row-by-row scan of text larger than the isolate succeeds, twice, with exact answers', async () => {
    const code = `let chars = 0, emoji = 0;
const n = docs.numRows();
for (let i = 0; i < n; i++) { const t = docs.get('body', i); if (t != null) { chars += t.length; if (t.includes('😀')) emoji++; } }
[chars, emoji, docs.get('body', 0), docs.get('body', 1), docs.get('body', 4)]`;
    for (let k = 0; k < 2; k++) {
      const r = await box.run(code);
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual([expectedChars, expectedUnicode, null, textOf(1), textOf(4)]);
    }
  }, 120_000);

  it('an Arquero filter over the text agrees with the host', async () => {
    const r = await box.run("docs.filter(d => contains(d.body, 'café', { case: false })).numRows()");
    expect(r.value).toBe(
      Array.from({ length: ROWS }, (_, i) => textOf(i)).filter((t) => t?.toLowerCase().includes('café')).length,
    );
  }, 120_000);

  it('the session still has room for its own data after scanning', async () => {
    const r = await box.run('new Array(2_000_000).fill(0.5).length');
    expect(r.value).toBe(2_000_000);
  }, 120_000);

  it('holding the whole column is over the limit: a MEMORY_LIMIT result, and the sandbox goes on', async () => {
    const r = await box.run("const all = docs.array('body'); all.length");
    expect(r.ok).toBe(false);
    expect(r.error?.type).toBe('MEMORY_LIMIT');
    const after = await box.run("docs.get('body', 1)");
    expect(after.value).toBe(textOf(1));
  }, 120_000);
});
