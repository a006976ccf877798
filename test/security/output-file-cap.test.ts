// Attack: saving more bytes than the run's file cap (maxFileBytes): one huge file, many small
// ones, re-saving under new names. The guest is stopped with FileLimitError and a hint, the host's
// FileSink enforces the cap again on its own count, the files saved before stay whole, and the
// session carries on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { FileSink } from '../../src/runtime/engines/fileSink.js';
import { expectHealthy } from './helpers.js';

let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox({ maxFileBytes: 100_000 });
});
afterAll(async () => {
  await box.close();
});

describe('files over the per-run byte cap', () => {
  it('one file over the cap: FileLimitError, nothing saved', async () => {
    const r = await box.run("to_csv(aq.table({ s: Array.from({ length: 20000 }, (_, i) => 'row ' + i) }), 'big.csv')");
    expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'FileLimitError' });
    expect(r.error?.hint).toMatch(/maxFileBytes/);
    expect(r.files).toBeUndefined();
  });

  it('many small files: the ones within the cap are kept whole, the next is refused', async () => {
    const r = await box.run(
      "const t = aq.table({ s: Array.from({ length: 2000 }, (_, i) => 'row ' + i) }); for (let i = 0; i < 100; i++) to_csv(t, 'part' + i + '.csv')",
    );
    expect(r.error).toMatchObject({ name: 'FileLimitError' });
    const total = r.files!.reduce((n, f) => n + f.size, 0);
    expect(total).toBeLessThanOrEqual(100_000);
    expect(r.files!.length).toBeGreaterThan(1);
    for (const f of r.files!) expect(f.bytes!.byteLength).toBe(f.size);
  });

  it('saving the same name again is FileExistsError; the first file is kept', async () => {
    const r = await box.run(
      "const u = aq.table({ s: Array.from({ length: 2000 }, (_, i) => 'row ' + i) }); for (let i = 0; i < 50; i++) to_csv(u, 'same.csv'); 1",
    );
    expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'FileExistsError' });
    expect(r.error?.hint).toMatch(/own name/);
    expect(r.files!.map((f) => f.name)).toEqual(['same.csv']);
  });

  it('more files than the per-run count cap: FileLimitError at the cap, the ones before kept', async () => {
    const r = await box.run(
      "const one = aq.table({ a: [1] }); for (let i = 0; i < 100000; i++) to_json(one, 'f' + i + '.json')",
    );
    expect(r.error).toMatchObject({ name: 'FileLimitError' });
    expect(r.error?.message).toMatch(/limit of 200 files/);
    expect(r.files).toHaveLength(200);
  });

  it('the host FileSink counts on its own', () => {
    const sink = new FileSink(10);
    sink.add('a.bin', 'application/octet-stream', new Uint8Array(6));
    expect(() => sink.add('b.bin', 'application/octet-stream', new Uint8Array(6))).toThrow(/limit of 10 bytes/);
    expect(() => sink.add('c.bin', 'application/octet-stream', 'not bytes')).toThrow(/Uint8Array/);
    expect(() => sink.add('a.bin', 'application/octet-stream', new Uint8Array(1))).toThrow(/already saved/);
    expect(sink.files().map((f) => f.name)).toEqual(['a.bin']);
    const many = new FileSink(1e9);
    for (let i = 0; i < 200; i++) many.add(`f${i}.bin`, 'application/octet-stream', new Uint8Array(1));
    expect(() => many.add('one-more.bin', 'application/octet-stream', new Uint8Array(1))).toThrow(/limit of 200 files/);
  });

  it('the session is unharmed', async () => {
    await expectHealthy(box);
  });
});
