/**
 * Deterministic runs: `Date.now()` / `new Date()` frozen at `now`, `Math.random` (and Arquero's
 * sampling) seeded. Installed for one run and restored after it (after the promise settles for
 * async runs). `new Date(...)` with arguments and `instanceof Date` behave as usual.
 */
import { seed as aqSeed } from 'arquero';
import { MathRandom, NativeDate } from '../intrinsics.js';

/** The deterministic option of execute(). */
export interface Deterministic {
  now: number;
  seed: number;
}

/** mulberry32: a small, fast, well-mixed 32-bit PRNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Freezes time and seeds randomness; returns the function that restores both. */
export function enterDeterministic(d: Deterministic): () => void {
  const g = globalThis as unknown as { Date: DateConstructor; Math: Math };
  const prevDate = g.Date;
  const prevRandom = g.Math.random;
  const now = Number(d.now);
  function FrozenDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new NativeDate(now).toString();
    return args.length
      ? Reflect.construct(NativeDate, args, new.target)
      : Reflect.construct(NativeDate, [now], new.target);
  }
  Object.setPrototypeOf(FrozenDate, NativeDate);
  FrozenDate.prototype = NativeDate.prototype;
  Object.defineProperty(FrozenDate, 'now', { value: () => now, writable: true, configurable: true });
  g.Date = FrozenDate as unknown as DateConstructor;
  g.Math.random = mulberry32(d.seed);
  aqSeed(d.seed);
  return () => {
    g.Date = prevDate;
    g.Math.random = prevRandom === undefined ? MathRandom : prevRandom;
    aqSeed(null as unknown as number);
  };
}
