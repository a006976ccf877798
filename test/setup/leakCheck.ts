// Leak check after each test (quickjs-emscripten style): no isolate outlives its sandbox, and
// at the end of each file every sandbox is closed and no isolate is left in the default holder.
import { afterAll, afterEach, expect } from 'vitest';

const loaded = () => (globalThis as { __sbirtoolsRuntimeLoaded?: boolean }).__sbirtoolsRuntimeLoaded === true;

afterEach(async () => {
  if (!loaded()) return;
  const { liveIsolates, liveSandboxCount } = await import('../../src/index.js');
  expect(await liveIsolates()).toBeLessThanOrEqual(liveSandboxCount());
});

afterAll(async () => {
  if (!loaded()) return;
  const { liveIsolates, liveSandboxCount, shutdown } = await import('../../src/index.js');
  expect(liveSandboxCount(), 'sandboxes left open at the end of the file').toBe(0);
  expect(await liveIsolates(), 'isolates alive at the end of the file').toBe(0);
  await shutdown();
});
