import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { metabolicRatiosCheck, ratioSubstances, ratioVerdict, REASONS } from '../../../src/qa/checks/metabolic-ratios.js';
import { prepareContext } from '../../../src/qa/context.js';
import { NO_STATS, oralDose, reportedOutput } from '../../helpers/records.js';

const study = { study_sid: 'S1', study_name: 'Ratios' };

describe('metabolic-ratio: the arithmetic', () => {
  it('reads a ratio of two substances, numerator first; not a ratio of sums', () => {
    expect(ratioSubstances('px/caf')).toEqual(['px', 'caf']);
    expect(ratioSubstances('px-over-caf')).toEqual(['px', 'caf']); // the export's sid of the ratio
    expect(ratioSubstances(' px / caf ')).toEqual(['px', 'caf']);
    expect(ratioSubstances('a/b/c')).toBeNull();
    expect(ratioSubstances('1-hydroxymidazolam/midazolam')).toEqual(['1-hydroxymidazolam', 'midazolam']);
    expect(ratioSubstances('cod/(mor+m3g+m6g)')).toBeNull();
    expect(ratioSubstances('caffeine')).toBeNull();
    expect(ratioSubstances(null)).toBeNull();
  });

  it('agrees within ×1.25 on the median of the points, the closer of the mass and the molar reading', () => {
    // px/caf 0.40, 0.52, 0.61 against curves giving 0.42, 0.50, 0.60: the median ln(r/c) is ln(0.61/0.60)
    expect(ratioVerdict([0.4, 0.52, 0.61], [0.42, 0.5, 0.6])).toMatchObject({ kind: 'agree' });
    // a ratio of moles (M px 180.16, caf 194.19: ×1.078 the mass ratio) read as such
    const mass = [0.5];
    // ×1.29 the mass ratio (beyond ×1.25), ×1.2 the molar one: it agrees as a ratio of moles
    expect(ratioVerdict([0.5 * 1.078 * 1.2], mass)).toMatchObject({ kind: 'near' });
    expect(ratioVerdict([0.5 * 1.078 * 1.2], mass, [0.5 * 1.078])).toMatchObject({ kind: 'agree' });
  });

  it('names ×10, ×100 (a percentage) and ×1000 either way, and an inverted ratio', () => {
    expect(ratioVerdict([43], [0.42])).toMatchObject({ kind: 'slip', factor: 100 }); // 43 % curated as a ratio of 0.43
    expect(ratioVerdict([0.041], [0.42])).toMatchObject({ kind: 'slip', factor: 0.1 });
    expect(ratioVerdict([0.00042], [0.42])).toMatchObject({ kind: 'slip', factor: 0.001 });
    // caf/px 2.4 curated as px/caf: r · c = 2.4 · 0.42 = 1.008
    expect(ratioVerdict([2.4], [0.42])).toMatchObject({ kind: 'inverted', expected: 0.42 });
    // near 1 an inversion cannot be told from a spread: 1.4 against 0.8 is ×1.75, not major
    expect(ratioVerdict([1.4], [0.8])).toMatchObject({ kind: 'near' });
    // ×4 with no factor: another definition (minor)
    expect(ratioVerdict([1.7], [0.42])).toMatchObject({ kind: 'unexplained' });
    // A slip on a pair that agreed only within its band: 29.9 against a curve ×10 of one ×1.2 off gives r/c = 1/8.33,
    // ×1/10 within ×AGREE (Kronstrand2001's codeine curve ×10 in the recall bench); ×1/7 is no ×1/10 (beyond ×1.25)
    expect(ratioVerdict([29.9], [29.9 / 1.2 * 10])).toMatchObject({ kind: 'slip', factor: 0.1 });
    expect(ratioVerdict([1], [7])).toMatchObject({ kind: 'unexplained' });
  });
});

describe('metabolic-ratio: the check', () => {
  const curve = (subset: number, substance: string, values: number[], fields: Partial<TimecourseRecord> = {}): TimecourseRecord => ({
    ...NO_STATS, ...study, subset_pk: subset, subset_name: substance, output_pk: [], intervention_pk: [1], group_pk: 1, individual_pk: null, normed: true,
    tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: [0, 1, 2, 4, 8], time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance, substance_label: null,
    unit: 'milligram / liter', mean: values, ...fields,
  });
  // caffeine falls, paraxanthine rises: px/caf 0.1, 0.2, 0.4, 0.8 at 1, 2, 4, 8 h
  const caf = curve(11, 'caf', [0, 10, 8, 5, 2.5]);
  const px = curve(12, 'px', [0, 1, 1.6, 2, 2]);
  const run = (outputs: OutputRecord[], timecourses: TimecourseRecord[]) => {
    const dose = { ...oralDose(study), substance: 'caffeine' };
    const ctx = prepareContext(Dataset.fromTables({ studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs, timecourses, info_nodes: [] }, { kind: 'export', location: 'test' }));
    return { findings: metabolicRatiosCheck.run(ctx), ctx };
  };
  const ratioOutput = (fields: Partial<OutputRecord>) =>
    reportedOutput(study, { measurement_type: 'metabolic ratio', substance: 'px/caf', unit: 'dimensionless', time: 4, time_unit: 'hr', ...fields });

  it('finds nothing where a reported ratio is its curves’ quotient, and counts all three records examined', () => {
    const ok = ratioOutput({ mean: 0.41 });
    const { findings, ctx } = run([ok], [caf, px]);
    expect(findings).toEqual([]);
    expect(ctx.coverage.examinedSets('output').get('metabolic-ratio')).toEqual(new Set([ok.pk]));
    expect(ctx.coverage.examinedSets('timecourse').get('metabolic-ratio')).toEqual(new Set([11, 12]));
  });

  it('names a ratio curated as a percentage, and an inverted one, as the output to fix', () => {
    const percent = ratioOutput({ mean: 40, time: 4 });
    const inverted = ratioOutput({ mean: 5, time: 2, group_pk: 1 });
    const { findings } = run([percent, inverted], [caf, px]);
    expect(findings.map((f) => [f.output_pk, f.severity, f.culprit, f.details?.cause_factors])).toEqual([
      [percent.pk, 'major', 'output', [100]],
      [inverted.pk, 'major', 'output', [25]],
    ]);
    expect(findings[1].suspected_cause).toBe('the ratio inverted (caf/px curated as px/caf)');
  });

  it('sets a ratio timecourse against the curves point by point: ×10 may be in either, no culprit', () => {
    // the caf curve curated ×10 (mg/dL as mg/L): the ratio curve, right, is ×10 the curves' quotient
    const slipped = { ...caf, mean: caf.mean!.map((v) => (v === null ? null : v * 10)) };
    const ratioCurve = curve(13, 'px-over-caf', [0, 0.1, 0.2, 0.4, 0.8], { measurement_type: 'metabolic-ratio', unit: 'dimensionless' });
    const named = run([], [slipped, px, ratioCurve]).findings;
    expect(named).toMatchObject([{ kind: 'metabolic-ratio', severity: 'major', subset_pk: 13, culprit: null, details: { timecourses: [12, 11] } }]);
    expect(named[0].message).toMatch(/×10 \(a decimal point slip\) — in the ratio, or in one of the two curves$/);
  });

  it('says why a ratio of sums, one without a time or without both curves is not compared', () => {
    const sums = ratioOutput({ substance: 'cod/(mor+m3g)', mean: 1 });
    const untimed = ratioOutput({ time: null, time_unit: null, mean: 0.4 });
    const alone = ratioOutput({ group_pk: 2, mean: 0.4 });
    const { findings, ctx } = run([sums, untimed, alone], [caf, px]);
    expect(findings).toEqual([]);
    const reasons = ctx.coverage.reasonMaps('output').get('metabolic-ratio')!;
    expect([reasons.get(sums.pk), reasons.get(untimed.pk), reasons.get(alone.pk)]).toEqual([REASONS.sums, REASONS.time, REASONS.curves]);
  });
});
