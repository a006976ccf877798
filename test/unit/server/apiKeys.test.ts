import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKeyRing } from '../../../src/server/apiKeys.js';

describe('loadKeyRing', () => {
  it('reads SBIRTOOLS_API_KEYS, identifies keys by a stable id, and refuses unknown ones', () => {
    const ring = loadKeyRing(undefined, { SBIRTOOLS_API_KEYS: ' aaaaaaaaaaaaaaaa , bbbbbbbbbbbbbbbb ' });
    expect(ring.size).toBe(2);
    const a = ring.identify('aaaaaaaaaaaaaaaa');
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(ring.identify('aaaaaaaaaaaaaaaa')).toBe(a);
    expect(ring.identify('bbbbbbbbbbbbbbbb')).not.toBe(a);
    expect(ring.identify('aaaaaaaaaaaaaaa')).toBeUndefined();
    expect(ring.identify('')).toBeUndefined();
  });

  it('reads a key file with comments; refuses short keys and a missing file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys');
    writeFileSync(file, '# ops keys\ncccccccccccccccc\n\n');
    expect(loadKeyRing(undefined, { SBIRTOOLS_API_KEYS_FILE: file }).size).toBe(1);
    expect(() => loadKeyRing(['short'], {})).toThrow(/at least 16 characters/);
    expect(() => loadKeyRing(undefined, { SBIRTOOLS_API_KEYS_FILE: `${file}.missing` })).toThrow(/ENOENT/);
    expect(loadKeyRing(undefined, {}).open).toBe(true);
  });
});
