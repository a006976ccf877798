/**
 * Compares a run's answer with the pandas answer of a corpus snippet (test/corpus/expected.json).
 * The run's answer is its table (rows), its JSON value, or, when it only printed, its stdout.
 * Numbers match within a relative 1e-6 (pandas and JavaScript sum in different orders); null, NaN and
 * NaT are one missing value; date-times compare as ISO strings; a one-column table equals a list and
 * a one-cell answer equals a scalar; rows of two cells equal an object of key -> value.
 */

const isNum = (x) => typeof x === 'number';
const ISO = /^\d{4}-\d{2}-\d{2}T/;

/** One cell. */
export function sameCell(a, b) {
  if (a === null || a === undefined) return b === null || b === undefined || (isNum(b) && Number.isNaN(b));
  if (b === null || b === undefined) return isNum(a) && Number.isNaN(a);
  if (isNum(a) && isNum(b)) return a === b || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  if (typeof a === 'boolean' && isNum(b)) return Number(a) === b;
  if (isNum(a) && typeof b === 'boolean') return a === Number(b);
  if (typeof a === 'string' && typeof b === 'string' && ISO.test(a) && ISO.test(b))
    return a.slice(0, 19) === b.slice(0, 19);
  if (typeof a === 'string' && isNum(b)) return a.trim() !== '' && sameCell(Number(a), b);
  if (isNum(a) && typeof b === 'string') return sameCell(b, a);
  return a === b;
}

const key = (row) => JSON.stringify(row.map((c) => (isNum(c) ? Math.round(c * 1e4) / 1e4 : (c ?? null))));

function sameRows(exp, act, anyOrder) {
  if (exp.length !== act.length) return false;
  if (anyOrder) {
    exp = [...exp].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    act = [...act].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return exp.every(
    (r, i) => Array.isArray(act[i]) && r.length === act[i].length && r.every((c, j) => sameCell(c, act[i][j])),
  );
}

/** The answer of a run as { kind, value } (kind: rows | list | dict | scalar | none), before stdout. */
export function actualOf(result) {
  if (result.table) return { kind: 'rows', value: result.table.rows };
  if (result.value !== undefined) {
    const v = result.value;
    if (Array.isArray(v)) return { kind: 'list', value: v };
    if (v && typeof v === 'object') return { kind: 'dict', value: v };
    return { kind: 'scalar', value: v };
  }
  return { kind: 'none', value: undefined };
}

const asRows = (x) =>
  x.kind === 'rows'
    ? x.value
    : x.kind === 'list'
      ? x.value.map((v) => (Array.isArray(v) ? v : [v]))
      : x.kind === 'dict'
        ? Object.entries(x.value)
        : [[x.value]];

/** True when a value answer matches the expected one. */
export function sameAnswer(expected, actual, anyOrder = false) {
  if (actual.kind === 'none') return false;
  if (expected.kind === 'scalar') {
    const rows = asRows(actual);
    return rows.length === 1 && rows[0].length === 1 && sameCell(expected.value, rows[0][0]);
  }
  if (expected.kind === 'dict' && actual.kind === 'dict') {
    const ek = Object.keys(expected.value);
    return (
      ek.length === Object.keys(actual.value).length && ek.every((k) => sameCell(expected.value[k], actual.value[k]))
    );
  }
  return sameRows(asRows(expected), asRows(actual), anyOrder);
}

const NUMBER = /-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?/gi;

/** True when printed text shows every expected value (numbers within tolerance, strings verbatim). */
export function stdoutShows(expected, stdout) {
  const numbers = [...stdout.matchAll(NUMBER)].map((m) => Number(m[0].replace(/,/g, '')));
  const shows = (v) => {
    if (v === null || v === undefined) return /NaN|null|None|NaT/.test(stdout);
    if (isNum(v)) return numbers.some((n) => sameCell(v, n));
    if (typeof v === 'string' && ISO.test(v)) return stdout.includes(v.slice(0, 10));
    return stdout.includes(String(v));
  };
  const cells = expected.kind === 'scalar' ? [expected.value] : asRows(expected).flat();
  return cells.length > 0 && cells.every(shows);
}

/** Verdict for one snippet: { ok, why }. */
export function judge(expected, result, anyOrder = false) {
  if (!result.ok) return { ok: false, why: result.error?.message ?? 'failed' };
  const actual = actualOf(result);
  if (actual.kind !== 'none') {
    return sameAnswer(expected, actual, anyOrder)
      ? { ok: true }
      : {
          ok: false,
          why: `answered ${JSON.stringify(actual.value).slice(0, 200)}, pandas ${JSON.stringify(expected.value).slice(0, 200)}`,
        };
  }
  if (result.stdout.trim() === '') return { ok: false, why: 'no value and nothing printed' };
  return stdoutShows(expected, result.stdout)
    ? { ok: true }
    : {
        ok: false,
        why: `printed ${JSON.stringify(result.stdout.slice(0, 200))}, pandas ${JSON.stringify(expected.value).slice(0, 200)}`,
      };
}
