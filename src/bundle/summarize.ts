import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { BundleTarget } from './targets.js';

/** What a bundle holds: its size and its parts, for the CLI to print. */
export interface BundleSummary {
  outDir: string;
  target: BundleTarget;
  entry: string;
  totalBytes: number;
  files: number;
  /** The biggest parts (entry, engine, data, each dependency), largest first. */
  parts: { name: string; bytes: number }[];
  maxBytes: number;
  notes: string[];
}

/** Sizes of the bundle's parts: the entry, data, sbirtools, each engine, each dependency package. */
export function summarize(
  out: string,
  target: BundleTarget,
  entry: string,
  maxBytes: number,
  fnDir = out,
): BundleSummary {
  const parts = new Map<string, number>();
  let total = 0;
  let files = 0;
  for (const file of walk(out)) {
    const bytes = statSync(file).size;
    total += bytes;
    files++;
    const rel = relative(fnDir, file).split(sep);
    const part = partName(rel);
    parts.set(part, (parts.get(part) ?? 0) + bytes);
  }
  return {
    outDir: out,
    target,
    entry,
    totalBytes: total,
    files,
    parts: [...parts].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    maxBytes,
    notes: [],
  };
}

function partName(rel: string[]): string {
  if (rel[0] === '..') return 'platform config';
  if (rel[0] !== 'node_modules') return rel[0] === 'data' ? 'data/' : rel.length === 1 ? rel[0]! : `${rel[0]}/`;
  const name = rel[1]?.startsWith('@') ? `${rel[1]}/${rel[2]}` : rel[1]!;
  if (name === 'sbirtools')
    return `sbirtools (${rel[2] === 'dist' && rel[3] === 'holder' ? 'holder script' : rel[3] === 'prelude' ? 'prelude' : 'library'})`;
  if (name.startsWith('isolated-vm')) return `${name} (native engine)`;
  if (name.includes('quickjs-wasmfile')) return `${name} (QuickJS WASM engine)`;
  return name;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
