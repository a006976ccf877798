// Bad input: CSV files handed in as `tables: { t: path }` or `dataPath`: ragged rows, an
// unterminated quote at EOF, binary garbage, an empty file, a header only, a missing file, a BOM.
// Each gets a thrown DataError with a stable code (the caller's file is bad) or a well-defined
// table; nothing is lost and the host stays up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { run } from '../../src/index.js';
import { expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-bad-csv-'));
const cacheDir = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const garbage = Buffer.concat([Buffer.from('a,b\n'), randomBytes(4096), Buffer.from([0, 0, 0])]);

/** Both ways a CSV gets in, with a probe of what the isolate sees. */
const WAYS = [
  [
    'tables',
    (path: string) => ({ awardData: false, tables: { t: path } }),
    '[t.numRows(), t.columnNames(), t.objects()]',
  ],
  [
    'dataPath',
    (path: string) => ({ dataPath: path, cacheDir }),
    '[award_data.numRows(), award_data.columnNames(), award_data.objects()]',
  ],
] as const;

async function thrown(code: string, options: object): Promise<unknown> {
  return run(code, options).then(
    (r) => r,
    (e: unknown) => e,
  );
}

describe('bad CSV files', () => {
  for (const [way, opts, probe] of WAYS) {
    describe(`via ${way}`, () => {
      for (const [name, content, code] of [
        ['binary garbage', garbage, 'DATA_NOT_CSV'],
        ['an empty file', '', 'DATA_EMPTY'],
      ] as const) {
        it(`${name}: DataError ${code}`, async () => {
          const err = await thrown(probe, opts(file(`${way}-${code}.csv`, content)));
          expect(err).toBeInstanceOf(DataError);
          expect((err as DataError).code).toBe(code);
          expect((err as Error).message).toMatch(/\.csv/);
        });
      }

      it('a missing file: DataError DATA_NOT_FOUND naming the path', async () => {
        const err = await thrown(probe, opts(join(dir, 'nope.csv')));
        expect(err).toBeInstanceOf(DataError);
        expect((err as DataError).code).toBe('DATA_NOT_FOUND');
        expect((err as Error).message).toContain('nope.csv');
      });

      it('ragged rows: short rows padded with nulls, long rows cut to the header', async () => {
        const r = await run(probe, opts(file(`${way}-ragged.csv`, 'a,b\n1,2,3\n4\n')));
        expect(r.error).toBeUndefined();
        expect(r.value).toEqual([
          2,
          ['a', 'b'],
          [
            { a: 1, b: 2 },
            { a: 4, b: null },
          ],
        ]);
      });

      it('an unterminated quote at EOF: the field runs to the end of the file', async () => {
        const r = await run(probe, opts(file(`${way}-unterminated.csv`, 'a,b\n1,"open\n2,3\n')));
        expect(r.error).toBeUndefined();
        const [rows, cols, objects] = r.value as [number, string[], Array<Record<string, unknown>>];
        expect([rows, cols]).toEqual([1, ['a', 'b']]);
        expect(objects[0]!.a).toBe(1);
        expect(String(objects[0]!.b)).toMatch(/^open\n2,3\n?$/);
      });

      it('a header only: a table with columns and no rows', async () => {
        const r = await run(probe, opts(file(`${way}-header.csv`, 'a,b\n')));
        expect(r.value).toEqual([0, ['a', 'b'], []]);
      });

      it('a UTF-8 BOM is not part of the first column name', async () => {
        const r = await run(probe, opts(file(`${way}-bom.csv`, '\uFEFFa,b\n1,2\n')));
        expect((r.value as unknown[])[1]).toEqual(['a', 'b']);
      });
    });
  }

  it('the host is healthy after all of it', async () => {
    await expectHealthy();
  });
});
