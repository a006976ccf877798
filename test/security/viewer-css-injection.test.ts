// Attack: CSS from guest output restyling or hiding the page (style elements and attributes, class names of the page, url() beacons).
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const CSS = '</style><style>body{display:none} *{background:url(https://evil.example/leak)}</style>';

describe('viewer: CSS injection', () => {
  it('leaves the one nonce style element and no style attribute, class or remote url()', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css); .sb-run{display:none}</style><g class="sb-run sb-err-line" style="fill:url(https://evil.example/b)"><rect width="5" height="5" fill="url(https://evil.example/c)" filter="url(https://evil.example/d#f)"/></g></svg>`;
    const rec = record({
      code: `/* ${CSS} */ 1`,
      outputs: {
        stdout: CSS,
        table: {
          columns: [`x" style="display:none`],
          dtypes: ['string" class="sb-err-line'],
          rows: [[CSS]],
          totalRows: 1,
          truncated: false,
        },
        charts: [{ kind: 'vega-lite', title: CSS, svg }],
      },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      expect(page.doc.querySelectorAll('style')).toHaveLength(1);
      expect(page.doc.querySelectorAll('[style]')).toHaveLength(0);
      // the CSS shows as text; nothing of it reaches a style or an SVG
      expect(page.doc.querySelector('.sb-chart svg')!.outerHTML).not.toContain('evil.example');
      expect(page.doc.querySelector('style')!.textContent).not.toContain('evil.example');
      expect(page.doc.querySelector('.sb-stdout')!.textContent).toBe(CSS);
      expect(page.doc.querySelectorAll('.sb-chart svg [class]')).toHaveLength(0);
      expect(page.doc.querySelector('th')!.getAttribute('data-type')).toBe('text');
    }
  });
});
