// Attack: a table file that drives the decoder itself over its limits: so many rows that the
// decode heap overflows, JSON nested deep enough to overflow the parser's stack, and a decode
// slower than its deadline. Decoding runs in a worker thread with resourceLimits and a timer:
// the worker is killed, the caller gets a typed DataError, and the host process and an open
// session carry on (they never shared the worker's heap or stack).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { expectHealthy } from './helpers.js';

let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox();
});
afterAll(async () => {
  await box.close();
});

const rows = (n: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `{"id":${i},"text":"row ${i} ${'x'.repeat(40)}"}`).join('\n'));

describe('decoder overruns', () => {
  it('a heap overrun kills the worker: DATA_TOO_LARGE', async () => {
    const err = await decodeInWorker('t', rows(400_000), 'big.ndjson', 'ndjson', { heapMb: 24 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_TOO_LARGE');
    expect((err as DataError).hint).toMatch(/more than fits in memory/);
  });

  it('JSON nested 1,000,000 deep: a typed error, not a crash', async () => {
    const deep = Buffer.from(`[${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}]`);
    const err = await decodeInWorker('t', deep, 'deep.json', 'json').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect(['DATA_CORRUPT', 'DATA_UNSUPPORTED', 'DATA_DECODE_FAILED']).toContain((err as DataError).code);
  });

  it('a decode past its deadline is stopped: DATA_DECODE_FAILED', async () => {
    const err = await decodeInWorker('t', rows(200_000), 'slow.ndjson', 'ndjson', { timeoutMs: 5 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_DECODE_FAILED');
  });

  it('the host and a session opened before are unharmed', async () => {
    await expectHealthy(box);
  });
});
