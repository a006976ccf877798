import { describe, expect, it } from 'vitest';
import { RunTimeLedger } from '../../../../src/server/limits/runTimeLedger.js';

describe('RunTimeLedger', () => {
  it("charges each run's CPU time (its wall time when it reported none) and gives a caller's share over the others' average", async () => {
    const l = new RunTimeLedger();
    l.start('flood')(400);
    // a caller alone has no share to be over, however much it ran
    expect(l.shareRatio('flood')).toBe(0);
    const end = l.start('calm');
    end(10);
    end(10_000); // once only
    expect(l.used('calm')).toBeLessThan(11);
    expect(l.shareRatio('flood')).toBeGreaterThan(30);
    expect(l.shareRatio('calm')).toBeLessThan(0.1);
    // a run that reports no CPU time is charged its wall time
    const wall = l.start('other');
    await new Promise((r) => setTimeout(r, 20));
    wall();
    expect(l.used('other')).toBeGreaterThan(0);
    expect([l.knows('calm'), l.knows('nobody')]).toEqual([true, false]);
  });
});
