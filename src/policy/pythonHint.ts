import { LINE_BREAK } from './snippet.js';

/**
 * Python -> JavaScript equivalents for the hint of a Python SYNTAX_ERROR. Each row recognises a
 * Python idiom and writes the JavaScript (with the prelude and Arquero) for it, reusing the
 * user's own column names and values where it can read them.
 */
interface Translation {
  re: RegExp;
  to: (m: RegExpExecArray) => string;
  /** Only the first matching translation of a group is shown (specific rows come first). */
  group?: string;
}

const Q = `(['"])`;
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s).trim();
const col = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `d.${name}` : `d['${name}']`);
const AGGS = new Set(['sum', 'mean', 'count', 'min', 'max', 'median']);

const TRANSLATIONS: readonly Translation[] = [
  {
    re: /^\s*(?:import\s+(?:pandas|numpy|matplotlib|seaborn|polars)\b|from\s+\w+\s+import\b).*$/,
    to: (m) => `\`${clip(m[0])}\` -> nothing to import (award_data and aq are loaded)`,
  },
  { re: /\bpd\.read_\w+\([^)]*\)/, to: (m) => `\`${clip(m[0])}\` -> use award_data, it is already loaded` },
  {
    re: new RegExp(`\\.groupby\\(\\s*${Q}([^'"]+)\\1\\s*\\)\\s*\\[\\s*${Q}([^'"]+)\\3\\s*\\]\\s*\\.(\\w+)\\(\\s*\\)`),
    to: (m) =>
      `\`${clip(m[0])}\` -> \`award_data.groupby('${m[2]}').agg({'${m[4]}': '${AGGS.has(m[5]!) ? m[5] : 'sum'}'})\``,
    group: 'aggregate',
  },
  {
    re: /\.groupby\(/,
    group: 'aggregate',
    to: () => "group and aggregate: `award_data.groupby('Agency').agg({'Award Amount': 'sum'})`",
  },
  {
    re: new RegExp(`(?:\\[\\s*${Q}([^'"]+)\\1\\s*\\]|\\.(\\w+))\\s*\\.value_counts\\(\\s*\\)`),
    to: (m) => `\`${clip(m[0])}\` -> \`value_counts(award_data, '${m[2] ?? m[3]}')\``,
    group: 'value_counts',
  },
  {
    re: new RegExp(
      `\\w+\\[\\s*\\w+(?:\\[\\s*${Q}([^'"]+)\\1\\s*\\]|\\.(\\w+))\\s*(==|!=|>=|<=|>|<)\\s*(${Q}[^'"]*\\6|-?[\\d.e]+)\\s*\\]`,
    ),
    group: 'filter',
    to: (m) =>
      `\`${clip(m[0])}\` -> \`award_data.filter(d => ${col(m[2] ?? m[3]!)} ${m[4] === '==' ? '===' : m[4] === '!=' ? '!==' : m[4]} ${m[5]!.replace(/"/g, "'")})\``,
  },
  {
    re: new RegExp(`\\[\\s*${Q}([^'"]+)\\1\\s*\\]\\s*\\.(sum|mean|min|max|median)\\(\\s*\\)`),
    group: 'aggregate',
    to: (m) => `\`${clip(m[0])}\` -> \`award_data.rollup({ ${m[3]}: aq.op.${m[3]}('${m[2]}') })\``,
  },
  {
    re: new RegExp(`\\.sort_values\\(\\s*(?:by\\s*=\\s*)?${Q}([^'"]+)\\1[^)]*ascending\\s*=\\s*False[^)]*\\)`),
    to: (m) => `\`${clip(m[0])}\` -> \`.orderby(aq.desc('${m[2]}'))\``,
  },
  {
    re: /\blen\(\s*(\w+)\s*\)/,
    to: (m) => `\`${clip(m[0])}\` -> \`award_data.numRows()\` for a table, \`${m[1]}.length\` for an array`,
  },
  {
    re: /\.(shape|columns)\b(?!\()/,
    to: (m) => `\`.${m[1]}\` -> \`award_data.${m[1] === 'shape' ? 'numRows()' : 'columnNames()'}\``,
  },
  {
    re: /\bf(['"])(.*?)\1/,
    to: (m) =>
      `f-strings -> template literals: ${clip(m[0])} -> \`${m[2]!.replace(/\{([^{}:]+)(?::[^{}]*)?\}/g, '${$1}')}\``,
  },
  { re: /^\s*print\s+(?![=(])(.+)$/, group: 'print', to: (m) => `\`${clip(m[0])}\` -> \`print(${m[1]!.trim()})\`` },
  {
    re: /^\s*def\s+(\w+)\s*\(([^)]*)\)[^:]*:/,
    to: (m) => `\`${clip(m[0])}\` -> \`function ${m[1]}(${m[2]}) { ... }\``,
  },
  {
    re: /^\s*for\s+(\w+)\s+in\s+range\((\w+)\)\s*:/,
    group: 'for',
    to: (m) => `\`${clip(m[0])}\` -> \`for (let ${m[1]} = 0; ${m[1]} < ${m[2]}; ${m[1]}++) { ... }\``,
  },
  {
    re: /^\s*for\s+([\w, ]+?)\s+in\s+(.+?)\s*:\s*$/,
    group: 'for',
    to: (m) => `\`${clip(m[0])}\` -> \`for (const ${m[1]!.includes(',') ? `[${m[1]}]` : m[1]} of ${m[2]}) { ... }\``,
  },
  {
    re: /\[([^[\]]+?)\s+for\s+(\w+)\s+in\s+([^[\]]+?)\s+if\s+([^[\]]+?)\]/,
    group: 'comprehension',
    to: (m) => `\`${clip(m[0])}\` -> \`${m[3]}.filter(${m[2]} => ${m[4]}).map(${m[2]} => ${m[1]})\``,
  },
  {
    re: /\[([^[\]]+?)\s+for\s+(\w+)\s+in\s+([^[\]]+?)\]/,
    group: 'comprehension',
    to: (m) => `\`${clip(m[0])}\` -> \`${m[3]}.map(${m[2]} => ${m[1]})\``,
  },
  { re: /\blambda\s+([\w, ]+):\s*([^,)\]\n]+)/, to: (m) => `\`${clip(m[0])}\` -> \`(${m[1]}) => ${m[2]!.trim()}\`` },
  {
    re: /(?<=^|[=(,]\s*)([^\s=(,][^=(,]*?)\s+if\s+([^:]+?)\s+else\s+([^\s)\],]+)/,
    to: (m) => `\`${clip(m[0])}\` -> \`${m[2]} ? ${m[1]} : ${m[3]}\``,
  },
  { re: /\[\s*:\s*:\s*-1\s*\]/, to: () => '`x[::-1]` -> `[...x].reverse()`' },
  {
    re: /\[\s*(-?\d*)\s*:\s*(-?\d*)\s*\]/,
    to: (m) =>
      `\`${clip(m[0])}\` -> \`.slice(${m[1] || 0}${m[2] ? `, ${m[2]}` : ''})\` (on a table: \`.slice(${m[1] || 0}${m[2] ? `, ${m[2]}` : ''})\` too)`,
  },
  { re: /\(\s*\*([A-Za-z_]\w*)/, to: (m) => `\`(*${m[1]})\` -> \`(...${m[1]})\`` },
  {
    re: /,\s*([a-z_]\w*)\s*=(?!=)\s*(?:'[^']*'|"[^"]*"|[^,)'"]+)/,
    to: (m) =>
      `keyword arguments such as \`${clip(m[0].slice(1))}\` do not exist in JavaScript: pass the value by position or in an options object`,
  },
  { re: /\blambda\s*:\s*([^,)\]\n]+)/, to: (m) => `\`${clip(m[0])}\` -> \`() => ${m[1]!.trim()}\`` },
  {
    re: /^\s*(?:if|elif|while)\b.*:\s*$|^\s*else\s*:/,
    to: () =>
      '`if x:` / `elif y:` / `else:` -> `if (x) { ... } else if (y) { ... } else { ... }` (braces, not indentation)',
  },
  { re: /\b(?:and|or|not)\b/, to: () => '`and` / `or` / `not` -> `&&` / `||` / `!`' },
  { re: /\b(?:None|True|False)\b/, to: () => '`None` / `True` / `False` -> `null` / `true` / `false`' },
  { re: /^\s*#/, to: () => '`# comment` -> `// comment`' },
];

const MAX_LINES = 6;
// only the head of a huge input, line by line: a hint needs examples, not completeness, and
// short lines keep the regexes cheap on adversarial input
const SCAN_LINES = 300;
const SCAN_LINE_LENGTH = 200;
/** Prelude basics that fill the hint after the specific rows, unless a row of the same group is there. */
const DEFAULTS: ReadonlyArray<[group: string, line: string]> = [
  ['value_counts', "counts: `value_counts(award_data, 'Agency')`"],
  ['aggregate', "group and aggregate: `award_data.groupby('Agency').agg({'Award Amount': 'sum'})`"],
  ['filter', "filter rows: `award_data.filter(d => d.Phase === 'Phase II')`"],
  ['print', 'output: `print(...)`, or end with the value to return'],
];

/**
 * The hint for Python sent to the JavaScript sandbox: the JavaScript equivalents of the Python
 * idioms the code uses (at most six), then the prelude basics (counts, group/aggregate,
 * filter, print) that no row covered yet.
 * @example
 * pythonHint("df.groupby('Agency')['Award Amount'].sum()");
 * // "... `award_data.groupby('Agency').agg({'Award Amount': 'sum'})` ..."
 */
export function pythonHint(code: string): string {
  const source = code.split(LINE_BREAK, SCAN_LINES).map((l) => l.slice(0, SCAN_LINE_LENGTH));
  const lines: string[] = [];
  const groups = new Set<string>();
  for (const t of TRANSLATIONS) {
    if (lines.length >= MAX_LINES) break;
    if (t.group && groups.has(t.group)) continue;
    for (const line of source) {
      const m = t.re.exec(line);
      if (!m) continue;
      lines.push(t.to(m));
      if (t.group) groups.add(t.group);
      break;
    }
  }
  for (const [group, line] of DEFAULTS) if (lines.length < MAX_LINES + 2 && !groups.has(group)) lines.push(line);
  return [
    'Rewrite it in JavaScript. award_data (an Arquero table) and aq are already loaded; the prelude has pandas-like helpers. Equivalents:',
    ...lines.map((l) => `  ${l}`),
  ].join('\n');
}
