/**
 * Small datasets for the cross-study reference tests (reference-ranges, range-run, range-verdict): studies of one group
 * and one oral dose each, their reported outputs, and the QA context over them.
 */
import { Dataset } from '../../src/data/dataset.js';
import type { CharacteristicaRecord, GroupRecord, InterventionRecord, OutputRecord } from '../../src/data/model.js';
import { prepareContext, type QaContext } from '../../src/qa/context.js';
import type { Finding } from '../../src/qa/finding.js';

export const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };

let lastPk = 1000;

/** A pk no other record of the tests has. */
export function nextPk(): number {
  return lastPk++;
}

export interface Arm {
  sid: string;
  group: GroupRecord;
  dosing: InterventionRecord;
}

export function characteristic(measurement_type: string, choice: string): CharacteristicaRecord {
  return { ...STATS, pk: nextPk(), count: 10, measurement_type, calculation_type: null, choice, substance: null, group_count: 10, unit: null };
}

/** One study with one group and one oral dose of `substance` (`dose` g, or `unit`). */
export function arm(sid: string, options: { dose?: number; unit?: string; substance?: string; characteristica?: CharacteristicaRecord[] } = {}): Arm {
  const study = { study_sid: sid, study_name: `Study ${sid}` };
  const group: GroupRecord = { ...study, pk: nextPk(), name: 'all', count: 10, parent_pk: null, characteristica: options.characteristica ?? [] };
  const dosing: InterventionRecord = {
    ...STATS, ...study, pk: nextPk(), raw_pk: null, normed: true, name: 'd', route: 'oral', form: 'tablet', application: 'single dose', time: '0',
    time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: options.substance ?? 'x',
    value: options.dose ?? 0.1, unit: options.unit ?? 'gram',
  };
  return { sid, group, dosing };
}

export function output(a: Arm, measurement_type: string, unit: string, mean: number, substance = 'x', interventions?: number[]): OutputRecord {
  return {
    ...STATS, study_sid: a.sid, study_name: `Study ${a.sid}`, pk: nextPk(), raw_pk: null, normed: true, calculated: false, group_pk: a.group.pk,
    individual_pk: null, intervention_pks: interventions ?? (a.dosing.value === null ? [] : [a.dosing.pk]), tissue: 'plasma', method: null, label: null,
    output_type: 'output', time: null, time_unit: null, measurement_type, calculation_type: null, choice: null, substance, subset_pk: null, unit, mean,
  };
}

export function context(arms: Arm[], outputs: OutputRecord[], molarMasses: Record<string, number> = {}): QaContext {
  const tables = {
    studies: [], groups: arms.map((a) => a.group), individuals: [], interventions: arms.map((a) => a.dosing), scatters: [], terms: [],
    outputs, timecourses: [],
    info_nodes: Object.entries(molarMasses).map(([name, mass]) => ({
      sid: name, name, label: name, ntype: 'substance', dtype: null, deprecated: false, description: null, synonyms: [], mass,
    })),
  };
  return prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
}

export const about = (findings: Finding[], o: OutputRecord) => findings.filter((f) => f.output_pk === o.pk);

/** Five healthy studies with clearances 10, 12, 8, 11, 9 L/h: median 10, robust SD floored at ln 1.25. */
export function fiveStudies(): { arms: Arm[]; outputs: OutputRecord[] } {
  const arms = ['A', 'B', 'C', 'D', 'E'].map((sid) => arm(sid));
  const outputs = [10, 12, 8, 11, 9].map((cl, i) => output(arms[i], 'clearance', 'liter / hour', cl));
  return { arms, outputs };
}
