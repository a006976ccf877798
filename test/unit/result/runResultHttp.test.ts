import { describe, expect, it } from 'vitest';
import { runResultHttp, runResultResponse } from '../../../src/result/runResultHttp.js';
import type { RunResult } from '../../../schema/result.js';
import { PRESETS } from '../../../schema/limits.js';

const base: RunResult = {
  ok: true,
  stdout: '',
  stderr: '',
  stats: { wallMs: 1, cpuMs: 1, heapUsedMb: 1 },
  truncated: { stdout: false, value: false },
  limits: PRESETS.standard,
} as RunResult;

describe('runResultHttp: the one run -> HTTP mapping', () => {
  it('answers 200 with no-store and the result as JSON; a guest error is still a 200', () => {
    const ok = runResultHttp({ ...base, value: 42 });
    expect(ok.status).toBe(200);
    expect(ok.headers).toEqual({ 'content-type': 'application/json', 'cache-control': 'no-store' });
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: 42 });
    expect(
      runResultHttp({ ...base, ok: false, error: { type: 'RUNTIME_ERROR', message: 'x' } } as RunResult).status,
    ).toBe(200);
  });

  it('answers QUEUE_FULL with 503 and retry-after, and adds the caller headers last', () => {
    const busy = runResultHttp({ ...base, ok: false, error: { type: 'QUEUE_FULL', message: 'full' } } as RunResult, {
      'sbirtools-code-ran': 'false',
    });
    expect(busy.status).toBe(503);
    expect(busy.headers).toMatchObject({
      'retry-after': '1',
      'sbirtools-code-ran': 'false',
      'cache-control': 'no-store',
    });
  });

  it("gives each file's bytes as base64 (never a JSON object of byte indexes)", async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const view = new Uint8Array(new Uint8Array([9, ...bytes, 9]).buffer, 1, bytes.length); // an offset view
    const res = runResultResponse({
      ...base,
      files: [{ name: 'b.bin', mediaType: 'application/octet-stream', size: 5, bytes: view }],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { files: unknown[] };
    expect(body.files).toEqual([
      { name: 'b.bin', mediaType: 'application/octet-stream', size: 5, base64: Buffer.from(bytes).toString('base64') },
    ]);
  });
});
