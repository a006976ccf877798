import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../../src/capsule/readCapsules.js';

const LOG_MODULE = pathToFileURL(resolve('dist/src/capsule/capsuleLog.js')).href;

// One writer process: appends `count` records whose outputs are `size` bytes of its own letter.
const WRITER = `
const { appendCapsule } = await import(process.env.LOG_MODULE);
const [path, id, count] = [process.env.LOG, process.env.ID, Number(process.env.COUNT)];
const base = { v: 1, time: new Date().toISOString(), code: 'x', codeHash: 'sha256:0', dataset: null, prelude: 'p', sbirtools: '0', limits: { memoryLimitMb: 64, timeoutMs: 1000, maxCodeBytes: 1000, maxOutputBytes: 1000, maxResultBytes: 1000, maxRows: 10 }, deterministic: null, result: { ok: true, stdoutHash: 'h', valueHash: 'h' }, stats: { wallMs: 1, cpuMs: 1, heapUsedMb: 1 } };
await Promise.all(Array.from({ length: count }, (_, i) => {
  // sizes vary from 1 KiB to 700 KiB: above the pipe buffer and above fs.appendFile's 512 KiB chunk
  const size = [1024, 70 * 1024, 300 * 1024, 700 * 1024][i % 4];
  return appendCapsule(path, { ...base, session: { id, seq: i + 1 }, outputs: { stdout: id.repeat(size), truncated: { stdout: false, value: false } } });
}));
`;

function writer(log: string, id: string, count: number): Promise<number | null> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER], {
    env: { ...process.env, LOG: log, ID: id, COUNT: String(count), LOG_MODULE },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((done) => child.once('exit', done));
}

describe('capsule log with several writer processes', () => {
  it('stays valid JSONL: every record whole, none lost, none interleaved', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'sbirtools-concurrent-')), 'runs.jsonl');
    const ids = ['a', 'b', 'c', 'd'];
    const codes = await Promise.all(ids.map((id) => writer(log, id, 12)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const text = readFileSync(log, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const entries = await readCapsules(log); // throws on any torn line
    expect(entries).toHaveLength(48);
    for (const { record } of entries) {
      const id = record.session!.id;
      // a record holds only its own writer's letter: no bytes of another line inside it
      expect(record.outputs!.stdout).toMatch(new RegExp(`^${id}+$`));
    }
    for (const id of ids)
      expect(
        entries
          .filter((e) => e.record.session!.id === id)
          .map((e) => e.record.session!.seq)
          .sort((x, y) => x - y),
      ).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });
});
