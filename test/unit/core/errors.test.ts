// Every error class sbirtools defines derives from SbirtoolsError and carries a stable code
// (docs/errors.md "Thrown errors"): callers can catch one base class and switch on `code`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxClosedError, SbirtoolsError, SbirtoolsValidationError } from '../../../src/core/errors.js';
import { DataError } from '../../../src/data/errors.js';
import { NeedsFallback, PageCorrupt } from '../../../src/data/formats/parquetColumnar/pageErrors.js';
import { ChartRenderError } from '../../../src/result/renderChart.js';
import { PlotlyConversionError } from '../../../src/result/plotlyToVegaLite.js';
import { EngineLoadError } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { HolderExitedError } from '../../../src/runtime/holder/holderProcess.js';
import { UsageError } from '../../../src/cli/args.js';
import { ReportError } from '../../../src/viewer/renderReport.js';
import { LeaseTimeoutError } from '../../../src/server/sessions/withLease.js';
import { TokenError } from '../../../src/server/auth/oauthVerifier.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('errors', () => {
  it('every error class in src/ and schema/ extends SbirtoolsError (only the base extends Error)', () => {
    const offenders = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'schema'))]
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/class (\w+) extends (\w*Error)\b/g)].map((m) => ({
          file: relative(ROOT, f),
          cls: m[1]!,
          base: m[2]!,
        })),
      )
      .filter((c) => c.base === 'Error' || c.base === 'TypeError' || c.base === 'RangeError')
      .filter((c) => c.cls !== 'SbirtoolsError');
    expect(offenders).toEqual([]);
  });

  it.each([
    [new SbirtoolsValidationError('bad'), 'VALIDATION_ERROR', 'SbirtoolsValidationError'],
    [new SandboxClosedError(), 'SANDBOX_CLOSED', 'SandboxClosedError'],
    [new DataError('DATA_NOT_FOUND', 'missing'), 'DATA_NOT_FOUND', 'DataError'],
    [new EngineLoadError('no build', []), 'ENGINE_UNAVAILABLE', 'EngineLoadError'],
    [new HolderExitedError('gone', 'crash'), 'HOLDER_EXITED', 'HolderExitedError'],
    [new ChartRenderError('bad spec'), 'CHART_RENDER_FAILED', 'ChartRenderError'],
    [new PlotlyConversionError('no trace'), 'PLOTLY_CONVERSION_FAILED', 'PlotlyConversionError'],
    [new ReportError('no log'), 'REPORT_FAILED', 'ReportError'],
    [new UsageError('run', 'unknown option'), 'USAGE_ERROR', 'UsageError'],
    [new LeaseTimeoutError('session s', 5000), 'LEASE_TIMEOUT', 'LeaseTimeoutError'],
    [new PageCorrupt('bad page'), 'PARQUET_PAGE_CORRUPT', 'PageCorrupt'],
    [new TokenError('expired'), 'invalid_token', 'TokenError'],
    [new NeedsFallback('dictionary page'), 'PARQUET_NEEDS_FALLBACK', 'NeedsFallback'],
  ] as const)('%o is a SbirtoolsError with its code and name', (err, code, name) => {
    expect(err).toBeInstanceOf(SbirtoolsError);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(code);
    expect(err.name).toBe(name);
  });
});
