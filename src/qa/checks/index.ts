/**
 * The registry: every check `runQa` runs, in order (findings of equal rank keep
 * this order). A new check is one file in this folder and one line here.
 */
import type { QaCheck } from '../check.js';
import { baselinesCheck } from './baselines.js';
import { bodyMeasuresCheck } from './body-measures.js';
import { calculatedCheck } from './calculated.js';
import { doseLabelCheck } from './dose-label.js';
import { doseSiblingsCheck } from './dose-siblings.js';
import { curvePairsCheck } from './curve-pairs.js';
import { groupMembersCheck } from './group-members.js';
import { humanRangeCheck } from './human-ranges.js';
import { inputCheck } from './input.js';
import { massBalanceCheck } from './mass-balance.js';
import { metabolicRatiosCheck } from './metabolic-ratios.js';
import { normedVsRawCheck } from './normed-vs-raw.js';
import { pkIdentitiesCheck } from './pk-identities.js';
import { physiologyCheck } from './physiology.js';
import { plausibilityCheck } from './plausibility.js';
import { referenceRangeCheck } from './reference-ranges.js';
import { repeatedValuesCheck } from './repeated-values.js';
import { seriesSpikeCheck } from './series-spike.js';
import { reportedVsRecomputedCheck } from './reported-vs-recomputed.js';
import { urineCheck } from './urine.js';
import { swapsCheck } from './swaps.js';
import { timeAxisCheck } from './time-axis.js';
import { withinStudyCheck } from './within-study.js';

export const CHECKS: readonly QaCheck[] = [
  inputCheck,
  reportedVsRecomputedCheck,
  calculatedCheck,
  normedVsRawCheck,
  plausibilityCheck,
  physiologyCheck,
  humanRangeCheck,
  bodyMeasuresCheck,
  urineCheck,
  massBalanceCheck,
  pkIdentitiesCheck,
  withinStudyCheck,
  groupMembersCheck,
  repeatedValuesCheck,
  curvePairsCheck,
  baselinesCheck,
  timeAxisCheck,
  swapsCheck,
  referenceRangeCheck,
  doseLabelCheck,
  doseSiblingsCheck,
  seriesSpikeCheck,
  metabolicRatiosCheck,
];
