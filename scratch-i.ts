import { readExport } from './src/data/export/read.js';
import { Dataset } from './src/data/dataset.js';
const { tables } = await readExport('/work/shared/data/pkdb-export-2020-10-16-shared.zip');
const ds = Dataset.fromTables(tables, { kind: 'export', location: 'x' });
const pks = process.argv.slice(2).map(Number);
for (const pk of pks) {
  const o = ds.output(pk)!;
  console.log('\n== output', pk, o.study_name, o.measurement_type, { value: o.value, mean: o.mean, median: o.median, min: o.min, max: o.max, sd: o.sd, unit: o.unit, label: o.label, time: o.time, time_unit: o.time_unit, group: o.group_pk, ind: o.individual_pk, sub: o.substance, tissue: o.tissue, ints: o.intervention_pks, subset: o.subset_pk, calc: o.calculated });
  const raw = tables.outputs.find((r) => r.pk === o.raw_pk); if (raw) console.log('  raw', { value: raw.value, mean: raw.mean, median: raw.median, unit: raw.unit });
  for (const i of o.intervention_pks) { const iv = ds.intervention(i); if (iv) console.log('  int', i, iv.name, iv.measurement_type, iv.substance, iv.value, iv.unit, iv.route, iv.time, iv.time_unit, iv.application); }
  const tcs = tables.timecourses.filter((t) => t.study_sid === o.study_sid && t.measurement_type === 'concentration' && (t.group_pk === o.group_pk && t.individual_pk === o.individual_pk) && t.intervention_pk.join() === [...o.intervention_pks].sort((a,b)=>a-b).join());
  for (const t of tcs.slice(0, 3)) console.log('  tc', t.subset_pk, t.label, t.substance, t.time_unit, JSON.stringify(t.time), JSON.stringify(t.mean ?? t.value ?? t.median)?.slice(0, 200), t.unit);
}
