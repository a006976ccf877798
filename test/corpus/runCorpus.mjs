/**
 * Runs the pandas-habits corpus through a real sandbox (built tree) over the embedded synthetic sample
 * plus the small `agencies` table, and judges each answer against pandas (expected.json).
 * Used by test/e2e/pandas-corpus.test.ts and, for the before/after figures in docs/benchmarks.md, as
 *   node test/corpus/runCorpus.mjs [--verbose]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judge } from './compare.mjs';
import { SNIPPETS } from './snippets.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Runs every snippet once (first try) and returns one verdict per snippet. */
export async function runCorpus({ createSandbox, writeSyntheticCsv }) {
  const expected = JSON.parse(readFileSync(join(here, 'expected.json'), 'utf8')).answers;
  const dir = mkdtempSync(join(tmpdir(), 'sbirtools-corpus-'));
  const csv = join(dir, 'award_data.csv');
  await writeSyntheticCsv(csv);
  const box = await createSandbox({
    dataPath: csv,
    tables: { agencies: join(here, 'agencies.csv') },
    maxRows: 10000,
    maxResultBytes: 16 << 20,
    timeoutMs: 30000,
  });
  const verdicts = [];
  try {
    for (const s of SNIPPETS) {
      const result = await box.run(s.js);
      verdicts.push({ id: s.id, cls: s.cls, ...judge(expected[s.id], result, s.anyOrder) });
    }
  } finally {
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return verdicts;
}

/** Share answering correctly, overall and per class. */
export function summarize(verdicts) {
  const by = {};
  for (const v of verdicts) {
    const c = (by[v.cls] ??= { ok: 0, n: 0 });
    c.n++;
    if (v.ok) c.ok++;
  }
  const ok = verdicts.filter((v) => v.ok).length;
  return { ok, n: verdicts.length, rate: ok / verdicts.length, byClass: by };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(here, '../..');
  const { createSandbox } = await import(join(root, 'dist/src/index.js'));
  const { writeSyntheticCsv } = await import(join(root, 'dist/src/data/synthetic.js'));
  const verdicts = await runCorpus({ createSandbox, writeSyntheticCsv });
  if (process.argv.includes('--verbose')) for (const v of verdicts) if (!v.ok) console.log(`FAIL ${v.id}: ${v.why}`);
  console.log(JSON.stringify(summarize(verdicts), null, 1));
}
