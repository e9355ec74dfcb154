import { describe, expect, it } from 'vitest';
import { firstSlipOrFirst, judgmentOf, rangeRun, referenceBacks, referenceRefutes, type RangeJudgment } from '../../src/qa/range-run.js';
import { arm, context, fiveStudies, nextPk, output } from '../helpers/reference-studies.js';
import type { RangeSample } from '../../src/qa/reference-samples.js';
import type { RangeVerdict } from '../../src/qa/range-verdict.js';

const sample = (record: RangeSample['record'], pk: number) => ({ record, pk }) as RangeSample;
const ref = { median: 0, spread: 1, studies: 6, arms: 6, min: -1, max: 1, secondMin: -1, secondMax: 1 };
const verdict = (classification: RangeVerdict['classification']): RangeVerdict => ({ classification, z: 0, cause: null, alternatives: [] });

describe('range-run: one fallback judgment per record', () => {
  it('keeps the first that names a slip, else the first: a wide pool that cannot tell leaves the word to the next', () => {
    const inside: RangeJudgment = { sample: sample('timecourse', 7), ref, verdict: verdict('inside'), pool: 'every population' };
    const slip: RangeJudgment = { sample: sample('timecourse', 7), ref, verdict: verdict('slip'), pool: 'every dose and population' };
    const other: RangeJudgment = { sample: sample('output', 7), ref, verdict: verdict('inside'), pool: 'every population' };
    const later: RangeJudgment = { sample: sample('output', 7), ref, verdict: verdict('inside'), pool: 'every dose and population' };
    expect(firstSlipOrFirst([inside, other, slip, later])).toEqual([other, slip]);
  });
});

describe('range-run: other studies for other checks', () => {
  it('finds a judgment by `<record kind>:<pk>` and groups the values of one stratum together', () => {
    const { arms, outputs } = fiveStudies();
    const f = arm('F');
    const tenfold = output(f, 'clearance', 'liter / hour', 100);
    const run = rangeRun(context([...arms, f], [...outputs, tenfold]));
    expect(judgmentOf(run, `output:${tenfold.pk}`)?.sample.value).toBe(100);
    expect(judgmentOf(run, `output:${tenfold.pk}`)?.verdict?.z).toBeCloseTo(Math.log(10) / 0.223, 1); // z 10.3, as above
    expect(judgmentOf(run, `timecourse:${tenfold.pk}`)).toBeUndefined();
    expect(judgmentOf(run, 'output:999999')).toBeUndefined();
    // One stratum (x clearance, L/h): its six values judged in the order of the samples, each against the five others.
    const clearances = run.judgments.filter((j) => j.sample.quantity === 'clearance');
    expect(clearances.map((j) => j.sample.value)).toEqual([10, 12, 8, 11, 9, 100]);
    expect(new Set(clearances.map((j) => j.sample.stratum)).size).toBe(1);
  });


  it('refutes another check’s slip of a value inside the other studies’ range that undoing the factor would throw out', () => {
    const { arms, outputs } = fiveStudies();
    const f = arm('F');
    const ordinary = output(f, 'clearance', 'liter / hour', 10); // z 0 (spread 0.223); ×10 undone: z −10.3
    const tenfold = output(f, 'clearance', 'liter / hour', 100); // z 10.3: outside, not refuted
    const ctx = context([...arms, f], [...outputs, ordinary, tenfold]);
    expect(referenceRefutes(ctx, `output:${ordinary.pk}`, 10)).toMatch(/^5 other studies' x clearance .* robust z 0, -10\.3 with the factor undone$/);
    expect(referenceRefutes(ctx, `output:${ordinary.pk}`, 2)).toBeNull(); // undone −3.1: still within OUTSIDE_Z
    expect(referenceRefutes(ctx, `output:${tenfold.pk}`, 10)).toBeNull();
    expect(referenceRefutes(ctx, 'output:999999', 10)).toBeNull(); // no reference
  });


  it('backs an individual’s small factor towards more exposure only from SMALL_FACTOR_Z out: one person lies further out than the arms of a reference', () => {
    // Clearances 10, 20, 5, 14 and 7 L/h: median 10, MAD 0.357 → robust SD 0.529. A value of 60 lies at z ln 6 / 0.529 = 3.39,
    // with ×10 undone 6 (z −0.966): a group's backs the slip, one individual's does not.
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [10, 20, 5, 14, 7].map((cl, i) => output(arms[i], 'clearance', 'liter / hour', cl));
    const f = arm('F');
    const group60 = output(f, 'clearance', 'liter / hour', 60);
    const person = (value: number) => ({ ...output(f, 'clearance', 'liter / hour', value), group_pk: null, individual_pk: nextPk() });
    const [one60, one300] = [person(60), person(300)];
    const ctx = context([...arms, f], [...outputs, group60, one60, one300]);
    expect(referenceBacks(ctx, `output:${group60.pk}`, 10)).toMatch(/robust z 3\.39, -0\.966 with the factor undone$/);
    expect(referenceBacks(ctx, `output:${one60.pk}`, 10)).toBeNull();
    // Towards less exposure (a clearance ×10 its fellows') no phenotype reaches: backed as a group's is.
    expect(referenceBacks(ctx, `output:${one60.pk}`, 10, 'less')).toMatch(/robust z 3\.39, -0\.966 with the factor undone$/);
    expect(referenceBacks(ctx, `output:${one60.pk}`, 10, 'more')).toBeNull();
    // 300: z 6.43, undone 2.08 — from five studies, fewer than FEW_STUDIES, an individual needs |z| ≥ 8.
    expect(referenceBacks(ctx, `output:${one300.pk}`, 10)).toBeNull();
    expect(referenceBacks(ctx, `output:${one300.pk}`, 10, 'less')).toMatch(/robust z 6\.43, 2\.08 with the factor undone$/);
    // Eight studies at 8–12 L/h (spread floored at ln 1.25 = 0.223): an individual's 58 L/h lies at z ln 5.8 / 0.223 =
    // 7.88, -2.44 with ×10 undone: backed from SMALL_FACTOR_Z (6); from the first five of them it would need 8.
    const eight = ['G', 'H', 'I', 'J', 'K', 'L', 'M', 'N'].map((sid) => arm(sid));
    const tight = [10, 12, 8, 11, 9, 10, 12, 8].map((cl, i) => output(eight[i], 'clearance', 'liter / hour', cl));
    const g = arm('O');
    const one58 = { ...output(g, 'clearance', 'liter / hour', 58), group_pk: null, individual_pk: nextPk() };
    expect(referenceBacks(context([...eight, g], [...tight, one58]), `output:${one58.pk}`, 10)).toMatch(/robust z 7\.88, -2\.44 with the factor undone$/);
    expect(referenceBacks(context([...eight.slice(0, 5), g], [...tight.slice(0, 5), one58]), `output:${one58.pk}`, 10)).toBeNull();
  });


  it('backs another check’s slip when the value lies off the other studies by it and back near their centre without it', () => {
    const { arms, outputs } = fiveStudies();
    const f = arm('F');
    const tenfold = output(f, 'clearance', 'liter / hour', 100); // z = ln 10 / 0.223 = 10.3; ×10 undone: z 0
    const threefold = output(f, 'clearance', 'liter / hour', 30); // z = 4.9; ×10 undone: −5.4, farther out
    const ctx = context([...arms, f], [...outputs, tenfold, threefold]);
    expect(referenceBacks(ctx, `output:${tenfold.pk}`, 10)).toMatch(/^5 other studies' x clearance .* robust z 10\.3, 0 with the factor undone$/);
    expect(referenceBacks(ctx, `output:${tenfold.pk}`, 1 / 10)).toBeNull(); // the wrong direction
    expect(referenceBacks(ctx, `output:${threefold.pk}`, 10)).toBeNull();
    expect(referenceBacks(ctx, `output:${outputs[0].pk}`, 10)).toBeNull(); // inside: z 0
    // Against five studies that spread widely (1–100 L/h: median 10, robust SD 1.78), 80 L/h lies inside (z 1.2) and
    // ×10 undone would bring it nearer (z −0.1): a value inside its reference backs no slip.
    const wide = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const spread = [1, 3, 10, 30, 100].map((cl, i) => output(wide[i], 'clearance', 'liter / hour', cl));
    const near = output(f, 'clearance', 'liter / hour', 80);
    const nearCtx = context([...wide, f], [...spread, near]);
    expect(judgmentOf(rangeRun(nearCtx), `output:${near.pk}`)?.verdict?.z).toBeCloseTo(1.17, 1);
    expect(referenceBacks(nearCtx, `output:${near.pk}`, 10)).toBeNull();
  });

  it('backs a slip of a per-kg value of a subject without a weight through the absolute values at every adult weight', () => {
    // Clearances of 6, 15, 8, 12 and 10 L/h: median 10, robust SD 0.33. A per-kg clearance ×1/10 (10/70/10 L/h/kg) is
    // 0.57 L/h at 40 kg and 1.71 at 120 kg (z −8.7 and −5.3): out at every adult weight; ×1/10 undone, z −1.7 to 1.6.
    const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
    const outputs = [6, 15, 8, 12, 10].map((cl, i) => output(arms[i], 'clearance', 'liter / hour', cl));
    const unweighed = arm('F');
    const tenth = output(unweighed, 'clearance', 'liter / hour / kilogram', 10 / 70 / 10);
    const half = output(unweighed, 'clearance', 'liter / hour / kilogram', 10 / 70 / 2);
    const ctx = context([...arms, unweighed], [...outputs, tenth, half]);
    expect(judgmentOf(rangeRun(ctx), `output:${tenth.pk}`)?.ref ?? null).toBeNull(); // no reference of its own stratum
    expect(referenceBacks(ctx, `output:${tenth.pk}`, 1 / 10)).toMatch(/^5 other studies' .*\(absolute values, an adult weight of 40–120 kg assumed\) put it at robust z -5\.33 to -8\.65, 0 with the factor undone$/);
    expect(referenceBacks(ctx, `output:${tenth.pk}`, 10)).toBeNull(); // the wrong direction
    // ×1/2: 2.9 L/h at 40 kg (z −3.8) but 8.6 at 120 kg (z −0.5): the weight alone may explain it.
    expect(referenceBacks(ctx, `output:${half.pk}`, 1 / 10)).toBeNull();
  });
});
