import { EngineLoadError, foreignRuntime, loadEngine, type Ivm } from './isolated-vm/loadIsolatedVm.js';
import { noteEngineFallback } from './engineFallback.js';
import type { EngineSession, TableProvider } from './engineSession.js';
import type { EngineChoice, EngineLabel } from '../../../schema/engine.js';
import { IsolatedVmSession } from './isolated-vm/isolatedVmSession.js';
import { loadQuickJs } from './quickjs/quickjsModule.js';
import { QuickJsSession } from './quickjs/quickjsSession.js';
import type { Limits } from '../../../schema/limits.js';
import type { DatasetInfo } from '../../../schema/result.js';

/** Which engine a choice resolves to in this process, and (for isolated-vm) the loaded module. */
export type ResolvedEngine = { label: EngineLabel; ivm: Ivm } | { label: EngineLabel; ivm?: undefined };

/**
 * Resolve `engine` in the process that holds the sessions: 'isolated-vm' loads the native addon
 * (throws EngineLoadError when no build loads), 'quickjs' loads the WASM module, 'auto' tries
 * isolated-vm and falls back to QuickJS (always on Bun and Deno, where the addon cannot load).
 * @throws {EngineLoadError} for 'isolated-vm' when no isolated-vm build loads here.
 * @example (await resolveEngine('auto')).label // { name: 'isolated-vm', version: '6.2.0' }
 */
export async function resolveEngine(choice: EngineChoice = 'auto'): Promise<ResolvedEngine> {
  if (choice === 'isolated-vm' || (choice === 'auto' && !foreignRuntime())) {
    try {
      const { ivm, version } = loadEngine();
      return { ivm, label: { name: 'isolated-vm', version } };
    } catch (err) {
      if (choice === 'isolated-vm' || !(err instanceof EngineLoadError)) throw err;
      noteEngineFallback(err.attempts.join('; '));
    }
  }
  const { version } = await loadQuickJs();
  return { label: { name: 'quickjs', version } };
}

/**
 * Open a session on the resolved engine. `tables` may be a promise (tables still decoding): the
 * isolated-vm engine makes its isolate and evaluates the prelude meanwhile; QuickJS waits for it.
 */
export async function openEngineSession(
  engine: ResolvedEngine,
  limits: Limits,
  tables: TableProvider[] | Promise<TableProvider[]>,
  dataset: DatasetInfo | undefined,
): Promise<EngineSession> {
  if (engine.ivm) return IsolatedVmSession.open(engine.ivm, limits, tables, dataset);
  return QuickJsSession.open(await loadQuickJs(), limits, await tables, dataset);
}
