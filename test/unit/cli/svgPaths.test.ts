import { describe, expect, it } from 'vitest';
import { svgPaths } from '../../../src/cli/writeSvgs.js';

describe('svgPaths', () => {
  it('numbers files only when there are several charts', () => {
    expect(svgPaths('out/chart.svg', 1)).toEqual(['out/chart.svg']);
    expect(svgPaths('out/chart.svg', 3)).toEqual(['out/chart-1.svg', 'out/chart-2.svg', 'out/chart-3.svg']);
    expect(svgPaths('chart', 2)).toEqual(['chart-1.svg', 'chart-2.svg']);
  });
});
