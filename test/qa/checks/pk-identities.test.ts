import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { GroupRecord, InterventionRecord, OutputRecord } from '../../../src/data/model.js';
import { doseNode, pkIdentitiesCheck, withTissue } from '../../../src/qa/checks/pk-identities.js';
import { dosing as oralDosing } from '../../helpers/study-records.js';
import { HARD_BOUND_BREAK } from '../../../src/qa/identity-causes.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };

function dosing(pk: number, value: number, route = 'iv', unit = 'gram'): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route, form: 'solution', application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value, unit,
  };
}

let nextPk = 100;
function output(measurement_type: string, unit: string, mean: number, fields: Partial<OutputRecord> = {}): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type,
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit, mean, ...fields,
  };
}

/**
 * A consistent one-compartment IV set of one subject: 100 mg, CL 10 L/h → AUC∞ 0.01 g·h/L (10 mg·h/L);
 * t½ 3.5 h → kel 0.198/h, Vz = CL · t½ / ln 2 = 50.5 L; Cmax (C0) = dose / V = 1.98 mg/L.
 */
function subject(fields: Partial<OutputRecord> = {}, scale: Partial<Record<string, number>> = {}) {
  const s = (k: string) => scale[k] ?? 1;
  return {
    cl: output('clearance', 'liter / hour', 10 * s('cl'), fields),
    auc: output('auc_inf', 'gram * hour / liter', 0.01 * s('auc'), fields),
    thalf: output('thalf', 'hour', 3.5 * s('thalf'), fields),
    vz: output('vd', 'liter', ((10 * 3.5) / Math.LN2) * s('vz'), fields),
    kel: output('kel', '1 / hour', (Math.LN2 / 3.5) * s('kel'), fields),
    cmax: output('cmax', 'gram / liter', (0.1 / 50.5) * s('cmax'), fields),
  };
}

function run(outputs: OutputRecord[], interventions = [dosing(1, 0.1)]): Finding[] {
  const tables = { studies: [], groups: [], individuals: [], interventions, scatters: [], terms: [], outputs, timecourses: [] };
  return pkIdentitiesCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('pk-identity coverage', () => {
  it('marks every value and the dose that took part in an identity', () => {
    const outputs = Object.values(subject());
    const tables = { studies: [], groups: [], individuals: [], interventions: [dosing(1, 0.1)], scatters: [], terms: [], outputs, timecourses: [] };
    const ctx = prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
    pkIdentitiesCheck.run(ctx);
    expect([...(ctx.coverage.examinedSets('output').get('pk-identity') ?? [])].sort((a, b) => a - b)).toEqual(outputs.map((o) => o.pk).sort((a, b) => a - b));
    expect([...(ctx.coverage.examinedSets('dosing').get('pk-identity') ?? [])]).toEqual([1]);
  });
});

describe('pk-identity check', () => {
  it('finds nothing in a consistent set, nor in an ordinary ×1.3 scatter', () => {
    expect(run(Object.values(subject()))).toEqual([]);
    expect(run(Object.values(subject({}, { cl: 1.3 })))).toEqual([]);
  });

  it('names a CL ×60 as the odd one out (major, culprit output) with the identities that hold without it', () => {
    const s = subject({}, { cl: 60 });
    const findings = run(Object.values(s));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'pk-identity', check: 'identity/cl-dose-auc', severity: 'major', output_pk: s.cl.pk, measurement_type: 'clearance',
      reported: 600, reported_unit: 'liter / hour', culprit: 'output', intervention_pk: 1, details: { rule: 'odd-one-out', cause_factors: [60] },
    });
    expect(findings[0].ratio).toBeCloseTo(60, 6);
    expect(findings[0].recomputed).toBeCloseTo(10, 6);
    expect(findings[0].suspected_cause).toMatch(/^×60 \(minutes vs hours\)/);
    const agreeing = (findings[0].details?.agreeing as { identity: string }[]).map((a) => a.identity);
    expect(agreeing).toEqual(expect.arrayContaining(['identity/thalf-kel', 'identity/auc-cmax-thalf']));
  });

  it('keeps a disagreement no slip explains minor (×3 is not a slip)', () => {
    const s = subject({}, { kel: 3 });
    const findings = run(Object.values(s));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'minor', output_pk: s.kel.pk, culprit: 'output', suspected_cause: null });
    expect(findings[0].ratio).toBeCloseTo(3, 6);
  });

  it('names a Cmax ×1/1000 through AUC∞/Cmax ≈ t½/ln 2 once AUC∞ and t½ are confirmed', () => {
    const s = subject({}, { cmax: 1e-3 });
    const findings = run(Object.values(s));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', output_pk: s.cmax.pk, culprit: 'output', check: 'identity/auc-cmax-thalf', details: { cause_factors: [1e-3] } });
  });

  it('says "one of" when two values fit: t½ and kel alone, ×60', () => {
    const thalf = output('thalf', 'hour', 210);
    const kel = output('kel', '1 / hour', Math.LN2 / 3.5);
    const [f] = run([thalf, kel], []);
    expect(f).toMatchObject({ severity: 'major', culprit: null, check: 'identity/thalf-kel', details: { rule: 'ambiguous' } });
    expect(f.suspected_cause).toMatch(/t½ ×60 .* or kel ×60/);
  });

  it('names the one the other studies put off by its factor: six studies of t½ 3–4 h make t½ 210 h the ×60', () => {
    const thalf = output('thalf', 'hour', 210);
    const kel = output('kel', '1 / hour', Math.LN2 / 3.5);
    // Six other studies report t½ after the same oral 100 mg dose, none a kel.
    const others = [3.5, 3.2, 3.8, 3.4, 3.6, 3.0].map((t, k) => {
      const sid = `O${k}`;
      return { o: { ...output('thalf', 'hour', t), study_sid: sid, study_name: sid, intervention_pks: [200 + k] }, d: { ...dosing(200 + k, 0.1, 'oral'), study_sid: sid, study_name: sid } };
    });
    const [f] = run([thalf, kel, ...others.map((x) => x.o)], [dosing(1, 0.1, 'oral'), ...others.map((x) => x.d)]).filter((x) => x.study_sid === 'T1');
    expect(f).toMatchObject({ severity: 'major', culprit: 'output', output_pk: thalf.pk, details: { rule: 'reference-named', cause_factors: [60] } });
    expect(f.message).toMatch(/^one of t½, kel is off, and the other studies name t½ \(6 other studies' x thalf/);
  });

  it('blames the dose when it is the odd one out: CL confirmed by Vz and t½, AUC∞ by Cmax and t½', () => {
    const a = subject({ group_pk: null, individual_pk: 11 });
    const b = subject({ group_pk: null, individual_pk: 12 });
    const findings = run([...Object.values(a), ...Object.values(b)], [dosing(1, 100)]); // 100 g curated for 100 mg
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      check: 'identity/cl-dose-auc', severity: 'major', culprit: 'dose', intervention_pk: 1, measurement_type: 'dosing', output_pk: null,
      reported: 100, reported_unit: 'gram', details: { rule: 'dose', keys: 2 },
    });
    expect(findings[0].recomputed).toBeCloseTo(0.1, 6);
    expect(findings[0].suspected_cause).toMatch(/dose ×1000/);
  });

  it('cannot tell the dose from every AUC∞ when nothing else confirms AUC∞: one finding for the dosing, no culprit', () => {
    const a = subject({ group_pk: null, individual_pk: 11 });
    const b = subject({ group_pk: null, individual_pk: 12 });
    const keep = (s: ReturnType<typeof subject>) => [s.cl, s.auc, s.thalf, s.vz];
    const findings = run([...keep(a), ...keep(b)], [dosing(1, 1)]); // ×10
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ culprit: null, intervention_pk: 1, severity: 'major', details: { rule: 'dose-or-all-records', cause_kinds: ['dose'] } });
    expect(findings[0].suspected_cause).toMatch(/dose ×10 .* or every AUC∞ ×1\/10/);
    // The dose's factor is named, so that a check of the dose's own (its label) settles it (corroborate.ts).
    expect((findings[0].details?.cause_factors as number[])[0]).toBeCloseTo(10, 6);
  });

  it('needs the body weight for a dose per kg (dose-units.ts)', () => {
    // No body weight: CL in L/h against a dose per kg cannot be compared, so a ×60 CL is only seen by Vz = CL·t½/ln 2.
    const s = subject({}, { cl: 60 });
    const [f] = run([s.cl, s.auc, s.thalf, s.vz], [dosing(1, 0.1 / 70 / 1000, 'iv', 'count')]);
    expect(f).toMatchObject({ check: 'identity/vz-cl-thalf', details: { rule: 'ambiguous' } });
  });

  it('lets an oral CL sit below dose/AUC∞ (bioavailability) without a finding', () => {
    const s = subject({}, { cl: 0.3 });
    expect(run([s.cl, s.auc], [dosing(1, 0.1, 'oral')])).toEqual([]);
    expect(run([s.cl, s.auc], [dosing(1, 0.1, 'iv')])).toMatchObject([{ severity: 'minor' }]);
  });
});

describe('pk-identity: renal clearance', () => {
  // The consistent set above (100 mg IV, AUC∞ 10 mg·h/L, CL 10 L/h) with 30 % excreted unchanged: CLr = 0.3 × 0.1 g / 0.01 g·h/L = 3 L/h.
  const renal = (clr: number, clrUnit = 'liter / hour') => ({
    clr: output('clearance_renal', clrUnit, clr, { tissue: 'urine' }),
    fe: output('recovery', 'dimensionless', 0.3, { tissue: 'urine' }),
  });

  it('reads the urine key of the same subject, set and substance: CLr = fe · dose / AUC∞ and CLr ≤ CL hold', () => {
    expect(withTissue('S|g1|1|x|plasma|', 'urine')).toBe('S|g1|1|x|urine|');
    const r = renal(3);
    expect(run([...Object.values(subject()), r.clr, r.fe])).toEqual([]);
  });

  it('names a CLr off by ×1/70 (per kg curated as absolute, 70 kg) against fe · dose / AUC∞: major, ×1/60 the nearest unit factor', () => {
    const r = renal(3 / 70);
    const findings = run([...Object.values(subject()), r.clr, r.fe]);
    const f = findings.find((x) => x.output_pk === r.clr.pk);
    // r = CLr·AUC/(fe·dose) = 1/70: off by ×1/70; with no curated weight, ×1/60 (within ×1.25) is the unit factor named
    // first, as for any clearance; fe, the other value only this identity reads, has no slip to name.
    expect(f).toMatchObject({ kind: 'pk-identity', check: 'identity/clr-fe-dose-auc', severity: 'major', measurement_type: 'clearance_renal' });
    expect(f?.ratio).toBeCloseTo(1 / 70, 6);
    expect(f?.suspected_cause).toMatch(/^CLr ×1\/60/);
  });

  it('sees a CLr above CL, but names no factor from that bound alone: CLr 25 L/h against CL 10 L/h is minor', () => {
    const clr = output('clearance_renal', 'liter / hour', 25);
    const findings = run([...Object.values(subject()), clr]);
    expect(findings).toMatchObject([{ check: 'identity/clr-cl', severity: 'minor' }]);
    // A drug the kidney barely clears (CLr/CL = 0.0001) is no disagreement.
    expect(run([...Object.values(subject()), output('clearance_renal', 'liter / hour', 0.001)])).toEqual([]);
  });

  it('names a CLr far above CL (×10 and more beyond the band) a slip of it, listing the slips that undo it', () => {
    // CLr 3 L/h ×60 = 180 L/h against CL 10 L/h: r = 18, at least ×12 beyond the band (×1.5). Candidates from ×12 to
    // ×12 000: ×1000/60 (mL/min read as L/h), ×24, ×60, ×70 per kg (no weight curated), ×1000, ×1440.
    expect(HARD_BOUND_BREAK).toBe(10);
    const clr = output('clearance_renal', 'liter / hour', 180);
    const [f] = run([...Object.values(subject()), clr]);
    expect(f).toMatchObject({ check: 'identity/clr-cl', severity: 'major', culprit: 'output', output_pk: clr.pk, measurement_type: 'clearance_renal' });
    expect(f.ratio).toBeCloseTo(12, 6);
    expect(f.suspected_cause).toMatch(/^off by at least ×12, which a definitional bound does not allow: ×1000\/60 .*, or ×60 \(minutes vs hours\).*, or ×1000 /);
    expect(f.details?.cause_factors).toEqual(expect.arrayContaining([60, 1000]));
    expect((f.details?.cause_factors as number[]).every((x) => x >= 12 && x <= 12_000)).toBe(true);
    // Below ×10 beyond the band (CLr 120 L/h: r = 12, at least ×8): minor, as before.
    expect(run([...Object.values(subject()), output('clearance_renal', 'liter / hour', 120)])).toMatchObject([{ severity: 'minor' }]);
  });
});

describe('pk-identity: fraction excreted and amount excreted (fe = Ae / dose)', () => {
  // 100 mg IV; 30 % excreted unchanged in urine over 24 h: Ae = 30 mg.
  const urine = (fields: Partial<OutputRecord> = {}) => ({ tissue: 'urine', time: 24, time_unit: 'hr', ...fields });
  const fe = (value: number, fields: Partial<OutputRecord> = {}) => output('recovery', 'dimensionless', value, urine(fields));
  const ae = (grams: number, fields: Partial<OutputRecord> = {}) => output('cumulative amount', 'gram', grams, urine(fields));

  it('holds for an fe and an Ae of one collection period, and is not formed across periods', () => {
    expect(run([fe(0.3), ae(0.03)])).toEqual([]);
    // fe to 24 h and Ae to 48 h: two periods, no identity (a ×3 between them would otherwise be a disagreement)
    expect(run([fe(0.3), ae(0.09, { time: 48 })])).toEqual([]);
    // 24 h and 1440 min are one period
    expect(run([fe(0.3), ae(0.3, { time: 1440, time_unit: 'min' })])).toMatchObject([{ check: 'identity/fe-ae-dose' }]);
  });

  it('names Ae ×10 or the dose ×1/10 when fe · dose / Ae = 0.1 (Schwarz1993: 26.9 mg excreted of a 10 mg dose, fe 0.269)', () => {
    const amount = ae(0.3);
    const [f] = run([fe(0.3), amount]);
    // r = fe · dose / Ae = 0.3 · 0.1 / 0.3 = 0.1; fe names no slip (a fraction), Ae and the dose a decimal point each
    expect(f).toMatchObject({ kind: 'pk-identity', check: 'identity/fe-ae-dose', severity: 'major', culprit: null });
    expect(f.message).toMatch(/^one of Ae, dose, fe is off: fe = Ae \/ dose \(over one collection period\): r = 0\.1 /);
    expect(f.suspected_cause).toMatch(/^Ae ×10 .* or dose ×1\/10 /);
  });

  it('reads a dose per kg with the body weight: 4 mg/kg (PK-DB\'s "count") to a 70 kg group, fe 0.0167 of it is 4.68 mg', () => {
    const perKg = dosing(1, 0.000004, 'iv', 'count');
    const weighed: GroupRecord = {
      ...study, pk: 1, name: 'g1', count: 8, parent_pk: null,
      characteristica: [{ ...STATS, pk: 9001, count: 8, measurement_type: 'weight', calculation_type: null, choice: null, substance: null, group_count: 8, unit: 'kilogram', mean: 70 }],
    };
    const runWeighed = (outputs: OutputRecord[], interventions: InterventionRecord[]) => {
      const tables = { studies: [], groups: [weighed], individuals: [], interventions, scatters: [], terms: [], outputs, timecourses: [] };
      return pkIdentitiesCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
    };
    expect(runWeighed([fe(0.0167), ae(0.00468)], [perKg])).toEqual([]);
    // The dose ×1000 (4 g/kg, Trang1982's caffeine slipped): r = 1000, the dose or Ae named
    const [f] = runWeighed([fe(0.0167), ae(0.00468)], [{ ...perKg, value: 0.004 }]);
    expect(f).toMatchObject({ check: 'identity/fe-ae-dose', severity: 'major' });
    expect(f.message).toMatch(/r = 999 \(fe 0.0167 dimensionless, dose 4 gram \/ kilogram, Ae 0.00468 gram\)/);
    expect(f.suspected_cause).toMatch(/dose ×1000/);
    // Without the weight, no identity: the dose per kg cannot meet an amount in grams
    expect(run([fe(0.0167), ae(0.00468)], [{ ...perKg, value: 0.004 }])).toEqual([]);
  });
});

describe('pk-identity: a dose of a salt counts as its base', () => {
  it("takes 0.17 g codeine phosphate as 0.128 g codeine (299.36 / (299.36 + 97.99) = 0.7534 of its mass; Eckhardt1998's CL = dose / AUC∞)", () => {
    const dosed = doseNode([oralDosing(1, 0.17, 'codeine phosphate')], 'codeine', 299.36, 0);
    expect(dosed?.node.value).toBeCloseTo((0.17 * 299.36) / (299.36 + 97.99), 9);
    expect(dosed?.node.value).toBeCloseTo(0.12808, 5);
    expect(dosed?.node).toMatchObject({ unit: 'gram', asBase: 'codeine', kgPower: 0 });
    expect(dosed?.route).toBe('extravascular');
    // the base's own dose as it is; a salt whose base has no molar mass, or another substance's dose, not at all
    expect(doseNode([oralDosing(2, 0.03, 'codeine')], 'codeine', 299.36, 0)?.node.value).toBe(0.03);
    expect(doseNode([oralDosing(3, 0.17, 'codeine phosphate')], 'codeine', null, 0)).toBeNull();
    expect(doseNode([oralDosing(4, 0.17, 'codeine phosphate')], 'morphine', 285.34, 0)).toBeNull();
  });
});
