/** HTML that is already safe (built by `html` or sanitized); everything else is escaped when interpolated. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escape text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Mark a string as safe HTML. Only for our own markup or a sanitizer's output, never guest text. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function part(value: unknown): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(value);
}

/**
 * Tagged template that escapes every interpolation unless it is SafeHtml (arrays are joined,
 * `null`/`undefined`/`false` print nothing). Escaping is the default, so a forgotten call is safe.
 * @example html`<td>${cell}</td>` // cell '<script>' becomes '&lt;script&gt;'
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => (out += part(v) + strings[i + 1]!));
  return new SafeHtml(out);
}

/**
 * JSON to put inside a `<script>` element: `<`, `>`, `&` and the line separators are \u-escaped,
 * so no string in it can close the element or open a comment.
 * @example html`<script type="application/json">${trusted(jsonForScript(data))}</script>`
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
