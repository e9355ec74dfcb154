import { beforeAll, describe, expect, it } from 'vitest';
import { planSlips } from '../../bench/lib/plan.js';
import { DEFAULT_SLIP_CLASSES, SLIP_CLASSES, dimensionPowers, selectSlipClasses, molarSlipFactor, slipCandidates, slipClass, type SlipClassName } from '../../bench/lib/slip-classes.js';
import { plantSlips, scaleStats, type Slip } from '../../bench/lib/slips.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';
import {
  Dataset,
  filterStudies,
  loadFixtures,
  pkdbNca,
  readExport,
  recomputeCalculated,
  writeExport,
  type DatasetTables,
  type GroupRecord,
  type IndividualRecord,
  type OutputRecord,
  type TimecourseRecord,
} from '../../src/index.js';

let tables: DatasetTables;
let pristine: DatasetTables;
beforeAll(async () => {
  tables = (await loadFixtures()).tables;
  pristine = structuredClone(tables);
});

const byPk = <R extends { pk: number }>(records: readonly R[]) => new Map(records.map((r) => [r.pk, r]));
const STATS = ['value', 'mean', 'median', 'min', 'max', 'sd', 'se'] as const;

/** pks of the records that differ (deep) between two versions of a table. */
function changedPks<R>(before: readonly R[], after: readonly R[], key: (r: R) => number): number[] {
  const old = new Map(before.map((r) => [key(r), r]));
  return after.filter((r) => JSON.stringify(r) !== JSON.stringify(old.get(key(r)))).map(key).sort((a, b) => a - b);
}

/** Classes the fixtures offer no record to: every fixture dose is absolute (tested on a per-kg copy below). */
const NOT_IN_FIXTURES: ReadonlySet<string> = new Set(['dose per-kg ×70 reverse']);

/** The one slip of class `name` on the first candidate (by study sid, then pk). */
function plantFirst(name: SlipClassName): { slip: Slip; after: DatasetTables } {
  const byStudy = slipCandidates(tables).get(name)!;
  const study = [...byStudy.keys()].sort()[0];
  const { tables: after, slips } = plantSlips(tables, [{ copy: 0, study_sid: study, slipClass: name, target: byStudy.get(study)![0] }]);
  return { slip: slips[0], after };
}

/** A record every statistic of which is 0 or missing: scaling leaves it as it is. */
const allZero = (r: Record<(typeof STATS)[number], number | null>) => STATS.every((k) => r[k] === null || r[k] === 0);

/** The changed records are exactly the scaled ones (but those of zeros only) and the derived ones. */
function expectChangedOutputs(before: DatasetTables, after: DatasetTables, slip: Slip, field: 'stats' | 'time'): void {
  const old = byPk(before.outputs);
  const moved = slip.records.outputs.filter((pk) => (field === 'time' ? old.get(pk)!.time !== null && old.get(pk)!.time !== 0 : !allZero(old.get(pk)!)));
  expect(changedPks(before.outputs, after.outputs, (o) => o.pk)).toEqual([...moved, ...slip.records.derived].sort((a, b) => a - b));
}

function expectScaled<R extends Record<(typeof STATS)[number] | 'cv', number | null>>(before: R, after: R, factor: number): void {
  for (const key of STATS) expect(after[key]).toBe(before[key] === null ? null : (before[key] as number) * factor);
  expect(after.cv).toBe(before.cv);
}

/** The stored calculated outputs of one timecourse: same subject, interventions, substance, tissue, method. */
function calculatedOf(t: DatasetTables, tc: TimecourseRecord): OutputRecord[] {
  const ds = Dataset.fromTables(t, { kind: 'fixtures', location: 'test' });
  const key = ds.timecourseKey(tc);
  return t.outputs.filter((o) => o.calculated && o.normed && ds.outputsByKey(key!).calculated.includes(o));
}

/** The pkdb profile run directly on a timecourse of the tables (pkdb-calculation.md §3). */
function profileOf(t: DatasetTables, tc: TimecourseRecord) {
  const ds = Dataset.fromTables(t, { kind: 'fixtures', location: 'test' });
  const [dosing] = ds.dosingOf(tc);
  const field = tc.mean !== null ? 'mean' : tc.median !== null ? 'median' : 'value';
  return pkdbNca({
    outputPk: tc.output_pk,
    time: tc.time,
    conc: tc[field] as (number | null)[],
    timeUnit: tc.time_unit!,
    concUnit: tc.unit!,
    dosing: { value: dosing.value, unit: dosing.unit, time: dosing.time === null ? null : Number(dosing.time), timeUnit: dosing.time_unit, application: dosing.application, substance: dosing.substance },
    substance: ds.memberOutputs(tc)[0].substance,
    seriesField: field,
  });
}

describe('dimensionPowers', () => {
  it('reads pint dimension keys', () => {
    expect(dimensionPowers('[mass] * [time] / [length] ** 3')).toEqual({ mass: 1, time: 1, length: -3 });
    expect(dimensionPowers('[length] ** 3 / [mass] / [time]')).toEqual({ length: 3, mass: -1, time: -1 });
    expect(dimensionPowers('1 / [time]')).toEqual({ time: -1 });
    expect(dimensionPowers('dimensionless')).toEqual({});
  });
});

describe('molarSlipFactor', () => {
  it('µmol/L read as mg/L on a mass unit (×1000/M), mg/L read as µmol/L on a molar unit (×M/1000)', () => {
    // caffeine, M = 194.19 g/mol: 10 µmol/L = 1.9419 mg/L, curated as 10 mg/L → ×5.1496.
    expect(molarSlipFactor('mg/l', 194.19)).toBeCloseTo(1000 / 194.19, 12);
    expect(molarSlipFactor('mg*h/l', 194.19)).toBeCloseTo(5.149595756733, 9);
    expect(molarSlipFactor('µmol/l', 194.19)).toBeCloseTo(0.19419, 12);
    expect(molarSlipFactor('mmol', 151.16)).toBeCloseTo(0.15116, 12);
  });

  it('none without a molar mass, for units of neither kind, or under ×2 either way', () => {
    expect(molarSlipFactor('mg/l', null)).toBeNull();
    expect(molarSlipFactor('hr', 194.19)).toBeNull();
    expect(molarSlipFactor('l/h', 194.19)).toBeNull();
    expect(molarSlipFactor('mg/l', 700)).toBeNull(); // ×1.43
    expect(molarSlipFactor('mg/l', 1500)).toBeNull(); // ×1/1.5
    expect(molarSlipFactor('mg/l', 2500)).toBeCloseTo(0.4, 12);
  });
});

describe('slipCandidates on the fixtures', () => {
  it('offers every class somewhere, only records of the right kind', () => {
    const candidates = slipCandidates(tables);
    const outputs = byPk(tables.outputs);
    const subsets = new Map(tables.timecourses.map((tc) => [tc.subset_pk, tc]));
    for (const c of SLIP_CLASSES) {
      const byStudy = candidates.get(c.name)!;
      if (NOT_IN_FIXTURES.has(c.name)) {
        expect(byStudy.size, c.name).toBe(0);
        continue;
      }
      expect(byStudy.size, c.name).toBeGreaterThan(0);
      for (const [study, pks] of byStudy) {
        for (const pk of pks) {
          if (c.target === 'output') {
            const o = outputs.get(pk)!;
            expect([o.study_sid, o.normed, o.calculated, o.output_type]).toEqual([study, true, false, 'output']);
          } else if (c.target === 'dose') {
            expect(tables.interventions.find((i) => i.pk === pk)).toMatchObject({ study_sid: study, normed: true, measurement_type: 'dosing' });
          } else if (c.target === 'weight') {
            const holders = [...tables.groups, ...tables.individuals].filter((s) => s.characteristica.some((x) => x.pk === pk));
            expect(holders.length).toBeGreaterThan(0);
            for (const h of holders) expect([h.study_sid, h.characteristica.find((x) => x.pk === pk)!.measurement_type]).toEqual([study, 'weight']);
          } else {
            expect(subsets.get(pk)).toMatchObject({ study_sid: study, normed: true, measurement_type: 'concentration' });
          }
        }
      }
    }
    // ×60 on times needs an hour axis; the per-kg slip needs a volume (CL, Vd).
    for (const pks of candidates.get('time ×60')!.values()) for (const pk of pks) expect(subsets.get(pk)!.time_unit).toBe('hr');
    for (const pks of candidates.get('output per-kg ×1/70')!.values()) {
      for (const pk of pks) expect(['clearance', 'vd', 'vd_ss', 'clearance_renal']).toContain(outputs.get(pk)!.measurement_type);
    }
  });
});

describe('plantSlips: each class scales exactly its records', () => {
  const outputClasses = SLIP_CLASSES.filter((c) => c.target === 'output').map((c) => c.name);
  it.each(outputClasses)('%s: the output and its raw copy, nothing else', (name) => {
    const { slip, after } = plantFirst(name);
    const target = byPk(tables.outputs).get(slip.target)!;
    expect(target.raw_pk).not.toBeNull();
    expect(slip.records.outputs.sort()).toEqual([target.pk, target.raw_pk!].sort());
    const afterByPk = byPk(after.outputs);
    for (const pk of slip.records.outputs) expectScaled(byPk(tables.outputs).get(pk)!, afterByPk.get(pk)!, slip.factor);
    expect(changedPks(tables.outputs, after.outputs, (o) => o.pk)).toEqual(slip.records.outputs.sort((a, b) => a - b));
    expect(changedPks(tables.interventions, after.interventions, (i) => i.pk)).toEqual([]);
    expect(changedPks(tables.timecourses, after.timecourses, (t) => t.subset_pk)).toEqual([]);
    expect(slip.records.derived).toEqual([]);
  });

  it.each(['timecourse ×10', 'timecourse ×1000', 'timecourse molar↔mass'] as const)('%s: every point, normed and raw, and the derived outputs', (name) => {
    const { slip, after } = plantFirst(name);
    const factor = slip.factor;
    const before = tables.timecourses.find((t) => t.subset_pk === slip.target)!;
    const tc = after.timecourses.find((t) => t.subset_pk === slip.target)!;
    const series = before.mean !== null ? 'mean' : 'value';
    expect(tc[series]).toEqual(before[series]!.map((v) => (v === null ? null : v * factor)));
    expect(tc.time).toEqual(before.time);
    const members = before.output_pk.flatMap((pk) => [pk, byPk(tables.outputs).get(pk)!.raw_pk!]);
    expect(slip.records.outputs.sort((a, b) => a - b)).toEqual(members.sort((a, b) => a - b));
    for (const pk of members) expectScaled(byPk(tables.outputs).get(pk)!, byPk(after.outputs).get(pk)!, factor);
    expect(slip.records.derived.length).toBeGreaterThan(0);
    expectChangedOutputs(tables, after, slip, 'stats');
    expect(changedPks(tables.timecourses, after.timecourses, (t) => t.subset_pk)).toEqual([slip.target]);
    expect(changedPks(tables.interventions, after.interventions, (i) => i.pk)).toEqual([]);
  });

  it('time ×60: the time list and the members’ times, nothing in the values', () => {
    const { slip, after } = plantFirst('time ×60');
    const before = tables.timecourses.find((t) => t.subset_pk === slip.target)!;
    const tc = after.timecourses.find((t) => t.subset_pk === slip.target)!;
    expect(tc.time).toEqual(before.time.map((t) => (t === null ? null : t * 60)));
    expect({ ...tc, time: before.time }).toEqual(before);
    for (const pk of slip.records.outputs) {
      const o = byPk(tables.outputs).get(pk)!;
      expect(byPk(after.outputs).get(pk)).toEqual({ ...o, time: o.time! * 60 });
    }
    expectChangedOutputs(tables, after, slip, 'time');
  });

  it.each(['dose ×10', 'dose ×1000', 'dose per-kg ×1/70'] as const)('%s: the intervention and its raw copy, and the derived outputs', (name) => {
    const { slip, after } = plantFirst(name);
    const dose = tables.interventions.find((i) => i.pk === slip.target)!;
    expect(slip.records.interventions.sort()).toEqual([dose.pk, dose.raw_pk!].sort());
    for (const pk of slip.records.interventions) {
      expectScaled(tables.interventions.find((i) => i.pk === pk)!, after.interventions.find((i) => i.pk === pk)!, slipClass(name).factor);
    }
    expect(changedPks(tables.interventions, after.interventions, (i) => i.pk)).toEqual(slip.records.interventions.sort((a, b) => a - b));
    expect(changedPks(tables.outputs, after.outputs, (o) => o.pk)).toEqual([...slip.records.derived].sort((a, b) => a - b));
    expect(changedPks(tables.timecourses, after.timecourses, (t) => t.subset_pk)).toEqual([]);
    // Only dose-dependent parameters change: vd, vd_ss, clearance (pkdb-calculation.md §3.11).
    const types = new Set(slip.records.derived.map((pk) => byPk(after.outputs).get(pk)!.measurement_type));
    expect([...types].every((t) => ['vd', 'vd_ss', 'clearance'].includes(t))).toBe(true);
    expect(types.size).toBeGreaterThan(0);
  });

  it('leaves the input tables untouched', () => {
    for (const c of SLIP_CLASSES) if (!NOT_IN_FIXTURES.has(c.name)) plantFirst(c.name);
    expect(tables).toEqual(pristine);
  });

  it('slips a per-kg dose ×70 (an absolute dose curated under a per-kg unit), and no absolute one', () => {
    const absolute = slipCandidates(tables).get('dose per-kg ×1/70')!;
    const [study, [pk]] = [...absolute].sort()[0];
    const perKg = { ...tables, interventions: tables.interventions.map((i) => (i.pk === pk ? { ...i, unit: 'gram / kilogram' } : i)) };
    const candidates = slipCandidates(perKg);
    expect([...candidates.get('dose per-kg ×70 reverse')!]).toEqual([[study, [pk]]]);
    expect(candidates.get('dose per-kg ×1/70')!.get(study) ?? []).not.toContain(pk);
    const { tables: after } = plantSlips(perKg, [{ copy: 0, study_sid: study, slipClass: 'dose per-kg ×70 reverse', target: pk }]);
    const before = perKg.interventions.find((i) => i.pk === pk)!;
    expect(after.interventions.find((i) => i.pk === pk)!.value).toBeCloseTo((before.value as number) * 70, 9);
  });

  it('refuses two slips in one study and a target of another study', () => {
    const [a, b] = [...slipCandidates(tables).get('output ×1000')!].sort();
    const slip = { copy: 0, study_sid: a[0], slipClass: 'output ×1000' as const, target: a[1][0] };
    expect(() => plantSlips(tables, [slip, { ...slip, slipClass: 'dose ×10' }])).toThrow(/two slips planned in study/);
    expect(() => plantSlips(tables, [{ ...slip, target: b[1][0] }])).toThrow(new RegExp(`output ${b[1][0]} belongs to study ${b[0]}`));
  });
});

describe('re-derived calculated outputs', () => {
  it.each(['weight lb as kg', 'weight ×10'] as const)('%s: the weight in every subject listing it, nothing else', (name) => {
    const { slip, after } = plantFirst(name);
    const pk = slip.target;
    expect(slip.records.characteristica).toEqual([pk]);
    expect(slip.records.subjects.length).toBeGreaterThan(0);
    const weightOf = (s: { characteristica: { pk: number; mean: number | null; value: number | null; median: number | null }[] }) => {
      const c = s.characteristica.find((x) => x.pk === pk);
      return c ? (c.mean ?? c.median ?? c.value) : null;
    };
    type Subject = GroupRecord | IndividualRecord;
    const bySubject = (t: DatasetTables) =>
      new Map<string, Subject>([...t.groups.map((g): [string, Subject] => [`group:${g.pk}`, g]), ...t.individuals.map((i): [string, Subject] => [`individual:${i.pk}`, i])]);
    const before = bySubject(tables);
    const afterBy = bySubject(after);
    for (const [label, subject] of before) {
      const w = weightOf(subject);
      if (slip.records.subjects.includes(label)) expect(weightOf(afterBy.get(label)!)).toBeCloseTo((w as number) * slip.factor, 9);
      else expect(afterBy.get(label)).toBe(subject);
    }
    expect(after.outputs).toEqual(tables.outputs);
    expect(after.interventions).toEqual(tables.interventions);
  });

  it.each(['timecourse ×1000', 'time ×60', 'dose ×1000'] as const)('%s: equal the pkdb profile on the slipped data', (name) => {
    const { slip, after } = plantFirst(name);
    const subsets = slip.records.pointSubsets.length > 0 ? slip.records.pointSubsets : [slip.target];
    let compared = 0;
    for (const pk of subsets) {
      const tc = after.timecourses.find((t) => t.subset_pk === pk)!;
      const stored = calculatedOf(after, tc);
      const profile = profileOf(after, tc);
      expect(stored.map((o) => o.measurement_type).sort()).toEqual(profile.map((p) => p.measurement_type).sort());
      for (const p of profile) {
        const o = stored.find((s) => s.measurement_type === p.measurement_type)!;
        expect([o[p.field], o.unit], `${name} ${p.measurement_type}`).toEqual([p.value, p.unit]);
        if (p.time !== undefined) expect(o.time).toBe(p.time);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
    // And the library's own comparison sees every stored output reproduced.
    const rows = recomputeCalculated(after).filter((r) => r.study_sid === slip.study_sid);
    expect(rows.filter((r) => r.status !== 'match')).toEqual([]);
  });

  it('scale the raw copies by the same ratio as their normed outputs', () => {
    const { slip, after } = plantFirst('timecourse ×10');
    const before = byPk(tables.outputs);
    const now = byPk(after.outputs);
    const normed = slip.records.derived.filter((pk) => now.get(pk)!.normed);
    expect(normed.length).toBeGreaterThan(0);
    for (const pk of normed) {
      const o = now.get(pk)!;
      const field = (['mean', 'median', 'value'] as const).find((f) => o[f] !== null)!;
      const ratio = o[field]! / before.get(pk)![field]!;
      expect(now.get(o.raw_pk!)![field]).toBeCloseTo(before.get(o.raw_pk!)![field]! * ratio, 12);
    }
  });
});

describe('determinism and the export round trip', () => {
  it('the same seed gives the same plan and the same tables; another seed another plan', () => {
    const candidates = slipCandidates(tables);
    const plan = (seed: number) => planSlips(candidates, { copies: 4, perCopy: 5, seed });
    expect(plan(7)).toEqual(plan(7));
    expect([1, 2, 3].map(plan).some((p) => JSON.stringify(p) !== JSON.stringify(plan(7)))).toBe(true);
    for (const copy of plan(7)) {
      expect(new Set(copy.map((s) => s.study_sid)).size).toBe(copy.length);
      expect(plantSlips(tables, copy)).toEqual(plantSlips(tables, copy));
    }
  });

  it('rotates the classes over the slots and draws each class’s studies without repetition per round', () => {
    // Class k offers the studies S0 … Sk: one slip per copy, so no copy-level conflict.
    const candidates = new Map(SLIP_CLASSES.map((c, k) => [c.name, new Map(Array.from({ length: k + 1 }, (_, j) => [`S${j}`, [j]]))]));
    const all = planSlips(candidates, { copies: DEFAULT_SLIP_CLASSES.length * 6, perCopy: 1, seed: 3 }).flat();
    DEFAULT_SLIP_CLASSES.forEach((name, k) => {
      const studies = all.filter((s) => s.slipClass === name).map((s) => s.study_sid);
      expect(studies, name).toHaveLength(6);
      const eligible = k + 1;
      for (let round = 0; round * eligible < 6; round++) {
        const drawn = studies.slice(round * eligible, (round + 1) * eligible);
        expect(new Set(drawn).size, `${name} round ${round}`).toBe(drawn.length);
      }
    });
    // Slots rotate: copy g gets default class g mod 15; the opt-in classes (a body weight) only when asked for.
    expect(DEFAULT_SLIP_CLASSES).toHaveLength(15);
    expect(all.map((s) => s.slipClass).slice(0, DEFAULT_SLIP_CLASSES.length)).toEqual([...DEFAULT_SLIP_CLASSES]);
    expect(all.some((s) => s.slipClass.startsWith('weight'))).toBe(false);
  });

  it('plants only the classes --classes names, rotating over them', () => {
    const classes = selectSlipClasses('molar,dose ×10');
    expect(classes).toEqual(['output molar↔mass', 'timecourse molar↔mass', 'dose ×10']);
    expect(() => selectSlipClasses('molar,nonsense')).toThrow(/no slip class contains 'nonsense'/);
    const candidates = new Map(SLIP_CLASSES.map((c) => [c.name, new Map(Array.from({ length: 8 }, (_, j) => [`S${j}`, [j]]))]));
    const plan = planSlips(candidates, { copies: 2, perCopy: 6, seed: 4, classes }).flat();
    expect(plan.map((s) => s.slipClass)).toEqual([...classes, ...classes, ...classes, ...classes]);
  });

  it('fills a copy with distinct studies even when a class has few', () => {
    const copies = planSlips(slipCandidates(tables), { copies: 6, perCopy: 5, seed: 5 });
    for (const copy of copies) expect(new Set(copy.map((s) => s.study_sid)).size).toBe(copy.length);
    expect(copies.flat().length).toBeGreaterThan(20);
  });

  it('a slipped copy survives writeExport and readExport', async () => {
    const normedOnly: DatasetTables = {
      ...tables,
      outputs: tables.outputs.filter((o) => o.normed),
      interventions: tables.interventions.filter((i) => i.normed),
    };
    const { tables: after, slips } = plantSlips(normedOnly, planSlips(slipCandidates(normedOnly), { copies: 1, perCopy: 5, seed: 11 })[0]);
    expect(slips).toHaveLength(5);
    const back = await readExport(writeExport(after));
    expect(back.problems).toEqual([]);
    const values = (t: DatasetTables) => new Map(t.outputs.map((o) => [o.pk, [o.value, o.mean, o.median, o.time]]));
    expect(values(back.tables)).toEqual(values(after));
    expect(back.tables.timecourses.map((t) => [t.time, t.mean])).toEqual(after.timecourses.map((t) => [t.time, t.mean]));
  });

  it('scaleStats leaves cv and nulls alone', () => {
    const stats = { value: null, mean: 2, median: null, min: 1, max: 3, sd: 0.5, se: 0.1, cv: 0.25, unit: 'hour' };
    expect(scaleStats(stats, 60)).toEqual({ value: null, mean: 120, median: null, min: 60, max: 180, sd: 30, se: 6, cv: 0.25, unit: 'hour' });
  });
});

describeShared('the planter on the shared export', SHARED_EXPORT, () => {
  let shared: DatasetTables;
  beforeAll(async () => {
    shared = (await readExport(SHARED_EXPORT)).tables;
  });

  it('keeps every stored calculated output of the slipped studies reproduced by the pkdb profile', () => {
    const [copy] = planSlips(slipCandidates(shared), { copies: 1, perCopy: 44, seed: 2 });
    expect(new Set(copy.map((s) => s.slipClass)).size).toBe(DEFAULT_SLIP_CLASSES.length);
    const { tables: after, slips } = plantSlips(shared, copy);
    const studies = slips.map((s) => s.study_sid);
    const status = (t: DatasetTables) => recomputeCalculated(filterStudies(t, studies)).map((r) => `${r.output_pk}|${r.measurement_type}|${r.status}`);
    expect(status(after)).toEqual(status(shared));
    const derived = slips.filter((s) => ['timecourse', 'time', 'dose'].includes(slipClass(s.slipClass).target));
    expect(derived.filter((s) => s.records.derived.length > 0).length).toBeGreaterThan(derived.length / 2);
  });
});
