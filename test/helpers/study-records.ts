/**
 * Records of one study (W1) for the tests of within-study and of its pool placement (qa/arm-deviations.ts): oral
 * doses, reported outputs of a group, one-compartment curves, groups healthy or with a disease.
 */
import type { GroupRecord, InterventionRecord, OutputRecord, TimecourseRecord } from '../../src/data/model.js';

export const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
export const study = { study_sid: 'W1', study_name: 'Within' };

export function dosing(pk: number, grams: number, substance = 'x'): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route: 'oral', form: 'tablet', application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance, value: grams, unit: 'gram',
  };
}

let nextPk = 1000;
export function output(group: number, intervention: number, measurement_type: string, unit: string, mean: number): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: group, individual_pk: null, intervention_pks: [intervention],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type,
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit, mean,
  };
}

/** A one-compartment oral curve: 10 · dose-scaled · (e^(−0.2 t) − e^(−2 t)) mg/L at 0.5–24 h. */
export function curve(subsetPk: number, group: number, intervention: number, scale: number): { tc: TimecourseRecord; points: OutputRecord[] } {
  const times = [0.5, 1, 2, 4, 6, 8, 12, 24];
  const conc = times.map((t) => scale * 10 * (Math.exp(-0.2 * t) - Math.exp(-2 * t)));
  const points = times.map((t, k) => ({ ...output(group, intervention, 'concentration', 'milligram / liter', conc[k]), output_type: 'timecourse', time: t, time_unit: 'hr', subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [intervention], group_pk: group, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: null, mean: conc, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'milligram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

/** Group `pk` of the study, healthy, or with `disease`. */
export function group(pk: number, disease?: string): GroupRecord {
  const mark = (measurement_type: string, choice: string) => ({ ...STATS, pk: nextPk++, count: 8, measurement_type, calculation_type: null, choice, substance: null, group_count: 8, unit: null });
  const characteristica = disease ? [mark('healthy', 'N'), mark('disease', disease)] : [mark('healthy', 'Y')];
  return { ...study, pk, name: `g${pk}`, count: 8, parent_pk: null, characteristica };
}

/** Cmax 2 mg/L, AUC 20 mg·h/L, t½ 4 h, CL 5 L/h for a 100 mg dose, times a per-group biological factor. */
export function arm(group: number, intervention: number, f = { cmax: 1, auc: 1, thalf: 1, cl: 1 }): OutputRecord[] {
  return [
    output(group, intervention, 'cmax', 'milligram / liter', 2 * f.cmax),
    output(group, intervention, 'auc_inf', 'milligram * hour / liter', 20 * f.auc),
    output(group, intervention, 'thalf', 'hour', 4 * f.thalf),
    output(group, intervention, 'clearance', 'liter / hour', 5 * f.cl),
  ];
}
