// Attack: javascript: links in output text, table cells, SVG links and a Vega-Lite href channel.
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const JS = 'javascript:window.__pwned=1';

describe('viewer: javascript: links', () => {
  it('never become links: text stays text, SVG anchors and hrefs are removed', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a href="${JS}"><rect width="9" height="9"/></a><a xlink:href="${JS}"><text>x</text></a></svg>`;
    // a Vega-Lite spec with an href channel: vega draws <a href> around marks when rendered
    const spec = {
      data: { values: [{ a: 'x', u: JS }] },
      mark: 'bar',
      encoding: { x: { field: 'a', type: 'nominal' }, href: { field: 'u' } },
    };
    const rec = record({
      outputs: {
        stdout: `[click me](${JS}) <a href="${JS}">x</a>`,
        table: { columns: ['url'], dtypes: ['string'], rows: [[JS]], totalRows: 1, truncated: false },
        charts: [
          { kind: 'vega-lite', svg },
          { kind: 'vega-lite', spec },
        ],
      },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      const hrefs = [...page.doc.querySelectorAll('[href], [xlink\\:href]')].map((a) => a.getAttribute('href') ?? '');
      expect(
        hrefs.every((h) => h.startsWith('./') || h.startsWith('/')),
        hrefs.join(' '),
      ).toBe(true);
      expect(page.doc.querySelectorAll('svg')).toHaveLength(2); // both charts still drawn
      expect(page.doc.querySelector('td')!.textContent).toBe(JS);
    }
  });
});
