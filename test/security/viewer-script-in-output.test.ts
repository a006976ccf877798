// Attack: guest output carrying <script> and HTML with handlers, in every field the viewer shows.
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const XSS =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><svg onload="window.__pwned=3">';

describe('viewer: <script> in guest output', () => {
  it('is shown as text in stdout, value, tables, errors, code, titles and session ids, never as markup', async () => {
    const rec = record({
      code: `print("${XSS}")\n// ${XSS}`,
      session: { id: XSS, seq: 1 },
      result: { ok: false, errorType: 'RUNTIME_ERROR', stdoutHash: 'h', valueHash: 'h' },
      outputs: {
        stdout: XSS,
        stderr: XSS,
        valueText: XSS,
        table: {
          columns: [XSS, 'n'],
          dtypes: [XSS, 'integer'],
          rows: [
            [XSS, 1],
            [{ [XSS]: XSS }, 2],
          ],
          totalRows: 2,
          truncated: false,
        },
        charts: [{ kind: 'vega-lite', title: XSS, svgError: XSS }],
        error: { type: 'RUNTIME_ERROR', message: XSS, hint: XSS, line: 2, column: 1 },
      },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      expect(page.html).not.toContain('<script>window');
      expect(page.html).not.toMatch(/<img/i);
      // the text survives, escaped: a person sees exactly what the guest printed
      const stdout = page.doc.querySelector('.sb-stdout')!.textContent;
      expect(stdout).toBe(XSS);
      expect(page.doc.querySelector('th')!.textContent).toBe(XSS);
      expect(page.doc.querySelector('.sb-error-msg')!.textContent).toBe(XSS);
    }
  });
});
