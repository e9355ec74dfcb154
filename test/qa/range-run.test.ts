import { describe, expect, it } from 'vitest';
import { firstSlipOrFirst, type RangeJudgment } from '../../src/qa/range-run.js';
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
