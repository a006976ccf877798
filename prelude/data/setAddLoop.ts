/**
 * `['add', cond, field]` (session 20, src/runtime/prepare/scalarLoops.ts `pushShape`): `const seen = new
 * Set(); for (const r of ...) if (C) seen.add(r.F);` answered from the columns: the rows that pass
 * (scalarLoop.ts `passingRows`), their values added in the loop's order. A dictionary field adds each
 * of its strings once, at its first row (one code per string: a later add of the same string is no
 * change to a Set); a number field adds every row's value (a number, or null where it is missing), and
 * the Set keeps -0 and NaN as its own add does. Only when `seen` is a Set whose add is the session's
 * (its prototype Set.prototype, no own `add`, descriptors read: no getter runs): each add then calls no
 * code of the run's. False, with nothing added, when the loop must run as written.
 */
import {
  NativeArray,
  NativeSet,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ReflectApply,
} from '../intrinsics.js';
import type { Source } from '../fast/source.js';
import { columnsOf } from './keyedCode.js';
import { answeredInPlace, passingRows } from './scalarLoop.js';

const SetProto = NativeSet.prototype;
const SetAdd = SetProto.add;

export function setAddLoop(
  spec: unknown[],
  start: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): boolean {
  if (spec.length !== 3 || !oneElement(start)) return false;
  const seen = start[0] as unknown;
  if (seen === null || typeof seen !== 'object' || ObjectGetPrototypeOf(seen) !== SetProto) return false;
  if (ObjectGetOwnPropertyDescriptor(seen, 'add') !== undefined) return false;
  if (ObjectGetOwnPropertyDescriptor(SetProto, 'add')?.value !== SetAdd) return false;
  const field = spec[2];
  if (typeof field !== 'number' || field % 1 !== 0 || field < 0 || field >= srcs.length) return false;
  const read = columnsOf(srcs, null);
  if (read === undefined) return false;
  const pass = passingRows(spec, read, srcs, idx, n);
  if (pass === null) return false;
  const { rows, m } = pass;
  const K = read.cols.K[field];
  const D = read.cols.D[field];
  if (K !== undefined && D !== undefined) {
    // code 0 is null, code k + 1 the dictionary's k-th string (keyedCode.ts columnsOf)
    const added = new Uint8Array(D.length);
    for (let j = 0; j < m; j++) {
      const c = K[rows[j]!]!;
      if (added[c] === 0) {
        added[c] = 1;
        ReflectApply(SetAdd, seen, [D[c]]);
      }
    }
  } else {
    const V = read.cols.V[field]!;
    const M = read.cols.M[field]!;
    for (let j = 0; j < m; j++) {
      const r = rows[j]!;
      ReflectApply(SetAdd, seen, [M[r] !== 0 ? V[r] : null]);
    }
  }
  answeredInPlace();
  return true;
}

/** Whether `x` is an array of one element (no Array.prototype method: a run may have replaced them). */
function oneElement(x: unknown): x is unknown[] {
  return NativeArray.isArray(x) && x.length === 1;
}
