import { LINE_BREAK } from './snippet.js';

/** Where the code first looks like Python, and which Python features it uses. */
export interface PythonDetection {
  /** 1-based line and column of the first strong Python signal (or the first signal). */
  line: number;
  column: number;
  /** Ids of the signals found, e.g. 'import', 'block-colon', 'f-string'. */
  signals: string[];
}

interface Signal {
  id: string;
  /** 3 = Python-only syntax; 2 = very likely Python; 1 = Python-flavoured but also seen in JS. */
  weight: 1 | 2 | 3;
  re: RegExp;
  /** What the regex sees: the raw line, the line without strings, or (default) without strings and comments. */
  on?: 'raw' | 'noStrings';
}

// Each regex runs on one line, with string contents blanked and comments removed, so words
// inside strings or comments never count. Lines are capped in length and number so that
// adversarial input stays linear.
const SIGNALS: readonly Signal[] = [
  {
    id: 'import',
    weight: 3,
    re: /^\s*(?:from\s+[\w.]+\s+import\s+[\w*(]|import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*\s*$)/,
  },
  { id: 'def', weight: 3, re: /^\s*(?:async\s+)?def\s+\w+\s*\(/ },
  { id: 'class-colon', weight: 3, re: /^\s*class\s+\w+\s*(?:\([^)]*\))?\s*:/ },
  // `if x:` / `for a in b: print(a)`: a JavaScript line with these keywords has braces, `;` or `?` before any colon
  { id: 'block-colon', weight: 3, re: /^\s*(?:if|elif|else|for|while|with|try|except|finally)\b[^{};?]*:[^{};?]*$/ },
  {
    id: 'python-statement',
    weight: 3,
    re: /^\s*(?:pass\s*$|raise\s+\w|except\b[^{};]*:|del\s+\w|nonlocal\s+\w|global\s+\w|assert\s+\w|yield\s+from\b)/,
  },
  { id: 'print-statement', weight: 3, re: /^\s*print\s+(?![=(.[\s])[\w'"]/ },
  { id: 'f-string', weight: 3, re: /(?:^|[^\w$.])(?:[fF][rR]?|[rR][fFbB]?|[bB][rR]?)(['"])/ },
  { id: 'triple-quote', weight: 3, re: /"""|'''/, on: 'raw' },
  { id: 'lambda', weight: 3, re: /\blambda\s+\w[\w\s,*=]*:|(?<![{,]\s*)\blambda\s*:/ },
  { id: 'conditional-expression', weight: 3, re: /(?<!\belse)(?<=[\w)\]'"])\s+if\s+[^:{};]+?\s+else\s+[^:{};\s]/ },
  { id: 'comprehension', weight: 3, re: /[[({][^[\](){}]*\bfor\s+[\w, ]+?\s+in\s+\S/ },
  { id: 'is-none', weight: 3, re: /\bis\s+(?:not\s+)?None\b|\bnot\s+in\b|\bis\s+not\b/ },
  { id: 'slice', weight: 3, re: /\[\s*-?\d*\s*:\s*-?\d*\s*(?::\s*-?\d*\s*)?[\],]/ },
  { id: 'hash-comment', weight: 3, re: /^\s*#(?:[\s#]|$)|[\w)\]'"]\s+#\s/, on: 'noStrings' },
  { id: 'not-operator', weight: 3, re: /(?:^\s*(?:if|while|return|assert)|[=(,[])\s*not\s+[\w(['"]/ },
  { id: 'and-or', weight: 2, re: /[\w)\]'"]\s+(?:and|or)\s+(?:not\s+)?[\w(['"-]/ },
  { id: 'star-args', weight: 3, re: /\(\s*\*{1,2}[A-Za-z_]|,\s*\*\*[A-Za-z_]/ },
  { id: 'line-continuation', weight: 2, re: /\s\\\s*$/ },
  { id: 'none-true-false', weight: 1, re: /\b(?:None|True|False)\b/ },
  {
    id: 'builtin-call',
    weight: 1,
    re: /(?<![.\w$])(?:len|range|str|int|float|isinstance|enumerate|zip|sorted|list|dict|tuple|set)\s*\(/,
  },
  {
    id: 'pandas',
    weight: 1,
    re: /\b(?:pd|np|plt|sns)\.\w|\bdf\s*\[|\bdf\.\w|\.iloc\b|\.loc\s*\[|\.(?:astype|reset_index|sort_values|value_counts|nlargest|read_csv|to_csv|apply)\s*\(/,
  },
  { id: 'walrus', weight: 1, re: /:=/ },
  { id: 'decorator', weight: 1, re: /^\s*@\w+/ },
];

const MAX_LINES = 5_000;
const MAX_LINE_LENGTH = 500;
const PYTHON_SCORE = 3;
const STRING = /(["'`])(?:\\.|(?!\1)[^\\])*\1/g;
const LINE_COMMENT = /\/\/.*$/;
// a JavaScript regex literal, where one can start (Python has none; its `/` follows an operand)
const REGEX_LITERAL = /((?:^|[=(,:!&|?;{}[]|\breturn)\s*)\/(?![*/])(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\[])+\/[a-z]*/g;
const HASH_COMMENT = /(^|\s)#(?!\w).*$/;

/**
 * Whether code that failed to parse as JavaScript looks like Python. Call it only after the
 * JavaScript parse failed: valid JavaScript is never reported as Python. Scores Python
 * features (3 for Python-only syntax such as `def f():` or f-strings, less for features that
 * also look like JavaScript such as `len(x)` or `None`) and answers when the score reaches 3.
 * @returns where the Python starts and which features were seen, or null.
 * @example
 * detectPython('import pandas as pd\ndf.head()'); // { line: 1, column: 1, signals: ['import', 'pandas'] }
 */
export function detectPython(code: string): PythonDetection | null {
  const lines = code.split(LINE_BREAK, MAX_LINES);
  const found = new Map<string, { weight: number; line: number; column: number }>();
  const state = { inBlockComment: false };
  lines.forEach((rawLine, i) => {
    const raw = rawLine.slice(0, MAX_LINE_LENGTH);
    const noStrings = withoutStringsAndComments(raw, state);
    const bare = noStrings.replace(HASH_COMMENT, '$1');
    for (const s of SIGNALS) {
      if (found.has(s.id)) continue;
      const m = s.re.exec(s.on === 'raw' ? raw : s.on === 'noStrings' ? noStrings : bare);
      if (m)
        found.set(s.id, {
          weight: s.weight,
          line: i + 1,
          column: m.index + (m[0].length - m[0].trimStart().length) + 1,
        });
    }
  });
  let score = 0;
  for (const f of found.values()) score += f.weight;
  if (score < PYTHON_SCORE) return null;
  const ordered = [...found.entries()].sort(
    ([, a], [, b]) => b.weight - a.weight || a.line - b.line || a.column - b.column,
  );
  const first = ordered[0]![1];
  return { line: first.line, column: first.column, signals: ordered.map(([id]) => id) };
}

/**
 * One line with regex literals and string contents blanked (quotes and prefixes kept, so
 * `f"..."` stays visible as `f""`) and line and block comments removed. Block comments may
 * span lines (JSDoc prose must not count as Python): `state` carries that across lines. Strings
 * go first, so a comment opener inside one (a glob such as 'data/[star].csv') opens nothing.
 */
function withoutStringsAndComments(raw: string, state: { inBlockComment: boolean }): string {
  let line = raw.replace(REGEX_LITERAL, '$1/ /').replace(STRING, (_m, q: string) => q + q);
  if (state.inBlockComment) {
    const end = line.indexOf('*/');
    state.inBlockComment = end === -1;
    line = state.inBlockComment ? '' : line.slice(end + 2);
  }
  line = line.replace(/\/\*.*?\*\//g, ' ');
  const open = line.indexOf('/*');
  if (open !== -1) {
    state.inBlockComment = true;
    line = line.slice(0, open);
  }
  return line.replace(LINE_COMMENT, '');
}
