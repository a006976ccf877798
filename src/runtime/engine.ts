import { createRequire } from 'node:module';
import type IvmModule from '#ivm-types';

/**
 * The isolated-vm module, whichever line of it loaded. Its types come from whichever of the two
 * optional packages is installed (tsconfig `paths` tries 6.x, then 5.0.4), so the build never
 * depends on one optional package being present.
 */
export type Ivm = typeof IvmModule;

/** Engine candidates, newest first: isolated-vm 6.x (prebuilt for Node 22/24), then 5.0.4 (builds on Node 20). */
const CANDIDATES = ['isolated-vm', 'isolated-vm-legacy'] as const;

let cached: { ivm: Ivm; name: string; version: string } | undefined;

/** Raised when no isolated-vm build loads on this Node. Host-side failure: thrown, never a result. */
export class EngineLoadError extends Error {
  readonly code = 'ENGINE_UNAVAILABLE';
  constructor(message: string, readonly attempts: string[]) {
    super(message);
    this.name = 'EngineLoadError';
  }
}

/**
 * Load isolated-vm: `isolated-vm` (6.x) first, then the `isolated-vm-legacy` alias (5.0.4).
 * @throws {EngineLoadError} naming the Node version and the fix when neither loads.
 */
export function loadEngine(candidates: readonly string[] = CANDIDATES): { ivm: Ivm; name: string; version: string } {
  const useCache = candidates === CANDIDATES;
  if (cached && useCache) return cached;
  const require = createRequire(import.meta.url);
  const attempts: string[] = [];
  for (const name of candidates) {
    try {
      const ivm = require(name) as Ivm;
      const version = (require(`${name}/package.json`) as { version: string }).version;
      const engine = { ivm, name, version };
      if (useCache) cached = engine;
      return engine;
    } catch (err) {
      attempts.push(`${name}: ${firstLine(err)}`);
    }
  }
  throw new EngineLoadError(
    `No isolated-vm engine loads on Node ${process.version}. sbirtools needs isolated-vm 6.x on Node 22/24 ` +
      `(prebuilt) or isolated-vm 5.0.4 on Node 20 (compiled; needs python3, make and g++). ` +
      `Fix: run \`npm rebuild isolated-vm isolated-vm-legacy\` (or reinstall) with build tools present, ` +
      `or use Node 22/24. Attempts: ${attempts.join('; ')}`,
    attempts,
  );
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0] ?? '';
}

/** True when this process was started with `--no-node-snapshot`, which isolated-vm needs on Node >= 20. */
export function hasNoNodeSnapshotFlag(): boolean {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) return true;
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return flags.includes('--no-node-snapshot');
}

/**
 * Which engine the holder processes use, for diagnostics (`sbirtools info`, bug reports).
 * @throws {EngineLoadError} when no engine loads.
 * @example engineInfo(); // { name: 'isolated-vm', version: '6.2.0', node: 'v22.23.3' }
 */
export function engineInfo(): { name: string; version: string; node: string } {
  const { name, version } = loadEngine();
  return { name, version, node: process.version };
}
