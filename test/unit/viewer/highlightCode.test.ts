import { describe, expect, it } from 'vitest';
import { highlightLines, HIGHLIGHT_MAX_CHARS } from '../../../src/viewer/highlightCode.js';

const balanced = (line: string) => (line.match(/<span /g) ?? []).length === (line.match(/<\/span>/g) ?? []).length;

describe('highlightLines', () => {
  it('gives one balanced line per source line, even inside multi-line comments and templates', () => {
    const code = "const a = `x\ny ${1 + 2}\nz`; /* one\ntwo */\n'</span><script>'";
    const lines = highlightLines(code);
    expect(lines).toHaveLength(5);
    lines.forEach((l) => expect(balanced(l)).toBe(true));
    expect(lines[3]).toContain('hljs-comment');
    expect(lines[4]).toContain('&lt;/span&gt;&lt;script&gt;');
    expect(lines.join('\n')).not.toContain('<script>');
  });

  it('escapes without highlighting past HIGHLIGHT_MAX_CHARS', () => {
    const lines = highlightLines(`'<b>'\n${'x'.repeat(HIGHLIGHT_MAX_CHARS)}`);
    expect(lines[0]).toBe('&#39;&lt;b&gt;&#39;');
  });
});
