import { defineConfig } from 'vitest/config';

/**
 * The security suite's attack classes that apply to a JS engine without native code (CPU, memory,
 * output, globals, escapes, pollution) run a second time against the QuickJS WASM engine: the
 * same files, with SBIRTOOLS_ENGINE=quickjs as the default engine of every sandbox they open.
 * Attacks on V8/isolated-vm specifics (Atomics, SharedArrayBuffer, WebAssembly, holder crashes,
 * prepareStackTrace, the AST policy itself) stay on isolated-vm only. The memory-*, huge-string,
 * output-flood, deep-nesting and timers files assert V8's figures (its string length cap, its
 * RangeError texts, floods that reach a cap within a deadline sized for V8's JIT, V8's
 * FinalizationRegistry): the QuickJS interpreter meets the deadline first or fails with its own
 * texts (InternalError "stack overflow"), so their QuickJS counterparts (strings, buffers, Maps to
 * MEMORY_LIMIT; output to its cap; deep recursion) are in test/unit/runtime/quickjsSession.test.ts.
 * See docs/engines.md.
 */
const QUICKJS_SECURITY = [
  'cpu-sync-loop',
  'cpu-await-loop',
  'cpu-microtask-flood',
  'cpu-sort-comparator',
  'never-settling-thenable',
  'globals-allow-list',
  'require-import',
  'network',
  'filesystem',
  'polluted-object-prototype-then',
  'realm-escape-constructor-chain',
  'proto-key-result',
  'getter-on-returned-value',
  'tojson-toprimitive-proxy',
  'host-object-leakage',
  'process-env-canary',
].map((name) => `test/security/${name}.test.ts`);

// Forked pool: each test file runs in its own child process, so one V8 crash fails one file, not the run.
const shared = {
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  maxWorkers: 2,
  execArgv: ['--no-node-snapshot'],
  setupFiles: ['test/setup/leakCheck.ts'],
  // refuses a dist/ older than src/, schema/, prelude/ or scripts/ ("run npm run build")
  globalSetup: ['test/setup/distFresh.ts', 'test/setup/scratchTmp.ts'],
};

export default defineConfig({
  test: {
    ...shared,
    projects: [
      { test: { ...shared, name: 'default', include: ['test/**/*.test.ts'] } },
      { test: { ...shared, name: 'quickjs', include: QUICKJS_SECURITY, env: { SBIRTOOLS_ENGINE: 'quickjs' } } },
    ],
  },
});
