import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { readExport, type ExportReadResult } from '../../../src/data/export/read.js';
import { writeExport } from '../../../src/data/export/write.js';
import type { DatasetTables, OutputRecord, Stats } from '../../../src/data/model.js';
import { SHARED_EXPORT, describeShared } from '../../helpers/shared.js';

const NO_STATS: Stats = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    pk,
    raw_pk: null,
    normed: true,
    calculated: false,
    study_sid: '3546378',
    study_name: 'Synthetic, "quoted"',
    group_pk: 1,
    individual_pk: null,
    intervention_pks: [10],
    tissue: 'plasma',
    method: null,
    label: 'l',
    output_type: 'timecourse',
    time: 0.5,
    time_unit: 'hr',
    measurement_type: 'concentration',
    calculation_type: null,
    choice: null,
    substance: 'caffeine',
    ...NO_STATS,
    mean: 1e-5,
    unit: 'gram / liter',
    subset_pk: 100,
    ...fields,
  };
}

/** A small dataset touching every table and the format's corner cases. */
function tinyTables(): DatasetTables {
  return {
    studies: [
      {
        sid: '3546378',
        name: 'Syn2020',
        licence: 'open',
        access: 'public',
        date: '2020-10-16',
        creator: 'someone',
        curators: ["o'neil", 'b'],
        substances: ['caffeine'],
        reference_pmid: '123',
        reference_title: '[Comparative study], with "quotes"\nand a newline',
        reference_date: null,
      },
    ],
    groups: [
      {
        pk: 1,
        name: 'all',
        count: 12,
        parent_pk: null,
        study_sid: '3546378',
        study_name: 'Syn2020',
        characteristica: [
          { pk: 5, count: 12, measurement_type: 'age', calculation_type: null, choice: null, substance: null, group_count: 12, ...NO_STATS, mean: 30.5, unit: 'yr' },
        ],
      },
      { pk: 2, name: 'empty', count: 3, parent_pk: 1, study_sid: '3546378', study_name: 'Syn2020', characteristica: [] },
    ],
    individuals: [
      {
        pk: 7,
        name: 'id7',
        group_pk: 1,
        study_sid: '3546378',
        study_name: 'Syn2020',
        characteristica: [
          { pk: 6, count: 1, measurement_type: 'sex', calculation_type: null, choice: 'F', substance: null, group_count: null, ...NO_STATS },
        ],
      },
    ],
    interventions: [
      {
        pk: 10,
        raw_pk: 9,
        normed: true,
        study_sid: '3546378',
        study_name: 'Syn2020',
        name: 'dose',
        route: 'oral',
        form: 'tablet',
        application: 'single dose',
        time: '0.0',
        time_end: null,
        time_unit: 'hr',
        measurement_type: 'dosing',
        calculation_type: null,
        choice: null,
        substance: '[2-3H]glucose',
        ...NO_STATS,
        value: 0.1,
        unit: 'gram',
      },
    ],
    outputs: [
      output(20, {}),
      output(21, { time: 1, mean: 1.5e16, intervention_pks: [10, 11] }),
      output(22, { calculated: true, output_type: null, label: null, time: null, subset_pk: null, intervention_pks: [] }),
    ],
    timecourses: [
      {
        subset_pk: 100,
        subset_name: 'tc',
        study_sid: '3546378',
        study_name: 'Syn2020',
        output_pk: [20, 21],
        intervention_pk: [10, 11],
        group_pk: 1,
        individual_pk: null,
        normed: true,
        tissue: 'plasma',
        tissue_label: 'plasma',
        method: null,
        method_label: null,
        label: 'l',
        time: [0.5, 1],
        time_unit: 'hr',
        measurement_type: 'concentration',
        measurement_type_label: 'concentration',
        choice: null,
        choice_label: null,
        substance: 'caf',
        substance_label: 'caffeine',
        value: null,
        mean: [1e-5, 1.5e16],
        median: null,
        min: null,
        max: null,
        sd: [null, 0.25],
        se: null,
        cv: null,
        unit: 'gram / liter',
      },
    ],
    scatters: [
      {
        subset_pk: 200,
        subset_name: 'sc',
        study_sid: '3546378',
        study_name: 'Syn2020',
        x: { outputs_pk: [20, 21], interventions: [[10], [10, 11]], group_pk: 1, individual_pk: null, normed: true, calculated: false, substance: 'caf', value: [0.5, null], unit: 'none', dimension: 0, data_point: [1, 2] },
        y: { outputs_pk: 22, interventions: [10], group_pk: null, individual_pk: [7], normed: [true], calculated: true, substance: ['a', null], value: 2, unit: 'none', dimension: 1, data_point: 3 },
      },
    ],
    // What the reader derives: the timecourse's sids and labels paired with its first output's names.
    terms: [
      { sid: 'caf', name: 'caffeine', label: 'caffeine', ntype: 'substance' },
      { sid: 'plasma', name: 'plasma', label: 'plasma', ntype: 'tissue' },
      { sid: 'concentration', name: 'concentration', label: 'concentration', ntype: 'measurement_type' },
    ],
  };
}

/** The scatter axis as the reader returns it: every axis column present. */
function fullAxis(axis: Record<string, unknown>, template: Record<string, unknown>): Record<string, unknown> {
  return { ...Object.fromEntries(Object.keys(template).map((k) => [k, null])), ...axis };
}

function members(zip: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

function rezip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

describe('writeExport', () => {
  it('writes the members in the real order and reads back to equal tables', async () => {
    const tables = tinyTables();
    const zip = writeExport(tables);
    expect(Object.keys(unzipSync(zip))).toEqual([
      'studies.csv',
      'groups.csv',
      'individuals.csv',
      'interventions.csv',
      'outputs.csv',
      'timecourses.csv',
      'scatters.csv',
      'README.md',
      'TERMS_OF_USE.md',
    ]);
    const back = await readExport(zip);
    expect(back.problems).toEqual([]);
    const template = back.tables.scatters[0].x;
    const expected = {
      ...tables,
      scatters: tables.scatters.map((s) => ({ ...s, x: fullAxis(s.x, template), y: fullAxis(s.y, template) })),
    };
    expect(back.tables).toEqual(expected);
  });

  it('formats cells as pandas and Python do', () => {
    const files = members(writeExport(tinyTables()));
    const outputs = files['outputs.csv'].split('\n');
    expect(outputs[0].startsWith(',study_name,measurement_type,tissue,')).toBe(true);
    // One row per (output, intervention), a float group key, Python float reprs, an empty cell for a missing intervention.
    expect(outputs.filter((l) => /^\d+,"Synthetic, ""quoted""",/.test(l))).toHaveLength(4);
    expect(outputs[1]).toContain(',1.0,20,hr,True,False,,');
    expect(outputs[1]).toContain(',1e-05,0.5,');
    expect(outputs[2]).toContain(',1.5e+16,1.0,');
    expect(outputs[4]).toContain(',22,hr,True,True,,3546378,,,');
    const tc = files['timecourses.csv'].split('\n')[1];
    expect(tc).toContain(',"[20, 21]",100,tc,"[10, 11]",1.0,,True,');
    expect(tc).toContain(',"[1e-05, 1.5e+16]",,,,"[None, 0.25]",,,');
    const scatter = files['scatters.csv'].split('\n')[1];
    expect(scatter).toContain('"[20, 21]","[(10,), (10, 11)]",1.0,,True,False');
    expect(scatter).toContain(',22,"(10,)",,[7],[True],True,');
    expect(files['studies.csv']).toContain(`"[""o'neil"", 'b']"`);
    expect(files['groups.csv'].split('\n')[2]).toBe('1,Syn2020,3546378,,3,empty,,,,1.0,,,,,,,2,,,,');
  });

  it('writes an empty table as pandas to_csv() does (`""` and a newline), which reads back empty', async () => {
    const tables = { ...tinyTables(), scatters: [], timecourses: [] };
    const zip = writeExport(tables);
    expect(members(zip)['scatters.csv']).toBe('""\n');
    expect(members(zip)['timecourses.csv']).toBe('""\n');
    const back = await readExport(zip);
    expect(back.problems).toEqual([]);
    expect(back.tables.scatters).toEqual([]);
    expect(back.tables.timecourses).toEqual([]);
    expect(back.tables.studies).toEqual(tables.studies);
  });

  it('writes every member of an empty dataset as an empty frame; reads it and 0-byte members back empty', async () => {
    const empty: DatasetTables = { studies: [], groups: [], individuals: [], interventions: [], outputs: [], timecourses: [], scatters: [], terms: [] };
    const files = members(writeExport(empty));
    const csvs = Object.keys(files).filter((name) => name.endsWith('.csv'));
    expect(csvs).toHaveLength(7);
    for (const name of csvs) expect(files[name], name).toBe('""\n');
    expect((await readExport(writeExport(empty))).tables).toEqual(empty);
    const zeroBytes = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, name.endsWith('.csv') ? '' : text]));
    expect((await readExport(rezip(zeroBytes))).tables).toEqual(empty);
  });

  it('refuses an empty-frame header followed by rows (no columns to read them by)', async () => {
    const good = members(writeExport(tinyTables()));
    await expect(readExport(rezip({ ...good, 'studies.csv': '""\n0,x\n' }), { name: 'odd.zip' })).rejects.toThrow(
      /odd\.zip: studies\.csv lacks column\(s\) sid/,
    );
  });
});

describe('readExport on damaged archives', () => {
  const good = members(writeExport(tinyTables()));

  it('reports a malformed row with file, line and column and reads the rest', async () => {
    const lines = good['outputs.csv'].split('\n');
    lines[2] = lines[2].replace(',1.0,21,', ',1.0,2x1,');
    const { tables, problems } = await readExport(rezip({ ...good, 'outputs.csv': lines.join('\n') }), { name: 'bad.zip' });
    expect(problems).toEqual([{ file: 'outputs.csv', line: 3, column: 'output_pk', message: 'not a number: "2x1"' }]);
    expect(tables.outputs.map((o) => o.pk)).toEqual([20, 21, 22]);
    expect(tables.outputs[1].intervention_pks).toEqual([11]);
  });

  it('reports a key column reading nan (a missing value) instead of keeping a record without its key', async () => {
    const lines = good['outputs.csv'].split('\n');
    lines[2] = lines[2].replace(',1.0,21,', ',1.0,nan,');
    const { tables, problems } = await readExport(rezip({ ...good, 'outputs.csv': lines.join('\n') }), { name: 'bad.zip' });
    expect(problems).toEqual([{ file: 'outputs.csv', line: 3, column: 'output_pk', message: 'not an integer: "nan"' }]);
    expect(tables.outputs.map((o) => o.pk)).toEqual([20, 21, 22]);
  });

  it('reports wrong cell counts, broken lists and contradicting rows', async () => {
    const tc = good['timecourses.csv'].split('\n');
    tc[1] = tc[1].replace('"[20, 21]"', '"[20, 21"');
    const out = good['outputs.csv'].split('\n');
    out[3] = out[3].replace(',1.5e+16,', ',2.5,');
    const studies = good['studies.csv'].replace('Syn2020,open', 'Syn2020,open,extra');
    const { problems, tables } = await readExport(
      rezip({ ...good, 'timecourses.csv': tc.join('\n'), 'outputs.csv': out.join('\n'), 'studies.csv': studies }),
    );
    expect(problems).toHaveLength(3);
    expect(problems).toContainEqual({ file: 'studies.csv', line: 2, column: null, message: 'expected 12 cells, found 13' });
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'timecourses.csv', line: 2, column: 'output_pk', message: expect.stringMatching(/expected ','/) }),
    );
    expect(problems).toContainEqual({
      file: 'outputs.csv',
      line: 4,
      column: 'mean',
      message: 'output 21: mean is 15000000000000000 on line 3 but 2.5 here',
    });
    expect(tables.timecourses).toEqual([]);
    expect(tables.studies).toEqual([]);
  });

  it('names the CSV column when rows of one subject disagree', async () => {
    const lines = good['groups.csv'].split('\n');
    const again = lines[1].replace(',all,', ',everyone,').replace(',1,5,', ',1,6,');
    const groups = [...lines.slice(0, 2), again, ...lines.slice(2)].join('\n');
    const { problems, tables } = await readExport(rezip({ ...good, 'groups.csv': groups }));
    expect(problems).toEqual([
      { file: 'groups.csv', line: 3, column: 'group_name', message: 'subject 1: name is "all" on line 2 but "everyone" here' },
    ]);
    expect(tables.groups[0].characteristica.map((c) => c.pk)).toEqual([5]);
  });

  it('throws in strict mode with the same text', async () => {
    const lines = good['outputs.csv'].split('\n');
    lines[2] = lines[2].replace(',True,False,', ',yes,False,');
    const zip = rezip({ ...good, 'outputs.csv': lines.join('\n') });
    await expect(readExport(zip, { strict: true, name: 'bad.zip' })).rejects.toThrow(
      'bad.zip: outputs.csv line 3, column normed: expected True or False, found "yes"',
    );
  });

  it('names a missing member and a missing column', async () => {
    const { ['timecourses.csv']: _dropped, ...rest } = good;
    await expect(readExport(rezip(rest), { name: 'x.zip' })).rejects.toThrow('x.zip: missing timecourses.csv');
    const renamed = good['outputs.csv'].replace(',output_pk,', ',outputpk,');
    await expect(readExport(rezip({ ...good, 'outputs.csv': renamed }), { name: 'x.zip' })).rejects.toThrow(
      'x.zip: outputs.csv lacks column(s) output_pk',
    );
  });

  it('refuses a zip whose directory claims an absurd size before inflating anything', async () => {
    const zip = rezip(good);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    let patched = 0;
    for (let i = 0; i + 4 <= zip.length; i++) {
      if (view.getUint32(i, true) === 0x02014b50) {
        view.setUint32(i + 24, 0xfffffff0, true);
        patched++;
      }
    }
    expect(patched).toBe(9);
    await expect(readExport(zip, { name: 'bomb.zip' })).rejects.toThrow(
      'bomb.zip: refused, looks like a zip bomb: uncompressed size exceeds 2048 MiB',
    );
  });

  it('stops an entry that inflates past its declared size', async () => {
    const zip = rezip(good);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let i = 0; i + 4 <= zip.length; i++) {
      // The central-directory record of outputs.csv (its name follows the 46-byte fixed part) now claims 100 bytes.
      if (view.getUint32(i, true) === 0x02014b50 && strFromU8(zip.subarray(i + 46, i + 57)) === 'outputs.csv') view.setUint32(i + 24, 100, true);
    }
    await expect(readExport(zip, { name: 'liar.zip' })).rejects.toThrow(/^liar\.zip: cannot inflate outputs\.csv \(/);
  });

  it('refuses a highly compressible entry and too many entries', async () => {
    const zeros = zipSync({ ...Object.fromEntries(Object.entries(good).map(([k, v]) => [k, strToU8(v)])), 'pad.bin': new Uint8Array(4_000_000) });
    await expect(readExport(zeros, { name: 'z.zip', limits: { ratioFloorBytes: 1_000_000, maxRatio: 100 } })).rejects.toThrow(
      /z\.zip: refused, looks like a zip bomb: pad\.bin expands \d+:1 to 4 MiB/,
    );
    const many = zipSync(Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`f${i}`, new Uint8Array(0)])));
    await expect(readExport(many, { name: 'm.zip' })).rejects.toThrow('m.zip: refused, looks like a zip bomb: more than 10000 entries');
  });
});

describeShared('writeExport on the shared export', SHARED_EXPORT, () => {
  let read: ExportReadResult;
  let written: Uint8Array;

  beforeAll(async () => {
    read = await readExport(SHARED_EXPORT);
    written = writeExport(read.tables);
  });

  it('reads back to deep-equal tables', async () => {
    const again = await readExport(written);
    expect(again.problems).toEqual([]);
    expect(again.tables).toEqual(read.tables);
  });

  it('writes the real headers and, apart from the row index, the real rows', () => {
    const real = members(new Uint8Array(readFileSync(SHARED_EXPORT)));
    const mine = members(written);
    const body = (text: string) =>
      text
        .split('\n')
        .slice(1)
        .filter((l) => l !== '')
        .map((l) => l.slice(l.indexOf(',')))
        .sort();
    for (const file of ['studies.csv', 'groups.csv', 'individuals.csv', 'interventions.csv', 'outputs.csv', 'timecourses.csv', 'scatters.csv']) {
      expect(mine[file].slice(0, mine[file].indexOf('\n')), file).toBe(real[file].slice(0, real[file].indexOf('\n')));
      const [a, b] = [body(real[file]), body(mine[file])];
      expect(b.length, file).toBe(a.length);
      if (file === 'timecourses.csv') continue;
      expect(b, file).toEqual(a);
    }
  });
});
