// Attack: chart SVGs in the log with onload/onclick handlers, <script>, <foreignObject> HTML, <use>/<image> loads and animation of href.
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const EVIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="window.__pwned=1" width="50" height="50">
<script>window.__pwned=2</script><script href="https://evil.example/x.js"/>
<rect width="50" height="50" fill="green" onclick="window.__pwned=3" onmouseover="window.__pwned=4"/>
<foreignObject width="50" height="50"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="window.__pwned=5"/></body></foreignObject>
<image href="https://evil.example/beacon.png" width="1" height="1"/><use xlink:href="https://evil.example/sprite.svg#i"/>
<animate attributeName="href" values="javascript:window.__pwned=6"/><set attributeName="onload" to="window.__pwned=7"/>
<feImage href="https://evil.example/f.png"/></svg>`;

describe('viewer: SVG with onload', () => {
  it('keeps the drawing, drops every handler, script, embedded document and remote load', async () => {
    const rec = record({
      outputs: {
        charts: [
          { kind: 'vega-lite', title: 'evil', svg: EVIL_SVG },
          { kind: 'plotly', svg: '<svg onload=alert(1)><rect width="1" height="1"/></svg>' },
        ],
      },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      const svgs = page.doc.querySelectorAll('.sb-chart svg');
      expect(svgs).toHaveLength(2);
      expect(svgs[0]!.querySelector('rect')!.getAttribute('fill')).toBe('green');
      expect(page.html).not.toMatch(/evil\.example|__pwned|foreignObject|<animate|<set\b/i);
    }
  });
});
