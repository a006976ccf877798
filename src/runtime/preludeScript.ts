import { readFileSync } from 'node:fs';
import type { Ivm } from './engine.js';
import { preludeBundlePath } from './paths.js';

import type IVM from '#ivm-types';

type Isolate = IVM.Isolate;
type Script = IVM.Script;
type CachedData = IVM.ExternalCopy<ArrayBuffer>;

let source: string | undefined;
let cachedData: CachedData | undefined;

/** The prelude bundle's source, read once per process. */
export function preludeSource(): string {
  source ??= readFileSync(preludeBundlePath(), 'utf8');
  return source;
}

/**
 * Compile the prelude in `isolate`, consuming V8 code cache made by an earlier isolate of this
 * process (parsing Arquero once per process, not once per isolate).
 */
export function compilePrelude(ivm: Ivm, isolate: Isolate): Script {
  const options = { filename: 'sbirtools-prelude.js', produceCachedData: true as const, ...(cachedData ? { cachedData } : {}) };
  const script = isolate.compileScriptSync(preludeSource(), options) as Script & { cachedData?: CachedData; cachedDataRejected?: boolean };
  if (!cachedData || script.cachedDataRejected) cachedData = script.cachedData;
  void ivm;
  return script;
}
