import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { OutputRecord } from '../../../src/data/model.js';
import { repeatedValuesCheck } from '../../../src/qa/checks/repeated-values.js';
import { prepareContext } from '../../../src/qa/context.js';
import { dosing, output } from '../../helpers/study-records.js';

/** Reported values of group 1 after dosing 1, no time: one key. */
function run(outputs: OutputRecord[]) {
  const tables = { studies: [], groups: [], individuals: [], interventions: [dosing(1, 0.1)], scatters: [], terms: [], outputs, timecourses: [] };
  const ctx = prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
  return { findings: repeatedValuesCheck.run(ctx), ctx };
}

const urine = (mgPerL: number) => ({ ...output(1, 1, 'concentration', 'gram / liter', mgPerL / 1000), tissue: 'urine' });

describe('repeated-values: one value far off the others of its key', () => {
  it('names a urine concentration in mg/L curated as g/L among five that vary ×5 with urine flow: ×1000', () => {
    // 1.6–8.7 mg/L (spread ln 5.4 = 1.69); 2.8 g/L is ×600 their median 4.7 mg/L: ln 600 = 6.4 ≥ 3 × 1.69 and ≥ ln 30.
    const values = [1.6, 4.3, 5.1, 8.7, 3.9].map(urine);
    const slipped = urine(2800);
    const { findings, ctx } = run([...values, slipped]);
    expect(findings).toMatchObject([{ kind: 'repeated-values', severity: 'major', culprit: 'output', output_pk: slipped.pk, ratio: 1000 }]);
    expect(findings[0].suspected_cause).toMatch(/^×1000/);
    expect(findings[0].message).toMatch(/the median of the 5 other values .* 1\.6–8\.7 gram \/ liter|the median of the 5 other values/);
    expect(ctx.coverage.checksOf('output', values[0].pk)).toContain('repeated-values');
  });

  it('names a ×10 only against three or more others within ×2', () => {
    const cl = (v: number) => output(1, 1, 'clearance', 'liter / hour', v);
    const tight = [5, 6, 7].map(cl);
    // 70 L/h is ×11.7 their median of 6: ×10 gives 7, among them.
    const off = cl(70);
    expect(run([...tight, off]).findings).toMatchObject([{ output_pk: off.pk, severity: 'major', ratio: 10 }]);
    // Two others: no small factor. Others spread ×3: none either.
    expect(run([cl(5), cl(6), cl(70)]).findings).toEqual([]);
    expect(run([cl(3), cl(6), cl(9), cl(70)]).findings).toEqual([]);
  });

  it('says nothing of values in line, of two values alone, or of values with a time (a series: series-spike)', () => {
    expect(run([1, 2, 1.5, 3].map(urine)).findings).toEqual([]);
    expect(run([urine(2), urine(2000)]).findings).toEqual([]);
    const timed = [1, 2, 1.5, 2000].map((v, k) => ({ ...urine(v), time: k + 1, time_unit: 'hr' }));
    expect(run(timed).findings).toEqual([]);
  });

  it('names a value that is another individual’s (a figure read onto the wrong individual) rather than a coincidental factor', () => {
    const ofIndividual = (pk: number, v: number) => ({ ...output(1, 1, 'clearance', 'liter / hour', v), group_pk: null, individual_pk: pk });
    // Individual 11: 5–7 L/h in three tables and 63 L/h from a figure; individual 12: 62–64 L/h. ×10 would bring 63
    // to 6.3, among 11's own, but 63 is 12's value within 1 %.
    const eleven = [5, 6, 7].map((v) => ofIndividual(11, v));
    const figure = ofIndividual(11, 63);
    const twelve = [62, 63, 64].map((v) => ofIndividual(12, v));
    const findings = run([...eleven, figure, ...twelve]).findings;
    expect(findings).toMatchObject([{ output_pk: figure.pk, severity: 'major', culprit: 'output', details: { rule: 'another-subject', owner: 'individual:12' } }]);
    expect(findings[0].suspected_cause).toMatch(/^the value of individual:12 \(median 63 liter \/ hour\): put on the wrong subject\?/);
  });

  it('keeps far off with no factor that brings it back minor', () => {
    // ×300 (no scale factor near it: ×1000/60 · 24 is not one) among values within ×1.2.
    const values = [10, 11, 12].map(urine);
    const odd = urine(3400);
    expect(run([...values, odd]).findings).toMatchObject([{ output_pk: odd.pk, severity: 'minor', culprit: null, suspected_cause: null }]);
  });
});
