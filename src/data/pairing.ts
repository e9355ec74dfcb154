/**
 * Raw ↔ normed pairing, the one rule used by the API mapping (`from-api.ts`,
 * which fills `raw_pk`) and the QA (`qa/normed-vs-raw.ts`, which links copies
 * whose source gives no `raw_pk`).
 *
 * PK-DB creates every raw record first and then, in the same order, exactly
 * one normed copy per raw record (PK-DB API notes §4,
 * `create_multiple_bulk_normalized`), and normalisation changes only values
 * and units. So: records with equal identity (everything but values and units)
 * are bucketed; inside a bucket the k-th raw record by pk pairs with the k-th
 * normed record by pk. A bucket whose raw and normed counts differ, or where a
 * normed pk is not above its raw pk, is left unpaired rather than guessed.
 *
 * Outputs compare their interventions by **name**: a raw output may point at
 * raw intervention records and its normed copy at the normed ones, so the
 * intervention pks of the two differ while the names agree.
 */
import type { InterventionRecord, OutputRecord } from './model.js';

/** What a normed intervention shares with its raw record: all but values and unit. */
export function interventionIdentity(i: InterventionRecord): string {
  return JSON.stringify([i.study_sid, i.name, i.route, i.form, i.application, i.time, i.time_end, i.time_unit, i.measurement_type, i.calculation_type, i.choice, i.substance]);
}

/** What a normed output shares with its raw record; interventions by name (`interventionNames`: pk → name), unknown pks by pk. */
export function outputIdentity(interventionNames: ReadonlyMap<number, string>): (o: OutputRecord) => string {
  return (o) =>
    JSON.stringify([
      o.study_sid, o.group_pk, o.individual_pk, o.intervention_pks.map((pk) => interventionNames.get(pk) ?? pk).sort(),
      o.calculated, o.tissue, o.method, o.label, o.output_type, o.time, o.time_unit, o.measurement_type, o.calculation_type, o.choice, o.substance,
    ]);
}

/** The intervention name of each pk, for `outputIdentity`. */
export function interventionNames(interventions: Iterable<Pick<InterventionRecord, 'pk' | 'name'>>): Map<number, string> {
  const names = new Map<number, string>();
  for (const i of interventions) names.set(i.pk, i.name);
  return names;
}

/**
 * The raw record of each normed copy, by the rule above (`raws` and `normed`
 * may be any subsets, e.g. the copies without `raw_pk`). Copies left out are
 * unpaired. Pure: nothing is modified.
 */
export function pairNormedCopies<R extends { pk: number }>(raws: Iterable<R>, normed: Iterable<R>, identity: (record: R) => string): Map<R, R> {
  const buckets = new Map<string, { raw: R[]; normed: R[] }>();
  const bucketOf = (record: R) => {
    const key = identity(record);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { raw: [], normed: [] }));
    return bucket;
  };
  for (const record of raws) bucketOf(record).raw.push(record);
  for (const record of normed) bucketOf(record).normed.push(record);
  const pairs = new Map<R, R>();
  for (const bucket of buckets.values()) {
    if (bucket.raw.length !== bucket.normed.length) continue;
    const raw = [...bucket.raw].sort((a, b) => a.pk - b.pk);
    const copies = [...bucket.normed].sort((a, b) => a.pk - b.pk);
    if (copies.some((copy, k) => copy.pk <= raw[k].pk)) continue;
    copies.forEach((copy, k) => pairs.set(copy, raw[k]));
  }
  return pairs;
}

/** Sets `raw_pk` of each normed record of `records` that pairs with a raw one (`pairNormedCopies`); the others keep theirs. */
export function linkRawPks<R extends { pk: number; normed: boolean; raw_pk: number | null }>(records: R[], identity: (record: R) => string): void {
  const pairs = pairNormedCopies(records.filter((r) => !r.normed), records.filter((r) => r.normed), identity);
  for (const [copy, raw] of pairs) copy.raw_pk = raw.pk;
}
