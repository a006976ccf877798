import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../../src/data/errors.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { RecordScanner } from '../../../src/data/ingest/scanner.js';
import { column, tempDir } from './helpers.js';

/** Every record the scanner emits, as decoded strings, feeding `text` in pieces of `step` bytes. */
function scan(text: string | Buffer, step = 3): string[][] {
  const out: string[][] = [];
  const s = new RecordScanner((buf, starts, ends, flags, n) => {
    out.push(
      Array.from({ length: n }, (_, i) => {
        const t = buf.toString('utf8', starts[i], ends[i]);
        return flags[i] & 2 ? t.replaceAll('""', '"') : t;
      }),
    );
  }, 4);
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let i = 0; i < bytes.length; i += step) s.push(bytes.subarray(i, i + step));
  s.finish();
  return out;
}

describe('RecordScanner (RFC 4180, any chunking)', () => {
  it.each([1, 2, 3, 7, 1000])('splits records and fields with chunks of %i bytes', (step) => {
    const text = 'a,b,c\r\n"x, y","he said ""hi""",\n"multi\nline\r\nand\rcr",2,3\n';
    expect(scan(text, step)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'he said "hi"', ''],
      ['multi\nline\r\nand\rcr', '2', '3'],
    ]);
  });

  it('emits a last record without a final newline, and a trailing empty field', () => {
    expect(scan('a,b\n1,')).toEqual([
      ['a', 'b'],
      ['1', ''],
    ]);
  });

  it('keeps a bare CR outside quotes as data', () => {
    expect(scan('a\rb,c\n')).toEqual([['a\rb', 'c']]);
  });

  it('keeps a quoted field with stray text raw, and counts it', () => {
    let malformed = 0;
    const s = new RecordScanner(() => {});
    s.push(Buffer.from('"ab"c,d\n'));
    s.finish();
    malformed = s.malformedFields;
    expect(scan('"ab"c,d\n')).toEqual([['"ab"c', 'd']]);
    expect(malformed).toBe(1);
  });

  it('reports an unterminated quote at end of input and keeps the rest as the field', () => {
    const s = new RecordScanner(() => {});
    s.push(Buffer.from('a,"open\nstill open'));
    s.finish();
    expect(s.unterminatedQuote).toBe(true);
    expect(scan('a,"open\nstill open')).toEqual([['a', 'open\nstill open']]);
  });
});

describe('ingestCsv on files with every quirk', () => {
  const dir = tempDir();
  const file = (name: string, content: string | Buffer) => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  it('strips a BOM, reads CRLF, blanks and "  " as null, and reports ragged rows', async () => {
    const p = file(
      'quirks.csv',
      '\ufeffname,amount,code\r\n"A, Inc.",12,0123\r\n"  ",,\r\nB,3\r\nC,4,5,6\r\n\r\nD,"7",08\r\n',
    );
    const { table, report } = await ingestCsv(p);
    expect(table.columns.map((c) => c.name)).toEqual(['name', 'amount', 'code']);
    expect(column(table, 'name')).toEqual(['A, Inc.', null, 'B', 'C', 'D']);
    expect(column(table, 'amount')).toEqual([12, null, 3, 4, 7]);
    expect(column(table, 'code')).toEqual(['0123', null, null, '5', '08']); // leading zeros: string
    expect(report).toMatchObject({ layout: 'custom', rows: 5, raggedCount: 2, blankLines: 1 });
    expect(report.raggedRecords).toEqual([
      { record: 3, fields: 2 },
      { record: 4, fields: 4 },
    ]);
  });

  it('reads a header-only file as zero rows', async () => {
    const { table } = await ingestCsv(file('header.csv', 'a,b\n'));
    expect(table.numRows).toBe(0);
    expect(table.columns.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('keeps the rest of the file in the field after an unterminated quote, and reports it', async () => {
    const { table, report } = await ingestCsv(file('open.csv', 'a,b\n1,"never closed\n2,3\n'));
    expect(report.unterminatedQuote).toBe(true);
    expect(column(table, 'b')).toEqual(['never closed\n2,3\n']);
  });

  it('names blank and duplicate header cells', async () => {
    const { table, report } = await ingestCsv(file('dups.csv', 'x,,x\n1,2,3\n'));
    expect(table.columns.map((c) => c.name)).toEqual(['x', 'column_2', 'x_2']);
    expect(report.renamedColumns).toEqual([
      { from: '', to: 'column_2' },
      { from: 'x', to: 'x_2' },
    ]);
  });

  it('rejects an empty file with DATA_EMPTY', async () => {
    await expect(ingestCsv(file('empty.csv', ''))).rejects.toMatchObject({ name: 'DataError', code: 'DATA_EMPTY' });
  });

  it('rejects binary garbage and HTML with DATA_NOT_CSV', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    await expect(ingestCsv(file('garbage.bin', garbage))).rejects.toBeInstanceOf(DataError);
    await expect(ingestCsv(file('garbage.bin', garbage))).rejects.toMatchObject({ code: 'DATA_NOT_CSV' });
    await expect(ingestCsv(file('page.html', '<!DOCTYPE html><html><body>Error</body></html>'))).rejects.toMatchObject({
      code: 'DATA_NOT_CSV',
    });
  });

  it('rejects a missing file with DATA_NOT_FOUND naming it, and a directory with DATA_READ_ERROR', async () => {
    await expect(ingestCsv(join(dir, 'nope.csv'))).rejects.toMatchObject({
      code: 'DATA_NOT_FOUND',
      message: expect.stringContaining('nope.csv'),
    });
    await expect(ingestCsv(dir)).rejects.toMatchObject({ code: 'DATA_READ_ERROR' });
  });

  it('replaces invalid UTF-8, also when a character is split across chunks', async () => {
    const big = 'x'.repeat((1 << 22) - 1); // puts the 2-byte "é" across the 4 MiB chunk boundary
    const { table, report } = await ingestCsv(
      Buffer.concat([Buffer.from(`t\n${big}é\n`), Buffer.from([0x62, 0xff, 0x63, 0x0a])]),
    );
    expect(column(table, 't')).toEqual([`${big}é`, 'b\ufffdc']);
    expect(report.replacedInvalidUtf8).toBe(1);
  });
});
