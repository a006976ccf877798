/**
 * Wait for a condition by polling it (never a fixed sleep): resolves with the first truthy value
 * `check` returns, or throws after `timeoutMs` naming what it waited for. The bound is generous
 * (a loaded machine only makes the wait longer, never the test fail).
 * @example await waitFor(() => spareState()?.decodes === 0, { what: 'a warm spare decode worker' });
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 30_000, intervalMs = 25, what = 'the condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; it never came`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
