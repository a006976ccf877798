import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../../src/data/formats/detectFormat.js';
import { typedColumn, stringColumn } from '../../../../src/data/formats/typedColumn.js';
import { decodeParquet } from '../../../../src/data/formats/parquet.js';
import { decodeArrow } from '../../../../src/data/formats/arrow.js';
import { decodeJson } from '../../../../src/data/formats/json.js';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { encodeTable } from '../../../../src/data/formats/encodeTable.js';
import { columnValues } from '../../../../src/data/formats/columnValues.js';
import { DataError } from '../../../../src/data/errors.js';
import { PORTFOLIO, portfolioArrow, portfolioParquet } from '../../../helpers/tableFiles.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('detectFormat', () => {
  it('trusts magic bytes over the name, then the extension, then the first character', () => {
    expect(detectFormat(portfolioParquet(), 'x.csv')).toBe('parquet');
    expect(detectFormat(portfolioArrow('file'), 'x.json')).toBe('arrow');
    expect(detectFormat(portfolioArrow('stream'))).toBe('arrow');
    expect(detectFormat(enc('a,b\n1,2'), 'x.jsonl')).toBe('ndjson');
    expect(detectFormat(enc('[{"a":1}]'))).toBe('json');
    expect(detectFormat(enc('{"a":1}\n{"a":2}\n'))).toBe('ndjson');
    expect(detectFormat(enc('{"rows":[{"a":1}]}'))).toBe('json');
    expect(detectFormat(enc('\ufeffa,b\n1,2'))).toBe('csv');
    expect(detectFormat(enc('x'), 'https://h/x.parquet?sig=1')).toBe('parquet');
  });
});

describe('typedColumn', () => {
  it('keeps integers beyond 2^53 exact as strings, and an all-null integer column integer', () => {
    const big = typedColumn([9007199254740993n, null, 1n], 'integer');
    expect(big.large).toBe(true);
    expect(columnValues(big.column)).toEqual(['9007199254740993', null, '1']);
    const empty = typedColumn([null, null], 'integer').column;
    expect(empty).toMatchObject({ kind: 'float64', type: 'integer' });
  });

  it('dictionary-codes repeated strings and keeps raw UTF-8 bytes as they are', () => {
    const col = stringColumn(['a', 'b', 'a', 'b', null, 'a']);
    expect(col.kind).toBe('dict');
    expect(columnValues(col)).toEqual(['a', 'b', 'a', 'b', null, 'a']);
    const raw = stringColumn([enc('日本'), enc('x'), null]);
    expect(raw.kind).toBe('utf8');
    expect(columnValues(raw)).toEqual(['日本', 'x', null]);
  });
});

describe('decoders', () => {
  const expectPortfolio = (t: Awaited<ReturnType<typeof decodeParquet>>) => {
    expect(t.numRows).toBe(4);
    const byName = Object.fromEntries(t.columns.map((c) => [c.name, columnValues(c.data)]));
    expect(byName.Agency).toEqual(PORTFOLIO.Agency);
    expect(byName.target).toEqual(PORTFOLIO.target);
    expect(byName.big).toEqual(['9007199254740993', '12345678901', null, '-42']);
    expect((byName.when as Array<Date | null>).map((d) => d?.toISOString() ?? null)).toEqual(
      PORTFOLIO.when.map((d) => d?.toISOString() ?? null),
    );
    expect(byName.flag).toEqual(PORTFOLIO.flag);
  };

  it('Parquet (SNAPPY, UNCOMPRESSED, several row groups) keeps every value', async () => {
    expectPortfolio(await decodeParquet('t', portfolioParquet(), 'p', DEFAULT_DECODE_CAPS));
    expectPortfolio(
      await decodeParquet('t', portfolioParquet({ codec: 'UNCOMPRESSED', rowGroupSize: 1 }), 'p', DEFAULT_DECODE_CAPS),
    );
  });

  it('Arrow file and stream keep every value', () => {
    expectPortfolio(decodeArrow('t', portfolioArrow('file'), 'a', DEFAULT_DECODE_CAPS));
    expectPortfolio(decodeArrow('t', portfolioArrow('stream'), 'a', DEFAULT_DECODE_CAPS));
  });

  it('JSON, wrapped JSON and NDJSON; a bad line is named', () => {
    expect(
      decodeJson('t', enc('[{"a":1},{"a":null,"b":"x"}]'), 'j', DEFAULT_DECODE_CAPS, 'json').columns.map((c) => [
        c.name,
        c.type,
      ]),
    ).toEqual([
      ['a', 'integer'],
      ['b', 'string'],
    ]);
    expect(decodeJson('t', enc('{"rows":[{"a":1.5}]}'), 'j', DEFAULT_DECODE_CAPS, 'json').numRows).toBe(1);
    expect(decodeJson('t', enc('{"a":1}\n\n{"a":2}\n'), 'j', DEFAULT_DECODE_CAPS, 'ndjson').numRows).toBe(2);
    expect(() => decodeJson('t', enc('{"a":1}\n{oops}\n'), 'j', DEFAULT_DECODE_CAPS, 'ndjson')).toThrow(
      /line 2 is not valid JSON/,
    );
    expect(() => decodeJson('t', enc('[1,2]'), 'j', DEFAULT_DECODE_CAPS, 'json')).toThrow(DataError);
  });
});

describe('encodeTable', () => {
  it('writes Parquet and Arrow that decode back to the same values, and CSV text', async () => {
    const t = await decodeParquet('t', portfolioParquet(), 'p', DEFAULT_DECODE_CAPS);
    const cols = t.columns.map((c) => ({ name: c.name, type: c.type, data: c.data }));
    const back = await decodeParquet('t', encodeTable(cols, 'parquet'), 'p', DEFAULT_DECODE_CAPS);
    expect(back.columns.map((c) => columnValues(c.data))).toEqual(t.columns.map((c) => columnValues(c.data)));
    const arrow = decodeArrow('t', encodeTable(cols, 'arrow'), 'a', DEFAULT_DECODE_CAPS);
    expect(arrow.columns.map((c) => columnValues(c.data))).toEqual(t.columns.map((c) => columnValues(c.data)));
    const csv = new TextDecoder().decode(encodeTable(cols, 'csv'));
    expect(csv.split('\n')[0]).toBe('Agency,target,big,when,flag');
    expect(csv.split('\n')[1]).toBe('Department of Defense,5,9007199254740993,2021-01-02T00:00:00.000Z,true');
  });
});
