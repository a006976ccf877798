import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import type { ColumnData } from '../../../../schema/columnar.js';

/**
 * The typed arrays of each column kind, in the order the guest adapter (QUICKJS_BRIDGE_ADAPTER)
 * rebuilds them: the element type is fixed by the kind, never by anything the host sends.
 */
const ARRAYS: Record<ColumnData['kind'], readonly string[]> = {
  float64: ['values', 'valid'],
  dict: ['codes', 'dictBytes', 'dictOffsets'],
  utf8: ['bytes', 'offsets', 'valid'],
  bool: ['values', 'valid'],
};

/**
 * One column as a QuickJS object `{ kind, type, <array>: ArrayBuffer, ... }`: each typed array's
 * bytes are copied once into the WASM heap (counted against the session's memory limit), never
 * turned into row objects or JSON. The guest adapter wraps the buffers in typed arrays.
 * @example const h = columnToGuest(vm, provider.loadColumn('Award Amount')); // caller owns h
 */
export function columnToGuest(vm: QuickJSContext, data: ColumnData): QuickJSHandle {
  const obj = vm.newObject();
  try {
    for (const [key, value] of [
      ['kind', data.kind],
      ['type', data.type],
    ] as const) {
      const h = vm.newString(value);
      vm.setProp(obj, key, h);
      h.dispose();
    }
    for (const key of ARRAYS[data.kind]) {
      const ta = (data as unknown as Record<string, ArrayBufferView>)[key]!;
      // a byte view of exactly this array (newArrayBuffer copies it into the WASM heap)
      const h = vm.newArrayBuffer(new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength) as unknown as ArrayBuffer);
      vm.setProp(obj, key, h);
      h.dispose();
    }
    return obj;
  } catch (err) {
    obj.dispose();
    throw err;
  }
}

/**
 * Evaluated once per context, before any user code, with the prelude's captured builtins still
 * intact: turns the raw host functions into the prelude's bridge (docs/architecture.md), calls
 * `__sbirtools_boot` and removes it. Returns the prelude's `execute`.
 */
export const QUICKJS_BRIDGE_ADAPTER = `(function (bridgeJson, rawFetch, rawRange, rawWrite) {
  'use strict';
  const F64 = Float64Array, I32 = Int32Array, U8 = Uint8Array, parse = JSON.parse;
  const wrap = (d) => {
    switch (d.kind) {
      case 'float64': return { kind: d.kind, type: d.type, values: new F64(d.values), valid: new U8(d.valid) };
      case 'dict': return { kind: d.kind, type: d.type, codes: new I32(d.codes), dictBytes: new U8(d.dictBytes), dictOffsets: new I32(d.dictOffsets) };
      case 'utf8': return { kind: d.kind, type: d.type, bytes: new U8(d.bytes), offsets: new I32(d.offsets), valid: new U8(d.valid) };
      case 'bool': return { kind: d.kind, type: d.type, values: new U8(d.values), valid: new U8(d.valid) };
      default: throw new TypeError('unknown column kind ' + d.kind);
    }
  };
  const bridge = parse(bridgeJson);
  bridge.fetchColumn = (t, c) => wrap(rawFetch(t, c));
  bridge.fetchColumnRange = (t, c, s, e) => wrap(rawRange(t, c, s, e));
  bridge.write = (stream, text) => rawWrite(stream, text);
  const boot = globalThis.__sbirtools_boot;
  delete globalThis.__sbirtools_boot;
  if (typeof boot !== 'function') throw new Error('the prelude bundle did not define __sbirtools_boot');
  return boot(bridge).execute;
})`;
