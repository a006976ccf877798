import { defaultBackends } from './defaultBackend.js';

/** Isolates alive in the default backends (process holder and inline). 0 once every sandbox is closed. */
export async function liveIsolates(): Promise<number> {
  let n = 0;
  for (const b of defaultBackends()) n += await b.liveIsolates();
  return n;
}
