// %% [markdown]
// # 06 · Multiple dosing and urine: steady state, superposition, Ae, fe, CLR
//
// PK-DB holds multiple-dose studies and urine collections, not only
// single-dose plasma curves. This notebook takes one of each from a dataset:
// - a **multiple-dose** concentration timecourse (several timed dosings of
//   the measured substance) with NCA over its dosing interval (AUCτ, Cmax,ss,
//   Cmin, Cavg, fluctuation, accumulation), and a superposition prediction
//   from the single-dose profile of the same subjects, compared with the
//   observed steady state;
// - a **urine** cumulative-amount timecourse with the amount excreted (Ae),
//   the fraction of the dose (fe), excretion rates per collection and renal
//   clearance CLR = Ae/AUC over the same interval (plasma of the same subjects).
//
// The bundled fixtures hold neither; run it on the shared export:
//
//   npx tsx notebooks/06-multiple-dose-and-urine.ts --export FILE.zip [--study SID] [--out DIR]

// %%
import type { TimecourseRecord } from '../src/data/model.js';
import {
  nca, ncaInput, ncaIntervals, PARAMETER, steadyState, superpose, urineNca,
  type NcaInput, type Pptestcd, type UrineCode,
} from '../src/nca/index.js';
import { spaghettiSpec, type ProfileRow } from '../src/plots/index.js';
import { conversionFactor, molarMassLookup } from '../src/units/index.js';
import { multipleDoseCases, urineCases, type MultipleDoseCase, type UrineCase } from './lib/find-profiles.js';
import { heading, say, show } from './lib/output.js';
import { openNotebook } from './lib/setup.js';

const { args, dataset, out, sourceText } = await openNotebook('06-multiple-dose-and-urine');
say(`Loaded ${sourceText}${args.study ? `, study ${args.study}` : ''}.`);
if (args.study && !dataset.study(args.study)) {
  console.error(`error: unknown study "${args.study}"`);
  process.exit(2);
}

const multipleCases = multipleDoseCases(dataset, args.study);
const urine = urineCases(dataset, args.study);
heading('Candidates');
const candidates = [
  ...multipleCases.map((c) => ({ kind: 'multiple dose', study: c.multiple.study_name, subset_pk: c.multiple.subset_pk, substance: c.substance, doses: c.doses.length, tau: c.tau, single_dose_profile: c.single?.subset_pk ?? null })),
  ...urine.map((c) => ({ kind: 'urine', study: c.urine.study_name, subset_pk: c.urine.subset_pk, substance: c.substance, doses: 1, tau: null, single_dose_profile: c.plasma.subset_pk })),
];
show(candidates, 10);
out.json('candidates', candidates);
if (candidates.length === 0) {
  say(
    `No multiple-dose timecourse and no urine cumulative amount with a plasma profile in ${sourceText}. ` +
      'The bundled fixtures are single-dose plasma data; run this notebook on a PK-DB export: ' +
      'npx tsx notebooks/06-multiple-dose-and-urine.ts --export /path/to/pkdb-export.zip',
  );
  process.exit(0);
}

/** Amount of a dosing converted into `unit` (null when it has none or does not convert). */
function amountIn(d: { value: number | null; mean: number | null; median: number | null; unit: string | null }, unit: string): number | null {
  const amount = d.value ?? d.mean ?? d.median;
  if (amount === null || !d.unit) return null;
  try {
    return amount * conversionFactor(d.unit, unit);
  } catch {
    return null;
  }
}

/** Non-null samples of an input, sorted by time. */
function samples(input: NcaInput): { time: number[]; conc: number[] } {
  const rows = input.time.flatMap((t, i) => (t !== null && input.conc[i] !== null ? [[t, input.conc[i] as number] as const] : [])).sort((a, b) => a[0] - b[0]);
  return { time: rows.map((r) => r[0]), conc: rows.map((r) => r[1]) };
}

const label = (tc: TimecourseRecord) => `${tc.study_name} · ${tc.group_pk !== null ? (dataset.group(tc.group_pk)?.name ?? `group ${tc.group_pk}`) : `individual ${tc.individual_pk}`}`;

// %% [markdown]
// ## Multiple dosing: NCA over the dosing interval
// The observed interval is [tₖ, tₖ + τ] after the last dose tₖ before the
// first sample. At steady state the pre-dose concentration equals the trough
// at the end of the interval; when the study has no pre-dose sample, C(tₖ) is
// set to the observed C(tₖ + τ) (stated in the notes), as the interval
// conventions of src/nca/intervals.ts need a value at the dose.

// %%
function multipleDose(c: MultipleDoseCase) {
  heading(`Multiple dose: ${label(c.multiple)}, ${c.substance} (subset ${c.multiple.subset_pk})`);
  const pk = ncaInput(dataset, c.multiple);
  const input = { ...pk.input };
  const unit = c.doses[0].dosing.unit ?? 'mg';
  const doses = c.doses.map((d) => ({ time: d.time, amount: amountIn(d.dosing, unit) ?? undefined }));
  const { time, conc } = samples(input);
  const first = time[0];
  const k = doses.reduce((best, d, i) => (d.time <= first ? i : best), 0);
  const start = doses[k].time;
  const end = c.tau !== null ? start + c.tau : (doses[k + 1]?.time ?? time[time.length - 1]);
  const notes = [...pk.notes];
  if (!time.includes(start) && k > 0) {
    const atEnd = time.findIndex((t) => Math.abs(t - end) < 1e-9);
    if (atEnd >= 0) {
      time.unshift(start);
      conc.unshift(conc[atEnd + 0]);
      notes.push(`no pre-dose sample: C(${start}) set to the trough C(${end}) = ${conc[0]} (steady state)`);
    }
  }
  const { intervals } = ncaIntervals(
    { ...input, time, conc, doseUnit: unit },
    { doses, intervals: [{ start, end }] },
  );
  const codes: Pptestcd[] = ['TAU', 'AUCTAU', 'CMAX', 'TMAX', 'CMIN', 'CTROUGH', 'CAVG', 'FLUCP', 'SWING', 'PTROUGHR', 'LAMZHL', 'AILAMZ', input.route === 'extravascular' || !input.route ? 'CLFTAU' : 'CLTAU'];
  const result = intervals[0];
  const table = codes.map((code) => ({ PPTESTCD: code, PPTEST: PARAMETER[code].test, value: result.parameters[code]?.value ?? null, unit: result.parameters[code]?.unit ?? '', note: result.notes[code] ?? '' }));
  show(table, codes.length);
  out.csv('multiple-dose-interval', table);
  for (const note of notes) say(`Note: ${note}.`);
  return { c, input, unit, doses, start, end, time, conc, result };
}

// %% [markdown]
// ## Superposition from the single-dose profile
// Under linear kinetics, C(t) = Σᵢ (Dᵢ/D)·C₁(t − tᵢ) with C₁ the single-dose
// profile, λz-extrapolated past its last sample (src/nca/superposition.ts).
// The regimen as dosed predicts the observed interval; the infinite regimen
// (steadyState) gives Cmax,ss, Cmin,ss, AUCτ and the accumulation index
// 1/(1 − e^(−λz·τ)). Observed accumulation is AUCτ,ss over the single-dose
// AUC(0–τ); under linear kinetics AUCτ,ss equals the single-dose AUC∞.

// %%
async function superposition(m: ReturnType<typeof multipleDose>) {
  const { c } = m;
  if (!c.single) {
    say('The study has no single-dose profile of the same subjects: no superposition.');
    return;
  }
  heading(`Single-dose reference: subset ${c.single.subset_pk}`);
  const pk = ncaInput(dataset, c.single);
  for (const note of pk.notes) say(`Note (single dose): ${note}.`);
  const single = nca(pk.input);
  const lamz = single.parameters.LAMZ?.value ?? null;
  const singleDose = pk.dosing ? amountIn(pk.dosing, m.unit) : null;
  if (lamz === null || singleDose === null || c.tau === null) {
    say(`No prediction: ${lamz === null ? `no λz on the single-dose profile (${single.notes.LAMZ ?? ''})` : singleDose === null ? 'the single dose has no amount' : 'the doses are not evenly spaced'}.`);
    return;
  }
  const s = samples(pk.input);
  const route = pk.input.route ?? 'extravascular';
  const ratio = (m.doses[0].amount ?? singleDose) / singleDose;
  const t0 = m.doses[0].time;
  const doses = m.doses.map((d) => ({ time: d.time - t0, ratio: (d.amount ?? singleDose) / singleDose }));
  const observed = m.time.map((t, i) => ({ time: t - m.start, observed: m.conc[i] }));
  const predicted = superpose(s.time, s.conc, doses, m.time.map((t) => t - t0), { lambdaZ: lamz, route });
  const ss = steadyState(s.time, s.conc, { tau: c.tau, lambdaZ: lamz, route, doseRatio: ratio });
  const singleTau = ncaIntervals({ ...pk.input, time: s.time, conc: s.conc }, { doses: [{ time: 0, amount: singleDose }], intervals: [{ start: 0, end: c.tau }] }).intervals[0];
  const auc0tau = singleTau.parameters.AUCTAU?.value ?? null;
  const p = m.result.parameters;
  const value = (code: Pptestcd) => p[code]?.value ?? null;
  const comparison = [
    { quantity: 'AUCτ', observed: value('AUCTAU'), predicted_regimen: null, predicted_steady_state: ss.auctau, single_dose: single.parameters.AUCIFO?.value ?? null, unit: p.AUCTAU?.unit ?? '' },
    { quantity: 'Cmax', observed: value('CMAX'), predicted_regimen: Math.max(...predicted), predicted_steady_state: ss.cmax, single_dose: single.parameters.CMAX?.value ?? null, unit: p.CMAX?.unit ?? '' },
    { quantity: 'Cmin', observed: value('CMIN'), predicted_regimen: Math.min(...predicted), predicted_steady_state: ss.cmin, single_dose: null, unit: p.CMIN?.unit ?? '' },
    { quantity: 'accumulation (AUCτ,ss / single AUC0–τ; predicted 1/(1 − e^(−λz·τ)))', observed: value('AUCTAU') !== null && auc0tau ? (value('AUCTAU') as number) / auc0tau / ratio : null, predicted_regimen: null, predicted_steady_state: ss.accumulationIndex, single_dose: null, unit: '' },
  ];
  show(comparison);
  out.csv('superposition-vs-observed', comparison);
  out.csv('superposition-profile', observed.map((o, i) => ({ ...o, predicted: predicted[i] })));
  say(
    `Single-dose t½ ${ss.halfLife.toPrecision(3)} ${m.input.timeUnit}: steady state is 90 % reached after ${ss.timeTo90.toPrecision(3)} ${m.input.timeUnit}; ` +
      `the regimen gave ${m.doses.length} doses every ${c.tau} ${m.input.timeUnit}. Dose ratio multiple/single ${ratio.toPrecision(3)} (amounts as curated` +
      `${pk.dosing?.substance !== c.substance ? `; the single dose is curated as ${pk.dosing?.substance}, so a salt would scale every prediction` : ''}).`,
  );
  const rows: ProfileRow[] = [
    ...observed.map((o) => ({ subject: 'observed (multiple dose)', time: o.time, conc: o.observed })),
    ...ss.time.map((t, i) => ({ subject: 'predicted steady state (superposition)', time: t, conc: ss.conc[i] })),
    ...s.time.filter((t) => t <= c.tau!).map((t, i) => ({ subject: 'single dose', time: t, conc: s.conc[i] })),
  ];
  await out.figure('multiple-dose', spaghettiSpec(rows, { title: `${label(c.multiple)}: ${c.substance}, dosing interval`, timeUnit: m.input.timeUnit, concUnit: m.input.concUnit }));
}

if (multipleCases.length === 0) say('No multiple-dose concentration timecourse in this dataset.');
else await superposition(multipleDose(multipleCases[0]));

// %% [markdown]
// ## Urine: Ae, fe, excretion rate, renal clearance
// Collection i is [tᵢ₋₁, tᵢ] with amount Ae(tᵢ) − Ae(tᵢ₋₁), the first from
// the dose; the excretion rate is its amount over its duration, at its
// midpoint; fe = Ae/Dose (molar masses from src/units when one side is
// molar); CLR = Ae(0, t)/AUC(0, t) of the plasma profile of the same
// subjects over the same interval. Reported recovery and renal clearance of
// the same subjects and interventions are shown beside the recomputed ones.

// %%
async function urineProfile(u: UrineCase) {
  heading(`Urine: ${label(u.urine)}, ${u.substance} (subset ${u.urine.subset_pk}, plasma subset ${u.plasma.subset_pk})`);
  const field = (['mean', 'median', 'value'] as const).find((f) => Array.isArray(u.urine[f]))!;
  const plasma = ncaInput(dataset, u.plasma);
  const doseStart = plasma.dosing?.time && Number.isFinite(Number(plasma.dosing.time)) ? Number(plasma.dosing.time) * conversionFactor(plasma.dosing.time_unit ?? u.urine.time_unit!, u.urine.time_unit!) : 0;
  const rows = u.urine.time.flatMap((t, i) => (t !== null ? [{ time: t - doseStart, amount: (u.urine[field] as (number | null)[])[i] }] : [])).sort((a, b) => a.time - b.time);
  const amount = u.dosing.value ?? u.dosing.mean ?? u.dosing.median;
  const result = urineNca({
    cumulative: { time: rows.map((r) => r.time), amount: rows.map((r) => r.amount) },
    amountUnit: u.urine.unit ?? 'mg',
    timeUnit: u.urine.time_unit ?? 'h',
    ...(amount !== null && u.dosing.unit ? { dose: amount, doseUnit: u.dosing.unit } : {}),
    molarMass: molarMassLookup(dataset.tables)(u.substance)?.mass ?? null,
    // Plasma times into the urine's time unit: both are after the same dose.
    plasma: { time: plasma.input.time.map((t) => (t === null ? null : t * conversionFactor(plasma.input.timeUnit ?? 'h', u.urine.time_unit ?? 'h'))), conc: plasma.input.conc, concUnit: plasma.input.concUnit },
  });
  const codes = Object.keys(result.parameters) as UrineCode[];
  const table = codes.map((code) => ({ code, value: result.parameters[code].value, unit: result.parameters[code].unit, note: result.notes[code] ?? '' }));
  show(table, codes.length);
  out.csv('urine-parameters', table);
  out.csv('urine-collections', result.collections);
  for (const note of plasma.notes) say(`Note (plasma): ${note}.`);

  // Reported values of the same subjects after the same interventions.
  const key = u.urine.intervention_pk.join(',');
  const reported = dataset.outputsOfStudy(u.urine.study_sid).filter((o) =>
    o.normed && !o.calculated && o.substance === u.substance && ['recovery', 'clearance_renal'].includes(o.measurement_type)
    && o.group_pk === u.urine.group_pk && o.individual_pk === u.urine.individual_pk && o.intervention_pks.join(',') === key);
  const mine = (code: UrineCode, unit: string | null) => {
    const v = result.parameters[code];
    if (v.value === null || !unit) return null;
    try {
      return v.value * conversionFactor(v.unit, unit);
    } catch {
      return null;
    }
  };
  const versus = reported.map((o) => {
    const recomputed = o.measurement_type === 'recovery' ? mine('FREXINT', o.unit === 'dimensionless' ? '1' : o.unit) : mine('RENALCL', o.unit);
    const value = o.mean ?? o.median ?? o.value;
    return { output_pk: o.pk, measurement_type: o.measurement_type, reported: value, unit: o.unit, recomputed, ratio: value !== null && recomputed ? value / recomputed : null };
  });
  if (versus.length) {
    heading('Reported vs recomputed');
    show(versus);
    out.csv('urine-reported-vs-recomputed', versus);
  }
  const figureRows: ProfileRow[] = [
    { subject: 'cumulative amount Ae(t)', time: 0, conc: 0 },
    ...result.collections.flatMap((c) => (c.cumulative !== null ? [{ subject: 'cumulative amount Ae(t)', time: c.end, conc: c.cumulative }] : [])),
  ];
  await out.figure('urine-cumulative', spaghettiSpec(figureRows, { title: `${label(u.urine)}: ${u.substance} in urine`, timeUnit: u.urine.time_unit ?? 'h', concUnit: u.urine.unit ?? '' }));
  const fe = result.parameters.FREXINT.value;
  const clr = result.parameters.RENALCL;
  say(`Ae over 0–${result.end} ${u.urine.time_unit}: ${result.parameters.RCAMINT.value?.toPrecision(3) ?? 'missing'} ${result.parameters.RCAMINT.unit}; fe ${fe === null ? 'missing' : `${(100 * fe).toPrecision(3)} % of the dose`}; CLR ${clr.value === null ? `missing (${result.notes.RENALCL ?? ''})` : `${clr.value.toPrecision(3)} ${clr.unit}`}.`);
}

if (urine.length === 0) say('No urine cumulative-amount timecourse with a plasma profile of the same subjects in this dataset.');
else await urineProfile(urine[0]);

// %%
heading('Written');
console.log(out.listing());
