// Attack: 10 MB strings in code, stdout, the value and the error of a record.
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const TEN_MB = 10 * 1024 * 1024;

describe('viewer: 10 MB strings', () => {
  it('render a bounded page that says how much was left out', async () => {
    const big = '<marquee>'.repeat(Math.ceil(TEN_MB / 9));
    const rec = record({
      code: `// ${'y'.repeat(TEN_MB)}\n1`,
      outputs: { stdout: big, valueText: big, error: { type: 'RUNTIME_ERROR', message: big, hint: big } },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      // stdout and value are capped at 1e6 characters each (escaped: up to 4 bytes per char)
      expect(page.html.length, page.name).toBeLessThan(16 * 1024 * 1024);
      expect(page.doc.querySelector('.sb-stdout .sb-more')!.textContent).toMatch(/more characters not shown/);
      expect(page.doc.querySelectorAll('marquee')).toHaveLength(0);
    }
  });
});
