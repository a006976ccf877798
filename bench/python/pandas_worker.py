"""The pandas baseline of bench/run.mjs: the Python designs sbirtools replaces.

  pandas_worker.py CSV            a persistent worker: loads the CSV with pandas.read_csv, prints
                                  one JSON line {"ready": ...}, then answers one JSON request per
                                  stdin line ({"code": "<python>"}) with one JSON line.
  pandas_worker.py CSV --once CODE   a cold process: load, answer CODE once, print one JSON line.

CODE is run like a notebook cell with `df` and `pd` in scope: statements first, then the value of
the last expression. Timings are measured here (perf_counter) and by the caller (round trip).
"""
import ast
import json
import sys
import time

T_START = time.perf_counter()
import pandas as pd  # noqa: E402  (import time is part of a cold answer)

T_IMPORTED = time.perf_counter()


def mem_mb():
    """VmRSS and VmHWM of this process, in MB (10^6 bytes)."""
    out = {}
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(('VmRSS:', 'VmHWM:')):
                key, value = line.split(':')
                out[key] = int(value.split()[0]) * 1024 / 1e6
    return {'rssMb': out.get('VmRSS'), 'hwmMb': out.get('VmHWM')}


def jsonable(value):
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return json.loads(value.to_json(orient='split'))
    if hasattr(value, 'item'):
        return value.item()
    return value


def evaluate(code, scope):
    tree = ast.parse(code, mode='exec')
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, '<code>', 'exec'), scope)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), '<code>', 'eval'), scope)


def answer(code, scope):
    t = time.perf_counter()
    try:
        value = jsonable(evaluate(code, scope))
        ok = True
    except Exception as err:  # a failed question is an answer too, like a guest error
        value, ok = repr(err), False
    text = json.dumps({'ok': ok, 'value': value, 'ms': (time.perf_counter() - t) * 1000})
    return text


def main():
    path = sys.argv[1]
    t = time.perf_counter()
    df = pd.read_csv(path)
    read_ms = (time.perf_counter() - t) * 1000
    scope = {'df': df, 'pd': pd}
    loaded = {'importMs': (T_IMPORTED - T_START) * 1000, 'readMs': read_ms, 'rows': len(df), **mem_mb(), 'pandas': pd.__version__}
    if len(sys.argv) > 3 and sys.argv[2] == '--once':
        out = json.loads(answer(sys.argv[3], scope))
        print(json.dumps({**loaded, 'answer': out, 'totalMs': (time.perf_counter() - T_START) * 1000}), flush=True)
        return
    print(json.dumps({'ready': True, **loaded}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get('mem'):
            print(json.dumps(mem_mb()), flush=True)
            continue
        sys.stdout.write(answer(req['code'], scope) + '\n')
        sys.stdout.flush()


main()
