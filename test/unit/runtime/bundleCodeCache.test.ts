// The holder process starts from a loader that compiles its bundle with the V8 code cache beside it
// (scripts/code-cache-boot.mjs): the first start that finds none writes it, later starts take it; a
// damaged one is compiled past and replaced. The bundle holds no import(): on Node 20 a script
// compiled from a code cache through node:vm cannot import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING),
// which broke every QuickJS session of a cached holder.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'acorn';
import { simple } from 'acorn-walk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderEntryPath } from '../../../src/core/paths.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DIST = join(ROOT, 'dist', 'holder');
let dir: string;
let holder: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-bundle-cc-'));
  holder = join(dir, 'holder');
  mkdirSync(holder);
  for (const f of ['holderBoot.cjs', 'holderMain.cjs']) copyFileSync(join(DIST, f), join(holder, f));
  // the bundles resolve isolated-vm (and QuickJS's WASM) from node_modules, as in an install
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start the holder's loader alone (no IPC: it loads, then exits) and read its report. */
function startHolder(): { holderCodeCache: string; written: boolean } {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', join(holder, 'holderBoot.cjs')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', SBIRTOOLS_CODE_CACHE_REPORT: '1' },
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stderr.trim().split('\n').pop()!);
}

describe('the holder started through its code cache loader', () => {
  it('the holder writes its cache on its first start and takes it on the next; a damaged one is replaced', () => {
    expect(startHolder()).toEqual({ holderCodeCache: 'none', written: true });
    expect(existsSync(join(holder, 'holderMain.cjs.codecache'))).toBe(true);
    expect(startHolder()).toEqual({ holderCodeCache: 'accepted', written: false });
    const file = join(holder, 'holderMain.cjs.codecache');
    const bad = readFileSync(file);
    bad[bad.length - 10]! ^= 0xff;
    writeFileSync(file, bad);
    expect(startHolder()).toEqual({ holderCodeCache: 'none', written: true });
    expect(startHolder()).toEqual({ holderCodeCache: 'accepted', written: false });
    expect(readdirSync(holder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('the loader writes a warm cache once when the holder asks (its code check compiled), and the next start takes it as warm', () => {
    const file = join(holder, 'holderMain.cjs.codecache');
    const warmStart = (): { holderCodeCache: string; warm: boolean; kept: boolean[]; magic: string } => {
      // the holder's side of the contract (src/runtime/holder/holderCodeCache.ts), driven by hand
      const driver = join(dir, 'drive.cjs');
      writeFileSync(
        driver,
        `require(${JSON.stringify(join(holder, 'holderBoot.cjs'))});
        const c = globalThis[Symbol.for('sbirtools.holderCodeCache')];
        const warm = c.warm;
        const kept = [c.keepWarm(), c.keepWarm()];
        process.stdout.write(JSON.stringify({ warm, kept }));`,
      );
      const r = spawnSync(process.execPath, ['--no-node-snapshot', driver], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', SBIRTOOLS_CODE_CACHE_REPORT: '1' },
        timeout: 120_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stderr.trim().split('\n').pop()!);
      return { ...report, ...JSON.parse(r.stdout), magic: readFileSync(file).subarray(0, 20).toString('latin1') };
    };
    rmSync(file, { force: true });
    startHolder(); // a plain cache, made after the top level ran
    const plainSize = readFileSync(file).length;
    // not warm yet: the first keepWarm writes, the second does nothing
    expect(warmStart()).toMatchObject({
      holderCodeCache: 'accepted',
      warm: false,
      kept: [true, false],
      magic: 'SBIRTOOLS-HOLDERCCW1',
    });
    // the next start reads the warm cache: accepted, nothing to write
    expect(warmStart()).toMatchObject({
      holderCodeCache: 'accepted',
      warm: true,
      kept: [false, false],
      magic: 'SBIRTOOLS-HOLDERCCW1',
    });
    expect(startHolder()).toEqual({ holderCodeCache: 'accepted', written: false });
    // The warm cache holds what the plain one held, give or take the functions V8's GC flushed in
    // between (Node 26 in CI wrote one 40 bytes smaller): not a byte count, but not a stub either.
    expect(readFileSync(file).length).toBeGreaterThan(plainSize * 0.95);
    expect(readdirSync(holder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('the holder is started through its loader', () => {
    expect(holderEntryPath()).toBe(join(DIST, 'holderBoot.cjs'));
  });

  it('its bundle holds no import() expression', () => {
    for (const f of ['holderMain.cjs']) {
      const ast = Parser.parse(readFileSync(join(DIST, f), 'utf8'), { ecmaVersion: 'latest', sourceType: 'script' });
      let imports = 0;
      simple(ast, { ImportExpression: () => imports++ });
      expect(imports, f).toBe(0);
    }
  });
});
