// %% [markdown]
// # 03 · QA of one study, end to end
//
// A curator has just entered a study into PK-DB and wants to know whether the
// numbers hang together before it goes public. The QA recomputes every PK
// parameter it can from the curated timecourses — once with PK-DB's own 2020
// algorithm and once with textbook NCA — and sets each reported value (what the
// authors published and the curator typed in) against them. A ratio of 1000,
// 60 or 10 rarely happens by chance: it names a unit slip, minutes entered as
// hours, or a wrong dose.
//
//   npx tsx notebooks/03-qa-one-study.ts [--study SID] [--export FILE.zip | --base-url URL] [--out DIR]
//
// On the fixtures the default study is the one with the planted ×1000 unit
// slip; elsewhere it is the study with most major findings.

// %%
import * as aq from 'arquero';
import { expectedFixtureFindings } from '../src/data/fixtures.js';
import { overviewScatterSpec, timecourseSpec } from '../src/plots/index.js';
import { FINDING_COLUMNS, runQa, type Finding } from '../src/qa/index.js';
import { comparisonPoints, timecoursePlotInput } from '../src/report/index.js';
import { NotebookUsageError } from './lib/args.js';
import { heading, say, show } from './lib/output.js';
import { openNotebook, orExit } from './lib/setup.js';

const { args, dataset, out, sourceText } = await openNotebook('03-qa-one-study');
say(`Loaded ${sourceText}.`);

// %% [markdown]
// ## Which study
// On the fixtures we know where the errors were planted
// (fixtures/expected-findings.json), so the default is the study with the
// ×1000 slip. On real data the whole QA runs once to find the study that needs
// a curator most.

// %%
async function defaultStudy(): Promise<string> {
  if (dataset.source.kind === 'fixtures') {
    const planted = await expectedFixtureFindings();
    const slip = planted.find((f) => f.error === 'unit-slip' && f.factor !== null && Math.abs(Math.log10(f.factor)) === 3);
    if (slip) return slip.study_sid;
  }
  const majors = new Map<string, number>();
  for (const f of runQa(dataset).findings) if (f.severity === 'major' && f.study_sid) majors.set(f.study_sid, (majors.get(f.study_sid) ?? 0) + 1);
  const worst = [...majors].sort((a, b) => b[1] - a[1])[0];
  return worst ? worst[0] : dataset.tables.studies[0]?.sid ?? '';
}
const sid = args.study ?? (await defaultStudy());
const study = await orExit(() => {
  const found = dataset.study(sid);
  if (!found) throw new NotebookUsageError(`unknown study "${sid}" in ${dataset.source.location}`);
  return found;
});
heading(`Study ${study.sid} · ${study.name}`);
show([
  {
    substances: study.substances.join(', '),
    groups: dataset.groupsOfStudy(sid).length,
    individuals: dataset.individualsOfStudy(sid).length,
    timecourses: dataset.timecoursesOfStudy(sid).length,
    outputs: dataset.outputsOfStudy(sid).filter((o) => o.normed).length,
  },
]);
heading('Dosing (normed)');
show(
  dataset
    .interventionsOfStudy(sid)
    .filter((i) => i.normed)
    .map((i) => ({ pk: i.pk, name: i.name, substance: i.substance, route: i.route, application: i.application, value: i.value, unit: i.unit, time: i.time, time_unit: i.time_unit })),
);

// %% [markdown]
// ## Run the QA
// Every registered check runs over the whole dataset, and the result keeps
// this study's findings (`runQa(dataset, { studies: [sid] })`): the other
// studies are its reference, so its values are also set against theirs
// (`reference-range`). Among the checks: the stored calculated outputs against
// a re-run of PK-DB's algorithm (`calculated`), the authors' reported values
// against the recomputations (`reported-vs-recomputed`) and against each other
// (`pk-identity`), every normed copy against its raw record (`normed-vs-raw`),
// and input problems such as duplicated time points. `info` findings are
// agreements kept for the record.

// %%
const qa = runQa(dataset, { studies: [sid] });
heading('Findings by kind and severity');
const findings = aq.from(qa.findings.map((f) => Object.fromEntries(FINDING_COLUMNS.map((c) => [c, f[c]]))));
show(findings.groupby('kind', 'severity').count().orderby('kind', 'severity'));
out.csv('findings', findings);
out.json('summary', qa.summary);

heading('Major and minor findings');
const flagged = qa.findings.filter((f) => f.severity !== 'info');
show(flagged.map((f: Finding) => ({ kind: f.kind, severity: f.severity, subset: f.subset_pk, output: f.output_pk, parameter: f.measurement_type, subject: f.subject, reported: f.reported, recomputed: f.recomputed, ratio: f.ratio, cause: f.suspected_cause })), 20);
say(
  flagged.length === 0
    ? 'Nothing above info: every reported value agrees with what the timecourses give.'
    : `${flagged.length} findings need a curator. For each, the suspected cause names the factor the ratio matches; the fix is usually in the unit or the dosing, not the number.`,
);

// %% [markdown]
// ## Reported vs recomputed, side by side
// For each reported parameter: the authors' value, PK-DB's algorithm and the
// standard NCA, all in the reported unit. The two recomputations usually
// agree with each other; when the reported value disagrees with both by a
// round factor, the curated record is the suspect.

// %%
heading('Comparisons');
const comparisons = aq.from(
  qa.comparisons.map((c) => ({
    subset_pk: c.timecourse.tc.subset_pk,
    output_pk: c.output.pk,
    parameter: c.parameter,
    subject: c.output.group_pk !== null ? `group:${c.output.group_pk}` : `individual:${c.output.individual_pk}`,
    reported: c.reported,
    pkdb: c.pkdb,
    standard: c.standard,
    unit: c.reported_unit,
    ratio: c.verdict.ratio,
    classification: c.verdict.classification,
    cause: c.verdict.causes.map((k) => k.text).join('; ') || c.verdict.expected,
  })),
);
show(comparisons.orderby(aq.desc((d: { classification: string }) => (d.classification === 'major' ? 2 : d.classification === 'minor' ? 1 : 0))), 15);
out.csv('comparisons', comparisons);
await out.figure('reported-vs-recomputed', overviewScatterSpec(comparisonPoints(qa.comparisons), `${study.sid}: reported vs recomputed`));

// %% [markdown]
// ## The flagged timecourses
// One figure per timecourse with a minor or major finding: observed points on
// linear and semi-log axes, the λz points and fit of the standard NCA, and the
// reported vs recomputed Cmax/Tmax. A reported Cmax a thousand times below the
// curve is hard to miss.

// %%
heading('Timecourse plots');
const flaggedSubsets = new Set(flagged.map((f) => f.subset_pk).filter((pk): pk is number => pk !== null));
for (const rt of qa.timecourses) {
  if (!flaggedSubsets.has(rt.tc.subset_pk)) continue;
  const own = qa.comparisons.filter((c) => c.timecourse === rt);
  await out.figure(`timecourse-${rt.tc.subset_pk}`, timecourseSpec(timecoursePlotInput(rt, own)));
  console.log(`  subset ${rt.tc.subset_pk} (${rt.tc.subset_name}): ${flagged.filter((f) => f.subset_pk === rt.tc.subset_pk).map((f) => `${f.measurement_type ?? f.kind} ${f.suspected_cause ?? f.message}`).join('; ')}`);
}
if (flaggedSubsets.size === 0) say('No timecourse is flagged.');

// %% [markdown]
// ## Did we find what was planted?
// Only on the fixtures: each planted error of this study against the findings.

// %%
if (dataset.source.kind === 'fixtures') {
  heading('Planted errors of this study');
  const planted = (await expectedFixtureFindings()).filter((e) => e.study_sid === sid);
  const check = planted.map((e) => {
    const hit = qa.findings.find((f) => f.kind === e.kind && f.measurement_type === e.measurement_type && f.output_pk === e.output_pk && f.subset_pk === e.subset_pk);
    return { error: e.error_id, what: e.error, parameter: e.measurement_type, expected_ratio: e.ratio, found_ratio: hit?.ratio ?? null, severity: hit?.severity ?? 'missed', cause: hit?.suspected_cause ?? null };
  });
  show(check);
  out.csv('planted-errors', check);
  say(`${check.filter((c) => c.severity === 'major').length} of ${check.length} planted findings reported as major.`);
}

// %%
heading('Written');
console.log(out.listing());
