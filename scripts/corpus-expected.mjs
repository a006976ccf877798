// Regenerates test/corpus/expected.json: the pandas answers of the pandas-habits corpus (issue #14).
// Writes the embedded synthetic sample (deterministic) to a temporary CSV, then runs every snippet's
// pandas counterpart with scripts/corpus_expected.py. Needs a built tree (npm run build) and pandas
// (sh scripts/install-pandas.sh prints the interpreter). CI never runs this: the answers are committed.
//   node scripts/corpus-expected.mjs [--python /usr/bin/python3]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSyntheticCsv } from '../dist/src/data/synthetic.js';
import { SNIPPETS } from '../test/corpus/snippets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--python');
const python =
  at > 0
    ? process.argv[at + 1]
    : execFileSync('sh', [join(root, 'scripts/install-pandas.sh')], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop();
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-corpus-'));
try {
  const csv = join(dir, 'award_data.csv');
  await writeSyntheticCsv(csv);
  const snippets = join(dir, 'snippets.json');
  writeFileSync(snippets, JSON.stringify(SNIPPETS));
  const out = join(root, 'test/corpus/expected.json');
  execFileSync(
    python,
    [join(root, 'scripts/corpus_expected.py'), csv, join(root, 'test/corpus/agencies.csv'), snippets, out],
    { stdio: 'inherit' },
  );
  console.log(`wrote ${out} (${SNIPPETS.length} answers)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
