import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { finding } from '../../src/qa/finding.js';
import { findingId } from '../../src/qa/finding-id.js';
import { diffFindings, diffReleases, factorLabel, type ReleaseDiff } from '../../src/qa/release-diff.js';
import { runQa } from '../../src/qa/run.js';
import { SLIP_OUTPUT, plantedReleases, type PlantedReleases } from '../helpers/planted-release.js';
import { cloneTables, renumberStudy } from '../helpers/releases.js';
import { SHARED_EXPORT, describeShared } from '../helpers/shared.js';

describe('factorLabel', () => {
  it('names slip factors with the QA vocabulary, others as a plain factor', () => {
    expect(factorLabel(1000)).toMatch(/^×1000 \(milli\/micro prefix slip/);
    expect(factorLabel(0.001)).toMatch(/^×1\/1000 \(/);
    expect(factorLabel(1e6 * 1.001)).toMatch(/^×10⁶ /);
    expect(factorLabel(1 / 60)).toMatch(/^×1\/60 \(minutes vs hours\)/);
    expect(factorLabel(1.5)).toBe('×1.5');
    expect(factorLabel(null)).toBeNull();
    expect(factorLabel(0)).toBeNull();
  });
});

describe('diffFindings', () => {
  const base = finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S', output_pk: 1, subset_pk: 2, measurement_type: 'cmax', reported: 1, recomputed: 1000, ratio: 0.001, message: 'm' });
  it('counts a major finding that became info (a fixed slip) as resolved, and the reverse as introduced', () => {
    const fixed = { ...base, severity: 'info' as const, reported: 1000, ratio: 1 };
    expect(diffFindings([base], [fixed])).toMatchObject({ resolved: [{ id: findingId(base), severity: 'major' }], introduced: [], changed: [], unchanged: 0 });
    expect(diffFindings([fixed], [base])).toMatchObject({ resolved: [], introduced: [{ id: findingId(base) }] });
  });
  it('reports a finding with other values or severity as changed, an equal one as unchanged', () => {
    const minor = { ...base, severity: 'minor' as const, ratio: 0.5 };
    expect(diffFindings([base], [minor]).changed).toEqual([expect.objectContaining({ id: findingId(base), changed: ['severity', 'ratio'] })]);
    expect(diffFindings([base], [{ ...base }])).toMatchObject({ resolved: [], introduced: [], changed: [], unchanged: 1 });
  });
  it('compares renumbered records through the remap', () => {
    const renumbered = { ...base, output_pk: 101, subset_pk: 102 };
    expect(diffFindings([base], [renumbered]).unchanged).toBe(0);
    expect(diffFindings([base], [renumbered], (_t, pk) => pk + 100)).toMatchObject({ resolved: [], introduced: [], unchanged: 1 });
    expect(diffFindings([base], [renumbered], (_t, pk) => pk + 100).renamed).toEqual([{ old_id: findingId(base), new_id: findingId(renumbered) }]);
    expect(diffFindings([base], [{ ...base }]).renamed).toEqual([]);
  });
});

describe('diffReleases on the fixtures with planted changes', () => {
  let planted: PlantedReleases;
  let diff: ReleaseDiff;
  beforeAll(async () => {
    planted = await plantedReleases();
    diff = diffReleases(planted.oldDs, planted.newDs);
  });

  it('names the fixed slip ×1000 and resolves its finding', () => {
    const slip = diff.records.find((r) => r.change === 'changed' && r.old_pk === SLIP_OUTPUT)!;
    expect(slip.fields[0].factor_label).toMatch(/^×1000 \(milli\/micro prefix slip/);
    // Every major the slip caused (reported-vs-recomputed, pk-identity) is resolved, and nothing else.
    const oldSlips = runQa(planted.oldDs).findings.filter((f) => f.output_pk === SLIP_OUTPUT && f.severity === 'major');
    expect(oldSlips.map((f) => f.kind).sort()).toEqual(['pk-identity', 'reported-vs-recomputed']);
    expect(diff.findings!.resolved.map((f) => f.id).sort()).toEqual(oldSlips.map((f) => findingId(f)).sort());
  });

  it('keeps the findings of the renumbered study unchanged and introduces only those of the added study', () => {
    const f = diff.findings!;
    expect(f.changed).toEqual([]);
    for (const x of f.introduced) expect(x.study_sid).toBe('SYN0099');
    const copyFindings = runQa(planted.newDs).findings.filter((x) => x.study_sid === 'SYN0099' && x.severity !== 'info');
    expect(f.introduced).toHaveLength(copyFindings.length);
    // SYN0005's four dose findings (renumbered by +70000) are among the unchanged ones.
    const unchangedSyn5 = runQa(planted.oldDs).findings.filter((x) => x.study_sid === 'SYN0005' && x.severity !== 'info').length;
    expect(unchangedSyn5).toBeGreaterThanOrEqual(4);
    expect(f.unchanged).toBeGreaterThanOrEqual(unchangedSyn5);
    // Their ids changed with the pks: the diff names old and new id, to carry an accepted file over.
    expect(f.renamed).toHaveLength(unchangedSyn5);
    expect(diff.differences).toBe(true);
  });

  it('finds no differences between a release and itself', () => {
    const same = diffReleases(planted.oldDs, planted.oldDs);
    expect(same.differences).toBe(false);
    expect(same.findings).toMatchObject({ resolved: [], introduced: [], changed: [] });
    expect(diffReleases(planted.oldDs, planted.newDs, { qa: false }).findings).toBeNull();
  });
});

describeShared('diffReleases on the shared export', SHARED_EXPORT, () => {
  it('finds exactly a planted ×1000 among 360 studies, with one study renumbered, and unique finding ids', async () => {
    const { dataset } = await Dataset.fromExport(SHARED_EXPORT);
    const tables = cloneTables(dataset.tables);
    const renumbered = tables.timecourses[0].study_sid;
    renumberStudy(tables, renumbered, 10_000_000);
    // A reported cmax of another study, multiplied by 1000: the slip a release can introduce.
    const target = tables.outputs.find((o) => o.study_sid !== renumbered && o.measurement_type === 'cmax' && !o.calculated && o.value !== null)!;
    target.value = (target.value as number) * 1000;
    const diff = diffReleases(dataset, Dataset.fromTables(tables, { kind: 'export', location: 'planted' }));
    expect(diff.records).toHaveLength(1);
    expect(diff.records[0]).toMatchObject({ table: 'outputs', change: 'changed', old_pk: target.pk, new_pk: target.pk });
    expect(diff.records[0].fields.map((f) => [f.field, f.factor_label?.slice(0, 5)])).toEqual([['value', '×1000']]);
    expect(diff.studies).toEqual({ added: [], removed: [], changed: [target.study_sid] });
    const f = diff.findings!;
    expect(f.resolved).toEqual([]);
    for (const x of [...f.introduced, ...f.changed.map((c) => c.new)]) expect(x.output_pk).toBe(target.pk);
    expect(f.unchanged).toBeGreaterThan(1000);
    const ids = runQa(dataset).findings.map((x) => findingId(x));
    expect(new Set(ids).size).toBe(ids.length);
  }, 120_000);
});
