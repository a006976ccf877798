/**
 * The prelude bundle's entry: polyfills first (Arquero's Arrow codec builds a TextDecoder when its
 * module is evaluated), builtins captured before any user code, then `__sbirtools_boot`.
 */
import './polyfills/textCodec.js';
import './intrinsics.js';
import { boot } from './runtime/boot.js';

Object.defineProperty(globalThis, '__sbirtools_boot', {
  value: boot,
  writable: true,
  configurable: true,
  enumerable: false,
});
