import { describe, expect, it } from 'vitest';
import type { CharacteristicaRecord, OutputRecord } from '../../../src/data/model.js';
import { backsDoseSlip, excretionRefutes, firmlyBacksDoseSlip, referenceRangeCheck, sharedDoseSlips, TOO_FEW, unopposedDoseSlip } from '../../../src/qa/checks/reference-ranges.js';
import { absoluteUnit, judgmentOf, rangeRun, referenceBacks, UNWEIGHED, UNWEIGHED_PER_KG } from '../../../src/qa/range-run.js';
import { contradicted, OUTSIDE_Z, wideVerdict, WIDE_Z, type RangeVerdict } from '../../../src/qa/range-verdict.js';
import type { Verdict } from '../../../src/qa/classify.js';
import type { Finding } from '../../../src/qa/finding.js';
import { poolRoute, poolTissue } from '../../../src/qa/reference-samples.js';
import { about, arm, characteristic, context, fiveStudies, output, type Arm } from '../../helpers/reference-studies.js';

describe('reference-range: the check on a dataset', () => {
  it('flags a clearance in minutes (×1/60) against five other studies, leaving its own study out', () => {
    const { arms, outputs } = fiveStudies();
    const slipped = arm('F');
    const cl = output(slipped, 'clearance', 'liter / hour', 10 / 60);
    const ctx = context([...arms, slipped], [...outputs, cl]);
    const findings = referenceRangeCheck.run(ctx);
    expect(about(findings, cl)).toMatchObject([
      { kind: 'reference-range', check: 'reference-range/output', severity: 'major', culprit: 'output', reported: 10 / 60, reported_unit: 'liter / hour' },
    ]);
    const f = about(findings, cl)[0];
    expect(f.recomputed).toBeCloseTo(10, 9);
    expect(f.suspected_cause).toMatch(/^×1\/60 \(minutes vs hours\)/);
    expect(f.message).toMatch(/5 other studies, 5 arms: median 10/);
    // The other studies' references include F's 0.167 but stay robust: nothing else is flagged.
    expect(findings.filter((x) => x.severity === 'major')).toHaveLength(1);
    expect(ctx.coverage.checksOf('output', cl.pk)).toEqual(['reference-range']);
  });

  it('pools serum with plasma: a clearance from serum is set against five plasma studies', () => {
    const { arms, outputs } = fiveStudies();
    const slipped = arm('F');
    const cl = { ...output(slipped, 'clearance', 'liter / hour', 10 / 60), tissue: 'serum' };
    const findings = about(referenceRangeCheck.run(context([...arms, slipped], [...outputs, cl])), cl);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'output' }]);
    expect(findings[0].message).toMatch(/clearance \(serum, oral, healthy\).*5 other studies/);
    expect(poolTissue('serum')).toBe('plasma');
    expect(poolTissue('blood')).toBe('blood');
  });

  it('pools a terminal t½ across routes, not a clearance: an iv t½ in minutes is set against five oral studies', () => {
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [4, 5, 3.5, 4.5, 6].map((h, i) => output(arms[i], 'thalf', 'hour', h));
    // Their oral clearances (CL/F) are no reference for an iv CL: that stratum stays apart.
    outputs.push(...[10, 12, 8, 11, 9].map((c, i) => output(arms[i], 'clearance', 'liter / hour', c)));
    const iv = arm('F');
    iv.dosing = { ...iv.dosing, route: 'iv' };
    const thalf = output(iv, 'thalf', 'hour', 4.5 * 60);
    const cl = output(iv, 'clearance', 'liter / hour', 10 / 60);
    const findings = referenceRangeCheck.run(context([...arms, iv], [...outputs, thalf, cl]));
    expect(about(findings, thalf)).toMatchObject([{ severity: 'major', suspected_cause: expect.stringMatching(/^×60/) }]);
    expect(about(findings, cl)).toEqual([]);
    expect(poolRoute('thalf', 'iv')).toBeNull();
    expect(poolRoute('clearance', 'iv')).toBe('iv');
  });

  it('divides an amount excreted by the dose (the fraction recovered, binned by the collection end): mg curated as g is ×1000', () => {
    // Five studies of 0.1 g recovering 40–60 mg in urine over 24 h; F curates 50 mg as 50 g.
    const arms = ['A', 'B', 'C', 'D', 'E', 'F'].map((sid) => arm(sid));
    const excreted = (a: Arm, grams: number, hours = 24) => ({ ...output(a, 'cumulative amount', 'gram', grams), tissue: 'urine', time: hours, time_unit: 'hr' });
    const outputs = [0.05, 0.04, 0.06, 0.045, 0.055].map((g, i) => excreted(arms[i], g));
    const slipped = excreted(arms[5], 50);
    const findings = about(referenceRangeCheck.run(context(arms, [...outputs, slipped])), slipped);
    expect(findings).toMatchObject([{ severity: 'major', suspected_cause: expect.stringMatching(/^×1000/) }]);
    expect(findings[0].message).toMatch(/cumulative amount per dose \(urine, oral single dose, 0-2\^5h/);
    // Collected over 4 h instead: another bin, no reference.
    const early = excreted(arms[5], 50, 4);
    expect(about(referenceRangeCheck.run(context(arms, [...outputs, early])), early)).toEqual([]);
  });

  it('says "too few other studies" and flags nothing with four other studies', () => {
    const { arms, outputs } = fiveStudies();
    const cl = output(arms[4], 'clearance', 'liter / hour', 9 / 60);
    const ctx = context(arms, [...outputs.slice(0, 4), cl]);
    expect(referenceRangeCheck.run(ctx)).toEqual([]);
    expect(ctx.coverage.reasonsOf('output', cl.pk).get('reference-range')).toBe(TOO_FEW);
  });

  it('keeps a cirrhosis arm apart: 2 L/h is minor among healthy arms, not compared when the group marks the disease', () => {
    const { arms, outputs } = fiveStudies();
    const healthy = arm('G');
    const cirrhosis = arm('H', { characteristica: [characteristic('disease', 'liver cirrhosis'), characteristic('healthy', 'N')] });
    const a = output(healthy, 'clearance', 'liter / hour', 2);
    const b = output(cirrhosis, 'clearance', 'liter / hour', 2);
    const ctx = context([...arms, healthy, cirrhosis], [...outputs, a, b]);
    const findings = referenceRangeCheck.run(ctx);
    expect(about(findings, a)).toMatchObject([{ severity: 'minor', suspected_cause: null }]);
    expect(about(findings, b)).toEqual([]);
    expect(ctx.coverage.reasonsOf('output', b.pk).get('reference-range')).toBe(TOO_FEW);
  });

  it('sets a population of too few studies against every population, for a factor no population makes: 0.01 L/h is ×1/1000', () => {
    const { arms, outputs } = fiveStudies();
    const cirrhosis = arm('H', { characteristica: [characteristic('disease', 'liver cirrhosis'), characteristic('healthy', 'N')] });
    const slipped = output(cirrhosis, 'clearance', 'liter / hour', 0.01);
    const ctx = context([...arms, cirrhosis], [...outputs, slipped]);
    const findings = referenceRangeCheck.run(ctx);
    // z = ln(0.01/10)/0.223 = −31; ×1/1000 gives 10 L/h, the median; ×1/1440 (minutes vs days, 14.4 L/h) fits
    // too, farther: the alternative.
    expect(about(findings, slipped)).toMatchObject([{ severity: 'major', culprit: 'output' }]);
    expect(about(findings, slipped)[0].suspected_cause).toMatch(/^×1\/1000 .*, or ×1\/1440/);
    expect(about(findings, slipped)[0].message).toMatch(/5 other studies \(every population\), 5 arms: median 10/);
    expect(about(findings, slipped)[0].details?.reference_pool).toBe('every population');
    expect(ctx.coverage.checksOf('output', slipped.pk)).toEqual(['reference-range']);
    // Its strict stratum has none: a slip found this way is no backing for within-study.
    expect(judgmentOf(rangeRun(ctx), `output:${slipped.pk}`)?.ref).toBeNull();
  });

  it('does not set a child against every population: a preterm neonate’s absolute clearance is ×1/300 an adult’s', () => {
    const { arms, outputs } = fiveStudies();
    const neonates = arm('H', { characteristica: [characteristic('disease', 'apnea of prematurity'), { ...characteristic('age', ''), mean: 0.02, unit: 'year' }] });
    const low = output(neonates, 'clearance', 'liter / hour', 0.01);
    expect(about(referenceRangeCheck.run(context([...arms, neonates], [...outputs, low])), low)).toEqual([]);
  });

  it('makes per-kg values absolute with the body weight', () => {
    const { arms, outputs } = fiveStudies();
    const weighed = arm('W', { characteristica: [{ ...characteristic('weight', ''), choice: null, mean: 80, unit: 'kilogram' } as CharacteristicaRecord] });
    // 0.125 L/h/kg × 80 kg = 10 L/h: inside.
    const perKg = output(weighed, 'clearance', 'liter / hour / kilogram', 0.125);
    const ctx = context([...arms, weighed], [...outputs, perKg]);
    expect(about(referenceRangeCheck.run(ctx), perKg)).toEqual([]);
    expect(ctx.coverage.checksOf('output', perKg.pk)).toEqual(['reference-range']);
  });

  it('divides AUC by the dose, and calls a dose ×1000 a slip only when its AUC per dose is off by 1/1000', () => {
    // Five studies: 0.1 g and AUC 0.05 g·h/L (0.5 h/L per g); F: 100 g (a ×1000 slip) with the same AUC (0.0005 h/L per g);
    // G: a 100 g overdose study whose AUC is 1000× too (50 g·h/L): the dose is outside, but its AUC per dose backs no slip.
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = arms.map((a, i) => output(a, 'auc_inf', 'gram * hour / liter', 0.05 * [1, 1.1, 0.9, 1.2, 0.85][i]));
    const slipped = arm('F', { dose: 100 });
    const overdose = arm('G', { dose: 100 });
    const auc = output(slipped, 'auc_inf', 'gram * hour / liter', 0.05);
    const big = output(overdose, 'auc_inf', 'gram * hour / liter', 50);
    const findings = referenceRangeCheck.run(context([...arms, slipped, overdose], [...outputs, auc, big]));
    const dose = (a: Arm) => findings.filter((f) => f.check === 'reference-range/dosing' && f.intervention_pk === a.dosing.pk);
    expect(about(findings, auc)).toMatchObject([{ severity: 'major', culprit: 'dose', intervention_pk: slipped.dosing.pk }]);
    expect(about(findings, auc)[0].suspected_cause).toMatch(/^the dose: ×1\/1000/);
    expect(about(findings, auc)[0].ratio).toBeCloseTo(0.001, 6);
    expect(dose(slipped)).toMatchObject([{ severity: 'major', culprit: 'dose', reported: 100, reported_unit: 'gram' }]);
    expect(about(findings, big)).toEqual([]);
    expect(dose(overdose)).toMatchObject([{ severity: 'minor', culprit: null }]);
    expect(dose(overdose)[0].message).toMatch(/do not back a slip of the dose/);
  });

  it("names a dose slip's factor on a value per dose that was at its range's edge before the dose slipped", () => {
    // Seven studies: 0.1 g, AUC 0.05 g·h/L and Cmax 0.01 g/L (×0.75–1.3). F: 100 g (×1000), its Cmax per dose ×1/1000
    // (backing the dose's slip), its AUC at ×0.3 of the others' before the slip: ×1/3333 per dose, ×0.3 with the dose's
    // ×1000 undone (outside, but naming no slip of its own), where ×1/1440 (minutes vs days) lands nearer the median.
    const arms = ['A', 'B', 'C', 'D', 'E', 'G', 'H'].map((sid) => arm(sid));
    const scatter = [1, 1.1, 0.9, 1.2, 0.85, 1.3, 0.75];
    const outputs = arms.flatMap((a, i) => [output(a, 'auc_inf', 'gram * hour / liter', 0.05 * scatter[i]), output(a, 'cmax', 'gram / liter', 0.01 * scatter[i])]);
    const slipped = arm('F', { dose: 100 });
    const auc = output(slipped, 'auc_inf', 'gram * hour / liter', 0.05 * 0.3);
    const cmax = output(slipped, 'cmax', 'gram / liter', 0.01);
    const findings = referenceRangeCheck.run(context([...arms, slipped], [...outputs, auc, cmax]));
    expect(findings.filter((f) => f.check === 'reference-range/dosing')).toMatchObject([{ severity: 'major', culprit: 'dose' }]);
    const [f] = about(findings, auc);
    expect(f).toMatchObject({ severity: 'major', culprit: 'dose' });
    expect(f.suspected_cause).toMatch(/^the dose: ×0\.001 \(its dose ×1000\), or ×1\/1440/);
  });

  it('names a value per dose the record to fix only when something vouches for its dose', () => {
    // Five studies: 0.1 g and AUC 0.05 g·h/L (0.5 h/L per g). F: AUC per dose ×1/1000 (0.00025 g·h/L after 0.5 g).
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = arms.map((a, i) => output(a, 'auc_inf', 'gram * hour / liter', 0.05 * [1, 1.1, 0.9, 1.2, 0.85][i]));
    const cmaxes = arms.map((a, i) => output(a, 'cmax', 'gram / liter', 0.01 * [1, 1.1, 0.9, 1.2, 0.85][i]));
    // Its dose ×5 the others' (robust z ≈ 7, no slip factor): the AUC or the dose, undecided.
    const unusual = arm('F', { dose: 0.5 });
    const auc = output(unusual, 'auc_inf', 'gram * hour / liter', 0.00025);
    let found = about(referenceRangeCheck.run(context([...arms, unusual], [...outputs, ...cmaxes, auc])), auc);
    expect(found).toMatchObject([{ severity: 'major', culprit: null }]);
    expect(found[0].suspected_cause).toMatch(/^×1\/1000 .* — in the value or in its dose/);
    // The same arm's Cmax per dose in line vouches for the dose: the AUC.
    const cmax = output(unusual, 'cmax', 'gram / liter', 0.05);
    found = about(referenceRangeCheck.run(context([...arms, unusual], [...outputs, ...cmaxes, auc, cmax])), auc);
    expect(found).toMatchObject([{ severity: 'major', culprit: 'output' }]);
    // A typical dose vouches for itself.
    const typical = arm('F', { dose: 0.1 });
    const low = output(typical, 'auc_inf', 'gram * hour / liter', 0.00005);
    expect(about(referenceRangeCheck.run(context([...arms, typical], [...outputs, low])), low)).toMatchObject([{ severity: 'major', culprit: 'output' }]);
  });

  it('drops a factor the output’s own timecourse contradicts: a major ×1/41 of its curve is not the molar ×1/32.7', () => {
    const verdict = (classification: Verdict['classification'], factors: number[]) =>
      ({ verdict: { classification, causes: factors.map((factor) => ({ kind: 'unit-factor', factor, text: '' })) } }) as unknown as { verdict: Verdict };
    expect(contradicted(1 / 32.7, verdict('major', []))).toBe(true); // reported/recomputed 0.0242, no cause named
    expect(contradicted(1 / 1000, verdict('major', [1 / 1000]))).toBe(false); // the comparison names the same slip
    expect(contradicted(1 / 1000, verdict('major', [1.04 / 1000]))).toBe(false); // within 5 %
    expect(contradicted(1 / 1000, verdict('major', [1 / 60]))).toBe(true);
    expect(contradicted(1 / 1000, verdict('agree', []))).toBe(false); // the curve shares the slip: a study-wide unit slip stays
    expect(contradicted(1 / 1000, undefined)).toBe(false); // no timecourse
  });

  it('backs a dose slip by its dose-normalised values: undoing it brings them inside and nearer their centre', () => {
    // Simvastatin 40 mg curated as 0.571 mg (×1/70): Cmax and AUC per dose at z 20.9 (spread 0.223) and 19.1 (0.269).
    // Undoing ×1/70 moves them by ln(1/70)/spread: to 1.86 and 3.35 (median 2.6 ≤ OUTSIDE_Z, and nearer than 20).
    const values = [{ z: 20.9, spread: 0.223 }, { z: 19.1, spread: 0.269 }];
    expect(backsDoseSlip(1 / 70, values)).toBe(true);
    expect(backsDoseSlip(1 / 1000, values)).toBe(false); // ln(1/1000)/0.223 = −31: thrown out the other side
    // A microdose study: its values per dose are ordinary (z ≈ 0); undoing ×1/1000 would throw them out.
    expect(backsDoseSlip(1 / 1000, [{ z: 0.3, spread: 0.5 }, { z: -0.4, spread: 0.4 }])).toBe(false);
    // A value ×1/10 per dose (z −4.6 at spread 0.5) backs a dose ×10: undone 0.0.
    expect(backsDoseSlip(10, [{ z: -4.6, spread: 0.5 }])).toBe(true);
    expect(backsDoseSlip(10, [])).toBe(false);
  });

  it('names a small dose slip (×10) its own few studies cannot name when its values per dose are off the other way', () => {
    // Doses of 0.1, 0.11, 0.09, 0.1 and 0.105 g in five studies, each with a Cmax of 2 mg/L (0.02 g/L per g of dose).
    // F curates its 0.1 g as 1 g (×10) beside the same Cmax: its dose at z ln(10)/ln(1.25) = 10.3 among doses, its Cmax
    // per dose at −10.3 among Cmax per dose. Five studies name no ×10 alone (SMALL_FACTOR_STUDIES 10); together the two
    // references do: the dose undone puts both back at their centres (z 0).
    const doses = [0.1, 0.11, 0.09, 0.1, 0.105];
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid, k) => arm(sid, { dose: doses[k] }));
    const cmaxes = arms.map((a, k) => output(a, 'cmax', 'gram / liter', 0.02 * doses[k]));
    const doseFinding = (findings: Finding[], a: Arm) => findings.find((f) => f.intervention_pk === a.dosing.pk && f.check === 'reference-range/dosing');
    const slipped = arm('F', { dose: 1 });
    const slippedFindings = referenceRangeCheck.run(context([...arms, slipped], [...cmaxes, output(slipped, 'cmax', 'gram / liter', 0.002)]));
    expect(doseFinding(slippedFindings, slipped)).toMatchObject({ severity: 'major', culprit: 'dose', details: { cause_factors: [10] } });
    expect(doseFinding(slippedFindings, slipped)?.suspected_cause).toMatch(/^×10 .*its values per dose are off their own range the other way/);
    // A high-dose arm: 1 g with a Cmax of 20 mg/L, its Cmax per dose in line. The dose is out, and no slip.
    const high = arm('F', { dose: 1 });
    const highFindings = referenceRangeCheck.run(context([...arms, high], [...cmaxes, output(high, 'cmax', 'gram / liter', 0.02)]));
    expect(doseFinding(highFindings, high)).toMatchObject({ severity: 'minor', culprit: null });
    // Half-way (a Cmax of 8 mg/L: per dose ×0.4, z −4.1, undone ×4, z 6.2): the values per dose are no witness either way.
    const between = arm('F', { dose: 1 });
    const betweenFindings = referenceRangeCheck.run(context([...arms, between], [...cmaxes, output(between, 'cmax', 'gram / liter', 0.008)]));
    expect(doseFinding(betweenFindings, between)?.severity).toBe('minor');
    // The worked numbers: z −10.3 undone by ×10 at spread ln 1.25 is 0; z −3 is not off its range as curated.
    expect(firmlyBacksDoseSlip(10, [{ z: -10.3, spread: Math.log(1.25) }])).toBe(true);
    expect(firmlyBacksDoseSlip(10, [{ z: -3, spread: 0.6 }])).toBe(false); // backsDoseSlip alone would: undone 0.84
    expect(backsDoseSlip(10, [{ z: -3, spread: 0.6 }])).toBe(true);
    expect(firmlyBacksDoseSlip(1 / 10, [{ z: 10.3, spread: Math.log(1.25) }])).toBe(true); // a dose ×1/10, its values ×10
    expect(firmlyBacksDoseSlip(10, [])).toBe(false);
  });

  it('names a dose far above every other study’s a slip when no value per dose backs or contradicts it, upward only', () => {
    const verdict = (z: number, factor: number | null) =>
      ({ classification: 'slip', z, cause: factor === null ? null : { kind: 'unit-factor', factor, text: '' }, alternatives: [] }) as unknown as Parameters<typeof unopposedDoseSlip>[0];
    expect(unopposedDoseSlip(verdict(13.4, 1000), [])).toBe(true); // codeine 30 g against a median of 30 mg
    expect(unopposedDoseSlip(verdict(7.5, 1000), [])).toBe(false); // not beyond FEW_STUDIES_Z
    expect(unopposedDoseSlip(verdict(-13.4, 1 / 1000), [])).toBe(false); // a microdose is a design
    expect(unopposedDoseSlip(verdict(10.3, 10), [])).toBe(false); // a high-dose arm (ICG 5 mg/kg beside 0.5): ×10 alone is a design too
    // ×10 as the study's one dose of the substance, far out: simvastatin 0.8 g (z 13.4 among 19 studies of 10–80 mg)
    expect(unopposedDoseSlip(verdict(13.4, 10), [], true)).toBe(true);
    expect(unopposedDoseSlip(verdict(9.5, 10), [], true)).toBe(false); // not beyond UNOPPOSED_SMALL_Z
    expect(unopposedDoseSlip(verdict(13.4, 10), [{ z: -1, spread: 0.4 }], true)).toBe(false); // its values per dose say otherwise
    expect(unopposedDoseSlip(verdict(13.4, 1000), [{ z: 0.2, spread: 0.4 }])).toBe(false); // its Cmax per dose is ordinary
    expect(unopposedDoseSlip(verdict(13.4, null), [])).toBe(false);
  });

  it('rules out a dose slip that would have the subjects excrete more than the dose: an overdose study is no mg/kg as mg', () => {
    // Doses of 1, 1.1, 0.9, 1 and 1.05 g in five studies (median 1 g, spread floored at ln 1.25), and 50 g in F: z 17.5,
    // and undoing ×70 (mg/kg as mg of a 70 kg adult) brings it to 0.71 g. Nothing per dose to back it: unopposed, major.
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid, k) => arm(sid, { dose: [1, 1.1, 0.9, 1, 1.05][k] }));
    const overdose = arm('F', { dose: 50 });
    const doseFinding = (findings: Finding[]) => findings.find((f) => f.intervention_pk === overdose.dosing.pk && f.kind === 'reference-range');
    const alone = doseFinding(referenceRangeCheck.run(context([...arms, overdose], [])));
    expect(alone?.severity).toBe('major');
    expect(alone?.details?.cause_factors).toContain(70);
    // 5 g of it in the urine is 0.1 of 50 g, and would be 7 times a 0.71 g dose (beyond MARGIN 1.5): the dose was 50 g.
    const urine = { ...output(overdose, 'cumulative amount', 'gram', 5), tissue: 'urine' };
    const excreted = doseFinding(referenceRangeCheck.run(context([...arms, overdose], [urine])));
    expect(excreted?.severity).toBe('minor');
    expect(excreted?.message).toMatch(/what was excreted of it \(up to 0\.1 of it in one amount\) rules out a smaller dose$/);
    expect(excretionRefutes(70, 0.1)).toBe(true); // 7 > 1.5
    expect(excretionRefutes(10, 0.1)).toBe(false); // 1: a tenfold smaller dose could have given it
    expect(excretionRefutes(1 / 1000, 0.1)).toBe(false); // a dose curated too small is never ruled out so
    expect(excretionRefutes(70, undefined)).toBe(false);
  });

  it('divides by a per-kg dose of a subject without a weight in g/kg, in a stratum of its own', () => {
    // 1 mg/kg (PK-DB norms mg/kg to the dimensionless count: 1e-6) and a Cmax of 0.02 mg/L: 0.02 g/L per g/kg.
    const arms = ['A', 'B', 'C', 'D', 'E', 'F'].map((sid) => arm(sid, { dose: 1e-6, unit: 'count' }));
    const outputs = arms.map((a, k) => output(a, 'cmax', 'milligram / liter', 0.02 * [1, 1.1, 0.9, 1, 1.05, 10][k]));
    const run = rangeRun(context(arms, outputs));
    const judged = run.judgments.filter((j) => j.sample.record === 'output');
    expect(judged).toHaveLength(6);
    expect(judged[0].sample.unit).toBe('gram / liter / (gram / kilogram)');
    expect(judged[0].sample.value).toBeCloseTo(0.02, 9);
    expect(judged[5].verdict?.z).toBeGreaterThan(OUTSIDE_Z); // ×10 against five others
  });
});

describe('reference-range: a per-kg dose or value of a subject without a weight', () => {
  /** Five studies of 100 mg with Cmax 0.5, 1, 2, 0.8 and 1.2 mg/L: per dose 0.005–0.02 g/L/g, median 0.01, spread 0.33. */
  function fiveDosed(): { arms: Arm[]; outputs: OutputRecord[] } {
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [0.0005, 0.001, 0.002, 0.0008, 0.0012].map((c, i) => output(arms[i], 'cmax', 'gram / liter', c));
    return { arms, outputs };
  }

  it('sets it against absolute doses at 40 and at 120 kg, and names ×1000 when both do: 1.5 mg/kg and a Cmax of 1000 mg/L', () => {
    const { arms, outputs } = fiveDosed();
    const perKg = arm('F', { dose: 0.0015, unit: 'gram / kilogram' });
    const cmax = output(perKg, 'cmax', 'gram / liter', 1);
    const ctx = context([...arms, perKg], [...outputs, cmax]);
    // Per dose: 1 / (0.0015 × 40) = 16.7 and 1 / (0.0015 × 120) = 5.6 g/L/g; undoing ×1000: 0.0167 and 0.0056, both
    // within 2.5 spreads of 0.01.
    const findings = about(referenceRangeCheck.run(ctx), cmax);
    expect(findings).toMatchObject([{ severity: 'major', details: { reference_pool: UNWEIGHED } }]);
    expect(findings[0].suspected_cause).toMatch(/^×1000/);
    expect(findings[0].reported).toBeCloseTo(1 / (0.0015 * 70), 9);
    expect(findings[0].message).toMatch(/an adult weight of 40–120 kg assumed/);
  });

  it('names a ×10 against a narrow reference that no single weight holds: out at every adult weight, back at 50–100 kg', () => {
    // Ten studies of 100 mg, Cmax 0.85–1.2 mg/L: per dose 0.01 g/L/g, spread at its floor (ln 1.25 = 0.22).
    const arms = Array.from({ length: 10 }, (_, k) => arm(`S${k}`));
    const outputs = [1, 1.1, 0.9, 1.05, 0.95, 1.2, 0.85, 1, 1.1, 0.9].map((c, i) => output(arms[i], 'cmax', 'milligram / liter', c));
    const perKg = arm('F', { dose: 0.0015, unit: 'gram / kilogram' });
    // 1.5 mg/kg of a 70 kg adult gives 1.05 mg/L; curated ×10. Per dose: 0.175 g/L/g at 40 kg (z 12.8) to 0.058 at
    // 120 kg (z 7.9); ×10 undone: 0.0175 (z 2.5) to 0.0058 (z −2.4): no one factor at both ends, ×10 at every weight between.
    const cmax = output(perKg, 'cmax', 'milligram / liter', 10.5);
    const findings = about(referenceRangeCheck.run(context([...arms, perKg], [...outputs, cmax])), cmax);
    expect(findings).toMatchObject([{ severity: 'major', details: { reference_pool: UNWEIGHED } }]);
    expect(findings[0].suspected_cause).toMatch(/^×10\b/);
    // In line at 70 kg: nothing.
    const inLine = output(perKg, 'cmax', 'milligram / liter', 1.05);
    expect(about(referenceRangeCheck.run(context([...arms, perKg], [...outputs, inLine])), inLine)).toEqual([]);
  });

  it('says nothing when the weight alone could make the difference: ×3 from the median at 40 kg is inside at 120', () => {
    const { arms, outputs } = fiveDosed();
    const perKg = arm('F', { dose: 0.0015, unit: 'gram / kilogram' });
    const cmax = output(perKg, 'cmax', 'gram / liter', 0.0015 * 40 * 0.03);
    expect(about(referenceRangeCheck.run(context([...arms, perKg], [...outputs, cmax])), cmax)).toEqual([]);
  });

  it('sets a per-kg clearance of a subject without a weight against absolute ones at 40 and 120 kg: L/h/kg in minutes is ×1/60', () => {
    // Clearances of 6, 15, 8, 12 and 10 L/h: median 10, robust SD 1.4826 × 0.22 = 0.33.
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [6, 15, 8, 12, 10].map((cl, i) => output(arms[i], 'clearance', 'liter / hour', cl));
    const unweighed = arm('F');
    // 10 L/h of a 70 kg adult, curated in L/min/kg as L/h/kg: 0.0024. × 40 kg = 0.095 and × 120 kg = 0.29 L/h (z −14
    // and −10.7); undoing ×1/60 gives 5.7 and 17 L/h, z −1.7 and 1.6: both weights name it.
    const slipped = output(unweighed, 'clearance', 'liter / hour / kilogram', 10 / 70 / 60);
    const findings = about(referenceRangeCheck.run(context([...arms, unweighed], [...outputs, slipped])), slipped);
    expect(findings).toMatchObject([{ severity: 'major', details: { reference_pool: UNWEIGHED_PER_KG } }]);
    expect(findings[0].suspected_cause).toMatch(/^×1\/60/);
    expect(findings[0].reported).toBeCloseTo(10 / 60, 9);
    expect(absoluteUnit('liter / hour / kilogram')).toMatchObject({ unit: 'liter / hour', kgPower: 1 });
    expect(absoluteUnit('gram / liter / (gram / kilogram)')).toMatchObject({ unit: 'gram / liter / gram', kgPower: -1 });
    expect(absoluteUnit('liter / hour')).toBeNull();
    // In line at any adult weight: nothing.
    const inLine = output(unweighed, 'clearance', 'liter / hour / kilogram', 10 / 70);
    expect(about(referenceRangeCheck.run(context([...arms, unweighed], [...outputs, inLine])), inLine)).toEqual([]);
  });
});

describe('reference-range: a per-kg dose no other study doses per kg', () => {
  // Ten studies of x at 70–150 mg (absolute): median 0.1 g, spread ln 1.25 (its floor); each reports a t½ (nothing per
  // dose to back or oppose a dose slip).
  const grams = [0.1, 0.12, 0.08, 0.1, 0.15, 0.09, 0.11, 0.1, 0.13, 0.07];
  const absolute = () => {
    const arms = grams.map((g, k) => arm(`S${k}`, { dose: g }));
    return { arms, outputs: arms.map((a) => output(a, 'thalf', 'hour', 4)) };
  };
  const dosed = (perKg: number) => {
    const { arms, outputs } = absolute();
    const f = arm('F', { dose: perKg, unit: 'gram / kilogram' });
    const findings = referenceRangeCheck.run(context([...arms, f], [...outputs, output(f, 'thalf', 'hour', 4)]));
    return findings.filter((x) => x.intervention_pk === f.dosing.pk && x.kind === 'reference-range');
  };

  it('names 0.1 g/kg an absolute dose under a per-kg unit: 4–12 g at every adult weight, 0.1 g as absolute the median', () => {
    const findings = dosed(0.1);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'dose', details: { reference_pool: UNWEIGHED } }]);
    expect(findings[0].suspected_cause).toMatch(/^×70 \(per-kg vs absolute: an absolute dose under a per-kg unit/);
    // Shown at a typical 70 kg: 7 g, ×70 the median; ×70 undone it is 0.1 g.
    expect(findings[0].reported).toBeCloseTo(7, 9);
    expect(findings[0].message).toMatch(/undoing ×70 brings it to 0\.1$/);
  });

  it('names nothing so for an ordinary per-kg dose (1.5 mg/kg: 60–180 mg), nor for one that is no absolute dose either (10 mg/kg)', () => {
    expect(dosed(0.0015)).toEqual([]);
    // 0.4–1.2 g at adult weights, out above at every one; 10 mg as absolute ×1/10 the median: not this slip.
    expect(dosed(0.01).filter((f) => f.severity === 'major' && /per-kg/.test(f.suspected_cause ?? ''))).toEqual([]);
  });
});

describe('reference-range: the any-dose level pool (level-samples.ts)', () => {
  const unitFactor = (factor: number) => ({ kind: 'unit-factor' as const, factor, text: `×${factor}` });
  const verdict = (z: number, ...alternatives: RangeVerdict['alternatives']): RangeVerdict => ({ classification: 'slip', z, cause: alternatives[0] ?? null, alternatives });

  // A wide pool's spread: ln 2 (z 10 is ×1000 from the median).
  const WIDE_REF = { spread: Math.log(2) };

  it('keeps only an upward unit factor of ×100 or more at z ≥ WIDE_Z: a lower level may be a microdose, a ×10 a dose or an interaction', () => {
    expect(wideVerdict(verdict(10, unitFactor(1000)), WIDE_REF, 'upward').cause?.factor).toBe(1000);
    expect(wideVerdict(verdict(WIDE_Z - 0.1, unitFactor(1000)), WIDE_REF, 'upward').classification).toBe('inside');
    expect(wideVerdict(verdict(-10, unitFactor(1 / 1000)), WIDE_REF, 'upward').classification).toBe('inside');
    expect(wideVerdict(verdict(10, unitFactor(10)), WIDE_REF, 'upward').classification).toBe('inside');
    expect(wideVerdict(verdict(10, { kind: 'per-kg', factor: 70, text: '×70' }), WIDE_REF, 'both').classification).toBe('inside');
    // A molar factor of a large molecule (µmol/L as mg/L, M = 300) is as big a slip as ×1000.
    expect(wideVerdict(verdict(10, { kind: 'molar-mass', factor: 300, text: '×300' }), WIDE_REF, 'upward').cause?.factor).toBe(300);
    // Both ways for a pool over every population of one dose-normalised quantity: ×1/1000 is no population.
    expect(wideVerdict(verdict(-10, unitFactor(1 / 1000)), WIDE_REF, 'both').cause?.factor).toBe(1 / 1000);
    // Less than ×150 from the median (z 10 at a spread of ln 1.6 = 0.47 is ×110): what an interaction makes.
    expect(wideVerdict(verdict(-10, unitFactor(1 / 1000)), { spread: Math.log(1.6) }, 'both').classification).toBe('inside');
    // The factor must land near the median (within 2.5 spreads): ×1000 from z 10 lands at 0, ×100 at 3.4 spreads.
    expect(wideVerdict(verdict(10, unitFactor(100)), WIDE_REF, 'upward').classification).toBe('inside');
    // The factors that pass stay, in order: ×10 dropped, ×1000 named.
    expect(wideVerdict(verdict(12, unitFactor(10), unitFactor(1000)), WIDE_REF, 'upward').alternatives.map((c) => c.factor)).toEqual([1000]);
  });

  /** Five studies, each with one concentration of x in plasma and no dose: 1, 1.2, 0.8, 1.1, 0.9 mg/L. */
  function undosedLevels(): { arms: Arm[]; outputs: OutputRecord[] } {
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [1, 1.2, 0.8, 1.1, 0.9].map((c, i) => output(arms[i], 'concentration', 'milligram / liter', c, 'x', []));
    return { arms, outputs };
  }

  it('names ×1000 for a dosed concentration of 1500 mg/L that no stratum of its own can judge, against every level of x', () => {
    const { arms, outputs } = undosedLevels();
    const slipped = arm('F');
    const c = output(slipped, 'concentration', 'milligram / liter', 1500);
    const ctx = context([...arms, slipped], [...outputs, c]);
    const findings = referenceRangeCheck.run(ctx);
    // Median 1 mg/L = 0.001 g/L, spread floored at ln 1.25: z = ln 1500 / 0.223 = 32.8; 1500/1000 = 1.5 mg/L is 1.8 spreads from it.
    expect(about(findings, c)).toMatchObject([{ kind: 'reference-range', severity: 'major', culprit: 'output', reported: 1.5, reported_unit: 'gram / liter' }]);
    const f = about(findings, c)[0];
    expect(f.suspected_cause).toMatch(/^×1000/);
    expect(f.message).toMatch(/^x level \(plasma\): 1\.5 gram \/ liter is outside the reference of 5 other studies \(every dose and population\)/);
    expect(ctx.coverage.checksOf('output', c.pk)).toEqual(['reference-range']);
    // The undosed levels have four other studies each: no reference of their own stratum, and none flagged in the wide one.
    expect(findings.filter((x) => x.severity !== 'info' && x.output_pk !== c.pk)).toEqual([]);
  });

  it('leaves a level 1000× below the others alone (a microdose study), and is no backing for other checks', () => {
    const { arms, outputs } = undosedLevels();
    const low = arm('F');
    const c = output(low, 'concentration', 'milligram / liter', 0.001);
    const ctx = context([...arms, low], [...outputs, c]);
    expect(about(referenceRangeCheck.run(ctx), c)).toEqual([]);
    expect(ctx.coverage.checksOf('output', c.pk)).toEqual(['reference-range']);
    expect(referenceBacks(ctx, `output:${c.pk}`, 1 / 1000)).toBeNull();
  });

  it('keeps analytes with limits of the living body to human-range: a glucose of 900 g/L is not judged here', () => {
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [0.9, 1, 0.95, 1.05, 0.85].map((c, i) => output(arms[i], 'concentration', 'gram / liter', c, 'glucose', []));
    const slipped = arm('F');
    const c = output(slipped, 'concentration', 'gram / liter', 900, 'glucose');
    expect(about(referenceRangeCheck.run(context([...arms, slipped], [...outputs, c])), c)).toEqual([]);
  });
});

describe('reference-range: a dose both of its substances point at', () => {
  const judgment = (dosePk: number, substance: string, z: number, factor: number | null) => ({ dosePk, study: 'S', substance, z, factor });

  it('names the dose ×1000 when a drug and its metabolite, or a table and a curve, are both ×1/1000 per dose and another dosing of the study is in line', () => {
    const cocktail = [judgment(1, 'midazolam', -30, 1 / 1000), judgment(1, '1-hydroxymidazolam', -28, 1 / 1000), judgment(2, 'caffeine', 0.4, null)];
    expect([...sharedDoseSlips(cocktail)]).toEqual([[1, 1000]]);
  });

  it('names nothing with one substance, with factors that differ, with a value of the dosing in line, or with no other dosing in line', () => {
    expect(sharedDoseSlips([judgment(1, 'midazolam', -30, 1 / 1000), judgment(1, 'midazolam', -29, 1 / 1000), judgment(2, 'caffeine', 0, null)]).size).toBe(0);
    // One substance, but its reported AUC and its curve (a table and a figure, curated apart) off alike: the dose.
    const apart = [{ ...judgment(1, 'midazolam', -30, 1 / 1000), record: 'output' as const }, { ...judgment(1, 'midazolam', -29, 1 / 1000), record: 'timecourse' as const }, judgment(2, 'caffeine', 0, null)];
    expect([...sharedDoseSlips(apart)]).toEqual([[1, 1000]]);
    expect(sharedDoseSlips(apart.slice(0, 2)).size).toBe(0); // no other dosing of the study in line
    expect(sharedDoseSlips([judgment(1, 'midazolam', -30, 1 / 1000), judgment(1, '1-hydroxymidazolam', -10, 1 / 10), judgment(2, 'caffeine', 0, null)]).size).toBe(0);
    expect(sharedDoseSlips([judgment(1, 'midazolam', -30, 1 / 1000), judgment(1, '1-hydroxymidazolam', -28, 1 / 1000), judgment(1, 'midazolam', 0.5, null), judgment(2, 'caffeine', 0, null)]).size).toBe(0);
    // Every dosing of the study off alike: the concentrations' unit as likely as the dose.
    expect(sharedDoseSlips([judgment(1, 'midazolam', -30, 1 / 1000), judgment(1, '1-hydroxymidazolam', -28, 1 / 1000), judgment(2, 'caffeine', -30, 1 / 1000)]).size).toBe(0);
  });
});

describe('reference-range: a dose whose values each name another factor', () => {
  const judgment = (dosePk: number, substance: string, z: number, factor: number | null, spread = 0.25) => ({ dosePk, study: 'S', substance, z, spread, factor });

  it('names the dose ×10 when its values of two substances come back inside with ×10 undone, whichever factor each names', () => {
    // Spread 0.25: ×10 moves a value 9.2 spreads. Codeine Cmax per dose at z −11 (named ×1/24), its glucuronide's AUC
    // at z −12.5 (named ×1/29.9, the molar factor): ×10 undone leaves them at −1.8 and −3.3, inside (|z| ≤ 4).
    const values = [judgment(1, 'codeine', -11, 1 / 24), judgment(1, 'codeine-6-glucuronide', -12.5, 1 / 29.9), judgment(2, 'paracetamol', 0.3, null)];
    const [[pk, factor]] = [...sharedDoseSlips(values)];
    expect(pk).toBe(1);
    expect(factor).toBeCloseTo(10, 12);
  });

  it('names nothing when no one dose factor brings every value back, or when no other dosing of the study is in line', () => {
    // −25 undone ×10 is still −15.8; ×1000 brings it to +2.6, but the other value to +15: no common factor.
    expect(sharedDoseSlips([judgment(1, 'codeine', -25, 1 / 1000), judgment(1, 'morphine', -8, 1 / 10), judgment(2, 'paracetamol', 0, null)]).size).toBe(0);
    expect(sharedDoseSlips([judgment(1, 'codeine', -11, 1 / 24), judgment(1, 'codeine-6-glucuronide', -12.5, 1 / 29.9)]).size).toBe(0);
    // Without the spreads the values' factors must agree, as before.
    const bare = [judgment(1, 'codeine', -11, 1 / 24), judgment(1, 'codeine-6-glucuronide', -12.5, 1 / 29.9), judgment(2, 'paracetamol', 0.3, null)].map(({ spread: _, ...v }) => v);
    expect(sharedDoseSlips(bare).size).toBe(0);
  });
});

describe('reference-range: fractions', () => {
  it('names a urinary recovery curated ×1/100 (a percentage read as a fraction) against five studies of the substance', () => {
    // Recovery by 24 h of 0.8–0.95 in five studies; the sixth 0.009 (0.9 %, the authors' 90 % curated as 0.9 %).
    const arms = ['A', 'B', 'C', 'D', 'E', 'F'].map((sid) => arm(sid));
    const recovery = (a: Arm, v: number) => ({ ...output(a, 'recovery', 'dimensionless', v), tissue: 'urine', time: 24, time_unit: 'hr' });
    const values = [0.8, 0.95, 0.9, 0.85, 0.88].map((v, i) => recovery(arms[i], v));
    const slipped = recovery(arms[5], 0.009);
    const findings = about(referenceRangeCheck.run(context(arms, [...values, slipped])), slipped);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'output' }]);
    expect(findings[0].suspected_cause).toMatch(/^×1\/100 \(a percentage as a fraction/);
    // In line: nothing.
    const inLine = recovery(arms[5], 0.87);
    expect(about(referenceRangeCheck.run(context(arms, [...values, inLine])), inLine)).toEqual([]);
  });
});
