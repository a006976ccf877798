import { resolveLimits, type Limits, type PresetName } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import { collectColumnNames } from '../policy/index.js';
import { buildResult } from '../result/buildResult.js';
import { checkAndPrepare } from '../runtime/prepare/checkAndPrepare.js';
import { emptyResult, precheck } from '../sandbox/precheck.js';
import type { QuickJsEngine } from '../runtime/engines/quickjs/quickjsInstance.js';
import { QuickJsSession } from '../runtime/engines/quickjs/quickjsSession.js';
import type { EdgeDataset } from './edgeDataset.js';

/** Limits of a run on the edge: the preset's, with memory held to what a 128 MB isolate leaves. */
export function edgeLimits(preset: PresetName, memoryLimitMb: number): Limits {
  const limits = resolveLimits(preset);
  return { ...limits, memoryLimitMb: Math.min(limits.memoryLimitMb, memoryLimitMb) };
}

/**
 * One run on the QuickJS WASM engine, the whole pipeline of a Node run without its processes: the
 * size check, the policy check and notebook transform, the columns the code names fetched first
 * (the edge cannot read a column synchronously mid-run), a fresh QuickJS instance, the result
 * shaped as everywhere. Never throws for the guest's failures: they are results.
 */
export async function edgeRun(
  code: unknown,
  engine: QuickJsEngine,
  data: EdgeDataset,
  preset: PresetName,
  limits: Limits,
): Promise<RunResult> {
  const checked = precheck(code, limits);
  if (!checked.ok) return { ...checked.result, dataset: data.info };
  const prepared = checkAndPrepare(checked.code, preset);
  if (!prepared.ok) return { ...emptyResult(limits, prepared.error), dataset: data.info };
  const named = collectColumnNames(checked.code);
  const columns = named && data.meta.columns.map((c) => c.name).filter((n) => named.includes(n));
  const tooLarge = columns ? data.tooLarge(columns) : [];
  if (tooLarge.length)
    return {
      ...emptyResult(limits, { type: 'MEMORY_LIMIT', message: data.tooLargeMessage(tooLarge[0]!) }),
      dataset: data.info,
    };
  await data.prepare(columns);
  const session = await QuickJsSession.open(engine, limits, [data.provider()], data.info);
  try {
    const raw = await session.run({ ...prepared.prepared, timeoutMs: limits.timeoutMs });
    return buildResult(
      { ...raw, engine: { name: 'quickjs', version: engine.version } },
      { code: checked.code, limits, dataset: data.info },
    );
  } finally {
    session.dispose('closed');
  }
}
