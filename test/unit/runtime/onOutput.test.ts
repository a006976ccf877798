import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, run, shutdown } from '../../../src/index.js';
import { SbirtoolsValidationError } from '../../../src/core/errors.js';

type Piece = { stream: string; text: string; whileRunning: boolean };

/** Run code that prints, waits, and prints again; record each piece and whether the run was still going. */
async function streamed(
  options: Parameters<typeof run>[1],
): Promise<{ pieces: Piece[]; result: Awaited<ReturnType<typeof run>> }> {
  const pieces: Piece[] = [];
  let running = true;
  const result = await run(
    'print("one"); console.error("warn"); let t = Date.now(); while (Date.now() - t < 600) {} print("two"); 1',
    {
      ...options,
      onOutput: (stream, text) => pieces.push({ stream, text, whileRunning: running }),
    },
  );
  running = false;
  return { pieces, result };
}

afterAll(async () => {
  await shutdown();
});

describe('run({ onOutput })', () => {
  it.each([
    ['isolated-vm in a holder process', {}],
    ['quickjs in a holder process', { engine: 'quickjs' as const }],
    ['quickjs inline', { engine: 'quickjs' as const, isolation: 'inline' as const }],
  ])('delivers print() output while the code runs (%s)', async (_name, options) => {
    const { pieces, result } = await streamed(options);
    expect(result.stdout).toBe('one\ntwo\n');
    expect(pieces.map((p) => p.text).join('')).toBe('one\nwarn\ntwo\n');
    expect(pieces.every((p) => p.whileRunning)).toBe(true);
    expect(pieces.find((p) => p.text.includes('warn'))!.stream).toBe('stderr');
    // "one" went out before the wait ended: it came in a piece of its own, not joined with "two"
    expect(pieces.find((p) => p.text.includes('one'))!.text).not.toContain('two');
  });

  it('streams within the output cap, its marker included', async () => {
    let streamedText = '';
    const r = await run('for (let i = 0; i < 10000; i++) print("line " + i)', {
      maxOutputBytes: 1000,
      onOutput: (_s, t) => (streamedText += t),
    });
    expect(r.truncated.stdout).toBe(true);
    expect(streamedText).toBe(r.stdout);
  });

  it('works in a session, and refuses a listener that is not a function', async () => {
    await using box = await createSandbox();
    let got = '';
    await box.run('print("in a session")', { onOutput: (_s, t) => (got += t) });
    expect(got).toBe('in a session\n');
    await expect(box.run('1', { onOutput: 'yes' as never })).rejects.toThrow(SbirtoolsValidationError);
    await expect(box.run('1', { onOutput: 'yes' as never })).rejects.toThrow(
      /Expected the `onOutput` option to be a function/,
    );
  });
});
