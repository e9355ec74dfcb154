import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/data/fixtures.js';
import { finding } from '../../src/qa/finding.js';
import { culpritText, localRecordUrl, pkdbStudyUrl, recordsOf, subjectText } from '../../src/report/records.js';

describe('records of a finding', () => {
  it('names the subject with its name and size, individuals with their group', async () => {
    const fixtures = await loadFixtures();
    const g = fixtures.tables.groups.find((x) => x.count !== null)!;
    expect(subjectText(`group:${g.pk}`, fixtures)).toBe(`group '${g.name}' (n=${g.count})`);
    const i = fixtures.tables.individuals.find((x) => x.group_pk !== null)!;
    expect(subjectText(`individual:${i.pk}`, fixtures)).toBe(`individual '${i.name}' of group '${fixtures.group(i.group_pk!)!.name}'`);
    expect(subjectText('group:999999', fixtures)).toBe('group 999999');
    expect(subjectText('group:12')).toBe('group 12');
    expect(subjectText(null)).toBeNull();
  });

  it('lists every record id once: columns first, then the records and pk lists of its details', () => {
    const f = finding({
      kind: 'normed-vs-raw',
      severity: 'major',
      message: 'm',
      output_pk: 143002,
      subset_pk: 2911,
      intervention_pk: 17,
      subject: 'group:1462',
      details: { raw: { pk: 143001, intervention_pks: [17] }, normed: { pk: 143002, intervention_pks: [17] }, auc_end_output_pk: 143010, dosing_pks: [17, 18], note: 5 },
    });
    expect(recordsOf(f).map((r) => [r.field, r.resource, r.pk])).toEqual([
      ['output_pk', 'outputs', 143002],
      ['subset_pk', 'subsets', 2911],
      ['intervention_pk', 'interventions', 17],
      ['subject', 'groups', 1462],
      ['details.raw', 'outputs', 143001],
      ['details.auc_end_output_pk', 'outputs', 143010],
      ['details.dosing_pks', 'interventions', 18],
    ]);
  });

  it('links to pk-db.com and to the detail routes of a local pkdb serve', () => {
    expect(pkdbStudyUrl('PKDB00123')).toBe('https://pk-db.com/data/PKDB00123');
    expect(localRecordUrl('http://127.0.0.1:8000/', 'outputs', 143002)).toBe('http://127.0.0.1:8000/api/v1/outputs/143002/');
    expect(localRecordUrl('http://host:9000/pkdb', 'studies', 'a b')).toBe('http://host:9000/pkdb/api/v1/studies/a%20b/');
  });

  it('says which record to fix when the check knows', () => {
    const base = { kind: 'reported-vs-recomputed' as const, severity: 'major' as const, message: 'm', output_pk: 5, subset_pk: 6, intervention_pk: 7 };
    expect(culpritText(finding({ ...base, culprit: 'output' }))).toBe('the reported output 5');
    expect(culpritText(finding({ ...base, culprit: 'timecourse' }))).toBe('the timecourse 6');
    expect(culpritText(finding({ ...base, culprit: 'dose' }))).toBe('the dose (intervention 7)');
    expect(culpritText(finding(base))).toBeNull();
  });
});
