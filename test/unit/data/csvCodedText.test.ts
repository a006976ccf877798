// A CSV text column that becomes dictionary codes gives its UTF-8 bytes back when it is coded
// (utf8Builder.ts: the byte store resized to nothing, the offsets released); a column that stays
// text keeps them. Both read back as the file's values, on each side of the dictionary rule
// (distinct <= non-null / 2), including a column the distinct sketch cannot settle.
import { describe, expect, it } from 'vitest';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { column } from './helpers.js';

describe('a CSV text column coded as a dictionary, beside columns that stay text', () => {
  it.each([
    ['half distinct (coded)', 4000, (i: number) => `c${i % 2000}`, 'dict'],
    ['one past half distinct (text; the sketch cannot tell)', 4000, (i: number) => `c${i % 2001}`, 'utf8'],
    ['all distinct (text; the sketch proves it)', 4000, (i: number) => `abstract ${i}`, 'utf8'],
  ])('%s', async (_what, rows, value, kind) => {
    const lines = ['k,v,w'];
    for (let i = 0; i < rows; i++) lines.push(`${i},${value(i)},${['x', 'y', 'z'][i % 3]}`);
    const { table } = await ingestCsv(Buffer.from(`${lines.join('\n')}\n`));
    expect(table.columns.find((c) => c.name === 'v')!.data.kind).toBe(kind);
    expect(table.columns.find((c) => c.name === 'w')!.data.kind).toBe('dict');
    expect(column(table, 'v')).toEqual(Array.from({ length: rows }, (_, i) => value(i)));
    expect(column(table, 'w')).toEqual(Array.from({ length: rows }, (_, i) => ['x', 'y', 'z'][i % 3]));
  });
});
