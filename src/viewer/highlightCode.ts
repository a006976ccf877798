import { hljs, javascript } from '../vendor/highlight.js';
import { escapeHtml } from './html.js';

hljs.registerLanguage('javascript', javascript);

/** Code longer than this is shown escaped but not highlighted (highlighting is linear but not free). */
export const HIGHLIGHT_MAX_CHARS = 200_000;

/**
 * JavaScript code as highlighted HTML, one string per source line (spans closed at the end of a
 * line and reopened on the next), so each line can carry its number and an error mark.
 * highlight.js escapes the code itself; its output holds only its own `<span class="hljs-…">`.
 * @example highlightLines('const a = 1;\na')[1] // 'a'
 */
export function highlightLines(code: string): string[] {
  if (code.length > HIGHLIGHT_MAX_CHARS) return code.split('\n').map(escapeHtml);
  const markup = hljs.highlight(code, { language: 'javascript', ignoreIllegals: true }).value;
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  for (const token of markup.split(/(<span class="[^"]*">|<\/span>|\n)/)) {
    if (token === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (token.startsWith('<span')) {
      open.push(token);
      current += token;
    } else if (token === '</span>') {
      open.pop();
      current += token;
    } else {
      current += token;
    }
  }
  lines.push(current + '</span>'.repeat(open.length));
  return lines;
}
