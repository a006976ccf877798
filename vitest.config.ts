import { defineConfig } from 'vitest/config';

// Forked pool: each test file runs in its own child process, so one V8 crash fails one file, not the run.
export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    execArgv: ['--no-node-snapshot'],
    setupFiles: ['test/setup/leakCheck.ts'],
  },
});
