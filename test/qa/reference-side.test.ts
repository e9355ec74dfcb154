import { describe, expect, it } from 'vitest';
import type { RangeJudgment, RangeRun } from '../../src/qa/range-run.js';
import { referenceSide } from '../../src/qa/reference-side.js';

/** A run holding one judgment per record: robust z and spread (log scale) against the record's own stratum. */
function run(judged: Record<string, { z: number; spread: number; pool?: string }>): RangeRun {
  const byRecord = { output: new Map<number, RangeJudgment>(), timecourse: new Map<number, RangeJudgment>(), dosing: new Map<number, RangeJudgment>() };
  for (const [name, { z, spread, pool }] of Object.entries(judged)) {
    const [kind, pk] = name.split(':') as ['output' | 'timecourse', string];
    byRecord[kind].set(Number(pk), { sample: {}, ref: { spread }, verdict: { z }, pool } as unknown as RangeJudgment);
  }
  return { judgments: [], unplaced: [], byRecord } as unknown as RangeRun;
}

describe('referenceSide: which of a value and its curve the other studies put out of line', () => {
  it('names the curve when the value is in line and the curve, off by the inverse of the ratio, is not', () => {
    // Reported Cmax ×0.1 its curve. Curve: z 4.9 at spread 0.5; ×10 undone: 4.9 + ln 0.1 / 0.5 = 0.29. Value: z 0.3.
    expect(referenceSide(run({ 'output:1': { z: 0.3, spread: 0.5 }, 'timecourse:2': { z: 4.9, spread: 0.5 } }), 1, 2, 0.1)).toMatchObject({ culprit: 'timecourse', otherZ: 0.3 });
    expect(referenceSide(run({ 'output:1': { z: 0.3, spread: 0.5 }, 'timecourse:2': { z: 4.9, spread: 0.5 } }), 1, 2, 0.1)?.undone).toBeCloseTo(4.9 + Math.log(0.1) / 0.5, 10);
  });
  it('names the value when the curve is in line and the value, off by the ratio, is not', () => {
    // Reported AUC ×60 its curve: value z 8.5 at spread 0.5 (ln 60 / 0.5 = 8.19 undone: 0.31); curve z −0.4.
    expect(referenceSide(run({ 'output:1': { z: 8.5, spread: 0.5 }, 'timecourse:2': { z: -0.4, spread: 0.6 } }), 1, 2, 60)).toMatchObject({ culprit: 'output', otherZ: -0.4 });
  });
  it('names neither for a dose slip (both off per dose alike), both in line, an undoing that does not land, or a wide pool', () => {
    expect(referenceSide(run({ 'output:1': { z: -4.6, spread: 0.5 }, 'timecourse:2': { z: -4.6, spread: 0.5 } }), 1, 2, 1.05)).toBeNull();
    expect(referenceSide(run({ 'output:1': { z: 1, spread: 0.5 }, 'timecourse:2': { z: 2, spread: 0.5 } }), 1, 2, 0.1)).toBeNull();
    // The curve is out, but ×10 undone overshoots to z −4.3: the curve is off by something else.
    expect(referenceSide(run({ 'output:1': { z: 0.3, spread: 0.5 }, 'timecourse:2': { z: 3.0, spread: 0.3 } }), 1, 2, 0.1)).toBeNull();
    expect(referenceSide(run({ 'output:1': { z: 0.3, spread: 0.5 }, 'timecourse:2': { z: 4.9, spread: 0.5, pool: 'every population' } }), 1, 2, 0.1)).toBeNull();
  });
  it('lets one record with a reference tell alone: out as curated, in line with the slip undone', () => {
    expect(referenceSide(run({ 'timecourse:2': { z: 4.9, spread: 0.5 } }), 1, 2, 0.1)).toMatchObject({ culprit: 'timecourse', otherZ: null });
    expect(referenceSide(run({ 'output:1': { z: 8.5, spread: 0.5 } }), 1, 2, 60)).toMatchObject({ culprit: 'output', otherZ: null });
    // In line as curated (nothing to tell), or out by something else.
    expect(referenceSide(run({ 'output:1': { z: 0.3, spread: 0.5 } }), 1, 2, 0.1)).toBeNull();
    expect(referenceSide(run({ 'timecourse:2': { z: 3.0, spread: 0.3 } }), 1, 2, 0.1)).toBeNull();
    expect(referenceSide(run({}), 1, 2, 0.1)).toBeNull();
  });
  it("leaves the curve's level out for a quantity its level does not move (no subset given)", () => {
    // A reported t½ ×0.1 its curve, the value in line: the curve's level out by ×10 (z 4.9) is no witness for its time axis.
    const judged = run({ 'output:1': { z: 0.3, spread: 0.5 }, 'timecourse:2': { z: 4.9, spread: 0.5 } });
    expect(referenceSide(judged, 1, 2, 0.1)).toMatchObject({ culprit: 'timecourse' });
    expect(referenceSide(judged, 1, null, 0.1)).toBeNull();
    // The value's own reference still tells alone.
    expect(referenceSide(run({ 'output:1': { z: 8.5, spread: 0.5 }, 'timecourse:2': { z: 6, spread: 0.5 } }), 1, null, 60)).toMatchObject({ culprit: 'output', otherZ: null });
  });
});
