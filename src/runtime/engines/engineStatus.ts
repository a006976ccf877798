import { EngineLoadError } from './engineLoadError.js';
import { foreignRuntime, loadEngine } from './isolated-vm/loadIsolatedVm.js';
import { loadQuickJs } from './quickjs/quickjsModule.js';
import { nativeEngineFix } from './engineFallback.js';

/** Which engine `engine: 'auto'` uses in this process's holders, and why. */
export interface EngineStatus {
  /** the engine 'auto' picks here */
  auto: 'isolated-vm' | 'quickjs';
  /** the isolated-vm build that loads (package name and version), when one does */
  isolatedVm?: { name: string; version: string };
  /** QuickJS WASM's version (always available) */
  quickjs: { version: string };
  /** why no isolated-vm build loads, and how to get one (only when 'auto' falls back) */
  fallback?: { reason: string; fix: string };
  node: string;
}

/**
 * Find out which engine 'auto' uses here: loads isolated-vm in this process the way a holder
 * does (the first build that loads), else reports the load errors and the fix.
 * @example (await engineStatus()).auto // 'isolated-vm'
 */
export async function engineStatus(): Promise<EngineStatus> {
  const quickjs = { version: (await loadQuickJs()).version };
  const node = foreignRuntime() ?? `Node ${process.version}`;
  try {
    const { name, version } = loadEngine();
    return { auto: 'isolated-vm', isolatedVm: { name, version }, quickjs, node };
  } catch (err) {
    if (!(err instanceof EngineLoadError)) throw err;
    return { auto: 'quickjs', quickjs, fallback: { reason: err.attempts.join('; '), fix: nativeEngineFix() }, node };
  }
}

/** One line for people: `isolated-vm 6.2.0 (isolated-vm) on Node v22.23.3` or the fallback and its fix. */
export function engineStatusLine(s: EngineStatus): string {
  if (s.isolatedVm)
    return `isolated-vm ${s.isolatedVm.version} (package ${s.isolatedVm.name}) on ${s.node}; 'quickjs' (WASM ${s.quickjs.version}) also available`;
  return `QuickJS WASM ${s.quickjs.version} on ${s.node}: no isolated-vm build loads, so 'auto' falls back (about 10x slower). Why: ${s.fallback!.reason}. Fix: ${s.fallback!.fix}`;
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
