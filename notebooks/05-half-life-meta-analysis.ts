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
//   npx tsx notebooks/05-half-life-meta-analysis.ts [--substance NAME] [--export FILE.zip | --base-url URL] [--out DIR]

// %%
import type { Dataset } from '../src/data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../src/data/model.js';
import { forestSpec, type ForestRow } from '../src/plots/index.js';
import { doseInfo, standardRecomputation } from '../src/qa/index.js';
import { conversionFactor } from '../src/units/index.js';
import { dersimonianLaird, fromMeanSd, fromValues, geometricInterval, type LogEstimate } from './lib/meta.js';
import { heading, say, show } from './lib/output.js';
import { openNotebook } from './lib/setup.js';

const { args, dataset, out, sourceText } = await openNotebook('05-half-life-meta-analysis');
const substance = args.substance ?? 'caffeine';
say(`Loaded ${sourceText}; pooling the half-life of ${substance}.`);

// %% [markdown]
// ## The records
// Every reported thalf of the substance (normed, so all in hours after one
// conversion), and every concentration timecourse of it outside urine. A
// subgroup whose parent group also reports is left out: its subjects are
// already in the parent's mean.

// %%
interface HalfLifeRecord {
  source: 'reported' | 'recomputed';
  study_sid: string;
  subject: string;
  group_pk: number | null;
  individual_pk: number | null;
  n: number;
  thalf_h: number;
  sd_h: number | null;
  record: string;
}

const toHours = (value: number, unit: string | null): number | null => {
  try {
    return unit ? value * conversionFactor(unit, 'hour') : null;
  } catch {
    return null;
  }
};

/** A group's name and size, and whether one of its ancestors is in `covered`. */
function groupInfo(data: Dataset, pk: number, covered: ReadonlySet<number>) {
  const group = data.group(pk);
  let parent = group?.parent_pk ?? null;
  let nested = false;
  for (let guard = 0; parent !== null && guard < 50; guard++) {
    if (covered.has(parent)) nested = true;
    parent = data.group(parent)?.parent_pk ?? null;
  }
  return { name: group?.name ?? `group ${pk}`, count: group?.count ?? null, nested };
}

function reportedRecords(outputs: readonly OutputRecord[]): HalfLifeRecord[] {
  const thalf = outputs.filter((o) => o.normed && !o.calculated && o.measurement_type === 'thalf' && o.substance === substance && o.output_type !== 'timecourse');
  const groupsWithValue = new Set(thalf.map((o) => o.group_pk).filter((pk): pk is number => pk !== null));
  return thalf.flatMap((o): HalfLifeRecord[] => {
    const centre = o.mean ?? o.median ?? o.value;
    const hours = centre === null ? null : toHours(centre, o.unit);
    if (hours === null || !(hours > 0)) return [];
    const scale = hours / (centre as number);
    if (o.group_pk !== null) {
      const g = groupInfo(dataset, o.group_pk, groupsWithValue);
      if (g.nested) return [];
      const n = g.count ?? 1;
      // sd directly, else from se·√n or cv·mean (the spread a paper gave).
      const sd = o.sd ?? (o.se !== null ? o.se * Math.sqrt(n) : o.cv !== null && o.mean !== null ? o.cv * o.mean : null);
      return [{ source: 'reported', study_sid: o.study_sid, subject: g.name, group_pk: o.group_pk, individual_pk: null, n, thalf_h: hours, sd_h: sd === null ? null : sd * scale, record: `output ${o.pk}` }];
    }
    return [{ source: 'reported', study_sid: o.study_sid, subject: `individual ${o.individual_pk}`, group_pk: null, individual_pk: o.individual_pk, n: 1, thalf_h: hours, sd_h: null, record: `output ${o.pk}` }];
  });
}

function recomputedRecords(timecourses: readonly TimecourseRecord[]): { records: HalfLifeRecord[]; failed: number } {
  const records: HalfLifeRecord[] = [];
  let failed = 0;
  const mine = timecourses.filter((tc) => {
    const member = dataset.memberOutputs(tc)[0];
    return tc.measurement_type === 'concentration' && member?.substance === substance && !(member.tissue ?? '').includes('urine');
  });
  const groupsWithCurve = new Set(mine.map((tc) => tc.group_pk).filter((pk): pk is number => pk !== null));
  for (const tc of mine) {
    const dose = tc.time_unit ? doseInfo(dataset.dosingOf(tc), substance, tc.time_unit) : null;
    const thalf = standardRecomputation(tc, dose).values.thalf;
    const hours = thalf ? toHours(thalf.value, thalf.unit) : null;
    if (hours === null || !(hours > 0)) {
      failed++;
      continue;
    }
    if (tc.group_pk !== null) {
      const g = groupInfo(dataset, tc.group_pk, groupsWithCurve);
      if (g.nested) continue;
      records.push({ source: 'recomputed', study_sid: tc.study_sid, subject: g.name, group_pk: tc.group_pk, individual_pk: null, n: g.count ?? 1, thalf_h: hours, sd_h: null, record: `subset ${tc.subset_pk}` });
    } else {
      records.push({ source: 'recomputed', study_sid: tc.study_sid, subject: `individual ${tc.individual_pk}`, group_pk: null, individual_pk: tc.individual_pk, n: 1, thalf_h: hours, sd_h: null, record: `subset ${tc.subset_pk}` });
    }
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
// ## One estimate per study arm
// - a group's mean ± sd over n subjects: log-normal moments,
//   σ² = ln(1 + CV²), μ = ln(mean) − σ²/2, SE = σ/√n;
// - individual values of a study (reported, or recomputed from individual
//   curves): the mean of ln(t½) and its SE;
// - a group's mean curve, or a mean without sd: a point estimate only.
// Intervals are exp(μ ± t₀.₉₇₅,ₙ₋₁·SE): with two subjects, t = 12.7 and the
// interval is honest about how little two subjects say.

// %%
interface Arm {
  study_sid: string;
  arm: string;
  source: 'reported' | 'recomputed';
  estimate: LogEstimate;
}

function armsOf(list: readonly HalfLifeRecord[]): Arm[] {
  const arms: Arm[] = [];
  const byStudy = new Map<string, HalfLifeRecord[]>();
  for (const r of list) byStudy.set(`${r.source}|${r.study_sid}`, [...(byStudy.get(`${r.source}|${r.study_sid}`) ?? []), r]);
  for (const rows of byStudy.values()) {
    const groups = rows.filter((r) => r.group_pk !== null);
    const individuals = rows.filter((r) => r.individual_pk !== null);
    const { source, study_sid } = rows[0];
    // Individual values carry their own spread; prefer them over a mean curve of the same subjects.
    if (individuals.length >= 2 || groups.length === 0) {
      arms.push({ study_sid, source, arm: `individuals`, estimate: fromValues(individuals.map((r) => r.thalf_h)) });
    } else {
      for (const g of groups) arms.push({ study_sid, source, arm: g.subject, estimate: fromMeanSd(g.thalf_h, g.sd_h, g.n) });
    }
  }
  return arms.sort((a, b) => a.study_sid.localeCompare(b.study_sid) || b.source.localeCompare(a.source));
}

heading('Study arms (geometric mean, 95 % interval, hours)');
const arms = armsOf(records);
const armTable = arms.map((a) => ({ study_sid: a.study_sid, arm: a.arm, source: a.source, n: a.estimate.n, ...geometricInterval(a.estimate), log_mean: a.estimate.logMean, log_se: a.estimate.logSe }));
show(armTable, 30);
out.csv('halflife-arms', armTable);

// %% [markdown]
// ## Pooled estimate
// Each study enters once: with its reported arms when it has any, otherwise
// with its recomputed ones (the two describe the same subjects and must not
// be counted twice). Arms with an SE are pooled by DerSimonian–Laird random
// effects on ln(t½); I² says how much of the spread is between studies. As a
// check that needs no SEs, the plain geometric mean of all arm estimates.
//
// Caveat on real data: arms are not filtered by co-medication, disease or
// smoking status, and all individuals of a study form one arm. That is right
// for a first look; a published meta-analysis would stratify (e.g. by the
// groups' characteristica from notebook 01).

// %%
heading('Pooled');
const studiesReporting = new Set(arms.filter((a) => a.source === 'reported').map((a) => a.study_sid));
const chosen = arms.filter((a) => a.source === 'reported' || !studiesReporting.has(a.study_sid));
const pooled = dersimonianLaird(chosen.map((a) => a.estimate));
const geometric = Math.exp(chosen.reduce((acc, a) => acc + a.estimate.logMean, 0) / chosen.length);
const pooledRows = [
  ...(pooled ? [{ method: 'DerSimonian–Laird random effects, ln scale', arms: pooled.k, estimate_h: pooled.estimate, lower_h: pooled.lower, upper_h: pooled.upper, tau2: pooled.tau2, i2_pct: pooled.i2 }] : []),
  { method: 'geometric mean of arm estimates (unweighted)', arms: chosen.length, estimate_h: geometric, lower_h: null, upper_h: null, tau2: null, i2_pct: null },
];
show(pooledRows);
out.csv('halflife-pooled', pooledRows);
say(
  pooled
    ? `Pooled half-life of ${substance}: ${pooled.estimate.toFixed(2)} h (95 % CI ${pooled.lower.toFixed(2)}–${pooled.upper.toFixed(2)} h) from ${pooled.k} arms with a spread; I² = ${pooled.i2.toFixed(0)} %. Unweighted geometric mean of all ${chosen.length} arms: ${geometric.toFixed(2)} h.`
    : `No arm reports a spread, so only the unweighted geometric mean is available: ${geometric.toFixed(2)} h over ${chosen.length} arms.`,
);

// %% [markdown]
// ## Forest plot
// One line per study arm and source: the square is the geometric mean, the
// bar its 95 % interval (none for a point estimate), on a log axis. Reported
// and recomputed values of the same study should overlap; when they do not,
// notebook 03 on that study tells why.

// %%
// A group can report twice (two dosing arms, a co-medication): number repeated labels so no row is merged away.
const seen = new Map<string, number>();
const uniqueLabel = (label: string) => {
  const k = (seen.get(label) ?? 0) + 1;
  seen.set(label, k);
  return k === 1 ? label : `${label} (${k})`;
};
const forestRows: ForestRow[] = [
  ...arms.map((a) => {
    const g = geometricInterval(a.estimate);
    return { label: uniqueLabel(`${a.study_sid} · ${a.arm}, n=${a.estimate.n} [${a.source}]`), estimate: g.estimate, lower: g.lower, upper: g.upper, source: a.source };
  }),
  ...(pooled ? [{ label: `pooled (random effects, ${pooled.k} arms)`, estimate: pooled.estimate, lower: pooled.lower, upper: pooled.upper, source: 'pooled' }] : []),
];
const forest = forestSpec(forestRows, { title: `Half-life of ${substance} across studies`, xTitle: 't½ [h] (log scale)', log: true, reference: pooled?.estimate ?? geometric });
await out.figure('halflife-forest', forest);

// %%
heading('Written');
console.log(out.listing());
