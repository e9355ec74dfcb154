/**
 * The any-dose level pool of the reference-range check: every concentration a dataset holds of a substance in a
 * tissue, whatever the dose, route or population, as one value per record (a timecourse's median positive
 * level, a reported concentration's value), in its canonical unit.
 *
 * Why: the strict strata (reference-samples.ts) divide by the dose and keep routes, applications and populations
 * apart, so a curve without a curated dose, after two doses, or of a population few studies share has no
 * reference there — a caffeine curve curated in g/L instead of mg/L (10 g/L in an asthma study without a dose)
 * was found by nothing. Levels over all doses spread far wider than levels per dose (microdoses to overdoses,
 * interactions ×50, sampling to 8 h or to 72 h): this pool names only an upward unit or molar slip of ×100 and
 * more, far beyond every other study's level, that a dose cannot make (range-verdict.ts `wideVerdict`). It judges
 * only records without a reference of their own stratum (range-run.ts `rangeRun`), and it is no backing for other
 * checks.
 */
import { subjectLabel, subjectOf } from '../data/dataset.js';
import type { QaContext } from './context.js';
import { isBodyAnalyte } from './human-limits.js';
import { concentrationSeries } from './input-checks.js';
import { canonicalUnit } from './parameters.js';
import { poolTissue, type RangeSample } from './reference-samples.js';
import { median } from './reference-stats.js';

/** The quantity of the pool's samples: `caffeine level (plasma)` (a finding names the pool: range-run.ts `WidePool`). */
export const WIDE_LEVEL = 'level';
/** The first field of a wide stratum: no strict stratum starts with it. */
const WIDE_PREFIX = 'wide level';

/** The stratum of a substance in a tissue and unit. */
export function wideLevelStratum(substance: string | null, tissue: string | null, unit: string): string {
  return `${WIDE_PREFIX}\u0001${substance}\u0001${poolTissue(tissue)}\u0001${unit}`;
}

/** The median of the positive finite values (null when none). */
export function medianPositive(values: readonly (number | null)[]): number | null {
  const positive: number[] = [];
  for (const v of values) if (v !== null && Number.isFinite(v) && v > 0) positive.push(v);
  return positive.length === 0 ? null : median(positive.sort((a, b) => a - b));
}

/** The arm of a record: its intervention set, sorted (intervention pks belong to one study). */
const armOf = (pks: readonly number[]) => [...pks].sort((a, b) => a - b).join(',');

/** Every concentration timecourse and reported concentration of the context, as a sample of its wide stratum. */
export function wideLevelSamples(ctx: QaContext): RangeSample[] {
  const samples: RangeSample[] = [];
  const add = (
    record: 'output' | 'timecourse',
    pk: number,
    of: { study_sid: string; study_name: string; group_pk: number | null; individual_pk: number | null },
    interventionPks: readonly number[],
    names: { substance: string | null; tissue: string | null },
    value: number,
    unit: string,
  ) => {
    const { substance, tissue } = names;
    // An analyte with limits of the living body (glucose, bilirubin) is judged by those (checks/human-ranges.ts) and
    // by its level stratum (reference-samples.ts), not by levels over all doses of drugs.
    if (isBodyAnalyte(substance, tissue)) return;
    samples.push({
      record, pk, study: of.study_sid, studyName: of.study_name, arm: armOf(interventionPks), stratum: wideLevelStratum(substance, tissue, unit),
      quantity: WIDE_LEVEL, substance, tissue, route: null, dose: null, extra: '', population: '', family: 'cmax',
      measurementType: 'concentration', value, unit, subject: subjectLabel(subjectOf(of)), subsetPk: record === 'timecourse' ? pk : null,
      outputPk: record === 'output' ? pk : null, interventionPk: null, molarMass: ctx.molarMass(substance), bodyWeightKg: null,
    });
  };
  for (const tc of ctx.concentrationTimecourses) {
    const names = ctx.dataset.curveNames(tc);
    const level = medianPositive(concentrationSeries(tc)?.values ?? []);
    const canonical = tc.unit ? canonicalUnit(tc.unit, ctx.molarMass(names.substance)) : null;
    if (level === null || canonical === null) continue;
    add('timecourse', tc.subset_pk, tc, tc.intervention_pk, names, level * canonical.factor, canonical.unit);
  }
  for (const p of ctx.parameters) {
    if (p.source !== 'reported' || p.measurement_type !== 'concentration' || p.value === null || !(p.value > 0) || p.unit === null || p.factor === null) continue;
    add('output', p.output.pk, p.output, p.output.intervention_pks, p.output, p.value, p.unit);
  }
  return samples;
}
