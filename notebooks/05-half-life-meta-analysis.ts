// %% [markdown]
// # 05 · Half-life of one substance across studies: a small meta-analysis
//
// How long is caffeine's half-life, taking everything PK-DB holds? Two kinds
// of evidence:
// - **reported**: thalf outputs the authors published (a group's mean ± sd,
//   or individual values);
// - **recomputed**: half-lives from the curated concentration timecourses,
//   with the standard NCA (λz by best fit, t½ = ln 2/λz) — this also covers
//   studies that published curves but no half-life.
//
// Half-lives are log-normally distributed between subjects, so everything is
// summarised on the log scale: each study arm becomes a geometric mean with
// a 95 % interval, and the arms are pooled by inverse variance with
// DerSimonian–Laird random effects (details in notebooks/lib/meta.ts).
//
// By default only healthy subjects given the substance alone are pooled:
// groups or individuals marked ill (characteristica `healthy: N`, any
// `disease`, a Child–Pugh score, `medication: Y`, `pregnant: Y`) and arms
// whose intervention set doses another substance (an interaction study) are
// counted and left out; `--include-special` keeps them.
//
//   npx tsx notebooks/05-half-life-meta-analysis.ts [--substance NAME] [--include-special] [--export FILE.zip | --base-url URL] [--out DIR]

// %%
import type { OutputRecord, TimecourseRecord } from '../src/data/model.js';
import { forestSpec, type ForestRow } from '../src/plots/index.js';
import { doseInfo, standardRecomputation } from '../src/qa/index.js';
import { conversionFactor } from '../src/units/index.js';
import { dersimonianLaird, fromMeanSd, fromValues, geometricInterval, type LogEstimate } from './lib/meta.js';
import { heading, say, show } from './lib/output.js';
import { coAdministered, groupMarker, individualMarker } from './lib/populations.js';
import { openNotebook } from './lib/setup.js';

const { args, dataset, out, sourceText } = await openNotebook('05-half-life-meta-analysis');
const substance = args.substance ?? 'caffeine';
say(`Loaded ${sourceText}; pooling the half-life of ${substance}.`);

// %% [markdown]
// ## The records
// Every reported thalf of the substance (normed, so all in hours after one
// conversion), and every concentration timecourse of it outside urine. Each
// record carries who its subjects are (special population or not, see
// notebooks/lib/populations.ts) and what else its arm was given.

// %%
interface HalfLifeRecord {
  source: 'reported' | 'recomputed';
  study_sid: string;
  study_name: string;
  /** The subjects: a group, or the individuals of one group (same key, so both describe one arm). */
  arm_key: string;
  arm: string;
  group_pk: number | null;
  individual_pk: number | null;
  n: number;
  thalf_h: number;
  sd_h: number | null;
  /** Special population marker, '' for none. */
  population: string;
  /** Other substances dosed in the same intervention set, '' for none. */
  co_administered: string;
  record: string;
}

const toHours = (value: number, unit: string | null): number | null => {
  try {
    return unit ? value * conversionFactor(unit, 'hour') : null;
  } catch {
    return null;
  }
};

/** The subjects of an output or timecourse: a group arm, or the individuals of a group as one arm. */
function subjectsOf(study: string, groupPk: number | null, individualPk: number | null) {
  if (groupPk !== null) {
    const group = dataset.group(groupPk);
    return { arm_key: `${study}|g${groupPk}`, arm: group?.name ?? `group ${groupPk}`, n: group?.count ?? 1, population: groupMarker(dataset, groupPk) ?? '' };
  }
  const individual = individualPk === null ? undefined : dataset.individual(individualPk);
  const parent = individual?.group_pk ?? null;
  const parentName = parent === null ? 'no group' : (dataset.group(parent)?.name ?? `group ${parent}`);
  return { arm_key: `${study}|g${parent ?? 'none'}`, arm: `individuals of ${parentName}`, n: 1, population: (individualPk === null ? null : individualMarker(dataset, individualPk)) ?? '' };
}

function reportedRecords(outputs: readonly OutputRecord[]): HalfLifeRecord[] {
  const thalf = outputs.filter((o) => o.normed && !o.calculated && o.measurement_type === 'thalf' && o.substance === substance && o.output_type !== 'timecourse');
  return thalf.flatMap((o): HalfLifeRecord[] => {
    const centre = o.mean ?? o.median ?? o.value;
    const hours = centre === null ? null : toHours(centre, o.unit);
    if (hours === null || !(hours > 0)) return [];
    const scale = hours / (centre as number);
    const who = subjectsOf(o.study_sid, o.group_pk, o.individual_pk);
    // sd directly, else from se·√n or cv·mean (the spread a paper gave).
    const sd = o.group_pk === null ? null : (o.sd ?? (o.se !== null ? o.se * Math.sqrt(who.n) : o.cv !== null && o.mean !== null ? o.cv * o.mean : null));
    return [{
      source: 'reported', study_sid: o.study_sid, study_name: o.study_name, ...who, group_pk: o.group_pk, individual_pk: o.individual_pk,
      thalf_h: hours, sd_h: sd === null ? null : sd * scale, co_administered: coAdministered(dataset, o.intervention_pks, substance).join(', '), record: `output ${o.pk}`,
    }];
  });
}

function recomputedRecords(timecourses: readonly TimecourseRecord[]): { records: HalfLifeRecord[]; failed: number } {
  const records: HalfLifeRecord[] = [];
  let failed = 0;
  const mine = timecourses.filter((tc) => {
    const member = dataset.memberOutputs(tc)[0];
    return tc.measurement_type === 'concentration' && member?.substance === substance && !(member.tissue ?? '').includes('urine');
  });
  for (const tc of mine) {
    const dose = tc.time_unit ? doseInfo(dataset.dosingOf(tc), substance, tc.time_unit) : null;
    const thalf = standardRecomputation(tc, dose).values.thalf;
    const hours = thalf ? toHours(thalf.value, thalf.unit) : null;
    if (hours === null || !(hours > 0)) {
      failed++;
      continue;
    }
    const who = subjectsOf(tc.study_sid, tc.group_pk, tc.individual_pk);
    records.push({
      source: 'recomputed', study_sid: tc.study_sid, study_name: tc.study_name, ...who, group_pk: tc.group_pk, individual_pk: tc.individual_pk,
      thalf_h: hours, sd_h: null, co_administered: coAdministered(dataset, tc.intervention_pk, substance).join(', '), record: `subset ${tc.subset_pk}`,
    });
  }
  return { records, failed };
}

heading(`Half-life records of ${substance}`);
const reported = reportedRecords(dataset.tables.outputs);
const { records: recomputed, failed } = recomputedRecords(dataset.tables.timecourses);
const records = [...reported, ...recomputed];
show(records, 20);
out.csv('halflife-records', records);
say(`${reported.length} reported and ${recomputed.length} recomputed half-lives${failed ? ` (${failed} timecourses gave no λz: too few points after Cmax or no decline)` : ''}.`);
if (records.length === 0) {
  say(`No half-life of ${substance} in this dataset. Try --substance with a name from notebook 01's substance table.`);
  process.exit(0);
}

// %% [markdown]
// ## Who is pooled
// Healthy subjects given the substance alone, unless `--include-special`:
// a record of a special population (or of a group with such a subgroup), or
// of an arm that also received another substance, is left out and counted
// here with its reason. Then a subgroup whose parent group also has a kept
// value of the same source is left out: its subjects are already in the
// parent's value.

// %%
heading(args.includeSpecial ? 'Exclusions (none: --include-special)' : 'Excluded records');
const exclusionOf = (r: HalfLifeRecord): string | null =>
  args.includeSpecial ? null : r.population ? `special population: ${r.population}` : r.co_administered ? `interaction arm: with ${r.co_administered}` : null;
const excluded = records.flatMap((r) => {
  const reason = exclusionOf(r);
  return reason ? [{ ...r, reason }] : [];
});
const exclusionCounts = [...excluded.reduce((m, r) => m.set(`${r.reason}|${r.source}`, (m.get(`${r.reason}|${r.source}`) ?? 0) + 1), new Map<string, number>())]
  .map(([key, records]) => ({ reason: key.split('|')[0], source: key.split('|')[1], records }))
  .sort((x, y) => y.records - x.records || x.reason.localeCompare(y.reason));
if (!args.includeSpecial) {
  show(exclusionCounts, 30);
  out.csv('halflife-excluded', excluded.map(({ source, study_sid, study_name, arm, record, reason }) => ({ source, study_sid, study_name, arm, record, reason })));
  const special = excluded.filter((r) => r.reason.startsWith('special')).length;
  say(`Left out ${excluded.length} of ${records.length} records: ${special} of special populations and ${excluded.length - special} of interaction arms. Run with --include-special to pool them too.`);
}
const kept = records.filter((r) => exclusionOf(r) === null);

/** Whether a group has an ancestor in `covered` (bounded: a cycle in bad data must not loop). */
function nestedIn(groupPk: number, covered: ReadonlySet<number>): boolean {
  let parent = dataset.group(groupPk)?.parent_pk ?? null;
  for (let guard = 0; parent !== null && guard < 50; guard++) {
    if (covered.has(parent)) return true;
    parent = dataset.group(parent)?.parent_pk ?? null;
  }
  return false;
}
const coveredBy = (source: string) => new Set(kept.filter((r) => r.source === source && r.group_pk !== null).map((r) => r.group_pk as number));
const covered = { reported: coveredBy('reported'), recomputed: coveredBy('recomputed') };
const eligible = kept.filter((r) => r.group_pk === null || !nestedIn(r.group_pk, covered[r.source]));
if (eligible.length < kept.length) say(`${kept.length - eligible.length} records of subgroups whose parent group has its own value are left out.`);

// %% [markdown]
// ## One estimate per study arm
// An arm is one set of subjects: a group, or the individuals of one group,
// labelled by study and group name. Within one source:
// - individual values (reported, or recomputed from individual curves):
//   the mean of ln(t½) and its SE (an individual with several values, e.g.
//   two dose levels, enters once with the mean of its ln values);
// - else a group's mean ± sd over n subjects: log-normal moments,
//   σ² = ln(1 + CV²), μ = ln(mean) − σ²/2, SE = σ/√n; several values of the
//   same group (dose levels, repeated phases) are averaged on the log scale
//   with the average SE (the same subjects: not an n-fold gain);
// - a group's mean curve, or a mean without sd: a point estimate only.
// Intervals are exp(μ ± t₀.₉₇₅,ₙ₋₁·SE): with two subjects, t = 12.7 and the
// interval is honest about how little two subjects say.

// %%
interface Arm {
  study_sid: string;
  study_name: string;
  arm_key: string;
  arm: string;
  source: 'reported' | 'recomputed';
  estimate: LogEstimate;
}

function armEstimate(rows: readonly HalfLifeRecord[]): LogEstimate {
  const individuals = rows.filter((r) => r.individual_pk !== null);
  if (individuals.length >= 2 || individuals.length === rows.length) {
    const perSubject = new Map<number, number[]>();
    for (const r of individuals) perSubject.set(r.individual_pk!, [...(perSubject.get(r.individual_pk!) ?? []), Math.log(r.thalf_h)]);
    return fromValues([...perSubject.values()].map((logs) => Math.exp(logs.reduce((x, y) => x + y, 0) / logs.length)));
  }
  const estimates = rows.filter((r) => r.group_pk !== null).map((r) => fromMeanSd(r.thalf_h, r.sd_h, r.n));
  const ses = estimates.map((e) => e.logSe).filter((se): se is number => se !== null);
  return {
    logMean: estimates.reduce((acc, e) => acc + e.logMean, 0) / estimates.length,
    logSe: ses.length ? ses.reduce((x, y) => x + y, 0) / ses.length : null,
    n: Math.max(...estimates.map((e) => e.n)),
  };
}

function armsOf(list: readonly HalfLifeRecord[]): Arm[] {
  const bySourceArm = new Map<string, HalfLifeRecord[]>();
  for (const r of list) bySourceArm.set(`${r.source}|${r.arm_key}`, [...(bySourceArm.get(`${r.source}|${r.arm_key}`) ?? []), r]);
  return [...bySourceArm.values()]
    .map((rows) => ({ study_sid: rows[0].study_sid, study_name: rows[0].study_name, arm_key: rows[0].arm_key, arm: rows[0].arm, source: rows[0].source, estimate: armEstimate(rows) }))
    .sort((a, b) => a.study_name.localeCompare(b.study_name) || a.arm.localeCompare(b.arm) || b.source.localeCompare(a.source));
}

heading('Study arms (geometric mean, 95 % interval, hours)');
const arms = armsOf(eligible);
// One value per arm: the reported one when the arm has any, else the recomputed one (same subjects, never both).
const armsReporting = new Set(arms.filter((a) => a.source === 'reported').map((a) => a.arm_key));
const isPooled = (a: Arm) => a.source === 'reported' || !armsReporting.has(a.arm_key);
const armTable = arms.map((a) => ({
  study_sid: a.study_sid, study_name: a.study_name, arm: a.arm, source: a.source, pooled: isPooled(a), n: a.estimate.n,
  ...geometricInterval(a.estimate), log_mean: a.estimate.logMean, log_se: a.estimate.logSe,
}));
show(armTable, 30);
out.csv('halflife-arms', armTable);
const chosen = arms.filter(isPooled);
say(`${arms.length} arm values; ${chosen.length} enter the pooling, one per arm: the reported value where the arm has one (${chosen.filter((a) => a.source === 'reported').length}), else the recomputed one (${chosen.filter((a) => a.source === 'recomputed').length}). ${arms.length - chosen.length} recomputed values of arms that also report are shown for comparison only.`);

// %% [markdown]
// ## Pooled estimate
// Arms with an SE are pooled by DerSimonian–Laird random effects on ln(t½);
// I² says how much of the spread is between arms. As a check that needs no
// SEs, the plain geometric mean of all arm estimates.
//
// Caveat on real data: smoking and oral contraceptives (which shorten and
// lengthen caffeine's half-life) are not filtered; a published meta-analysis
// would stratify by them (the groups' characteristica, notebook 01).

// %%
heading('Pooled');
if (chosen.length === 0) {
  say(`No arm of healthy subjects without co-medication is left for ${substance}. Run with --include-special to pool every arm.`);
  process.exit(0);
}
const pooled = dersimonianLaird(chosen.map((a) => a.estimate));
const geometric = Math.exp(chosen.reduce((acc, a) => acc + a.estimate.logMean, 0) / chosen.length);
const pooledRows = [
  ...(pooled ? [{ method: 'DerSimonian–Laird random effects, ln scale', arms: pooled.k, estimate_h: pooled.estimate, lower_h: pooled.lower, upper_h: pooled.upper, tau2: pooled.tau2, i2_pct: pooled.i2 }] : []),
  { method: 'geometric mean of arm estimates (unweighted)', arms: chosen.length, estimate_h: geometric, lower_h: null, upper_h: null, tau2: null, i2_pct: null },
];
show(pooledRows);
out.csv('halflife-pooled', pooledRows);
const population = args.includeSpecial ? 'all subjects, special populations and interaction arms included' : 'healthy subjects, substance given alone';
say(
  pooled
    ? `Pooled half-life of ${substance} (${population}): ${pooled.estimate.toFixed(2)} h (95 % CI ${pooled.lower.toFixed(2)}–${pooled.upper.toFixed(2)} h) from ${pooled.k} arms with a spread; I² = ${pooled.i2.toFixed(0)} %. Unweighted geometric mean of all ${chosen.length} arms: ${geometric.toFixed(2)} h.`
    : `No arm reports a spread, so only the unweighted geometric mean is available (${population}): ${geometric.toFixed(2)} h over ${chosen.length} arms.`,
);

// %% [markdown]
// ## Forest plot
// One line per pooled arm (study · group): the square is the geometric mean,
// the bar its 95 % interval (none for a point estimate), on a log axis.
// Recomputed values of arms that also report are drawn as "recomputed (not
// pooled)": they should overlap the reported ones; when they do not,
// notebook 03 on that study tells why.

// %%
// Two arms of one study can share a group name: number repeated labels so no row is merged away.
const seen = new Map<string, number>();
const uniqueLabel = (label: string) => {
  const k = (seen.get(label) ?? 0) + 1;
  seen.set(label, k);
  return k === 1 ? label : `${label} (${k})`;
};
const forestRows: ForestRow[] = [
  ...arms.map((a) => {
    const g = geometricInterval(a.estimate);
    const source = isPooled(a) ? a.source : `${a.source} (not pooled)`;
    return { label: uniqueLabel(`${a.study_name} · ${a.arm}, n=${a.estimate.n} [${source}]`), estimate: g.estimate, lower: g.lower, upper: g.upper, source };
  }),
  ...(pooled ? [{ label: `pooled (random effects, ${pooled.k} arms)`, estimate: pooled.estimate, lower: pooled.lower, upper: pooled.upper, source: 'pooled' }] : []),
];
const forest = forestSpec(forestRows, { title: `Half-life of ${substance} across studies (${population})`, xTitle: 't½ [h] (log scale)', log: true, reference: pooled?.estimate ?? geometric });
await out.figure('halflife-forest', forest);

// %%
heading('Written');
console.log(out.listing());
