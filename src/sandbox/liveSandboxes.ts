/** Open sandboxes of this process, so tests can assert none outlived its test, and shutdown can close them. */
const live = new Set<{ close(): Promise<void> }>();
// Lets the test suite's leak check know the runtime is in use in this process.
(globalThis as { __sbirtoolsRuntimeLoaded?: boolean }).__sbirtoolsRuntimeLoaded = true;

export function trackSandbox(box: { close(): Promise<void> }): void {
  live.add(box);
}

export function untrackSandbox(box: { close(): Promise<void> }): void {
  live.delete(box);
}

/** Number of sandboxes created and not yet closed. */
export function liveSandboxCount(): number {
  return live.size;
}

/** Close every open sandbox (used on shutdown of the CLI and MCP server). */
export async function closeAllSandboxes(): Promise<void> {
  await Promise.all([...live].map((b) => b.close()));
}
