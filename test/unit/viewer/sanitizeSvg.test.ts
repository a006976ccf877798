import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from '../../../src/viewer/sanitizeSvg.js';

describe('sanitizeSvg', () => {
  it('keeps the drawing and prefixes ids and local url() references', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><clipPath id="clip1"><rect width="5" height="5"/></clipPath></defs><g clip-path="url(#clip1)"><rect width="10" height="10" fill="steelblue"/><text x="1" y="9">&lt;b&gt;</text></g></svg>';
    const clean = (await sanitizeSvg(svg, 'r1c0-'))!;
    expect(clean).toContain('id="r1c0-clip1"');
    expect(clean).toContain('clip-path="url(#r1c0-clip1)"');
    expect(clean).toContain('fill="steelblue"');
    expect(clean).toContain('&lt;b&gt;');
  });

  it('drops scripts, handlers, links, styles, classes, external url() and embedded documents', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)" class="sb-run">
<script>alert(2)</script><style>body{display:none}</style>
<a href="javascript:alert(3)"><rect width="1" height="1"/></a><a xlink:href="javascript:alert(4)"><circle r="1"/></a>
<rect width="2" height="2" style="fill:url(https://evil.example/x)" fill="url(https://evil.example/y)" onclick="alert(5)"/>
<image href="https://evil.example/track.png"/><use href="https://evil.example/s.svg#a"/>
<foreignObject><iframe src="https://evil.example"></iframe></foreignObject>
<animate attributeName="href" to="javascript:alert(6)"/><set attributeName="onmouseover" to="alert(7)"/></svg>`;
    const clean = (await sanitizeSvg(svg, 'p-'))!;
    expect(clean).toMatch(/^<svg/);
    expect(clean).not.toMatch(
      /script|onload|onclick|javascript|evil\.example|style|class=|<image|<use|foreignObject|iframe|<animate|<set|href/i,
    );
    expect(clean).toContain('<rect');
  });

  it('returns null when no SVG is left', async () => {
    expect(await sanitizeSvg('<div onclick="x">hi</div>', 'p-')).toBeNull();
    expect(await sanitizeSvg('<script>alert(1)</script>', 'p-')).toBeNull();
  });
});
