// The spare decode worker's Arrow warm-up: it decodes its sample through the columnar reader
// (every column written by it, none left to the per-value path) and stops as soon as asked.
import { tableFromIPC } from '@uwdata/flechette';
import { describe, expect, it, vi } from 'vitest';
import * as arrow from '../../../../../src/data/formats/arrow.js';
import { warmUpArrow } from '../../../../../src/data/formats/arrowColumnar/warmUp.js';
import { arrowColumn, type ArrowFieldType } from '../../../../../src/data/formats/arrowColumnar/arrowColumn.js';
import type { ArrowBatch } from '../../../../../src/data/formats/arrowColumnar/arrowBatch.js';

vi.mock('../../../../../src/data/formats/arrow.js', async (importOriginal) => {
  const real = await importOriginal<typeof arrow>();
  return { ...real, decodeArrow: vi.fn(real.decodeArrow) };
});

describe('warmUpArrow', () => {
  it('runs its rounds over a sample that the columnar reader reads whole', async () => {
    const decode = vi.mocked(arrow.decodeArrow);
    decode.mockClear();
    await warmUpArrow(() => false, 2);
    expect(decode).toHaveBeenCalledTimes(2);
    const bytes = decode.mock.calls[0][1];
    const t = tableFromIPC(bytes, { useBigInt: true });
    const rows = t.getChildAt(0).data.map((b) => b.length);
    const kinds = t.schema.fields.map(
      (f, i) =>
        arrowColumn(t.getChildAt(i).data as unknown as ArrowBatch[], f.type as ArrowFieldType, rows, 'w', f.name)?.kind,
    );
    expect(kinds).toEqual(['utf8', 'dict', 'dict', 'float64', 'float64', 'float64', 'float64', 'bool']);
  });

  it('stops between rounds when a job arrives', async () => {
    const decode = vi.mocked(arrow.decodeArrow);
    decode.mockClear();
    let calls = 0;
    await warmUpArrow(() => ++calls > 2, 8);
    expect(decode.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
