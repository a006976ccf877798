/** Engines for the surfaces: which one 'auto' uses here and why (`sbirtools info`), the fallback warning's code. */
export { engineStatus, engineStatusLine, engineInfo, type EngineStatus } from '../runtime/engines/engineStatus.js';
export { EngineLoadError } from '../runtime/engines/engineLoadError.js';
export { ENGINE_FALLBACK_WARNING } from '../runtime/engines/engineFallback.js';
