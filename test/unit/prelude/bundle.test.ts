// The prelude bundle: one classic script, nothing Node-only, loadable from V8 code cache.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { describe, expect, test } from 'vitest';
import { BUNDLE_PATH } from './harness.js';

// whichever isolated-vm build loads on this Node (6.x, 7.x on Node 26, 5.0.4 on Node 20)
const ivm = loadIvmForTests();
const source = readFileSync(BUNDLE_PATH, 'utf8');

describe('dist/prelude/bundle.js', () => {
  test('contains no require(, process. or import(', () => {
    for (const s of ['require(', 'process.', 'import(']) expect(source.includes(s), s).toBe(false);
  });
  test('is a classic script that defines __sbirtools_boot and nothing else of ours', () => {
    const isolate = new ivm.Isolate({ memoryLimit: 64 });
    try {
      const context = isolate.createContextSync();
      isolate.compileScriptSync(source).runSync(context);
      expect(context.evalSync('typeof __sbirtools_boot')).toBe('function');
      expect(context.evalSync('[typeof aq, typeof award_data, typeof TextDecoder, typeof TextEncoder].join()')).toBe(
        'undefined,undefined,function,function',
      );
    } finally {
      isolate.dispose();
    }
  });
  test('V8 code cache made by one isolate is accepted by the next', () => {
    const first = new ivm.Isolate({ memoryLimit: 64 });
    const second = new ivm.Isolate({ memoryLimit: 64 });
    try {
      const produced = first.compileScriptSync(source, { filename: 'sbirtools-prelude.js', produceCachedData: true });
      expect(produced.cachedData).toBeDefined();
      const consumed = second.compileScriptSync(source, {
        filename: 'sbirtools-prelude.js',
        cachedData: produced.cachedData,
      });
      expect(consumed.cachedDataRejected).toBe(false);
      const context = second.createContextSync();
      consumed.runSync(context);
      expect(context.evalSync('typeof __sbirtools_boot')).toBe('function');
    } finally {
      first.dispose();
      second.dispose();
    }
  });
  // 619 KB after session 15 (one-group rollups, Dates made per call, the warm-up in slices, kept
  // ranks and date-part counts); 644 KB after session 19 (long text's host codes, push loops and
  // index picks, kept derived columns, bound rows read by chains, orderby's kept parse, the loops
  // split out of 13 functions): each measured in docs/benchmarks.md's session-19 sections; 664 KB
  // after session 23 (kept text-scan answers, top entries of keyed loops, answers over kept filters'
  // rows: docs/benchmarks.md's session-23 sections). A jump past the bound is code to look at, not a
  // bound to move
  test('stays small', () => {
    expect(Buffer.byteLength(source)).toBeLessThan(672 * 1024);
  });
});

function loadIvmForTests(): any {
  return loadEngine().ivm;
}
