// Bad input: damaged cache files. A cache is built by running once with `cacheDir` set to a temp
// folder; its files are then truncated, given a wrong version or magic, or corrupted inside a
// column, and the next run must get a typed answer and lose nothing: a damaged header is detected
// and the cache rebuilt from the CSV; a corrupted column is a typed DataError (CACHE_CORRUPT) inside
// the run and the cache is rebuilt for the next one; a good cache is never rewritten.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, shutdown } from '../../src/index.js';
import { expectHealthy } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'sbirtools-bad-cache-'));
const PROBE =
  '[award_data.numRows(), award_data.columnNames().length, award_data.columnNames().map((c) => award_data.array(c).length).reduce((a, b) => a + b, 0)]';
let expected: unknown;
let pristineSize = 0;

function cacheFile(dir: string): string {
  const files = readdirSync(join(dir, 'columnar')).filter((f) => f.endsWith('.sbtc') && !f.startsWith('0000'));
  expect(files).toHaveLength(1);
  return join(dir, 'columnar', files[0]!);
}

/** A cache folder built by one run, then its cache file damaged in place by `damage`. */
async function damaged(name: string, damage: (file: string) => void): Promise<string> {
  const dir = join(root, name);
  const r = await run(PROBE, { cacheDir: dir });
  expect(r.value).toEqual(expected);
  // the holder keeps an opened dataset in memory: stop it, so the next run reads the files again
  await shutdown();
  damage(cacheFile(dir));
  return dir;
}

/** The cache in `dir` is whole again: a next run reads it without rewriting it. */
async function expectGoodCache(dir: string): Promise<void> {
  const file = cacheFile(dir);
  expect(statSync(file).size).toBe(pristineSize);
  const mtime = statSync(file).mtimeMs;
  await shutdown();
  const r = await run(PROBE, { cacheDir: dir });
  expect(r.value).toEqual(expected);
  expect(statSync(file).mtimeMs, 'a good cache is not rebuilt').toBe(mtime);
}

beforeAll(async () => {
  const good = join(root, 'good');
  const r = await run(PROBE, { cacheDir: good });
  expect(r.error).toBeUndefined();
  expected = r.value;
  pristineSize = statSync(cacheFile(good)).size;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('damaged cache files', () => {
  for (const [name, damage] of [
    ['truncated to half', (f: string) => truncateSync(f, Math.floor(statSync(f).size / 2))],
    ['truncated inside the header', (f: string) => truncateSync(f, 30)],
    ['empty', (f: string) => truncateSync(f, 0)],
    ['wrong magic', (f: string) => patch(f, 0, Buffer.from('XXXXXXXX'))],
    ['a future version', (f: string) => patch(f, 8, Buffer.from([99, 0, 0, 0]))],
    ['a header checksum mismatch', (f: string) => patch(f, 30, Buffer.from('}}}}'))],
  ] as const) {
    it(`${name}: detected, rebuilt from the CSV, the run unaffected`, async () => {
      const dir = await damaged(name.replace(/\W+/g, '-'), damage);
      const r = await run(PROBE, { cacheDir: dir });
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual(expected);
      await expectGoodCache(dir);
    });
  }

  it('a corrupted column: a typed DataError (CACHE_CORRUPT) inside the run, then rebuilt for the next', async () => {
    const dir = await damaged('column', (f) =>
      patch(f, Math.floor(statSync(f).size * 0.66), Buffer.from([0xff, 0xfe, 0xfd, 0xfc])),
    );
    const r = await run(PROBE, { cacheDir: dir });
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('DataError');
    expect(r.error?.message).toMatch(/corrupt/);
    await shutdown();
    const again = await run(PROBE, { cacheDir: dir });
    expect(again.error).toBeUndefined();
    expect(again.value).toEqual(expected);
    await expectGoodCache(dir);
  });

  it('a good cache stays good: read, never rewritten, and junk beside it changes nothing', async () => {
    const dir = await damaged('junk-beside', () => undefined);
    const file = cacheFile(dir);
    const before = readFileSync(file);
    writeFileSync(join(dir, 'columnar', '0000000000000000.sbtc'), 'SBTCACHE garbage');
    writeFileSync(join(dir, 'columnar', 'notes.txt'), 'x');
    const mtime = statSync(file).mtimeMs;
    const r = await run(PROBE, { cacheDir: dir });
    expect(r.value).toEqual(expected);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('the host is healthy after all of it', async () => {
    await expectHealthy();
  });

  // Reported to the data engineer: the generated synthetic CSV in the cache folder is trusted as
  // is; truncated, it is served (with an honest row count and a new identity) instead of being
  // regenerated. Fix in src/data: check it against its known identity and regenerate.
  it('a truncated synthetic sample in the cache folder is regenerated, not served short', async () => {
    const dir = await damaged('synthetic', () => undefined);
    const csv = join(dir, 'synthetic', readdirSync(join(dir, 'synthetic'))[0]!);
    truncateSync(csv, 100_000);
    const r = await run(PROBE, { cacheDir: dir });
    expect(r.value).toEqual(expected);
  });
});

function patch(file: string, offset: number, bytes: Buffer): void {
  const b = readFileSync(file);
  bytes.copy(b, offset);
  writeFileSync(file, b);
}
