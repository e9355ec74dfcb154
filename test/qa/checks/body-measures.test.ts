import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { CharacteristicaRecord, GroupRecord, IndividualRecord } from '../../../src/data/model.js';
import { BMI_AGREE, bodyMeasuresCheck } from '../../../src/qa/checks/body-measures.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';
import { STATS, study } from '../../helpers/study-records.js';

let nextPk = 9000;
const UNITS: Record<string, string> = { weight: 'kilogram', height: 'meter', age: 'year', bmi: 'kilogram / meter ** 2', 'body surface area': 'meter ** 2', 'obesity index': 'percent' };

/** A characteristic of `type` with mean `mean` in its normed unit. */
const trait = (type: string, mean: number): CharacteristicaRecord =>
  ({ ...STATS, pk: nextPk++, count: 10, measurement_type: type, calculation_type: null, choice: null, substance: null, group_count: 10, unit: UNITS[type], mean }) as CharacteristicaRecord;

const groupOf = (pk: number, traits: Record<string, number>): GroupRecord => ({
  ...study, pk, name: `g${pk}`, count: 10, parent_pk: null, characteristica: Object.entries(traits).map(([t, v]) => trait(t, v)),
});
const individualOf = (pk: number, group: number, traits: Record<string, number>): IndividualRecord => ({
  ...study, pk, name: `i${pk}`, group_pk: group, characteristica: Object.entries(traits).map(([t, v]) => trait(t, v)),
});

function run(groups: GroupRecord[], individuals: IndividualRecord[] = []): Finding[] {
  const tables = { studies: [], groups, individuals, interventions: [], outputs: [], timecourses: [], scatters: [], terms: [] };
  return bodyMeasuresCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('body-measure: what any human has', () => {
  it('names a weight of 720 kg ×10 (a decimal slip: 72 kg), and 7.2 kg of an adult group ×1/10; not of a group of unknown age', () => {
    const [heavy] = run([groupOf(1, { weight: 720, age: 30 })]);
    expect(heavy).toMatchObject({ kind: 'body-measure', severity: 'major', culprit: 'subject', subject: 'group:1', measurement_type: 'weight', reported: 720, ratio: 10, recomputed: 72 });
    expect(heavy.suspected_cause).toMatch(/^×10 \(a decimal point slip\)/);
    expect(heavy.message).toMatch(/is above what any group's mean \(n = 10\) has \(20–250 kilogram/);
    const [light] = run([groupOf(2, { weight: 7.2, age: 30 })]);
    expect(light).toMatchObject({ measurement_type: 'weight', ratio: 0.1, recomputed: 72 });
    expect(light.message).toMatch(/below what any adult \(age 30 years\) has \(20–250/);
    // 7.2 kg is an infant's weight: without an age nothing says otherwise
    expect(run([groupOf(3, { weight: 7.2 })])).toEqual([]);
  });

  it("bounds a group's mean by the heaviest cohorts': 450 kg (n = 10) is above it, ×10 back to 45", () => {
    const [f] = run([groupOf(12, { weight: 450, age: 30 })]);
    expect(f).toMatchObject({ measurement_type: 'weight', ratio: 10, recomputed: 45 });
    expect(f.message).toMatch(/is above what any group's mean \(n = 10\) has \(20–250 kilogram/);
    // one individual of 450 kg is no impossibility (the heaviest recorded ~635 kg)
    expect(run([groupOf(13, {})], [individualOf(130, 13, { weight: 450 })])).toEqual([]);
  });

  it("judges a group's weight its individuals inherit once: one finding, with the group", () => {
    const group = groupOf(14, { weight: 720, age: 30 });
    const inherited = group.characteristica.find((c) => c.measurement_type === 'weight')!;
    const members = [140, 141, 142].map((pk) => ({ ...individualOf(pk, 14, {}), characteristica: [inherited] }));
    expect(run([group], members)).toMatchObject([{ subject: 'group:14', measurement_type: 'weight', ratio: 10 }]);
  });

  it('names an obesity index of 9730 % ×100: a percentage curated as a fraction (Greenblatt1989 of the shared export)', () => {
    const [f] = run([groupOf(15, { 'obesity index': 9730 })]);
    expect(f).toMatchObject({ measurement_type: 'obesity index', ratio: 100, culprit: 'subject' });
    expect(f.recomputed).toBeCloseTo(97.3, 9);
    expect(f.suspected_cause).toMatch(/^×100 \(a percentage curated as a fraction/);
  });

  it('names a height of 172 m as centimetres read as metres, an age of 384 as months read as years', () => {
    expect(run([groupOf(4, { height: 172 })])).toMatchObject([{ measurement_type: 'height', ratio: 100, recomputed: 1.72 }]);
    const [age] = run([groupOf(5, { age: 384 })]);
    expect(age).toMatchObject({ measurement_type: 'age', ratio: 12, recomputed: 32 });
    expect(age.suspected_cause).toMatch(/^×12 \(months read as years\)/);
  });
});

describe('body-measure: BMI = weight / height²', () => {
  it('names a weight in pounds: 154 "kg", 1.75 m, BMI 22.9 — weight / height² 50.3 is ×2.2 the BMI', () => {
    expect(BMI_AGREE).toBe(1.25);
    const findings = run([groupOf(6, { weight: 154.3, height: 1.75, bmi: 22.9 })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'body-measure/bmi', measurement_type: 'weight', subject: 'group:6' });
    expect(findings[0].details?.cause_factors).toEqual([2.2046]);
    expect(findings[0].recomputed).toBeCloseTo(70, 0);
    // consistent: 70 / 1.75² = 22.86
    expect(run([groupOf(7, { weight: 70, height: 1.75, bmi: 22.9 })])).toEqual([]);
  });

  it('names a BMI ×10 (229) over a weight ×10 when only the BMI is atypical as curated', () => {
    const [f] = run([groupOf(8, { weight: 70, height: 1.75, bmi: 2.29 })]);
    // BMI 2.29 is below any human's (7): the limit names it first, ×1/10
    expect(f).toMatchObject({ check: 'body-measure/limit', measurement_type: 'bmi', ratio: 0.1 });
  });
});

describe("body-measure: an individual against its group's other individuals", () => {
  it('names one individual at 156 kg among fellows of 65–78 kg: pounds read as kilograms', () => {
    const fellows = [65, 70, 72, 78].map((w, k) => individualOf(100 + k, 10, { weight: w }));
    const odd = individualOf(110, 10, { weight: 156 });
    const findings = run([groupOf(10, { weight: 71 })], [...fellows, odd]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'body-measure/fellows', subject: 'individual:110', measurement_type: 'weight' });
    // median of 65, 70, 72, 78 = 71; 156 / 71 = 2.2
    expect(findings[0].ratio).toBeCloseTo(2.2046, 4);
    expect(findings[0].message).toMatch(/is ×2\.2 the median 71 kilogram of the 4 other individuals/);
    // ×1.8 off: no slip
    expect(run([groupOf(11, { weight: 71 })], [...[65, 70, 72, 78].map((w, k) => individualOf(200 + k, 11, { weight: w })), individualOf(210, 11, { weight: 128 })])).toEqual([]);
  });
});

describe("body-measure: a group's mean against its own individuals", () => {
  it('names a group mean weight of 156 kg whose individuals (65–78 kg) average 71.25: pounds read as kilograms', () => {
    const members = [65, 70, 72, 78].map((w, k) => individualOf(300 + k, 30, { weight: w }));
    const findings = run([groupOf(30, { weight: 157.1 })], members);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'body-measure/members', subject: 'group:30', measurement_type: 'weight', ratio: 2.2046 });
    expect(findings[0].message).toMatch(/mean weight 157 kilogram is ×2\.2 the mean 71\.3 kilogram of its 4 individuals/);
    // a mean ×1.2 off its individuals: no slip
    expect(run([groupOf(31, { weight: 85 })], [65, 70, 72, 78].map((w, k) => individualOf(310 + k, 31, { weight: w })))).toEqual([]);
  });
});

describe('body-measure: an individual among fellows of a wide spread', () => {
  it("names 167.5 kg among fellows of 45–80 kg (median 52): undone, 76.0 kg lies ×1.46 their median (Meijer1988's S1 in pounds)", () => {
    const fellows = [48, 72, 52, 45, 80].map((w, k) => individualOf(400 + k, 40, { weight: w }));
    const findings = run([groupOf(40, {})], [...fellows, individualOf(410, 40, { weight: 167.5 })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'body-measure/fellows', subject: 'individual:410', ratio: 2.2046 });
    expect(findings[0].recomputed).toBeCloseTo(167.5 / 2.2046, 6);
    expect(findings[0].message).toMatch(/is ×3\.22 the median 52 kilogram of the 5 other individuals/);
    // 110 kg (×2.1 the median) undone is 49.9 kg: named; 210 kg (×4.04) undone is 95.3 kg, ×1.83 the median: not
    expect(run([groupOf(41, {})], [...fellows.map((f) => ({ ...f, group_pk: 41 })), individualOf(411, 41, { weight: 110 })])).toHaveLength(1);
    expect(run([groupOf(42, {})], [...fellows.map((f) => ({ ...f, group_pk: 42 })), individualOf(412, 42, { weight: 210 })])).toEqual([]);
  });
});

describe('body-measure: a cohort too heavy for a group not marked obese', () => {
  it("names a group's mean of 154.3 kg (n = 10) with nothing marking it obese: pounds, 70.0 kg", () => {
    const [f] = run([groupOf(50, { weight: 154.3, age: 30 })]);
    expect(f).toMatchObject({ check: 'body-measure/cohort', severity: 'major', culprit: 'subject', subject: 'group:50', measurement_type: 'weight', ratio: 2.2046 });
    expect(f.recomputed).toBeCloseTo(154.3 / 2.2046, 6);
    expect(f.suspected_cause).toMatch(/^×2\.205 \(pounds read as kilograms\)/);
    expect(f.message).toMatch(/mean weight 154 kilogram \(n = 10\) is above what a cohort not selected for obesity weighs on average \(115 kilogram/);
    // 110 kg is an ordinary heavy cohort's; 240 kg undone is 108.9 kg, within a healthy adult's 45–120; 280 kg is the limits rule's
    expect(run([groupOf(51, { weight: 110 })])).toEqual([]);
    expect(run([groupOf(52, { weight: 240 })])[0].recomputed).toBeCloseTo(108.86, 2);
    expect(run([groupOf(58, { weight: 280 })])).toMatchObject([{ check: 'body-measure/limit' }]);
  });

  it('says nothing of a group marked obese: by its name, weight category, BMI ≥ 30 or obesity index ≥ 120 %', () => {
    expect(run([{ ...groupOf(53, { weight: 141 }), name: 'obese' }])).toEqual([]);
    const category = { ...trait('weight', 141), measurement_type: 'weight (categorial)', unit: null, mean: null, choice: 'obese' } as CharacteristicaRecord;
    expect(run([{ ...groupOf(54, { weight: 141 }), characteristica: [trait('weight', 141), category] }])).toEqual([]);
    expect(run([groupOf(55, { weight: 135, 'obesity index': 133 })])).toEqual([]);
    // a BMI of 39 with 120 kg: obese (the BMI rule needs a height to compare them)
    expect(run([groupOf(56, { weight: 120, bmi: 39.1 })])).toEqual([]);
    // an obesity index of 104 % marks nothing: 154 kg stays pounds
    expect(run([groupOf(57, { weight: 154.3, 'obesity index': 104 })])).toMatchObject([{ check: 'body-measure/cohort' }]);
  });
});

describe('body-measure: the height weight and BMI imply', () => {
  it('names a weight in pounds by the height it implies with the BMI: 198.4 kg at BMI 31.4 is 2.51 m; 90.0 kg, 1.69 m', () => {
    const [f] = run([groupOf(60, { weight: 198.4, bmi: 31.4 })]);
    expect(f).toMatchObject({ check: 'body-measure/bmi', culprit: 'subject', measurement_type: 'weight', ratio: 2.2046 });
    expect(f.message).toMatch(/imply a height of 2\.51 m \(√\(weight \/ BMI\)\), above any subject's 2\.1 m: weight ×2\.205 \(pounds read as kilograms\) \(1\.69 m\)/);
    // 1.86 m is a tall cohort's (the shared export's tallest); with a height curated, the BMI rule compares the three
    expect(run([groupOf(61, { weight: 90, bmi: 26 })])).toEqual([]);
  });
});

describe('body-measure: a weight ×10 against its BMI', () => {
  it('names the weight, not the BMI ×1/10 that implies the same height: 460 kg at BMI 22 (4.57 m) is 46 kg (1.45 m)', () => {
    const findings = run([groupOf(62, {})], [individualOf(620, 62, { weight: 460, bmi: 22 })]);
    expect(findings).toMatchObject([{ check: 'body-measure/bmi', culprit: 'subject', measurement_type: 'weight', ratio: 10 }]);
    expect(findings[0].message).toMatch(/imply a height of 4\.57 m .*: weight ×10 \(a decimal point slip\) \(1\.45 m\)$/);
  });
});

describe("body-measure: a cohort's mean its individuals list", () => {
  it("names a group's mean of 167.1 kg (n = 13) its individuals list in pounds, once (Ma2008's 75.8 kg, count 13, as each individual's)", () => {
    const shared = { ...trait('weight', 167.1), count: 13 };
    const members = [700, 701, 702].map((pk) => ({ ...individualOf(pk, 70, {}), characteristica: [shared] }));
    const findings = run([groupOf(70, {})], members);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'body-measure/cohort', subject: 'individual:700', ratio: 2.2046, details: { characteristica: { pk: shared.pk } } });
    expect(findings[0].message).toMatch(/mean weight 167 kilogram \(n = 13\)/);
    // an individual's own 167 kg (count 1) is one heavy person, and the group's name may mark the cohort obese
    expect(run([groupOf(71, {})], [individualOf(710, 71, { weight: 167.1 })])).toEqual([]);
    expect(run([{ ...groupOf(72, {}), name: 'obese' }], members.map((m) => ({ ...m, group_pk: 72 })))).toEqual([]);
  });
});

describe('body-measure: a weight and BMI its individuals inherit', () => {
  it('is judged once, with the group: 198.4 kg at BMI 31.4 listed by the group and its three individuals gives one finding', () => {
    const group = groupOf(80, { weight: 198.4, bmi: 31.4 });
    const members = [800, 801, 802].map((pk) => ({ ...individualOf(pk, 80, {}), characteristica: group.characteristica }));
    expect(run([group], members)).toMatchObject([{ check: 'body-measure/bmi', subject: 'group:80', ratio: 2.2046 }]);
  });
});
