import { createRequire } from 'node:module';
import type IvmModule from '#ivm-types';
import { EngineLoadError } from '../engineLoadError.js';

export { EngineLoadError };

/**
 * The isolated-vm module, whichever line of it loaded. Its types are vendored (types/isolated-vm.d.ts,
 * mapped by tsconfig `paths`), so the build never depends on an optional package being present.
 */
export type Ivm = typeof IvmModule;

/**
 * Engine candidates: isolated-vm 6.x (prebuilt for Node 22/24), the `isolated-vm-7` alias (7.x,
 * prebuilt for Node 24/26), then the `isolated-vm-legacy` alias (5.0.4, compiled on Node 20).
 */
export const IVM_CANDIDATES = ['isolated-vm', 'isolated-vm-7', 'isolated-vm-legacy'] as const;
const CANDIDATES = IVM_CANDIDATES;

let cached: { ivm: Ivm; name: string; version: string } | undefined;

/**
 * The candidates, each required by a literal name: file tracers (@vercel/nft, `sbirtools bundle`)
 * follow `require('<literal>')` from createRequire and ship the package with its native addon.
 */
const requireHere = createRequire(import.meta.url);
const STATIC_LOADS: Record<string, () => unknown> = {
  'isolated-vm': () => requireHere('isolated-vm'),
  'isolated-vm-7': () => requireHere('isolated-vm-7'),
  'isolated-vm-legacy': () => requireHere('isolated-vm-legacy'),
};

/**
 * Load isolated-vm: `isolated-vm` (6.x) first, then `isolated-vm-7` (7.x), then `isolated-vm-legacy` (5.0.4).
 * Never loaded on Bun or Deno (a V8 addon for Node's ABI; requiring it there may crash the process).
 * @throws {EngineLoadError} naming the runtime and the fix when none loads.
 */
export function loadEngine(candidates: readonly string[] = CANDIDATES): { ivm: Ivm; name: string; version: string } {
  const useCache = candidates === CANDIDATES;
  if (cached && useCache) return cached;
  const require = createRequire(import.meta.url);
  const attempts: string[] = [];
  const foreign = foreignRuntime();
  if (foreign) {
    throw new EngineLoadError(
      `isolated-vm is a native addon for Node and does not run on ${foreign}. Use \`engine: 'quickjs'\` (or 'auto', the default), the WASM engine.`,
      [`${foreign}: not attempted`],
    );
  }
  for (const name of candidates) {
    try {
      const ivm = (STATIC_LOADS[name]?.() ?? require(name)) as Ivm;
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
      `(prebuilt), 7.x on Node 24/26 (prebuilt) or 5.0.4 on Node 20 (compiled; needs python3, make and g++). ` +
      `Fix: run \`npm rebuild isolated-vm isolated-vm-7 isolated-vm-legacy\` (or reinstall) with build tools present, ` +
      `use Node 22, 24 or 26, or use \`engine: 'quickjs'\` (the WASM engine; 'auto' picks it by itself). Attempts: ${attempts.join('; ')}`,
    attempts,
  );
}

/** 'Bun 1.4.5' or 'Deno 2.9.6' when this is not Node; undefined on Node. */
export function foreignRuntime(): string | undefined {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.bun) return `Bun ${versions.bun}`;
  if (versions.deno) return `Deno ${versions.deno}`;
  return undefined;
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
