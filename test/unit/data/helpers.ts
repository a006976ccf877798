import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { ColumnData, ColumnarTable } from '../../../schema/columnar.js';
import { crc32 } from '../../../src/data/cache/crc32.js';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';

/** The repository root (this file is test/unit/data/helpers.ts). */
export const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

/** Path of a shared real sample, and whether it is present (tests skip when it is not). */
export function sample(name: string): { path: string; exists: boolean } {
  // beside the repository (/work/main), or beside its folder of worktrees (/work/wt/<branch>)
  const found = [resolve(repoRoot, '../shared/data', name), resolve(repoRoot, '../../shared/data', name)];
  const path = found.find((p) => existsSync(p)) ?? found[0];
  const exists = existsSync(path);
  if (!exists) console.warn(`[skip] real sample ${path} is absent; tests on it are skipped`);
  return { path, exists };
}

const made: string[] = [];
// temp dirs hold generated CSVs and caches (~20 MB each): remove them after each test file
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the test file. */
export function tempDir(prefix = 'sbt-data-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const dec = new TextDecoder();

/** Every value of a column as JS values (null for nulls; dates as ms numbers). */
export function decode(data: ColumnData): unknown[] {
  switch (data.kind) {
    case 'float64':
      return Array.from(data.values, (v, i) => (data.valid[i] ? v : null));
    case 'bool':
      return Array.from(data.values, (v, i) => (data.valid[i] ? v === 1 : null));
    case 'utf8':
      return Array.from(data.valid, (ok, i) =>
        ok ? dec.decode(data.bytes.subarray(data.offsets[i], data.offsets[i + 1])) : null,
      );
    case 'dict': {
      const dict = Array.from({ length: data.dictOffsets.length - 1 }, (_, k) =>
        dec.decode(data.dictBytes.subarray(data.dictOffsets[k], data.dictOffsets[k + 1])),
      );
      return Array.from(data.codes, (k) => (k < 0 ? null : dict[k]));
    }
  }
}

/** Values of one column of a table, by name. */
export function column(table: ColumnarTable, name: string): unknown[] {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name}; have ${table.columns.map((x) => x.name).join(', ')}`);
  return decode(c.data);
}

/** Rewrites a binary cache file as format 2: every block table recomputed as CRC-32s, the version field 2. */
export function cacheToVersion2(path: string): void {
  const raw = readFileSync(path);
  const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
    columns: Array<{ buffers: Record<string, { offset: number; length: number; crcs: number }> }>;
  };
  for (const c of header.columns)
    for (const ref of Object.values(c.buffers))
      for (let at = 0, b = 0; at < ref.length; at += BLOCK_BYTES, b++)
        raw.writeUInt32LE(
          crc32(raw.subarray(ref.offset + at, ref.offset + Math.min(ref.length, at + BLOCK_BYTES))),
          ref.crcs + 4 * b,
        );
  raw.writeUInt32LE(2, 8);
  writeFileSync(path, raw);
}

const enc = new TextEncoder();

/** A dictionary column of `values` (null as code -1), entries in first-seen order. */
export function dictColumn(values: Array<string | null>): ColumnData {
  const keys = new Map<string, number>();
  const codes = Int32Array.from(values, (v) => {
    if (v === null) return -1;
    let k = keys.get(v);
    if (k === undefined) keys.set(v, (k = keys.size));
    return k;
  });
  const parts = [...keys.keys()].map((k) => enc.encode(k));
  const dictOffsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (dictOffsets[i + 1] = dictOffsets[i]! + p.length));
  const dictBytes = new Uint8Array(dictOffsets[parts.length]!);
  parts.forEach((p, i) => dictBytes.set(p, dictOffsets[i]!));
  return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
}

/** A binary cache file (key 'k') of these named columns, `numRows` rows each, in a fresh temp folder. */
export async function writeColumnsCache(cols: Array<[string, ColumnData]>, numRows: number): Promise<string> {
  const table: ColumnarTable = {
    name: 't',
    numRows,
    columns: cols.map(([name, data]) => ({
      name,
      type: data.kind === 'float64' ? data.type : data.kind === 'bool' ? 'boolean' : 'string',
      kind: data.kind,
      data,
    })),
  };
  const path = join(tempDir(), 't.sbtc');
  const report = (await ingestCsv(Buffer.from('a\n1\n'))).report;
  const info = { name: 't', synthetic: true, source: 'test', identity: 'x', rows: 0 };
  await writeCache(path, { key: 'k', table, info, report });
  return path;
}
