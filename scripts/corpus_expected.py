"""Expected answers of the pandas-habits corpus (test/corpus/snippets.mjs), computed with pandas.

  corpus_expected.py AWARDS_CSV AGENCIES_CSV SNIPPETS_JSON OUT_JSON

Each snippet's `py` runs like a notebook cell (statements, then the value of the last expression) with
`df`/`award_data`, `agencies`, `pd` and `np` in scope; date columns are parsed as pandas reads them with
parse_dates. The value is normalized to JSON: a DataFrame becomes its rows (index dropped: snippets
call reset_index() where pandas keeps keys in the index), a Series or array its list of values, a
Timestamp an ISO date-time, NaN null. Run by scripts/corpus-expected.mjs.
"""
import ast
import json
import math
import sys

import numpy as np
import pandas as pd

DATE_COLUMNS = ['Proposal Award Date', 'Contract End Date', 'Solicitation Close Date', 'Proposal Receipt Date', 'Date of Notification']
TEXT_COLUMNS = ['Duns', 'Zip', 'Solicitation Number', 'Contact Phone', 'PI Phone', 'RI POC Phone', 'UEI']


def cell(v):
    if v is None:
        return None
    if isinstance(v, (pd.Timestamp,)):
        return None if pd.isna(v) else v.strftime('%Y-%m-%dT%H:%M:%S.000Z')
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(v) or math.isinf(v) else float(v)
    if v is pd.NaT:
        return None
    if isinstance(v, (list, tuple, np.ndarray)):
        return [cell(x) for x in v]
    if isinstance(v, dict):
        return {str(k): cell(x) for k, x in v.items()}
    try:
        if pd.isna(v):
            return None
    except (TypeError, ValueError):
        pass
    return v


def norm(x):
    if isinstance(x, pd.DataFrame):
        return {'kind': 'rows', 'value': [[cell(v) for v in row] for row in x.itertuples(index=False)]}
    if isinstance(x, (pd.Series, pd.Index, np.ndarray)):
        return {'kind': 'list', 'value': [cell(v) for v in list(x)]}
    if isinstance(x, (list, tuple)):
        return {'kind': 'list', 'value': [cell(v) for v in x]}
    if isinstance(x, dict):
        return {'kind': 'dict', 'value': cell(x)}
    return {'kind': 'scalar', 'value': cell(x)}


def evaluate(code, scope):
    tree = ast.parse(code, mode='exec')
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, '<snippet>', 'exec'), scope)
    return None if last is None else eval(compile(ast.Expression(last.value), '<snippet>', 'eval'), scope)


def main():
    awards_csv, agencies_csv, snippets_json, out_json = sys.argv[1:5]
    df = pd.read_csv(awards_csv, dtype={c: str for c in TEXT_COLUMNS}, parse_dates=DATE_COLUMNS)
    agencies = pd.read_csv(agencies_csv)
    with open(snippets_json) as f:
        snippets = json.load(f)
    out = {'pandas': pd.__version__, 'answers': {}}
    for s in snippets:
        scope = {'df': df.copy(), 'agencies': agencies.copy(), 'pd': pd, 'np': np}
        scope['award_data'] = scope['df']
        try:
            out['answers'][s['id']] = norm(evaluate(s['py'], scope))
        except Exception as err:  # a broken counterpart must be fixed, not skipped
            sys.exit(f"corpus_expected: snippet {s['id']} failed in pandas: {err!r}")
    with open(out_json, 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
