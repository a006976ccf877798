// serve's add_table options: a bad value is refused before anything starts (no store, no holder),
// with the option's name in the message; the CLI flag says which flag and what it expects.
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/server/createServer.js';
import { serveCommand } from '../../../src/cli/serve.js';

const io = () => {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: (s: string) => ((err += s), true) },
      env: {},
    } as never,
    out: () => out,
    err: () => err,
  };
};

describe('serve: --max-upload-bytes / maxUploadBytes', () => {
  it.each([0, -1, 1.5, Number.NaN, '4096' as unknown as number])(
    'refuses maxUploadBytes %s with its name',
    async (v) => {
      await expect(createServer({ maxUploadBytes: v, log: false })).rejects.toThrow(
        /`maxUploadBytes` option to be an integer >= 1/,
      );
    },
  );

  it('refuses a flag value that is not a whole number of bytes', async () => {
    const { io: cliIo } = io();
    await expect(serveCommand(['--max-upload-bytes', 'lots'], cliIo)).rejects.toThrow(/--max-upload-bytes/);
  });
});

describe('serve: --over-share-nice / overShareNice', () => {
  it.each([20, -1, 1.5, Number.NaN])('refuses overShareNice %s with its name', async (v) => {
    await expect(createServer({ overShareNice: v, log: false })).rejects.toThrow(/`overShareNice` option/);
  });

  it('refuses a flag value that is not a nice level', async () => {
    const { io: cliIo } = io();
    await expect(serveCommand(['--over-share-nice', 'low'], cliIo)).rejects.toThrow(/--over-share-nice/);
  });
});

describe('serve: --max-refusal-hold-ms / maxRefusalHoldMs, maxHeldRefusals', () => {
  it.each([-1, 1.5, Number.NaN])('refuses maxRefusalHoldMs %s with its name', async (v) => {
    await expect(createServer({ maxRefusalHoldMs: v, log: false })).rejects.toThrow(
      /`maxRefusalHoldMs` option to be an integer >= 0/,
    );
  });

  it.each([-1, 2.5])('refuses maxHeldRefusals %s with its name', async (v) => {
    await expect(createServer({ maxHeldRefusals: v, log: false })).rejects.toThrow(
      /`maxHeldRefusals` option to be an integer >= 0/,
    );
  });

  it('refuses a flag value that is not a whole number of milliseconds', async () => {
    const { io: cliIo } = io();
    await expect(serveCommand(['--max-refusal-hold-ms', 'soon'], cliIo)).rejects.toThrow(/--max-refusal-hold-ms/);
  });
});
