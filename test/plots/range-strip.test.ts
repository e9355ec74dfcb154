import { describe, expect, it } from 'vitest';
import { rangeStripSpec } from '../../src/plots/range-strip.js';
import { renderSvg } from '../../src/plots/render.js';

type Layer = { data: { values: Record<string, unknown>[] }; encoding: { x: { scale?: { type?: string } } } };

describe('rangeStripSpec', () => {
  const input = { title: 'cmax', unit: 'ng/mL', low: 4, high: 30, n: 7, values: [5, 12, 29], points: [{ label: 'reported', value: 12000 }] };

  it('puts the band, the other studies and the finding’s values on one log axis', () => {
    const spec = rangeStripSpec(input) as unknown as { layer: Layer[] };
    expect(spec.layer[0].data.values).toEqual([{ low: 4, high: 30, band: 'range of 7 studies' }]);
    expect(spec.layer[1].data.values.map((v) => v.value)).toEqual([5, 12, 29]);
    expect(spec.layer[2].data.values).toEqual([{ label: 'reported', value: 12000 }]);
    expect(spec.layer[2].encoding.x.scale?.type).toBe('log');
  });

  it('uses a linear axis when a value is not positive, and renders', async () => {
    const spec = rangeStripSpec({ ...input, low: -1 }) as unknown as { layer: Layer[] };
    expect(spec.layer[0].encoding.x.scale?.type).toBeUndefined();
    const svg = await renderSvg(rangeStripSpec(input));
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('reported');
  });
});
