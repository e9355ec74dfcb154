/**
 * The slip planter: applies planned slips to the tables of an export and
 * re-derives PK-DB's stored calculated outputs from the slipped data, as PK-DB
 * would have stored them. Pure: the input tables are never modified; the
 * result shares every record it did not change.
 *
 * Scaling a record scales value, mean, median, min, max, sd and se (cv is
 * relative and stays), in the normed record and in its raw record when the
 * tables hold it (`raw_pk`: API data and the fixtures; exports carry normed
 * records only). A timecourse's point lists always equal its member outputs,
 * so every timecourse element whose output was scaled is scaled with it.
 */
import { molarMassLookup, type DatasetTables, type GroupRecord, type IndividualRecord, type InterventionRecord, type OutputRecord, type StatsFields, type TimecourseRecord } from '../../src/index.js';
import type { PlannedSlip } from './plan.js';
import { rederiveCalculated } from './rederive.js';
import { molarSlipFactor, slipClass, type SlipClass, type SlipClassName } from './slip-classes.js';

export interface SlipRecords {
  /** Outputs the slip scaled (normed and raw copies; a 0 stays 0). */
  outputs: number[];
  /** Timecourses whose lists the slip changed. */
  subsets: number[];
  /** Interventions whose numbers the slip changed (normed and raw copies). */
  interventions: number[];
  /** Stored calculated outputs whose value (or auc_end time) changed when re-derived from the slipped data (normed and raw copies). */
  derived: number[];
  /** Stored calculated outputs removed: the pkdb profile no longer produces them from the slipped data. */
  dropped: number[];
  /** Outputs the pkdb profile now produces that PK-DB had not stored: left out (no pk to give them). */
  unstored: number;
  /** Outputs a finding may name to point at this slip: the changed and derived ones; for a dose also every output given it. */
  pointOutputs: number[];
  /** Timecourses a finding may name to point at this slip: the changed ones; for a dose every timecourse given it. */
  pointSubsets: number[];
  /** For a body-weight slip: the characteristic (its pk) and the subjects listing it (`group:12`, `individual:3`). */
  characteristica: number[];
  subjects: string[];
}

export interface Slip {
  copy: number;
  study_sid: string;
  slipClass: SlipClassName;
  /** Curated ÷ true: the class's factor, or the record's molar ↔ mass factor. */
  factor: number;
  /** The output, subset, intervention or characteristica pk the slip hit. */
  target: number;
  records: SlipRecords;
}

export interface PlantResult {
  tables: DatasetTables;
  slips: Slip[];
}

const STAT_SCALED = ['value', 'mean', 'median', 'min', 'max', 'sd', 'se'] as const;

/** A copy of a record with every absolute statistic × factor (cv unchanged). */
export function scaleStats<T extends StatsFields>(record: T, factor: number): T {
  const out = { ...record };
  for (const key of STAT_SCALED) if (out[key] !== null) out[key] = (out[key] as number) * factor;
  return out;
}

const scaleAt = (list: (number | null)[], at: ReadonlySet<number>, factor: number) =>
  list.map((v, k) => (v !== null && at.has(k) ? v * factor : v));

/** A copy of a timecourse with its points at indexes `at` scaled: the time list, or every absolute series. */
export function scaleTimecourse(tc: TimecourseRecord, at: ReadonlySet<number>, factor: number, field: 'stats' | 'time'): TimecourseRecord {
  if (field === 'time') return { ...tc, time: scaleAt(tc.time, at, factor) };
  const list = (v: (number | null)[] | null) => (v === null ? null : scaleAt(v, at, factor));
  // A scalar sd/se stands for every point: scaled when every point is.
  const every = tc.output_pk.every((_, k) => at.has(k));
  const either = (v: (number | null)[] | number | null) => (typeof v === 'number' ? (every ? v * factor : v) : list(v));
  return { ...tc, value: list(tc.value), mean: list(tc.mean), median: list(tc.median), min: list(tc.min), max: list(tc.max), sd: either(tc.sd), se: either(tc.se) };
}

/** Edits keyed by pk over the original tables: every lookup sees the latest version of a record. */
class Editor {
  readonly outputs = new Map<number, OutputRecord>();
  readonly interventions = new Map<number, InterventionRecord>();
  readonly timecourses = new Map<number, TimecourseRecord>();
  /** Subjects whose characteristica a slip changed, by `group:<pk>` / `individual:<pk>`. */
  readonly subjects = new Map<string, GroupRecord | IndividualRecord>();
  private readonly outputByPk: Map<number, OutputRecord>;
  private readonly interventionByPk: Map<number, InterventionRecord>;
  private readonly timecourseByPk: Map<number, TimecourseRecord>;
  /** Output pk → the timecourses listing it. */
  private readonly subsetsOfOutput = new Map<number, number[]>();
  readonly molarMass: ReturnType<typeof molarMassLookup>;

  constructor(readonly tables: DatasetTables) {
    this.outputByPk = new Map(tables.outputs.map((o) => [o.pk, o]));
    this.interventionByPk = new Map(tables.interventions.map((i) => [i.pk, i]));
    this.timecourseByPk = new Map(tables.timecourses.map((t) => [t.subset_pk, t]));
    this.molarMass = molarMassLookup(tables);
    for (const tc of tables.timecourses) {
      for (const pk of tc.output_pk) {
        const list = this.subsetsOfOutput.get(pk);
        if (list) list.push(tc.subset_pk);
        else this.subsetsOfOutput.set(pk, [tc.subset_pk]);
      }
    }
  }

  output(pk: number): OutputRecord | undefined {
    return this.outputs.get(pk) ?? this.outputByPk.get(pk);
  }
  intervention(pk: number): InterventionRecord | undefined {
    return this.interventions.get(pk) ?? this.interventionByPk.get(pk);
  }
  timecourse(pk: number): TimecourseRecord | undefined {
    return this.timecourses.get(pk) ?? this.timecourseByPk.get(pk);
  }

  /** A normed record and its raw record when the tables hold it. */
  withRaw<R extends { pk: number; normed: boolean; raw_pk: number | null }>(record: R, lookup: (pk: number) => R | undefined): R[] {
    const raw = record.raw_pk !== null ? lookup(record.raw_pk) : undefined;
    return raw && !raw.normed && raw.pk !== record.pk ? [record, raw] : [record];
  }

  /** Outputs (with raw copies) × factor on `field`s, and every timecourse element listing them. */
  scaleOutputs(pks: readonly number[], factor: number, field: 'stats' | 'time'): { outputs: number[]; subsets: number[] } {
    const changed = new Set<number>();
    for (const pk of pks) {
      const normed = this.output(pk);
      if (!normed) continue;
      for (const o of this.withRaw(normed, (p) => this.output(p))) {
        if (changed.has(o.pk)) continue;
        changed.add(o.pk);
        this.outputs.set(o.pk, field === 'stats' ? scaleStats(o, factor) : { ...o, time: o.time === null ? null : o.time * factor });
      }
    }
    const subsets = new Set<number>();
    for (const pk of changed) for (const s of this.subsetsOfOutput.get(pk) ?? []) subsets.add(s);
    for (const s of subsets) {
      const tc = this.timecourse(s) as TimecourseRecord;
      const at = new Set(tc.output_pk.flatMap((pk, k) => (changed.has(pk) ? [k] : [])));
      this.timecourses.set(s, scaleTimecourse(tc, at, factor, field));
    }
    return { outputs: [...changed], subsets: [...subsets] };
  }

  /** Every subject listing characteristic `pk` (a group's may be listed again by its subgroups and individuals) × factor. */
  scaleCharacteristic(pk: number, factor: number): string[] {
    const labels: string[] = [];
    const scale = <S extends GroupRecord | IndividualRecord>(kind: 'group' | 'individual', subject: S): void => {
      const label = `${kind}:${subject.pk}`;
      const current = (this.subjects.get(label) as S | undefined) ?? subject;
      if (!current.characteristica.some((c) => c.pk === pk)) return;
      this.subjects.set(label, { ...current, characteristica: current.characteristica.map((c) => (c.pk === pk ? scaleStats(c, factor) : c)) });
      labels.push(label);
    };
    for (const g of this.tables.groups) scale('group', g);
    for (const i of this.tables.individuals) scale('individual', i);
    return labels;
  }

  tablesNow(dropped: ReadonlySet<number> = new Set()): DatasetTables {
    const t = this.tables;
    return {
      ...t,
      groups: t.groups.map((g) => (this.subjects.get(`group:${g.pk}`) as GroupRecord | undefined) ?? g),
      individuals: t.individuals.map((i) => (this.subjects.get(`individual:${i.pk}`) as IndividualRecord | undefined) ?? i),
      outputs: t.outputs.filter((o) => !dropped.has(o.pk)).map((o) => this.outputs.get(o.pk) ?? o),
      interventions: t.interventions.map((i) => this.interventions.get(i.pk) ?? i),
      timecourses: t.timecourses.map((tc) => this.timecourses.get(tc.subset_pk) ?? tc),
    };
  }
}

const emptyRecords = (): SlipRecords => ({
  outputs: [], subsets: [], interventions: [], derived: [], dropped: [], unstored: 0, pointOutputs: [], pointSubsets: [], characteristica: [], subjects: [],
});

/** The slip's factor on a record: the class's, or molar ↔ mass from the record's substance and unit. */
function factorOn(editor: Editor, cls: SlipClass, record: { unit: string | null; substance: string | null }, what: string): number {
  if (!cls.molar) return cls.factor;
  const factor = molarSlipFactor(record.unit, editor.molarMass(record.substance)?.mass ?? null);
  if (factor === null) throw new Error(`slip ${cls.name}: ${what} has no molar ↔ mass factor (unit ${record.unit}, substance ${record.substance})`);
  return factor;
}

/** Scales the records of one slip; returns what it changed and which timecourses' calculated outputs must be re-derived. */
function applyOne(editor: Editor, plan: PlannedSlip): { slip: Slip; rederive: number[] } {
  const cls = slipClass(plan.slipClass);
  const slip: Slip = { copy: plan.copy, study_sid: plan.study_sid, slipClass: plan.slipClass, factor: cls.factor, target: plan.target, records: emptyRecords() };
  const r = slip.records;
  const wrongStudy = (what: string, study: string) => new Error(`slip ${plan.slipClass} in ${plan.study_sid}: ${what} belongs to study ${study}`);
  if (cls.target === 'output') {
    const o = editor.output(plan.target);
    if (!o) throw new Error(`slip ${plan.slipClass} in ${plan.study_sid}: no output ${plan.target}`);
    if (o.study_sid !== plan.study_sid) throw wrongStudy(`output ${o.pk}`, o.study_sid);
    slip.factor = factorOn(editor, cls, o, `output ${o.pk}`);
    Object.assign(r, editor.scaleOutputs([o.pk], slip.factor, 'stats'));
    r.pointOutputs = [...r.outputs];
    return { slip, rederive: [] };
  }
  if (cls.target === 'timecourse' || cls.target === 'time') {
    const tc = editor.timecourse(plan.target);
    if (!tc) throw new Error(`slip ${plan.slipClass} in ${plan.study_sid}: no timecourse ${plan.target}`);
    if (tc.study_sid !== plan.study_sid) throw wrongStudy(`timecourse ${tc.subset_pk}`, tc.study_sid);
    const field = cls.target === 'time' ? 'time' : 'stats';
    slip.factor = factorOn(editor, cls, tc, `timecourse ${tc.subset_pk}`);
    Object.assign(r, editor.scaleOutputs(tc.output_pk, slip.factor, field));
    // The whole list from the record before the slip, points whose output the tables lack included.
    editor.timecourses.set(tc.subset_pk, scaleTimecourse(tc, new Set(tc.output_pk.map((_, k) => k)), slip.factor, field));
    if (!r.subsets.includes(tc.subset_pk)) r.subsets.push(tc.subset_pk);
    r.pointOutputs = [...r.outputs];
    r.pointSubsets = [...r.subsets];
    return { slip, rederive: [tc.subset_pk] };
  }
  if (cls.target === 'weight') {
    // A body weight enters no stored calculated output: nothing to re-derive.
    r.subjects = editor.scaleCharacteristic(plan.target, cls.factor);
    if (r.subjects.length === 0) throw new Error(`slip ${plan.slipClass} in ${plan.study_sid}: no characteristic ${plan.target}`);
    const study = (editor.subjects.get(r.subjects[0]) as GroupRecord | IndividualRecord).study_sid;
    if (study !== plan.study_sid) throw wrongStudy(`characteristic ${plan.target}`, study);
    r.characteristica = [plan.target];
    return { slip, rederive: [] };
  }
  const dose = editor.intervention(plan.target);
  if (!dose) throw new Error(`slip ${plan.slipClass} in ${plan.study_sid}: no intervention ${plan.target}`);
  if (dose.study_sid !== plan.study_sid) throw wrongStudy(`intervention ${dose.pk}`, dose.study_sid);
  for (const i of editor.withRaw(dose, (p) => editor.intervention(p))) {
    editor.interventions.set(i.pk, scaleStats(i, cls.factor));
    r.interventions.push(i.pk);
  }
  const given = new Set(r.interventions);
  r.pointOutputs = editor.tables.outputs.filter((o) => o.intervention_pks.some((pk) => given.has(pk))).map((o) => o.pk);
  const dosed = editor.tables.timecourses.filter((tc) => tc.intervention_pk.some((pk) => given.has(pk)));
  r.pointSubsets = dosed.map((tc) => tc.subset_pk);
  return { slip, rederive: dosed.filter((tc) => tc.normed && tc.measurement_type === 'concentration').map((tc) => tc.subset_pk) };
}

/**
 * The tables with the planned slips applied, and what each slip changed.
 * At most one slip per study (the bench attributes findings by study).
 */
export function plantSlips(tables: DatasetTables, planned: readonly PlannedSlip[]): PlantResult {
  const seen = new Set<string>();
  for (const p of planned) {
    if (seen.has(p.study_sid)) throw new Error(`two slips planned in study ${p.study_sid}: one slip per study`);
    seen.add(p.study_sid);
  }
  const editor = new Editor(tables);
  const slips: Slip[] = [];
  const slipOfSubset = new Map<number, Slip>();
  for (const plan of planned) {
    const { slip, rederive } = applyOne(editor, plan);
    slips.push(slip);
    for (const s of rederive) slipOfSubset.set(s, slip);
  }
  if (slipOfSubset.size === 0) return { tables: editor.tablesNow(), slips };

  const slipped = editor.tablesNow();
  const studies = [...new Set([...slipOfSubset.values()].map((s) => s.study_sid))];
  const result = rederiveCalculated(tables, slipped, studies, new Set(slipOfSubset.keys()));
  for (const update of result.updates) {
    const slip = slipOfSubset.get(update.subset_pk) as Slip;
    for (const o of editor.withRaw(editor.output(update.output_pk) as OutputRecord, (p) => editor.output(p))) {
      const next = update.apply(o);
      if (next[update.field] === o[update.field] && next.time === o.time) continue;
      editor.outputs.set(o.pk, next);
      slip.records.derived.push(o.pk);
      slip.records.pointOutputs.push(o.pk);
    }
  }
  const dropped = new Set<number>();
  for (const drop of result.dropped) {
    const slip = slipOfSubset.get(drop.subset_pk) as Slip;
    for (const o of editor.withRaw(editor.output(drop.output_pk) as OutputRecord, (p) => editor.output(p))) {
      dropped.add(o.pk);
      slip.records.dropped.push(o.pk);
    }
  }
  for (const [subset, count] of result.unstored) (slipOfSubset.get(subset) as Slip).records.unstored += count;
  return { tables: editor.tablesNow(dropped), slips };
}
