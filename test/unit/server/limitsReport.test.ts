// createServer reports at start the limits its runs meet (`server.limits`, one 'limits in force'
// log line; `serve` prints them on stderr), the host-scaled ones included: a session holding a
// table of its caller's (MCP add_table) runs with a quarter of host memory as its isolate heap,
// not the preset's, and the report must say what such a sandbox actually gets.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/index.js';
import { limitsLine } from '../../../src/cli/limitsLine.js';
import { DEFAULT_DECODE_CAPS } from '../../../src/data/formats/decodeCaps.js';
import { createServer } from '../../../src/server/createServer.js';
import { tableFromRows } from '../../../src/data/tables.js';

const MIB = 1024 * 1024;

/** What a sandbox made with these options reports as its memory limit, with one small user table. */
async function heapWithTable(sandbox: { memoryLimitMb?: number }): Promise<number> {
  const box = await createSandbox({
    ...sandbox,
    isolation: 'inline',
    tables: { t: tableFromRows('t', [{ a: 1 }]) },
  });
  try {
    const r = await box.run('t.numRows()');
    expect(r.value).toBe(1);
    return r.limits.memoryLimitMb;
  } finally {
    await box.close();
  }
}

describe('the limits a server reports at start', () => {
  it('name the heap of a session with tables as such a sandbox gets it, beside the preset’s, and the table caps', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const server = await createServer({ port: 0, log: (l) => void lines.push(l) });
    try {
      const l = server.limits;
      expect(l.run.memoryLimitMb).toBe(512);
      expect(l.tableMemoryLimitMb).toBe(await heapWithTable({}));
      expect(l.tableMemoryLimitMb).toBeGreaterThanOrEqual(512);
      expect(l.tableFileMaxMb).toBe(DEFAULT_DECODE_CAPS.maxInputBytes / MIB);
      expect(l.tableInflateMaxMb).toBe(DEFAULT_DECODE_CAPS.maxDecodedBytes / MIB);
      expect(l.decodeHeapMb).toBe(DEFAULT_DECODE_CAPS.heapMb);
      const logged = lines.find((x) => x.message === 'limits in force');
      expect(logged).toMatchObject({ level: 'info', limits: JSON.parse(JSON.stringify(l)) });
      expect(limitsLine(l)).toBe(
        `limits: a run 30000 ms and 512 MiB of heap (${l.tableMemoryLimitMb} MiB in a session with tables: --memory-mb or SBIRTOOLS_TABLE_MEMORY_MB); ` +
          `table files up to ${l.tableFileMaxMb} MiB, ${l.tableInflateMaxMb} MiB inflated (--table-file-max-mb, --table-inflate-max-mb); ` +
          `decode heap ${l.decodeHeapMb} MiB (SBIRTOOLS_DECODE_HEAP_MB)`,
      );
    } finally {
      await server.close();
    }
  }, 120_000);

  it('an explicit memoryLimitMb and table caps are what apply, with tables or without', async () => {
    const server = await createServer({
      port: 0,
      log: false,
      sandbox: { memoryLimitMb: 1024, tableFileMaxMb: 64, tableInflateMaxMb: 256 },
    });
    try {
      expect(server.limits.run.memoryLimitMb).toBe(1024);
      expect(server.limits.tableMemoryLimitMb).toBe(1024);
      expect(server.limits.tableMemoryLimitMb).toBe(await heapWithTable({ memoryLimitMb: 1024 }));
      expect(server.limits.tableFileMaxMb).toBe(64);
      expect(server.limits.tableInflateMaxMb).toBe(256);
    } finally {
      await server.close();
    }
  }, 120_000);
});
