// %% [markdown]
// # 01 · Explore a PK-DB dataset
//
// Before any analysis, a PK scientist wants to know what is in the data: which
// studies, which substances, which populations (groups and their
// characteristica: age, weight, sex, health status …) and which kinds of
// outputs. This notebook loads a dataset — the bundled synthetic fixtures by
// default, a PK-DB export with `--export FILE.zip`, or a live API with
// `--base-url URL` — and shows it as arquero DataFrames, then draws one
// overview figure.
//
//   npx tsx notebooks/01-explore-dataset.ts [--export FILE.zip | --base-url URL] [--out DIR]

// %%
import * as aq from 'arquero';
import { countedRecords } from '../src/data/counts.js';
import { frames } from '../src/data/frames.js';
import { characteristicText, studiesFrame, substancesFrame } from './lib/frames.js';
import { heading, say, show } from './lib/output.js';
import { openNotebook } from './lib/setup.js';
import { outputsOverviewSpec } from './lib/specs.js';

const { dataset, out, sourceText } = await openNotebook('01-explore-dataset');
say(`Loaded ${sourceText}.`);

// %% [markdown]
// ## Counts
// The same figures `pkdb summary --json` prints. PK-DB keeps every curated
// (raw) record together with a unit-normalised copy; counts are of distinct
// entities, so a raw record and its normed copy count once. "Calculated"
// outputs are the ones PK-DB computed itself from timecourses.

// %%
heading('Counts');
const counts = dataset.counts();
show([counts]);
out.json('counts', counts);

// %% [markdown]
// ## Studies
// One row per study with its reference and how much it contributes.

// %%
heading('Studies');
const studies = studiesFrame(dataset);
show(studies);
out.csv('studies', studies);

// %% [markdown]
// ## Substances
// Which substances were measured, in how many studies, and whether a molar mass
// is known (needed to convert µmol/l to mg/l — see notebook 04).

// %%
heading('Substances');
const substances = substancesFrame(dataset);
show(substances);
out.csv('substances', substances);
say(`${substances.numRows()} substances; the best covered is ${substances.get('substance', 0)} (${substances.get('studies', 0)} studies).`);

// %% [markdown]
// ## Groups and their characteristica
// Groups nest (a study's "all" group and its subgroups). PK-DB lists each
// group's characteristica with the inherited ones included. The long table is
// what the API gives; the wide one (a group per row, a characteristic per
// column) is what a paper's Table 1 looks like — one arquero `pivot` away.

// %%
heading('Groups');
const views = frames(dataset.tables);
const groups = views.groups
  .groupby('study_sid', 'group_pk', 'group_name', 'group_count', 'group_parent_pk')
  .rollup({ characteristica: (d: { measurement_type: string | null }) => aq.op.valid(d.measurement_type) })
  .orderby('study_sid', 'group_pk');
show(groups);
out.csv('groups', groups);

// aq.escape lets a derive call ordinary TypeScript (here: the Table 1 text of a characteristic).
const characteristica = views.groups
  .filter((d: { measurement_type: string | null }) => d.measurement_type !== null)
  .derive({ text: aq.escape((d: Parameters<typeof characteristicText>[0]) => characteristicText(d)) });
out.csv('characteristica', characteristica);
const table1 = characteristica
  .filter((d: { substance: string | null }) => d.substance === null)
  .groupby('study_sid', 'group_name')
  .pivot('measurement_type', { text: (d: { text: string }) => aq.op.any(d.text) });
// A full export has dozens of characteristica; the console shows the six most often stated.
const common = characteristica.groupby('measurement_type').count().orderby(aq.desc('count')).slice(0, 6).array('measurement_type') as string[];
heading('Table 1: characteristica per group');
show(table1.ungroup().select('study_sid', 'group_name', ...common.filter((c) => table1.columnNames().includes(c))));
out.csv('characteristica-wide', table1);

// %% [markdown]
// ## What was measured
// Single-value outputs (normed, timecourse points left out) per substance and
// measurement type. Reported values and PK-DB's calculated ones both count:
// `calculated` tells them apart.

// %%
heading('Outputs per substance and measurement type');
const outputs = aq.from(
  countedRecords(dataset.tables.outputs)
    .filter((o) => o.substance && o.output_type !== 'timecourse' && o.output_type !== 'array')
    .map((o) => ({ substance: o.substance as string, measurement_type: o.measurement_type, calculated: o.calculated })),
);
const perType = outputs.groupby('substance', 'measurement_type').count().orderby('substance', aq.desc('count'));
show(perType.ungroup(), 15);
out.csv('outputs-per-substance', perType);
const calculatedShare = outputs.rollup({ calculated: (d: { calculated: boolean }) => aq.op.sum(d.calculated ? 1 : 0), all: aq.op.count() }).object() as { calculated: number; all: number };
say(`${calculatedShare.all} single-value outputs, ${calculatedShare.calculated} of them calculated by PK-DB from timecourses.`);

// Keep the figure readable on a full export: the 25 substances with most outputs.
const top = new Set(
  perType.groupby('substance').rollup({ n: (d: { count: number }) => aq.op.sum(d.count) }).orderby(aq.desc('n')).slice(0, 25).array('substance') as string[],
);
await out.figure(
  'outputs-overview',
  outputsOverviewSpec(
    (perType.objects() as { substance: string; measurement_type: string; count: number }[]).filter((r) => top.has(r.substance)),
    `Outputs per substance and measurement type (${dataset.source.kind})`,
  ),
);

// %% [markdown]
// ## Files
// Every table is a CSV, the figure is a Vega-Lite spec plus SVG and PNG.

// %%
heading('Written');
console.log(out.listing());
