// %% [markdown]
// # 04 · Units: raw vs normed, molar vs mass, and what a unit slip looks like
//
// PK-DB stores every number twice: as the curator typed it from the paper
// (the **raw** record: 0.0759 mmol*h/l, 200 mg, 35 µg/ml) and as a
// **normed** copy in one unit per measurement type (gram / liter, hour …),
// linked by `raw_pk`. Analyses read the normed copies; curators check the raw
// ones against the paper. This notebook shows the pair side by side, the one
// conversion that needs chemistry (molar ↔ mass through the molar mass), and
// how a slipped unit shows up as a ratio of exactly 1000.
//
//   npx tsx notebooks/04-units.ts [--export FILE.zip | --base-url URL] [--out DIR]
//
// Exports carry normed records only; the raw-vs-normed sections then say so
// and the slip section uses the reported-vs-recomputed cross-check alone.

// %%
import * as aq from 'arquero';
import type { InterventionRecord, OutputRecord } from '../src/data/model.js';
import { checkNormedVsRaw, runQa } from '../src/qa/index.js';
import { conversionFactor, explainRatio, molarMassLookup, normalize, unitNormalisation, UnitError } from '../src/units/index.js';
import { heading, say, show } from './lib/output.js';
import { openNotebook } from './lib/setup.js';
import { normedRatioSpec } from './lib/specs.js';

const { dataset, out, sourceText } = await openNotebook('04-units');
say(`Loaded ${sourceText}.`);
const massOf = molarMassLookup(dataset.tables);
const number = (r: { value: number | null; mean: number | null; median: number | null }) => r.mean ?? r.median ?? r.value;

// %% [markdown]
// ## Raw vs normed, side by side
// Each normed copy next to the raw record it came from, and the copy
// re-derived here with `normalize` (src/units): the same steps as PK-DB —
// molar units through the molar mass, then the normalised unit of the
// measurement type, then sd/se/cv completed for groups. Per-kg doses are mass
// ratios (mg/kg = 10⁻⁶) and are stored dimensionless.

// %%
heading('Raw vs normed');
type Linked = OutputRecord | InterventionRecord;
const byPk = new Map<string, Linked>();
for (const o of dataset.tables.outputs) byPk.set(`output ${o.pk}`, o);
for (const i of dataset.tables.interventions) byPk.set(`intervention ${i.pk}`, i);
const pairs = [...dataset.tables.outputs.map((o) => ['output', o] as const), ...dataset.tables.interventions.map((i) => ['intervention', i] as const)]
  .filter(([, r]) => r.normed && r.raw_pk !== null)
  .flatMap(([kind, normed]) => {
    const raw = byPk.get(`${kind} ${normed.raw_pk}`);
    if (!raw) return [];
    const groupCount = kind === 'output' && (normed as OutputRecord).group_pk !== null ? (dataset.group((normed as OutputRecord).group_pk!)?.count ?? null) : null;
    let rederived: number | null = null;
    let problem = '';
    try {
      rederived = number(normalize(raw, { substanceMass: massOf(raw.substance)?.mass ?? null, groupCount, recordLabel: `${kind} ${raw.pk}` }));
    } catch (error) {
      if (!(error instanceof UnitError)) throw error;
      problem = error.message;
    }
    const stored = number(normed);
    return [{
      record: `${kind} ${normed.pk}`,
      study_sid: normed.study_sid,
      calculated: kind === 'output' && (normed as OutputRecord).calculated,
      measurement_type: normed.measurement_type,
      substance: normed.substance,
      raw_value: number(raw),
      raw_unit: raw.unit,
      normed_value: stored,
      normed_unit: normed.unit,
      rederived_value: rederived,
      // stored ÷ re-derived: 1 when the stored copy is right.
      ratio: stored !== null && rederived ? stored / rederived : null,
      problem,
    }];
  });
if (pairs.length === 0) {
  say('This source has normed records only (a PK-DB export): there is no raw record to compare with. Load the fixtures or an API to see the pairs.');
} else {
  const frame = aq.from(pairs);
  out.csv('raw-vs-normed', frame);
  // One curated example per conversion (measurement type × raw unit) keeps the console readable; the CSV has all,
  // PK-DB's calculated outputs included (their raw copies are already in normalised units).
  const examples = frame
    .filter((d: { calculated: boolean }) => !d.calculated)
    .groupby('measurement_type', 'raw_unit')
    .filter(() => aq.op.row_number() === 1)
    .ungroup()
    .select(aq.not('study_sid', 'calculated', 'problem'));
  show(examples, 30);
  say(`${pairs.length} raw/normed pairs; ${pairs.filter((p) => p.ratio !== null && Math.abs(p.ratio - 1) > 1e-6).length} stored copies differ from the re-derived one.`);
}

// %% [markdown]
// ## Molar vs mass
// Papers report concentrations in µmol/l as often as in mg/l. Converting
// needs the substance's molar mass M:
//   c [g/l] = c [µmol/l] × 10⁻⁶ mol/µmol × M [g/mol]
// so for caffeine (M = 194.19 g/mol) 1 µmol/l = 0.19419 mg/l. Without a molar
// mass there is no conversion, and PK-DB leaves the value molar.

// %%
heading('Molar vs mass');
const substance = dataset.tables.outputs.find((o) => !o.normed && o.unit?.includes('mol') && massOf(o.substance))?.substance ?? 'caffeine';
const mass = massOf(substance)?.mass ?? 194.19;
const rawMolar = dataset.tables.outputs.filter((o) => !o.normed && o.substance === substance && o.unit?.includes('mol') && o.measurement_type === 'concentration').slice(0, 6);
const molarRows = (rawMolar.length > 0 ? rawMolar.map((o) => ({ pk: o.pk as number | null, value: number(o) ?? 0, unit: o.unit as string })) : [1, 10, 50].map((value) => ({ pk: null, value, unit: 'µmol/l' }))).map((r) => ({
  output_pk: r.pk,
  [`raw`]: r.value,
  raw_unit: r.unit,
  mg_per_l: r.value * conversionFactor(r.unit, 'mg/l', { molarMass: mass }),
  g_per_l: r.value * conversionFactor(r.unit, 'g/l', { molarMass: mass }),
}));
show(molarRows);
out.csv('molar-vs-mass', molarRows);
const rule = unitNormalisation('µmol/l', 'concentration', mass);
say(`${substance}, M = ${mass} g/mol: µmol/l is normalised to "${rule.unit}" with factor ${rule.factor.toPrecision(6)} (= M × 10⁻⁶).`);
try {
  conversionFactor('µmol/l', 'mg/l');
} catch (error) {
  say(`Without the molar mass: ${(error as Error).message}.`);
}

// %% [markdown]
// ## What a unit slip looks like
// Two numbers that should be equal — a stored normed copy and its raw record
// re-converted; a reported Cmax and the one recomputed from the timecourse —
// have a ratio near 1 when all is well (NCA details move it a few percent).
// A slip moves it by the factor between the two units: exactly 1000 for
// µg/ml typed as ng/ml, 60 for minutes typed as hours. `explainRatio` names
// the factor; the QA's cross-checks report it as a major finding.

// %%
heading('Ratios that should be 1');
// Normed vs raw can only go wrong through a unit, so explainRatio names the factor. Reported vs
// recomputed can also be off through a wrong dose: there the QA's own suspected cause decides.
const normedVsRaw = pairs
  .filter((p) => p.ratio !== null)
  .map((p) => {
    const ratio = p.ratio as number;
    // Only a round factor well away from 1 is a slip; 0.9999 is rounding.
    const explained = Math.abs(Math.log10(ratio)) > 0.5 ? explainRatio(ratio, { tolerance: 0.05 }) : null;
    return { record: p.record, check: 'normed vs raw', measurement_type: p.measurement_type, ratio, verdict: explained ? 'unit slip' : 'agrees', cause: explained?.cause ?? null };
  });
const reportedVsRecomputed = runQa(dataset)
  .findings.filter((f) => f.kind === 'reported-vs-recomputed' && f.ratio !== null && f.ratio > 0)
  .map((f) => ({
    record: `output ${f.output_pk}`,
    check: 'reported vs recomputed',
    measurement_type: f.measurement_type ?? '',
    ratio: f.ratio as number,
    verdict: f.severity !== 'major' ? 'agrees' : f.suspected_cause?.startsWith('dose') ? 'wrong dose' : 'unit slip',
    cause: f.severity === 'info' ? null : f.suspected_cause,
  }));
const ratioRows = [...normedVsRaw, ...reportedVsRecomputed];
out.csv('ratios', ratioRows);
const slips = ratioRows.filter((r) => r.verdict !== 'agrees');
heading('Ratios away from 1');
show(slips);
await out.figure('unit-slip-ratios', normedRatioSpec(ratioRows, 'Ratios that should be 1: slips sit on round factors'));

// The normed-vs-raw check of the QA reports the same slips as findings, with the raw unit that was misread.
const findings = checkNormedVsRaw(dataset.tables).filter((f) => f.severity !== 'info');
out.csv('normed-vs-raw-findings', findings.map(({ details: _details, ...f }) => f));
for (const f of findings.slice(0, 5)) say(`normed-vs-raw finding: ${f.message}`);
say(
  `${slips.filter((r) => r.verdict === 'unit slip').length} ratios sit on a unit factor, ${slips.filter((r) => r.verdict === 'wrong dose').length} on a wrong dose, ${ratioRows.length - slips.length} agree. ` +
    'Note that a slip made when typing the raw record (µg/ml entered as ng/ml) is converted faithfully into the normed copy: normed vs raw agrees, and only the cross-check against the timecourse exposes it.',
);

// %%
heading('Written');
console.log(out.listing());
