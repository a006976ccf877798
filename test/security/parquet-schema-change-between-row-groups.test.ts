// Attack: a Parquet file whose second row group stores a column with another physical type (or
// under another name, or with a column missing) than the schema says. A reader that trusts each
// chunk would decode bytes as the wrong type and return wrong values silently; the pre-decode
// check compares every row group with the schema and refuses the file with DATA_SCHEMA_MISMATCH.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { withFooter } from '../helpers/parquetSurgery.js';
import { expectHealthy } from './helpers.js';

const twoGroups = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      { name: 'id', data: Array.from({ length: 10 }, (_, i) => i), type: 'INT32' },
      { name: 'label', data: Array.from({ length: 10 }, (_, i) => `row ${i}`), type: 'STRING' },
    ],
    rowGroupSize: 5,
  }),
);

async function codeOf(bytes: Uint8Array): Promise<[string | undefined, string]> {
  const err = await run('t.numRows()', { awardData: false, tables: { t: bytes } }).then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof DataError ? [err.code, `${err.message} / ${err.hint}`] : [undefined, String(err)];
}

describe('a schema that changes between row groups', () => {
  it('the unaltered file has two row groups and loads', async () => {
    const r = await run('[t.numRows(), t.array("label")[9]]', { awardData: false, tables: { t: twoGroups } });
    expect(r.value).toEqual([10, 'row 9']);
  });

  it('row group 1 stores `id` as DOUBLE where the schema says INT32', async () => {
    const bad = withFooter(twoGroups, (f) => {
      f.field_4[1].field_1[0].field_3.field_1 = 5; // DOUBLE
    });
    const [code, text] = await codeOf(bad);
    expect(code).toBe('DATA_SCHEMA_MISMATCH');
    expect(text).toMatch(/row group 1 stores 'id' as DOUBLE where the schema has 'id' as INT32/);
  });

  it('row group 1 names its first column differently', async () => {
    const bad = withFooter(twoGroups, (f) => {
      f.field_4[1].field_1[0].field_3.field_3 = [new TextEncoder().encode('other')];
    });
    expect((await codeOf(bad))[0]).toBe('DATA_SCHEMA_MISMATCH');
  });

  it('row group 1 lacks a column', async () => {
    const bad = withFooter(twoGroups, (f) => {
      f.field_4[1].field_1 = f.field_4[1].field_1.slice(0, 1);
    });
    expect((await codeOf(bad))[0]).toBe('DATA_SCHEMA_MISMATCH');
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
