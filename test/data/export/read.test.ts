import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { readExport, type ExportReadResult } from '../../../src/data/export/read.js';
import type { DatasetTables } from '../../../src/data/model.js';
import { PROJECT_ROOT, SHARED_EXPORT, describeShared } from '../../helpers/shared.js';

/**
 * Data lines of a CSV text counted independently of the reader: newlines
 * outside double quotes, minus the header.
 */
function naiveDataLines(text: string): number {
  let inQuotes = false;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (c === '\n' && !inQuotes) lines++;
  }
  if (!text.endsWith('\n')) lines++;
  return lines - 1;
}

describeShared('readExport on the shared 2020-10-16 export', SHARED_EXPORT, () => {
  let result: ExportReadResult;
  let tables: DatasetTables;
  let raw: Record<string, string>;

  beforeAll(async () => {
    result = await readExport(SHARED_EXPORT);
    tables = result.tables;
    const members = unzipSync(readFileSync(SHARED_EXPORT));
    raw = Object.fromEntries(Object.entries(members).map(([name, bytes]) => [name, strFromU8(bytes)]));
  });

  it('reads without problems', () => {
    expect(result.problems).toEqual([]);
  });

  it('has one record per data line where the CSV has one row per entity', () => {
    expect(tables.studies).toHaveLength(naiveDataLines(raw['studies.csv']));
    expect(tables.interventions).toHaveLength(naiveDataLines(raw['interventions.csv']));
    expect(tables.timecourses).toHaveLength(naiveDataLines(raw['timecourses.csv']));
    expect(tables.scatters).toHaveLength(naiveDataLines(raw['scatters.csv']));
    expect(tables.studies).toHaveLength(360);
    expect(tables.timecourses).toHaveLength(2473);
  });

  it('accounts for every line of the collapsed CSVs', () => {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(tables.outputs.map((o) => o.intervention_pks.length))).toBe(naiveDataLines(raw['outputs.csv']));
    expect(sum(tables.groups.map((g) => g.characteristica.length))).toBe(naiveDataLines(raw['groups.csv']));
    expect(sum(tables.individuals.map((i) => i.characteristica.length))).toBe(naiveDataLines(raw['individuals.csv']));
    // Distinct output pks, counted from the raw text: output_pk is the 9th column and no earlier cell is quoted.
    const pks = new Set(
      raw['outputs.csv']
        .split('\n')
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => line.split(',')[8]),
    );
    expect(tables.outputs).toHaveLength(pks.size);
    const calculated = tables.outputs.filter((o) => o.calculated);
    expect(calculated).toHaveLength(9800);
    expect(calculated.reduce((n, o) => n + o.intervention_pks.length, 0)).toBe(11892);
  });

  it('keeps every timecourse list aligned with output_pk and linked to its outputs', () => {
    const outputs = new Map(tables.outputs.map((o) => [o.pk, o]));
    const misaligned: string[] = [];
    const unlinked: number[] = [];
    for (const tc of tables.timecourses) {
      const n = tc.output_pk.length;
      for (const key of ['time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const) {
        const list = tc[key];
        if (Array.isArray(list) && list.length !== n) misaligned.push(`${tc.subset_pk}.${key}`);
      }
      for (const pk of tc.output_pk) {
        const output = outputs.get(pk);
        if (output?.output_type !== 'timecourse' || output.subset_pk !== tc.subset_pk) unlinked.push(pk);
      }
    }
    expect(misaligned).toEqual([]);
    expect(unlinked).toEqual([]);
    const members = new Set(tables.timecourses.flatMap((tc) => tc.output_pk));
    expect(tables.outputs.filter((o) => o.subset_pk !== null)).toHaveLength(members.size);
  });

  it('reads sample cells exactly as the CSV has them', () => {
    const study = tables.studies.find((s) => s.sid === 'PKDB00198');
    expect(study).toEqual({
      sid: 'PKDB00198',
      name: 'Abernethy1982',
      licence: 'closed',
      access: 'public',
      date: '2019-10-01',
      creator: 'jbrandhorst',
      curators: ['mkoenig', 'jbrandhorst'],
      substances: ['paracetamol'],
      reference_pmid: '7075126',
      reference_title: 'Obesity, sex, and acetaminophen disposition.',
      reference_date: '1982-07-19',
    });
    // A numeric-looking sid stays a string.
    expect(tables.studies.some((s) => s.sid === '3437070')).toBe(true);

    const clearance = tables.outputs.find((o) => o.pk === 29)!;
    expect(clearance).toMatchObject({
      measurement_type: 'clearance',
      tissue: 'plasma',
      group_pk: 6,
      individual_pk: null,
      intervention_pks: [2],
      mean: 19.38,
      min: 11.94,
      max: 29.34,
      sd: null,
      unit: 'liter / hour',
      normed: true,
      calculated: false,
      output_type: 'output',
      subset_pk: null,
    });
    const cmax = tables.outputs.find((o) => o.pk === 66878)!;
    expect(cmax.intervention_pks).toEqual([1590, 1591, 1592, 1593, 1594, 1595, 1596, 1597, 1598]);
    expect(cmax.se).toBe(5.156175908558591e-5);
    expect(cmax.mean).toBe(0.00018760000000000003);
    expect(cmax.study_sid).toBe('3437070');
    // Bracketed free text is not a list.
    expect(tables.outputs.find((o) => o.pk === 91532)?.substance).toBe('[2-3H]glucose');

    const tc = tables.timecourses.find((t) => t.subset_pk === 3)!;
    expect(tc.output_pk).toEqual([209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222]);
    expect(tc.individual_pk).toBe(3);
    expect(tc.group_pk).toBeNull();
    expect(tc.intervention_pk).toEqual([2]);
    expect(tc.time.slice(0, 3)).toEqual([0, 0.0833333333333333, 0.25]);
    expect(tc.value?.[1]).toBe(0.015295007000000001);
    expect(tc.value?.[5]).toBeNull();
    expect(tc.mean).toBeNull();
    expect([tc.substance, tc.substance_label, tc.time_unit, tc.unit]).toEqual(['apap', 'paracetamol', 'hr', 'gram / liter']);

    const group = tables.groups.find((g) => g.pk === 3)!;
    expect([group.name, group.count, group.parent_pk, group.study_sid]).toEqual(['obese men', 7, 2, 'PKDB00198']);
    expect(group.characteristica[0]).toMatchObject({ pk: 5, measurement_type: 'species', choice: 'homo sapiens', count: 42, group_count: 7 });

    const dose = tables.interventions.find((i) => i.pk === 84)!;
    expect(dose).toMatchObject({ raw_pk: 83, value: 7.9e-5, min: 7.7e-5, max: 8.3e-5, unit: 'count', time: '0.0', time_unit: 'hr' });

    const scatter = tables.scatters.find((s) => s.subset_pk === 783)!;
    expect(scatter.x.interventions).toEqual([814]);
    expect(scatter.x.group_pk).toBeNull();
    expect((scatter.x.individual_pk as number[])[0]).toBe(1827);
    expect((scatter.x.outputs_pk as number[]).length).toBe(10);
    expect([scatter.x.unit, scatter.y.dimension, scatter.x.normed]).toEqual(['none', 1, true]);
    const perPoint = tables.scatters.find((s) => s.subset_pk === 2201)!;
    expect((perPoint.x.interventions as number[][])[0]).toEqual([2006, 2008, 2010]);
  });

  it('pairs subset sids and labels with the outputs names into terms', () => {
    const key = (ntype: string, sid: string) => tables.terms.find((t) => t.ntype === ntype && t.sid === sid);
    expect(key('substance', 'apap')).toEqual({ sid: 'apap', name: 'paracetamol', label: 'paracetamol', ntype: 'substance' });
    expect(key('method', 'rp-hplc')?.name).toBe('RP-HPLC');
    const sids = tables.terms.map((t) => `${t.ntype}:${t.sid}`);
    expect(new Set(sids).size).toBe(sids.length);
  });

  it('reads the same from bytes as from a path', async () => {
    const fromBytes = await readExport(readFileSync(SHARED_EXPORT), { name: 'shared.zip' });
    expect(fromBytes.tables.outputs.length).toBe(tables.outputs.length);
    expect(fromBytes.tables.terms).toEqual(tables.terms);
  });
});

describe('readExport errors', () => {
  it('names the file it cannot read', async () => {
    await expect(readExport('/nonexistent/x.zip')).rejects.toThrow('/nonexistent/x.zip: cannot read (no such file)');
  });

  it('refuses bytes that are not a zip', async () => {
    await expect(readExport(new TextEncoder().encode('hello'), { name: 'h.zip' })).rejects.toThrow(
      /^h\.zip: not a readable zip archive/,
    );
  });
});

describe('readExport order', () => {
  const fixture = unzipSync(readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip')));
  /** Member `file` with the cell `from` of its line `line` (1-based) replaced by `to`. */
  const edit = (file: string, line: number, from: string, to: string) => {
    const lines = strFromU8(fixture[file]).split('\n');
    expect(lines[line - 1]).toContain(from);
    lines[line - 1] = lines[line - 1].replace(from, to);
    return strToU8(lines.join('\n'));
  };

  it('lists the problems of outputs.csv first and cuts them at maxProblems in that order, though it reads outputs.csv last', async () => {
    const zip = zipSync({ ...fixture, 'outputs.csv': edit('outputs.csv', 5, ',True,', ',Maybe,'), 'groups.csv': edit('groups.csv', 3, ',', ',"') });
    const all = await readExport(zip, { name: 'z.zip', worker: false });
    expect(all.problems.map((p) => [p.file, p.line])).toEqual([
      ['outputs.csv', 5],
      ['groups.csv', 3],
    ]);
    const first = await readExport(zip, { name: 'z.zip', worker: false, maxProblems: 1 });
    expect(first.problems.map((p) => p.file)).toEqual(['outputs.csv']);
    expect(first.problemCount).toBe(2);
  });

  it('throws the error of outputs.csv first when other members fail too', async () => {
    const broken = (file: string, from: string) => strToU8(strFromU8(fixture[file]).replace(from, `${from}_x`));
    const zip = zipSync({ ...fixture, 'outputs.csv': broken('outputs.csv', ',tissue'), 'groups.csv': broken('groups.csv', ',group_name') });
    await expect(readExport(zip, { name: 'z.zip', worker: false })).rejects.toThrow('z.zip: outputs.csv lacks column(s) tissue');
  });
});
