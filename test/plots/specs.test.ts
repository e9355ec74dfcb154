import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { compile, type TopLevelSpec } from 'vega-lite';
import {
  fitLine,
  forestSpec,
  guideLines,
  overviewScatterSpec,
  ratioHistogramSpec,
  renderPng,
  renderSvg,
  spaghettiSpec,
  timecourseSpec,
  timecourseSpecJson,
  type ComparisonPoint,
} from '../../src/plots/index.js';

const points: ComparisonPoint[] = [
  { study_sid: 'S1', parameter: 'cmax', reported: 1.1, recomputed: 1, classification: 'agree', suspected_cause: null },
  { study_sid: 'S1', parameter: 'thalf', reported: 240, recomputed: 4, classification: 'major', suspected_cause: '×60' },
  { study_sid: 'S2', parameter: 'auc_end', reported: 0.02, recomputed: 20, classification: 'major', suspected_cause: '×1/1000' },
];

const profile = [0, 0.5, 1, 2, 4, 8, 12].map((time) => ({ time, conc: time === 0 ? 0 : 10 * (Math.exp(-0.2 * time) - Math.exp(-2 * time)) }));
/** One oral profile with its λz fit and a recomputed and a reported Cmax: the input of the timecourse plot tests. */
const timecourseInput = {
  title: 'S1 <b>subset</b> 7',
  time_unit: 'hr',
  conc_unit: 'mg/l',
  points: profile,
  lambda_z_points: profile.slice(4),
  fit: { lambda_z: 0.2, intercept: Math.log(10), start: 4, end: 12 },
  markers: [
    { source: 'recomputed' as const, parameter: 'cmax', time: 1, conc: profile[2].conc },
    { source: 'reported' as const, parameter: 'cmax', time: 1.2, conc: 6 },
  ],
};
const timecourse = timecourseSpec(timecourseInput);

const specs: Record<string, TopLevelSpec> = {
  overview: overviewScatterSpec(points),
  histogram: ratioHistogramSpec(points),
  timecourse,
  spaghetti: spaghettiSpec([...profile.map((p) => ({ subject: 'a', ...p })), ...profile.map((p) => ({ subject: 'b', ...p, conc: p.conc * 2 }))], { log: true }),
  forest: forestSpec([{ label: 'S1', estimate: 4, lower: 3, upper: 5, source: 'reported' }, { label: 'S2', estimate: 6, lower: null, upper: null }], { log: true, reference: 5 }),
};

describe('plot specs', () => {
  for (const [name, spec] of Object.entries(specs)) {
    it(`${name} compiles and renders to SVG with marks`, async () => {
      expect(() => compile(spec)).not.toThrow();
      const svg = await renderSvg(spec);
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toMatch(/<path|<line|<rect/);
    });
  }

  it('escapes curated text inside the SVG', async () => {
    const svg = await renderSvg(timecourse);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;');
  });

  it('guide lines lie on y = f·x inside the data box', () => {
    const lines = guideLines(points);
    for (const g of lines) {
      const f = g.guide === 'identity' ? 1 : g.guide.startsWith('×1/') ? 1 / Number(g.guide.slice(3)) : Number(g.guide.slice(1));
      expect(g.y / g.x).toBeCloseTo(f, 9);
      expect(g.x).toBeGreaterThanOrEqual(0.02 * (1 - 1e-12));
      expect(g.y).toBeLessThanOrEqual(240 * (1 + 1e-12));
    }
    expect(new Set(lines.map((l) => l.guide))).toEqual(new Set(['identity', '×1000', '×1/1000', '×60', '×1/60']));
  });

  it('fit line follows exp(intercept − λz t)', () => {
    const line = fitLine({ lambda_z: 0.5, intercept: 1, start: 2, end: 6 }, 4);
    expect(line).toHaveLength(5);
    expect(line[0].conc).toBeCloseTo(Math.exp(0), 12);
    expect(line[4].conc).toBeCloseTo(Math.exp(-2), 12);
  });

  it('draws the fit line to 6 significant digits, the observed points as given', () => {
    const panels = (timecourse as { hconcat: { layer: { data: { values: { time: number; conc: number }[] } }[] }[] }).hconcat;
    const exact = fitLine({ lambda_z: 0.2, intercept: Math.log(10), start: 4, end: 12 });
    for (const panel of panels) {
      const drawn = panel.layer[2].data.values;
      expect(drawn).toHaveLength(exact.length);
      drawn.forEach((p, i) => {
        expect(p.conc).toBe(Number(p.conc.toPrecision(6)));
        expect(Math.abs(p.conc / exact[i].conc - 1)).toBeLessThan(5e-6);
      });
    }
    expect(panels[0].layer[0].data.values).toEqual(profile);
    // The same line on both panels (all of its concentrations are positive: none is dropped on the log axis).
    const [linear, log] = panels.map((panel) => panel.layer[2].data.values.map((p) => ({ time: p.time, conc: p.conc })));
    expect(log).toEqual(linear);
    expect(panels[1].layer[2].data.values[0]).not.toBe(panels[0].layer[2].data.values[0]); // each panel its own objects (vega tags them)
    expect(linear[0]).toEqual({ time: 4, conc: 4.49329 }); // 10·e^(−0.2·4) = 4.493290…
    expect(panels[0].layer[3].data.values).toEqual([]); // no reported fit
  });

  it("writes a timecourse plot's file text as its spec's JSON, without building the spec", () => {
    const input = timecourseInput;
    expect(timecourseSpecJson(input)).toBe(JSON.stringify(timecourse));
    // The log panel drops the point at 0 (C = 0) and a marker at 0, and its own text is written for them.
    const zeroMarker = { ...input, markers: [...input.markers, { source: 'reported' as const, parameter: 'tmax', time: 0, conc: 0 }] };
    expect(timecourseSpecJson(zeroMarker)).toBe(JSON.stringify(timecourseSpec(zeroMarker)));
    // A reported fit, none at all, NaN and −0 values; titles and units that hold quotes, the keys' own text and non-ASCII.
    const odd = {
      ...input,
      title: 'a "hconcat":[] b \\ "values":[] λ',
      time_unit: 'h"r',
      conc_unit: '"values":[]',
      points: [{ time: -0, conc: Number.NaN }, ...profile],
      reported_fit: { lambda_z: 0.3, intercept: 2, start: 4, end: 12 },
    };
    expect(timecourseSpecJson(odd)).toBe(JSON.stringify(timecourseSpec(odd)));
    const bare = { ...input, points: [], lambda_z_points: [], fit: null, reported_fit: null, markers: [] };
    expect(timecourseSpecJson(bare)).toBe(JSON.stringify(timecourseSpec(bare)));
    // Again, from the panels serialised for the unit pair above.
    expect(timecourseSpecJson(odd)).toBe(JSON.stringify(timecourseSpec(odd)));
  });

  it('renders a PNG with text (fonts loaded)', async () => {
    const png = await renderPng(specs.histogram);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // resvg silently drops text without fonts: the same chart rendered fontless must differ.
    const fontless = new Resvg(await renderSvg(specs.histogram), { font: { loadSystemFonts: false }, fitTo: { mode: 'zoom', value: 2 }, background: 'white' })
      .render()
      .asPng();
    expect(png.equals(fontless)).toBe(false);
  });
});
