// What crosses between the host and a holder process (runtime/holder/frameChannel.ts: JSON IPC for
// a run and its small reply, V8 frames for an open's typed arrays, saved files and large replies)
// arrives exactly as it does in an inline session, where nothing crosses a process boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown, type RunResult, type Sandbox } from '../../../src/index.js';
import { DataError } from '../../../src/data/errors.js';

const ROWS = Array.from({ length: 3000 }, (_, i) => ({
  x: i % 7 === 0 ? null : i / 3,
  neg: i === 1 ? -0 : -i,
  s: `row ${i} \u00e9\u{1F600} "quoted" \\ back`,
}));

const PROGRAMS = {
  // a columnar table opened in the holder (typed arrays in the open request)
  tableSum: "t.array('x').reduce((a, b) => a + (b ?? 0), 0)",
  tableRow: 't.objects({ limit: 3 })',
  small: '1',
  nonFinite: '[NaN, Infinity, -Infinity, -0, 1e308 * 10]',
  // over 64 Ki UTF-16 units of outcome: a framed reply
  largeValue: "Array.from({ length: 20000 }, (_, i) => 'v' + i + '\u00e9')",
  largeStdout: "for (let i = 0; i < 8000; i++) print('line ' + i + ' \u{1F600}'); 2",
  runtimeError: 'const a = null;\na.b',
  syntaxError: 'let = ;',
  // saved files: bytes in the reply (a framed reply)
  savedFile: "to_csv(t.slice(0, 50), 'part.csv'); 3",
  deterministic: 'Math.random() + Date.now()',
  // lone surrogates in the source, the output and the value survive JSON both ways
  loneSurrogates: "// \ud800 in a comment\nprint('a\\ud800b'); 'c\\udc00' + '\ud83d'",
} as const;

let inProcess: Sandbox;
let inline: Sandbox;
beforeAll(async () => {
  inProcess = await createSandbox({ awardData: false, tables: { t: ROWS }, deterministic: true });
  inline = await createSandbox({ awardData: false, tables: { t: ROWS }, deterministic: true, isolation: 'inline' });
});
afterAll(async () => {
  await inProcess.close();
  await inline.close();
  await shutdown();
});

/** A result without what differs between any two runs (timings, heap). */
function comparable(r: RunResult): unknown {
  const { stats: _stats, ...rest } = r;
  return rest;
}

describe('the host <-> holder channel', () => {
  it.each(Object.entries(PROGRAMS))('%s: a holder process answers as an inline session does', async (_id, code) => {
    const [a, b] = [await inProcess.run(code), await inline.run(code)];
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.stats).toEqual({ wallMs: expect.any(Number), cpuMs: expect.any(Number), heapUsedMb: expect.any(Number) });
  });

  it('a saved file arrives with its bytes as a Uint8Array', async () => {
    const r = await inProcess.run(PROGRAMS.savedFile);
    expect(r.files).toHaveLength(1);
    expect(r.files![0]!.bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(r.files![0]!.bytes).split('\n')[0]).toBe('x,neg,s');
  });

  it('streamed output comes before the reply, as the holder sent it', async () => {
    const pieces: string[] = [];
    let replied = false;
    const order: boolean[] = [];
    const code =
      "print('a'.repeat(70000)); let n = 0; for (let i = 0; i < 3e7; i++) n += i % 3; print('b', n); 'x'.repeat(70000)";
    const r = await inProcess.run(code, {
      onOutput: (_s, text) => {
        pieces.push(text);
        order.push(replied);
      },
    });
    replied = true;
    expect(pieces.join('')).toBe(r.stdout);
    expect(order.every((after) => !after)).toBe(true);
    expect(comparable(r)).toEqual(comparable(await inline.run(code)));
  });

  it('many runs in flight on one holder get their own replies, small and framed mixed', async () => {
    const boxes = await Promise.all([1, 2, 3].map(() => createSandbox({ awardData: false, tables: { t: ROWS } })));
    try {
      const codes = ['1 + 1', PROGRAMS.largeValue, PROGRAMS.savedFile, "'s'.repeat(10)"];
      const results = await Promise.all(
        boxes.flatMap((box) => codes.map(async (code) => [code, await box.run(code)] as const)),
      );
      for (const [code, r] of results) expect(comparable(r)).toEqual(comparable(await inline.run(code)));
    } finally {
      await Promise.all(boxes.map((b) => b.close()));
    }
  });

  it('a data error raised in the holder reaches the caller as a DataError with its code', async () => {
    const err = await createSandbox({ dataPath: '/nonexistent/awards.csv' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toMatch(/^DATA_/);
  });
});
