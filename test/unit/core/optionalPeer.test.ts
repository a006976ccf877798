import { describe, expect, it } from 'vitest';
import { importOptional, OptionalDependencyError } from '../../../src/core/optionalPeer.js';
import { SbirtoolsError } from '../../../src/core/errors.js';

describe('importOptional', () => {
  it('returns the module when it loads', async () => {
    const m = await importOptional('node:path', 'a test', () => import('node:path'));
    expect(typeof m.join).toBe('function');
  });

  it('turns a missing package into OPTIONAL_DEPENDENCY_MISSING naming the package, the feature and the command', async () => {
    const err = await importOptional(
      'no-such-pkg-sbirtools',
      'serve --frobnicate',
      () => import('no-such-pkg-sbirtools' as string),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OptionalDependencyError);
    expect(err).toBeInstanceOf(SbirtoolsError);
    expect(err).toMatchObject({ code: 'OPTIONAL_DEPENDENCY_MISSING', packageName: 'no-such-pkg-sbirtools' });
    expect((err as Error).message).toMatch(
      /^serve --frobnicate needs the optional package no-such-pkg-sbirtools, which is not installed here: run `npm install no-such-pkg-sbirtools`/,
    );
  });

  it('passes on other failures of a package that is there (a bug inside it is not a missing install)', async () => {
    const boom = Object.assign(new Error('boom'), { code: 'ERR_SOMETHING' });
    await expect(importOptional('x', 'y', () => Promise.reject(boom))).rejects.toBe(boom);
  });
});
