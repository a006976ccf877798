// `sbirtools bundle --target workers` run in workerd (the Cloudflare Workers runtime) through
// miniflare: the five answers on the embedded synthetic sample; the numeric and categorical
// columns of a larger generated dataset fetched file by file from a data folder on a loopback URL; a long-text column
// over the edge's limit refused with its name and the limit.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Miniflare } from 'miniflare';
import { CLI } from './helpers/processes.js';
import { FIVE_QUESTIONS } from './helpers/fiveQuestions.js';
import { buildLargeData, exec, expectedAnswers, serveFolder } from './helpers/edgeBundles.js';

const work = mkdtempSync(join(tmpdir(), 'sbirtools-workers-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** workerd running the bundle the way wrangler.toml describes it (main, the Data rule, the default CompiledWasm rule). */
function workerd(dir: string, bindings: Record<string, string> = {}): Miniflare {
  const toml = readFileSync(join(dir, 'wrangler.toml'), 'utf8');
  const main = /^main = "(.+)"$/m.exec(toml)![1]!;
  expect(/type = "Data"\s*\nglobs = \["\*\*\/\*\.bin"\]/.test(toml)).toBe(true);
  return new Miniflare({
    scriptPath: join(dir, main),
    modules: true,
    modulesRoot: dir,
    modulesRules: [
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
      { type: 'Data', include: ['**/*.bin'] },
    ],
    compatibilityDate: /^compatibility_date = "(.+)"$/m.exec(toml)![1]!,
    bindings,
  });
}

async function ask(mf: Miniflare, code: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await mf.dispatchFetch('http://worker/', { method: 'POST', body: JSON.stringify({ code }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('sbirtools bundle --target workers, in workerd', () => {
  it('has no node: import, fits the size limit, and answers the five questions on the embedded synthetic sample', async () => {
    const dir = join(work, 'embedded');
    const r = await exec([CLI, 'bundle', dir, '--target', 'workers']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Workers size \(gzip[^)]*\): [\d.]+ MB of the 10 MB limit/);
    const edge = readFileSync(join(dir, 'sbirtools-edge.mjs'), 'utf8');
    expect(edge).not.toMatch(/\bfrom\s*["']node:|\bimport\(\s*["']node:|require\(\s*["']node:/);
    expect(readFileSync(join(dir, 'worker.mjs'), 'utf8')).toMatch(/import wasmModule from '\.\/quickjs\.wasm'/);

    const synthetic = join(work, 'synthetic-data');
    const built = await exec([CLI, 'build-data', synthetic]);
    expect(built.code, built.stderr).toBe(0);
    const expected = await expectedAnswers(synthetic, [...FIVE_QUESTIONS]);
    const mf = workerd(dir);
    try {
      for (const q of FIVE_QUESTIONS) {
        const { status, body } = await ask(mf, q.code);
        expect(status, JSON.stringify(body)).toBe(200);
        expect(body.ok, JSON.stringify(body.error)).toBe(true);
        expect(body.engine.name).toBe('quickjs');
        expect(body.dataset.synthetic).toBe(true);
        expect(body.value, q.name).toEqual(expected[q.name]);
      }
      const bad = await ask(mf, 'require("fs")');
      expect(bad.body.error.type).toBe('POLICY_VIOLATION');
    } finally {
      await mf.dispose();
    }
  }, 600_000);

  describe('a larger generated dataset from a loopback URL', () => {
    let dataDir = '';
    let host: Awaited<ReturnType<typeof serveFolder>> | undefined;
    let url = '';
    let requests: string[] = [];

    beforeAll(async () => {
      dataDir = await buildLargeData(work);
      // a static host: the folder as built, whole files by GET
      host = await serveFolder(dataDir);
      ({ url, requests } = host);
    }, 600_000);
    afterAll(() => host?.close());

    it('answers over numeric and categorical columns, fetching only their column files, and refuses the long-text column by name and limit', async () => {
      const dir = join(work, 'remote');
      const r = await exec([CLI, 'bundle', dir, '--target', 'workers', '--data', url]);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(dir, 'wrangler.toml'), 'utf8')).toContain(`SBIRTOOLS_DATA_URL = "${url}"`);
      const questions = [
        { name: 'rows', code: 'award_data.numRows()' },
        // (array(), not objects(): objects() may read any column, so the edge would fetch them all)
        { name: 'group-by', code: "award_data.groupby('Agency').count().orderby('Agency').array('count')" },
        {
          name: 'sum-by-phase',
          code: "award_data.groupby('Phase').rollup({ total: d => aq.op.sum(d['Award Amount']) }).orderby('Phase').array('total')",
        },
        { name: 'value-counts', code: "value_counts(award_data, 'State').orderby('State').array('count')" },
      ];
      const expected = await expectedAnswers(dataDir, questions);
      const mf = workerd(dir, { SBIRTOOLS_DATA_URL: url });
      try {
        for (const q of questions) {
          const { status, body } = await ask(mf, q.code);
          expect(status, JSON.stringify(body)).toBe(200);
          expect(body.ok, JSON.stringify(body.error)).toBe(true);
          expect(body.dataset.rows).toBe(40000);
          expect(body.value, q.name).toEqual(expected[q.name]);
        }
        // the manifest, then only the column files the runs named: never the Abstract's (~55 MB inflated)
        const manifest = JSON.parse(readFileSync(join(dataDir, 'sbirtools-data.json'), 'utf8'));
        const fileOf = (name: string) => manifest.columns.find((c: { name: string }) => c.name === name).file;
        expect(requests[0]).toBe('sbirtools-data.json');
        expect(new Set(requests.slice(1))).toEqual(new Set(['Agency', 'Phase', 'Award Amount', 'State'].map(fileOf)));

        const long = await ask(mf, "award_data.filter(d => aq.op.includes(d.Abstract, 'digital twin')).numRows()");
        expect(long.status).toBe(200);
        expect(long.body.ok).toBe(false);
        expect(long.body.error.type).toBe('MEMORY_LIMIT');
        expect(long.body.error.message).toMatch(/Column 'Abstract' of award_data is [\d.]+ MB; .*at most 24 MB/);
        // reached without naming it (a whole row): the guest's error names it too
        const rows = await ask(mf, 'award_data.objects({ limit: 1 })');
        expect(rows.body.ok).toBe(false);
        expect(rows.body.error.message).toMatch(
          /Column '(Abstract|[^']+)' of award_data is [\d.]+ MB; .*at most 24 MB/,
        );
      } finally {
        await mf.dispose();
      }
    }, 600_000);
  });
});
