// buildResult checks the guest's outcome JSON before using it: a value-only outcome by hand (the
// trivial run's hot path), every other shape by GuestOutcomeSchema. Both must accept and refuse
// the same inputs and give the same result, whatever the guest returns.
import { describe, expect, it } from 'vitest';
import { GuestOutcomeSchema } from '../../../schema/guest.js';
import { PRESETS } from '../../../schema/limits.js';
import type { RawRunOutcome } from '../../../schema/outcome.js';
import { buildResult } from '../../../src/result/buildResult.js';

const raw = (outcomeJson: string): RawRunOutcome => ({
  status: 'ok',
  outcomeJson,
  stdout: '',
  stderr: '',
  outputTruncated: false,
  stats: { wallMs: 0.1, cpuMs: 0.1, heapUsedMb: 1 },
});
const ctx = { code: '1 + 1', limits: PRESETS.standard };

const OUTCOMES = [
  '{"ok":true,"value":2,"valueText":"2"}',
  '{"ok":true,"value":{"a":[1,null,"x"]},"valueText":"{ a: [1, null, \'x\'] }","truncatedValue":true}',
  '{"ok":true,"valueText":"note"}',
  '{"ok":true}',
  '{"ok":true,"value":null,"truncatedOutput":false}',
  '{"ok":true,"value":2,"extra":1}',
  '{"ok":true,"value":2,"__proto__":{"polluted":1}}',
  '{"ok":true,"valueText":5}',
  '{"ok":true,"truncatedValue":"yes"}',
  '{"ok":"true","value":2}',
  '{"ok":true,"table":{"columns":[]}}',
  '{"ok":false,"error":{"message":"boom","name":"TypeError","line":1}}',
  '{"ok":false}',
  '[true]',
  'null',
  '2',
];

describe('buildResult: the guest outcome check', () => {
  for (const json of OUTCOMES) {
    it(`gives what the schema decides for ${json}`, () => {
      const got = buildResult(raw(json), ctx);
      const parsed = GuestOutcomeSchema.safeParse(JSON.parse(json));
      if (!parsed.success) {
        expect(got.ok).toBe(false);
        expect(got.error?.message).toMatch(/malformed result/);
        return;
      }
      expect(got.error?.message ?? '').not.toMatch(/malformed result/);
      const o = parsed.data;
      if (o.ok) {
        expect(got.ok).toBe(true);
        expect(got.value).toEqual('value' in o ? o.value : undefined);
        expect(got.truncated.value).toBe(!!o.truncatedValue);
        expect(got).not.toHaveProperty('extra');
        expect(Object.prototype.hasOwnProperty.call(got, 'polluted')).toBe(false);
      } else expect(got.error?.type).toBe('RUNTIME_ERROR');
    });
  }
});
