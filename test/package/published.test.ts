import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_BOUNDS } from './bounds.js';

/**
 * The package as npm users get it: packed the way `npm pack` packs it (the same prepack step),
 * installed from the tarball into an empty project (no workspace link, no dev dependencies, no
 * optional peers), then imported, run through npx, compiled by a strict TypeScript consumer and
 * required from CommonJS — on whichever Node runs this suite (scripts/verify-node.sh runs it on
 * 22, 24 and 26; CI's own Node is 20, the legacy line).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function sh(
  cmd: string,
  args: string[],
  opts: SpawnSyncOptions = {},
): { status: number | null; stdout: string; stderr: string } {
  const env = {
    ...process.env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...(opts.env ?? {}),
  };
  delete env.NODE_OPTIONS; // vitest's own loader options must not reach the consumer
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000, ...opts, env });
  return { status: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

function duBytes(dir: string): number {
  const r = sh('du', ['-sb', dir]);
  return Number(r.stdout.split('\t')[0]);
}

let work = '';
let tarball = '';
let consumer = '';
let files: Array<{ path: string; size: number }> = [];
let packed: {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: Record<string, string>;
};
let installBytes = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sbirtools-package-'));
  // Pack from a copy of what `npm pack` reads (the tracked files it lists and the built dist/):
  // packing the repo itself would run `prepare` (a rebuild of dist/ under the other test files).
  const stage = join(work, 'stage');
  mkdirSync(stage);
  const listed = sh('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  expect(listed.status, listed.stderr).toBe(0);
  for (const f of JSON.parse(listed.stdout)[0].files as Array<{ path: string }>) {
    mkdirSync(join(stage, f.path, '..'), { recursive: true });
    cpSync(join(ROOT, f.path), join(stage, f.path));
  }
  mkdirSync(join(stage, 'scripts'), { recursive: true });
  cpSync(join(ROOT, 'scripts', 'pack-manifest.mjs'), join(stage, 'scripts', 'pack-manifest.mjs'));
  const strip = sh(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: stage });
  expect(strip.status, strip.stderr).toBe(0);
  const pack = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: stage });
  expect(pack.status, pack.stderr).toBe(0);
  const info = JSON.parse(pack.stdout)[0] as { filename: string; files: Array<{ path: string; size: number }> };
  tarball = join(work, info.filename);
  files = info.files;
  packed = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  const install = sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], { cwd: consumer });
  expect(install.status, `npm install failed:\n${install.stdout}\n${install.stderr}`).toBe(0);
  expect(install.stderr, 'an install prints no engine warning on a supported Node').not.toMatch(/EBADENGINE/);
  installBytes = duBytes(join(consumer, 'node_modules'));
}, 15 * 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds only what runs: no source maps, no stale files, within the size and count bounds', () => {
    const paths = files.map((f) => f.path);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => /(^|\/)_old|\.test\.|(^|\/)test\/|\.tsbuildinfo$/.test(p))).toEqual([]);
    // TypeScript sources are not shipped (their compiled .js and .d.ts are)
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(files.length).toBeLessThanOrEqual(PACKAGE_BOUNDS.maxFiles);
    expect(statSync(tarball).size).toBeLessThanOrEqual(PACKAGE_BOUNDS.maxTarballBytes);
  });

  it('ships the one-file bundles of the holder and of its column decode worker', () => {
    const paths = new Set(files.map((f) => f.path));
    // columnWorkers.ts starts dist/holder/columnWorker.cjs when it is there: without it every cold
    // Parquet or Arrow table waits for ~90 modules to load in each worker
    for (const f of ['dist/holder/holderMain.cjs', 'dist/holder/columnWorker.cjs']) expect(paths, f).toContain(f);
  });

  it('points every exports target and bin at a file it ships, each with types', () => {
    const paths = new Set(files.map((f) => f.path));
    const targets: string[] = [];
    for (const [sub, target] of Object.entries(packed.exports)) {
      if (typeof target === 'string') {
        targets.push(target);
        continue;
      }
      const conds = target as Record<string, string>;
      expect(Object.keys(conds)[0], `${sub}: "types" must come first`).toBe('types');
      expect(conds.default ?? conds.import, `${sub} has a runtime target`).toBeTruthy();
      targets.push(...Object.values(conds));
    }
    for (const t of [...targets, ...Object.values(packed.bin)]) expect(paths, t).toContain(t.replace(/^\.\//, ''));
  });

  it('publishes a manifest without the repo-only Node 20 engine and with exact Node lines', () => {
    expect(packed.optionalDependencies ?? {}).not.toHaveProperty('isolated-vm-legacy');
    expect(packed.engines?.node).toBe(PACKAGE_BOUNDS.engines);
  });
});

describe('installed from the tarball', () => {
  it(`is small: node_modules within ${PACKAGE_BOUNDS.maxInstallBytes / 1e6} MB`, () => {
    expect(installBytes).toBeGreaterThan(1e6);
    expect(installBytes).toBeLessThanOrEqual(PACKAGE_BOUNDS.maxInstallBytes);
  });

  it('imports every exports subpath', () => {
    const subpaths = Object.keys(packed.exports).filter((s) => s !== './package.json');
    const code = `for (const s of ${JSON.stringify(subpaths)}) { const m = await import(s === '.' ? 'sbirtools' : 'sbirtools/' + s.slice(2)); console.log(s, Object.keys(m).length); }`;
    const r = sh(process.execPath, ['--input-type=module', '-e', code], { cwd: consumer });
    expect(r.status, r.stderr).toBe(0);
    for (const s of subpaths) expect(r.stdout).toMatch(new RegExp(`^${s.replace('.', '\\.')} [1-9]`, 'm'));
    const schema = sh(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const s = await import('sbirtools/schema'); console.log(s.RunResultSchema.safeParse({}).success, typeof s.LimitsSchema.parse)",
      ],
      { cwd: consumer },
    );
    expect(schema.stdout.trim()).toBe('false function');
  });

  it('runs the CLI through npx and answers on the embedded sample', () => {
    const r = sh(
      'npx',
      ['--no-install', 'sbirtools', 'run', '--json', '--code', 'print(award_data.numRows()); 6 * 7'],
      { cwd: consumer, env: { SBIRTOOLS_CACHE_DIR: join(work, 'cache') } },
    );
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { value: number; engine: { name: string } };
    expect(result.value).toBe(42);
    if (result.engine.name === 'quickjs') {
      // no native engine here (Node 20 without the legacy addon): the user is told once, on stderr
      expect(r.stderr).toMatch(/SBIRTOOLS_ENGINE_FALLBACK/);
    }
  });

  it('answers require() from CommonJS (Node require(esm))', () => {
    const file = join(consumer, 'use.cjs');
    writeFileSync(
      file,
      "const s = require('sbirtools'); const schema = require('sbirtools/schema'); console.log(typeof s.run, typeof s.createSandbox, typeof schema.RunResultSchema.parse);\n",
    );
    const r = sh(process.execPath, [file], { cwd: consumer });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('function function function');
  });

  for (const resolution of ['node16', 'bundler'] as const) {
    it(`compiles a strict TypeScript consumer (moduleResolution ${resolution}, skipLibCheck false, no optional peers)`, () => {
      const dir = join(consumer, `ts-${resolution}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            lib: ['ES2023', 'ESNext.Disposable'],
            module: resolution === 'node16' ? 'node16' : 'esnext',
            moduleResolution: resolution,
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules', '@types')],
          },
          files: ['index.ts'],
        }),
      );
      writeFileSync(
        join(dir, 'index.ts'),
        [
          "import { run, createSandbox, createPool, RunResultSchema, openAITool, anthropicTool, type RunResult, type SandboxOptions } from 'sbirtools';",
          "import { LimitsSchema, type RunError } from 'sbirtools/schema';",
          'export async function answer(code: string): Promise<number> {',
          "  const opts: SandboxOptions = { preset: 'standard' };",
          '  const r: RunResult = await run(code, opts);',
          '  const e: RunError | undefined = r.error;',
          '  void createSandbox; void createPool; void openAITool; void anthropicTool; void LimitsSchema; void e;',
          '  return RunResultSchema.parse(r).value as number;',
          '}',
          '',
        ].join('\n'),
      );
      // consumers' own copy of package.json "type": "module" sits one folder up
      const r = sh(process.execPath, [TSC, '-p', dir], { cwd: dir });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    });
  }
});
