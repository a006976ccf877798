/** Engines for the surfaces: which one 'auto' uses here and why (`sbirtools info`), the fallback warning's code. */
export { engineStatus, engineStatusLine, type EngineStatus } from '../runtime/engines/engineStatus.js';
export { ENGINE_FALLBACK_WARNING } from '../runtime/engines/engineFallback.js';
