// `sbirtools bundle --target vercel-edge` run in edge-runtime (Vercel's Edge Runtime, loaded the
// way `vercel dev` loads an Edge Function: test/e2e/helpers/vercelEdgeRuntime.ts): the Build Output
// API layout, no `node:` import (and the check that would catch one), the five answers on the
// embedded synthetic sample; the numeric and categorical columns of a larger generated dataset
// fetched file by file from a data folder on a loopback URL; a long-text column over the edge's
// limit refused with its name and the limit.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers/processes.js';
import { FIVE_QUESTIONS } from './helpers/fiveQuestions.js';
import { buildLargeData, exec, expectedAnswers, serveFolder } from './helpers/edgeBundles.js';
import { loadVercelEdgeFunction } from './helpers/vercelEdgeRuntime.mjs';

const work = mkdtempSync(join(tmpdir(), 'sbirtools-vercel-edge-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FUNC = join('.vercel', 'output', 'functions', 'api', 'run.func');
const NODE_IMPORT =
  /\bfrom\s*["'](node:|fs["']|path["']|os["']|crypto["'])|\bimport\(\s*["']node:|require\(\s*["']node:|^\s*import\s*["']node:/m;

async function ask(
  fn: EdgeFunction,
  code: string,
  path = '/api/run',
): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fn.dispatchFetch(`https://sbirtools.vercel.app${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The JavaScript files of a function folder that a `node:` import would hide in. */
function nodeImports(funcDir: string): string[] {
  return readdirSync(funcDir)
    .filter((f) => /\.m?js$/.test(f))
    .filter((f) => NODE_IMPORT.test(readFileSync(join(funcDir, f), 'utf8')));
}

describe('sbirtools bundle --target vercel-edge, in edge-runtime', () => {
  const dir = join(work, 'embedded');
  const funcDir = join(dir, FUNC);

  let r: Awaited<ReturnType<typeof exec>>;
  beforeAll(async () => {
    r = await exec([CLI, 'bundle', dir, '--target', 'vercel-edge']);
  }, 600_000);

  it('writes the Build Output API layout of an Edge Function, within the size limit', () => {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Vercel Edge size \(gzip[^)]*\): [\d.]+ MB; the limit is 1 MB on Hobby, 2 MB on Pro, 4 MB on Enterprise: fits /,
    );
    expect(r.stdout).toContain('vercel deploy --prebuilt');
    // the plans named are the ones the printed size fits; over Hobby's 1 MB the note says how to fit it
    const gzipMb = Number(/Vercel Edge size \(gzip[^)]*\): ([\d.]+) MB/.exec(r.stdout)![1]);
    if (gzipMb > 1) expect(r.stdout).toMatch(/fits Pro, Enterprise\. For Hobby, leave the data out: --data https:/);
    else expect(r.stdout).toMatch(/fits Hobby, Pro, Enterprise\./);
    const config = JSON.parse(readFileSync(join(dir, '.vercel', 'output', 'config.json'), 'utf8'));
    expect(config.version).toBe(3);
    expect(config.routes).toEqual([{ src: '^/(v1/run)?$', dest: '/api/run' }]);
    const vc = JSON.parse(readFileSync(join(funcDir, '.vc-config.json'), 'utf8'));
    expect(vc).toEqual({
      runtime: 'edge',
      entrypoint: 'index.js',
      envVarsInUse: ['SBIRTOOLS_DATA_URL', 'SBIRTOOLS_PRESET'],
    });
    const entry = readFileSync(join(funcDir, vc.entrypoint), 'utf8');
    expect(entry).toMatch(/^import wasmModule from '\.\/quickjs\.wasm\?module';$/m);
    expect(entry).toMatch(/^export default vercelEdgeHandler\(/m);
    expect(entry).toContain('process.env.SBIRTOOLS_DATA_URL');
    expect(readdirSync(funcDir).sort()).toEqual(
      ['.vc-config.json', 'index.js', 'quickjs.wasm', 'sbirtools-data.js', 'sbirtools-edge.mjs'].sort(),
    );
  });

  it('has no node: import, and the checks find one that creeps in', async () => {
    expect(nodeImports(funcDir)).toEqual([]);
    // the same function with one Node import added: the scan names the file, the runtime refuses to load it
    const tainted = join(work, 'tainted', 'run.func');
    cpSync(funcDir, tainted, { recursive: true });
    const lib = join(tainted, 'sbirtools-edge.mjs');
    writeFileSync(lib, `import { gunzipSync } from 'node:zlib';\n${readFileSync(lib, 'utf8')}`);
    expect(nodeImports(tainted)).toEqual(['sbirtools-edge.mjs']);
    await expect(loadVercelEdgeFunction(tainted)).rejects.toThrow(/imports node:zlib/);
  }, 120_000);

  it('answers the five questions on the embedded synthetic sample as the library does', async () => {
    const synthetic = join(work, 'synthetic-data');
    const built = await exec([CLI, 'build-data', synthetic]);
    expect(built.code, built.stderr).toBe(0);
    const expected = await expectedAnswers(synthetic, FIVE_QUESTIONS);
    const fn = await loadVercelEdgeFunction(funcDir);
    for (const q of FIVE_QUESTIONS) {
      const { status, body } = await ask(fn, q.code);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.ok, JSON.stringify(body.error)).toBe(true);
      expect(body.engine.name).toBe('quickjs');
      expect(body.dataset.synthetic).toBe(true);
      expect(body.value, q.name).toEqual(expected[q.name]);
    }
    // the paths config.json routes to the function answer too; others are a 404 naming the right ones
    expect((await ask(fn, 'award_data.numRows()', '/')).body.value).toBe(5000);
    const lost = await ask(fn, '1', '/elsewhere');
    expect(lost.status).toBe(404);
    expect(lost.body.error.message).toContain('/api/run');
    const bad = await ask(fn, 'require("fs")');
    expect(bad.body.error.type).toBe('POLICY_VIOLATION');
  }, 600_000);

  describe('a larger generated dataset from a loopback URL', () => {
    let dataDir = '';
    let host: Awaited<ReturnType<typeof serveFolder>> | undefined;
    let bundled: Awaited<ReturnType<typeof exec>>;
    const remote = join(work, 'remote');

    beforeAll(async () => {
      dataDir = await buildLargeData(work);
      host = await serveFolder(dataDir);
      bundled = await exec([CLI, 'bundle', remote, '--target', 'vercel-edge', '--data', host.url]);
    }, 600_000);
    afterAll(() => host?.close());

    it('answers over numeric and categorical columns, fetching only their files, and refuses the long-text column by name and limit', async () => {
      const { url, requests } = host!;
      expect(bundled.code, bundled.stderr).toBe(0);
      const remoteFunc = join(remote, FUNC);
      expect(readdirSync(remoteFunc)).not.toContain('sbirtools-data.js');
      expect(readFileSync(join(remoteFunc, 'index.js'), 'utf8')).toContain(
        `process.env.SBIRTOOLS_DATA_URL) || ${JSON.stringify(url)}`,
      );
      expect(nodeImports(remoteFunc)).toEqual([]);
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
      // the URL as the deployer sets it: the function's environment variable
      const fn = await loadVercelEdgeFunction(remoteFunc, { SBIRTOOLS_DATA_URL: url });
      for (const q of questions) {
        const { status, body } = await ask(fn, q.code);
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

      const long = await ask(fn, "award_data.filter(d => aq.op.includes(d.Abstract, 'digital twin')).numRows()");
      expect(long.status).toBe(200);
      expect(long.body.ok).toBe(false);
      expect(long.body.error.type).toBe('MEMORY_LIMIT');
      expect(long.body.error.message).toMatch(
        /Column 'Abstract' of award_data is [\d.]+ MB; .*Vercel Edge.*at most 24 MB/,
      );
      expect(requests).not.toContain(fileOf('Abstract'));
    }, 600_000);

    it('refuses to embed a folder over the largest Edge size limit, naming the limit and the way out, and leaves nothing behind', async () => {
      const out = join(work, 'too-large');
      const r = await exec([CLI, 'bundle', out, '--target', 'vercel-edge', '--data', dataDir]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        /vercel-edge function is [\d.]+ MB gzipped, over Vercel's 4 MB Edge Function limit[\s\S]*--data https:/,
      );
      expect(existsSync(out)).toBe(false);
    }, 600_000);

    it('with no URL set, uses the one baked in at bundle time; a host that answers 404 is a DATA_FETCH_FAILED naming it', async () => {
      const { url } = host!;
      expect(bundled.code, bundled.stderr).toBe(0);
      const fn = await loadVercelEdgeFunction(join(remote, FUNC));
      expect((await ask(fn, 'award_data.numRows()')).body.value).toBe(40000);
      const missing = await loadVercelEdgeFunction(join(remote, FUNC), {
        SBIRTOOLS_DATA_URL: `${url}nowhere/`,
      });
      const { status, body } = await ask(missing, 'award_data.numRows()');
      expect(status).toBe(502);
      expect(body.error.type).toBe('DATA_FETCH_FAILED');
      expect(body.error.message).toContain(`${url}nowhere/sbirtools-data.json answered HTTP 404`);
    }, 120_000);
  });
});
