/**
 * `t[mask]`: JavaScript turns a property key into a string, so a boolean Series used as a key
 * becomes a token naming it; the table's column access (columnAccess.ts) looks the token up here.
 * The registry keeps the most recent masks only (a bounded map), and a token names its mask's size so
 * a printed token still reads sensibly.
 */
const MAX = 64;
const masks = new Map<string, object>();
let next = 0;

/** The property key standing for `mask` (registered until MAX newer masks are made). */
export function maskToken(mask: object & { length: number }): string {
  for (const [k, m] of masks) if (m === mask) return k;
  const token = `[boolean mask #${++next} of ${mask.length} rows]`;
  masks.set(token, mask);
  if (masks.size > MAX) masks.delete(masks.keys().next().value!);
  return token;
}

/** The mask a token stands for, or undefined. */
export function maskFromToken(key: string): object | undefined {
  return key.startsWith('[boolean mask #') ? masks.get(key) : undefined;
}

/**
 * Records the registry; the function returned puts it back as it was (the warm-up's masks must not
 * take token numbers a user's code would otherwise get: prelude/runtime/warmUp.ts).
 */
export function maskCheckpoint(): () => void {
  const saved = [...masks];
  const at = next;
  return () => {
    masks.clear();
    for (let i = 0; i < saved.length; i++) masks.set(saved[i]![0], saved[i]![1]);
    next = at;
  };
}
