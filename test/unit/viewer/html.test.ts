import { describe, expect, it } from 'vitest';
import { escapeHtml, html, jsonForScript, trusted } from '../../../src/viewer/html.js';

describe('html', () => {
  it('escapes every interpolation unless it is SafeHtml', () => {
    const evil = `<script>alert("x")</script>'\`&`;
    expect(html`<td title="${evil}">${evil}</td>`.value).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&#96;&amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&#96;&amp;</td>',
    );
    expect(html`${[evil, trusted('<b>ok</b>')]}`.value).toBe(`${escapeHtml(evil)}<b>ok</b>`);
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
  });

  it('jsonForScript cannot close its <script> or open a comment, and parses back', () => {
    const value = { s: '</script><script>alert(1)</script><!-- & \u2028' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
