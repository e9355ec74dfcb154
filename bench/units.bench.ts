/**
 * Units: conversions per second with the cached numeric factor vs a mathjs
 * parse per conversion, normalize() records per second, and the normed-vs-raw
 * check over raw/normed pairs. `npm run bench -- units`
 */
import { resourceUsage } from 'node:process';
import type { DatasetTables, OutputRecord } from '../src/data/model.js';
import { checkNormedVsRaw } from '../src/qa/normed-vs-raw.js';
import { convert, normalize } from '../src/units/index.js';
import { unitMath } from '../src/units/registry.js';

const PAIRS: [string, string][] = [
  ['mg/dl', 'gram / liter'],
  ['\u00B5g/ml', 'gram / liter'],
  ['min', 'hour'],
  ['1/h', '1 / minute'],
  ['ml/min/kg', 'liter / hour / kilogram'],
  ['mg*h/l', 'gram * hour / liter'],
];
/** The same conversions spelled for mathjs (it cannot convert to `1 / minute`, a unit with a value). */
const MATHJS_PAIRS: [string, string][] = [
  ['mg/dl', 'g/l'],
  ['ug/ml', 'g/l'],
  ['min', 'hour'],
  ['h^-1', 'minute^-1'],
  ['ml/min/kg', 'l/h/kg'],
  ['mg*h/l', 'g*h/l'],
];

function time(label: string, n: number, unit: string, body: () => void): void {
  const t0 = process.hrtime.bigint();
  body();
  const ns = Number(process.hrtime.bigint() - t0);
  console.log(`${label.padEnd(44)} ${((n / ns) * 1e9).toExponential(3).padStart(10)} ${unit}/s  (${(ns / n).toFixed(1)} ns each)`);
}

function syntheticOutputs(n: number): OutputRecord[] {
  const kinds: [string, string, number][] = [
    ['concentration', 'mg/l', 5], ['concentration', '\u00B5mol/l', 30], ['cmax', 'ng/ml', 800], ['tmax', 'min', 45],
    ['thalf', 'h', 4], ['kel', '1/h', 0.2], ['auc_inf', 'mg*h/l', 40], ['clearance', 'ml/min', 90], ['vd', 'l/kg', 0.7], ['recovery', 'percent', 35],
  ];
  return Array.from({ length: n }, (_, i) => {
    const [type, unit, v] = kinds[i % kinds.length];
    return {
      pk: i + 1, raw_pk: null, normed: false, calculated: false, study_sid: 'BENCH', study_name: 'Bench', group_pk: 1, individual_pk: null,
      intervention_pks: [1], tissue: 'plasma', method: null, label: `L${i}`, output_type: 'output', time: null, time_unit: null,
      measurement_type: type, calculation_type: null, choice: null, substance: 'caffeine', subset_pk: null,
      value: null, mean: v * (1 + (i % 7) / 10), median: null, min: null, max: null, sd: v / 10, se: null, cv: null, unit,
    };
  });
}

export async function run(): Promise<void> {
  let sink = 0;
  const cachedN = 2_000_000;
  for (const [from, to] of PAIRS) sink += convert(1, from, to);
  // The same loop with a multiply instead of convert(): what the machine's load leaves for the loop itself.
  const factors = PAIRS.map((_, i) => 1 + i / 10);
  time('loop baseline (multiply by a constant)', cachedN, 'iterations', () => {
    for (let i = 0; i < cachedN; i++) sink += i * factors[i % factors.length];
  });
  time('convert(), cached factor', cachedN, 'conversions', () => {
    for (let i = 0; i < cachedN; i++) {
      const pair = PAIRS[i % PAIRS.length];
      sink += convert(i, pair[0], pair[1]);
    }
  });
  const parseN = 20_000;
  time('mathjs unit(value, from).toNumber(to) each time', parseN, 'conversions', () => {
    for (let i = 0; i < parseN; i++) {
      const pair = MATHJS_PAIRS[i % MATHJS_PAIRS.length];
      sink += unitMath().unit(i, pair[0]).toNumber(pair[1]);
    }
  });

  const records = syntheticOutputs(100_000);
  for (const r of records.slice(0, 20)) normalize(r, { substanceMass: 194.19 });
  time('normalize(), 100k outputs (10 unit/type mixes)', records.length, 'records', () => {
    for (const r of records) sink += normalize(r, { substanceMass: 194.19 }).mean ?? 0;
  });

  const normed = records.map((r, i) => ({ ...normalize(r, { substanceMass: 194.19 }), pk: records.length + i + 1, raw_pk: r.pk }));
  const tables: DatasetTables = {
    studies: [], groups: [], individuals: [], interventions: [], outputs: [...records, ...normed], timecourses: [], scatters: [], terms: [],
  };
  let findings = 0;
  time('checkNormedVsRaw, 100k raw/normed pairs', records.length, 'pairs', () => {
    findings = checkNormedVsRaw(tables).length;
  });
  console.log(`findings on clean pairs: ${findings}; peak RSS ${(resourceUsage().maxRSS / 1024).toFixed(0)} MB; (sink ${sink > 0})`);
}
