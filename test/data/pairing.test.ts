import { describe, expect, it } from 'vitest';
import type { InterventionRecord, OutputRecord } from '../../src/data/model.js';
import { interventionIdentity, interventionNames, linkRawPks, outputIdentity, pairNormedCopies } from '../../src/data/pairing.js';
import { checkNormedVsRaw } from '../../src/qa/normed-vs-raw.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, unit: null, pk, raw_pk: null, normed: false, calculated: false, study_sid: 'SYN9999', study_name: 'Handmade2024',
    group_pk: 1, individual_pk: null, intervention_pks: [1], tissue: 'plasma', method: null, label: 'Tab1', output_type: 'output',
    time: null, time_unit: null, measurement_type: 'cmax', calculation_type: null, choice: null, substance: 'caffeine', subset_pk: null,
    ...fields,
  };
}

function intervention(pk: number, fields: Partial<InterventionRecord>): InterventionRecord {
  return {
    ...STATS, unit: null, pk, raw_pk: null, normed: false, study_sid: 'SYN9999', study_name: 'Handmade2024', name: 'caf_oral',
    route: 'oral', form: 'capsule', application: 'single dose', time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing',
    calculation_type: null, choice: null, substance: 'caffeine', ...fields,
  };
}

describe('linkRawPks / pairNormedCopies', () => {
  it('an ambiguous bucket (counts differ) stays unpaired', () => {
    const records = [
      { pk: 1, normed: false, raw_pk: null, key: 'a' },
      { pk: 2, normed: false, raw_pk: null, key: 'a' },
      { pk: 3, normed: true, raw_pk: null as number | null, key: 'a' },
      { pk: 4, normed: false, raw_pk: null, key: 'b' },
      { pk: 5, normed: true, raw_pk: null as number | null, key: 'b' },
    ];
    linkRawPks(records, (r) => r.key);
    expect(records.map((r) => r.raw_pk)).toEqual([null, null, null, null, 4]);
  });

  it('pairs the k-th raw with the k-th copy by pk, and not when a copy is older than its raw record', () => {
    const r = (pk: number, key: string) => ({ pk, key });
    const raws = [r(3, 'a'), r(1, 'a'), r(10, 'b')];
    const copies = [r(6, 'a'), r(5, 'a'), r(9, 'b')];
    const pairs = pairNormedCopies(raws, copies, (x) => x.key);
    expect([...pairs].map(([copy, raw]) => [copy.pk, raw.pk]).sort()).toEqual([[5, 1], [6, 3]]);
  });

  it('a raw output pointing at raw interventions pairs with its copy pointing at the normed ones (interventions by name)', () => {
    const interventions = [
      intervention(1, { value: 100, unit: 'mg' }),
      intervention(2, { name: 'caf_iv', route: 'iv', value: 50, unit: 'mg' }),
      intervention(3, { normed: true, value: 0.1, unit: 'gram' }),
      intervention(4, { name: 'caf_iv', route: 'iv', normed: true, value: 0.05, unit: 'gram' }),
    ];
    linkRawPks(interventions, interventionIdentity);
    expect(interventions.map((i) => i.raw_pk)).toEqual([null, null, 1, 2]);

    const outputs = [
      output(10, { intervention_pks: [1], mean: 5, unit: 'mg/l' }),
      output(11, { intervention_pks: [2], mean: 7, unit: 'mg/l' }),
      output(20, { intervention_pks: [3], normed: true, mean: 0.005, unit: 'gram / liter' }),
      output(21, { intervention_pks: [4], normed: true, mean: 0.007, unit: 'gram / liter' }),
    ];
    const pairs = pairNormedCopies(outputs.slice(0, 2), outputs.slice(2), outputIdentity(interventionNames(interventions)));
    expect([...pairs].map(([copy, raw]) => [copy.pk, raw.pk])).toEqual([[20, 10], [21, 11]]);

    // The QA links the same copies (no raw_pk given) and finds nothing wrong with them.
    const findings = checkNormedVsRaw({
      studies: [], groups: [], individuals: [], interventions, outputs, timecourses: [], scatters: [], terms: [],
    });
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(findings.map((f) => f.message)).toEqual(['2 normed output(s) have no raw_pk: linked to raw records by study, subject, interventions, measurement type, substance, tissue, method, label and time']);
  });
});
