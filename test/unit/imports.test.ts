import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('layering', () => {
  it('adapters, capsules, the MCP server, the network service and the viewer import the layer that defines a thing, never the public barrel', () => {
    const offenders = ['adapters', 'capsule', 'mcp', 'server', 'viewer']
      .flatMap((layer) => files(join(SRC, layer)))
      .filter((f) => /from '(\.\.\/)+index\.js'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});
