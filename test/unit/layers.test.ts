// The import rules (docs/architecture.md "Layers") are checked by dependency-cruiser before vitest
// runs (`npm test` -> `npm run check:imports`). This test proves the check bites: a tree with three
// wrong arrows fails, and each failure names its rule.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(cwd: string, ...paths: string[]) {
  return spawnSync(
    process.execPath,
    [DEPCRUISE, ...paths, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    { cwd, encoding: 'utf8', timeout: 120_000 },
  );
}

describe('import rules', () => {
  it('fail on a wrong arrow, naming the rule broken', () => {
    const r = cruise(join(ROOT, 'test', 'fixtures', 'layers'), 'src');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('error surfaces-use-the-facade: src/cli/run.ts → src/runtime/holder.ts');
    expect(r.stdout).toContain('error runtime-below-the-facade: src/runtime/holder.ts → src/result/shape.ts');
    expect(r.stdout).toMatch(/error no-circular: src\/data\/a\.ts →\s+src\/data\/b\.ts →\s+src\/data\/a\.ts/);
  });
});
