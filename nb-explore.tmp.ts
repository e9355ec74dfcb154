import { loadSource } from './src/cli/source.js';
const ds = await loadSource(process.argv[2] ? { export: process.argv[2] } : {});
const caf = ds.tables.outputs.filter((o) => o.normed && o.measurement_type === 'thalf' && o.substance === 'caffeine' && !o.calculated);
const subs = new Map<string, number>();
for (const o of caf) for (const pk of o.intervention_pks) { const i = ds.intervention(pk); const k = `${i?.measurement_type}|${i?.substance}`; subs.set(k, (subs.get(k) ?? 0) + 1); }
console.log(caf.length, [...subs].sort((a,b)=>b[1]-a[1]).slice(0,30));
const tcs = ds.tables.timecourses.filter((tc) => ds.memberOutputs(tc)[0]?.substance === 'caffeine');
console.log('tcs', tcs.length, Object.keys(tcs[0] ?? {}));
const ind = ds.tables.individuals[0]; console.log(ind && ind.characteristica.map(c=>c.measurement_type));
