import { describe, expect, it } from 'vitest';
import { checkCode, detectPython } from '../../../src/policy/index.js';

function syntax(code: string) {
  const result = checkCode(code);
  if (result.ok || result.type !== 'SYNTAX_ERROR')
    throw new Error(`expected a SYNTAX_ERROR for ${JSON.stringify(code)}, got ${JSON.stringify(result)}`);
  return result.syntaxError;
}

/** Python as LLMs send it to a JavaScript tool: one idiom or several per snippet. */
const PYTHON: string[] = [
  'import pandas as pd',
  'import numpy as np\nimport pandas as pd',
  'from collections import Counter\nCounter(award_data)',
  "df = pd.read_csv('award_data.csv')\nif df.empty: print('no rows')",
  'def top(n):\n    return df.nlargest(n, "Award Amount")',
  'def f():\n  pass',
  'print df.shape',
  'print "hello"',
  'print(f"Total: {total:,.0f}")',
  "total = df['Award Amount'].sum()\nprint(f'{total}')",
  "df.groupby('Agency')['Award Amount'].sum().sort_values(ascending=False)\n# top agencies",
  'for agency in agencies:\n    print(agency)',
  'for i in range(10):\n    print(i)',
  'for k, v in counts.items():\n    print(k, v)',
  'if total > 1000000:\n    print("big")',
  'if x:\n    y = 1\nelif z:\n    y = 2\nelse:\n    y = 3',
  'while n > 0:\n    n -= 1',
  'x = None\nif x is None:\n    x = 0',
  'if x is not None and y not in z:\n    pass',
  'flag = True and not False',
  'squares = [x * x for x in range(10)]',
  "big = [r for r in rows if r['Award Amount'] > 1e6]",
  '{k: v for k, v in pairs}',
  'total = sum(x for x in amounts)',
  "df['k'] = df['Award Amount'].apply(lambda x: x / 1000)",
  'f = lambda a, b: a + b',
  'try:\n    x = 1\nexcept Exception as e:\n    print(e)',
  'with open("x.csv") as f:\n    data = f.read()',
  'class Empty(Base): pass',
  'x = 5  # five',
  'while True: pass',
  'return total if total else 0',
  'class Summary:\n    def __init__(self):\n        self.n = 0',
  '@dataclass\nclass Row:\n    agency: str',
  '"""Count awards per agency."""\nvalue_counts(award_data, "Agency")',
  "# count awards by agency\nvalue_counts(award_data, 'Agency')",
  'len(df)  # number of rows',
  "df[df['Phase'] == 'Phase II'].head(10)\n# filtered",
  'df.iloc[:10]',
  'df.loc[:, "Agency"]',
  'rows = rows[:5]',
  'raise ValueError("no data")',
  'assert len(rows) > 0',
  'del df["Abstract"]',
  'global counter\ncounter += 1',
  "print(df['Agency'].value_counts())\nprint(len(df))\nx = None\nif x: pass",
  "r = df[(df['Award Year'] >= 2020) and (df['Phase'] == 'Phase II')]",
  "name = r'\\d+'",
  "agencies = df['Agency'].unique().tolist()\nfor a in agencies: print(a)",
  'async def main():\n    await run()',
  "    df.groupby('Agency').size()\n    # indented snippet",
  'if (n := len(rows)) > 10:\n    print(n)',
  'result = df.query(\'Phase == "Phase II"\')\nprint(result.shape[0])\nprint(True)\nx = None\nresult is None',
];

/** Broken JavaScript: a JavaScript syntax error, never the Python message. */
const BROKEN_JS: string[] = [
  'const x = {',
  'award_data.filter(d => d.Award Amount > 1)',
  'const total: number = 1',
  'foo(1, 2',
  "let s = 'abc",
  'if (x) { y }}',
  'x = => 1',
  'function f() { const a = 1 const b = 2 }',
  'award_data.filter(d => { return d.Phase === "Phase II" ',
  'const obj = { a: 1, b: 2,, }',
  'class { }',
  'switch (x) { case 1: print(1) default: print(2) }',
  'const cond = a ?\n  b :\n  c :',
  'let for = 1',
  'const o = { if: 1, else: 2 }; o.if +',
  'print(`${x`)',
  'const len = rows.length; len(',
  '#!/usr/bin/env node\nconst = 1',
  'class A { #x = 1; m() { return this.#y } }',
  'outer: for (const x of xs) { continue inner }',
];

/** Valid JavaScript that merely looks like Python: never a syntax error (it fails, if at all, at run time). */
const VALID_JS_PYTHONISH: string[] = [
  'len(df)',
  "df = pd.read_csv('award_data.csv')\ndf.head()",
  "df.groupby('Agency')['Award Amount'].sum()",
  'x = None',
  'print(True, False, None)',
  "df['Phase'].value_counts()",
  'for (const x in y) print(x)',
  'const lambda = (x) => x; lambda(1)',
  'const r = { if: 1, for: 2 }; r.if',
  'print("def f(): pass  # python in a string")',
  'const s = `for x in y:\n  print(x)`',
];

describe('Python sent to the JavaScript sandbox', () => {
  it.each(PYTHON)('is a SYNTAX_ERROR saying the sandbox runs JavaScript: %j', (code) => {
    const error = syntax(code);
    expect(error.python).toBe(true);
    expect(error.message).toMatch(
      /^This sandbox runs JavaScript, not Python: line \d+ \(`.+`\) is Python \(line \d+, col \d+\)\.$/,
    );
    expect(error.hint).toMatch(/^Rewrite it in JavaScript\. award_data \(an Arquero table\) and aq are already loaded/);
    expect(error.snippet).toContain('^');
  });

  it('translates the idioms it recognises into the prelude and Arquero, reusing the names in the code', () => {
    const hint = syntax(
      "import pandas as pd\nby = df.groupby('Agency')['Award Amount'].mean()\nprint(df['Phase'].value_counts())\nbig = df[df['Award Amount'] > 1000000]",
    ).hint;
    expect(hint).toContain("`award_data.groupby('Agency').agg({'Award Amount': 'mean'})`");
    expect(hint).toContain("`value_counts(award_data, 'Phase')`");
    expect(hint).toContain("`award_data.filter(d => d['Award Amount'] > 1000000)`");
    expect(hint).toContain('nothing to import');
    expect(syntax("df[df.Phase == 'Phase II']\nif x: pass").hint).toContain(
      "`award_data.filter(d => d.Phase === 'Phase II')`",
    );
    expect(syntax('print(f"Total: {total:,.0f} in {n} awards")').hint).toContain('`Total: ${total} in ${n} awards`');
    expect(syntax('for i in range(n):\n    pass').hint).toContain('`for (let i = 0; i < n; i++) { ... }`');
    expect(syntax('sq = [x * 2 for x in xs if x > 0]').hint).toContain('`xs.filter(x => x > 0).map(x => x * 2)`');
    expect(syntax('f = lambda d: d + 1').hint).toContain('`(d) => d + 1`');
    expect(syntax('print len(df)').hint).toContain('`print(len(df))`');
  });

  it('falls back to the prelude basics when no idiom is recognised', () => {
    const hint = syntax('while True:\n    break').hint;
    expect(hint).toContain('`if (x) { ... } else if (y) { ... } else { ... }`');
    const bare = syntax('try:\n    pass\nfinally:\n    pass').hint;
    expect(bare).toContain("value_counts(award_data, 'Agency')");
  });

  it('points at the first Python line', () => {
    expect(syntax('const a = 1\n\nfor x in y:\n    print(x)')).toMatchObject({ line: 3, column: 1 });
  });
});

describe('not Python', () => {
  it.each(BROKEN_JS)('broken JavaScript keeps the JavaScript message: %j', (code) => {
    const error = syntax(code);
    expect(error.python).toBe(false);
    expect(error.message).not.toContain('Python');
  });

  it.each(VALID_JS_PYTHONISH)('valid JavaScript is never reported as Python: %j', (code) => {
    expect(checkCode(code)).toEqual({ ok: true });
  });

  it('detectPython needs more than one weak signal', () => {
    expect(detectPython('x = None')).toBeNull();
    expect(detectPython('len(x) + None')).toBeNull();
    expect(detectPython('len(x) + None + df.iloc')).not.toBeNull();
  });
});
