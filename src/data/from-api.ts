/**
 * API items (the full views of /studies/, /groups/, /interventions/, ...) to
 * the dataset model, and a crawl of a PK-DB server into a `Dataset`.
 *
 * Terms: the full views carry `{sid, name, label}`; records keep the **name**
 * (as outputs.csv does) except timecourses and scatters, which keep the sid
 * with a `_label` (as timecourses.csv does). Every term seen goes to `terms`.
 *
 * raw_pk: paired by `linkRawPks` (pairing.ts), unless /pkdata/interventions/ gives it.
 */
import type { PageProgress, PkdbClient } from '../api/client.js';
import type { DataPoint, FlatIntervention, ResourceName, Group, Individual, InfoNode, Intervention, Output, Reference, Study, Subset, SubsetOutput, TermRef } from '../api/schemas/index.js';
import { Dataset } from './dataset.js';
import { interventionIdentity, interventionNames, linkRawPks, outputIdentity } from './pairing.js';
import { statsOf } from './records.js';
import type { CharacteristicaRecord, DatasetTables, GroupRecord, IndividualRecord, InfoNodeRecord, InterventionRecord } from './model.js';
import type { OutputRecord, ReferenceRecord, ScatterRecord, StudyRecord, TermRecord, TimecourseRecord } from './model.js';

export interface ApiItems {
  studies: Study[];
  groups: Group[];
  individuals: Individual[];
  /** Raw and normed records (the list without `normed=true`). */
  interventions: Intervention[];
  outputs: Output[];
  subsets: Subset[];
  info_nodes?: InfoNode[];
  references?: Reference[];
  /** /pkdata/interventions/ rows: their `raw_pk` replaces the inferred one. */
  flatInterventions?: FlatIntervention[];
  /** /pkdata/data/ rows: the data point of each scatter output (scatters.csv `data_point`). */
  dataPoints?: DataPoint[];
}

const nameOf = (term: TermRef | null | undefined): string | null => term?.name ?? null;

/** Collects `{sid, name, label, ntype}` for every TermRef met; one per (ntype, sid), first seen wins. */
class TermCollector {
  private readonly terms = new Map<string, TermRecord>();
  constructor(private readonly ntypeOfSid: Map<string, string>) {}

  add(ntype: string, term: TermRef | null | undefined): void {
    if (!term) return;
    const kind = this.ntypeOfSid.get(term.sid) ?? ntype;
    const key = `${kind}\u0000${term.sid}`;
    if (!this.terms.has(key)) this.terms.set(key, { sid: term.sid, name: term.name, label: term.label, ntype: kind });
  }

  addAll(item: Record<string, unknown>, fields: readonly string[]): void {
    for (const field of fields) this.add(field, item[field] as TermRef | null | undefined);
  }

  list(): TermRecord[] {
    return [...this.terms.values()];
  }
}

const INTERVENTION_TERMS = ['route', 'form', 'application', 'measurement_type', 'calculation_type', 'choice', 'substance'] as const;
const OUTPUT_TERMS = ['tissue', 'method', 'measurement_type', 'calculation_type', 'choice', 'substance'] as const;
const CHARACTERISTICA_TERMS = ['measurement_type', 'calculation_type', 'choice', 'substance'] as const;

function referenceRecord(reference: Reference): ReferenceRecord {
  const { pk, sid, name, pmid, doi, title, abstract, journal, date, authors } = reference;
  return { pk, sid, name, pmid, doi, title, abstract, journal, date, authors: authors.map(({ pk, first_name, last_name }) => ({ pk, first_name, last_name })) };
}

function studyRecord(study: Study): StudyRecord {
  const person = ({ username, first_name, last_name }: { username: string; first_name: string; last_name: string }) => ({ username, first_name, last_name });
  const { sid, name, licence, access, date } = study;
  return {
    ...{ sid, name, licence, access, date },
    creator: study.creator.username,
    curators: study.curators.map((curator) => curator.username),
    // /pkdata/studies/ and studies.csv list substance labels.
    substances: study.substances.map((substance) => substance.label),
    reference_pmid: study.reference.pmid,
    reference_title: study.reference.title,
    reference_date: study.reference_date,
    detail: {
      pk: study.pk,
      reference: referenceRecord(study.reference),
      creator: person(study.creator),
      curators: study.curators.map((curator) => ({ ...person(curator), rating: curator.rating })),
      collaborators: study.collaborators,
      comments: study.comments.map(({ pk, username, text }) => ({ pk, username, text })),
      descriptions: study.descriptions.map(({ pk, text }) => ({ pk, text })),
      files: study.files.map(({ pk, name, file }) => ({ pk, name, file })),
    },
  };
}

function characteristicaRecords(list: Group['characteristica']): CharacteristicaRecord[] {
  return list.map((c) => ({
    ...{ pk: c.pk, count: c.count, measurement_type: c.measurement_type.name, calculation_type: nameOf(c.calculation_type) },
    ...{ choice: nameOf(c.choice), substance: nameOf(c.substance), group_count: c.group_count },
    ...statsOf(c),
  }));
}

function interventionRecord(item: Intervention): InterventionRecord {
  const { pk, normed, name, time, time_end, time_unit } = item;
  return {
    ...{ pk, raw_pk: null, normed, study_sid: item.study.sid, study_name: item.study.name, name },
    ...{ route: nameOf(item.route), form: nameOf(item.form), application: nameOf(item.application), time, time_end, time_unit },
    measurement_type: item.measurement_type.name,
    calculation_type: nameOf(item.calculation_type),
    choice: nameOf(item.choice),
    substance: nameOf(item.substance),
    ...statsOf(item),
  };
}

function outputRecord(item: Output): OutputRecord {
  return {
    pk: item.pk,
    raw_pk: null,
    normed: item.normed,
    calculated: item.calculated,
    study_sid: item.study.sid,
    study_name: item.study.name,
    group_pk: item.group?.pk ?? null,
    individual_pk: item.individual?.pk ?? null,
    intervention_pks: item.interventions.map((i) => i.pk).sort((a, b) => a - b),
    tissue: nameOf(item.tissue),
    method: nameOf(item.method),
    label: item.label,
    output_type: item.output_type === '' ? null : item.output_type,
    time: item.time,
    time_unit: item.time_unit,
    measurement_type: item.measurement_type.name,
    calculation_type: nameOf(item.calculation_type),
    choice: nameOf(item.choice),
    substance: nameOf(item.substance),
    ...statsOf(item),
    subset_pk: null,
  };
}

/** Per-point values as timecourses.csv holds them: null when every point lacks the value. */
function series(values: (number | null)[]): (number | null)[] | null {
  return values.every((value) => value === null) ? null : values;
}

/** A subset point's group or individual: `{pk, ...}` or `{}` when absent. */
const refPk = (ref: Record<string, unknown>): number | null => (typeof ref.pk === 'number' ? ref.pk : null);

/** `{tissue, tissue_label}` etc. from a TermRef: sid plus label, as timecourses.csv writes terms. */
function sidAndLabel<K extends string>(key: K, term: TermRef | null): Record<K | `${K}_label`, string | null> {
  return { [key]: term?.sid ?? null, [`${key}_label`]: term?.label ?? null } as Record<K | `${K}_label`, string | null>;
}

function timecourseRecord(subset: Subset): TimecourseRecord | null {
  const points = subset.array.map((point) => point[0]).filter((point): point is SubsetOutput => point !== undefined);
  const first = points[0];
  if (!first) return null;
  const pick = (key: 'value' | 'mean' | 'median' | 'min' | 'max' | 'sd' | 'se' | 'cv') => points.map((point) => point[key]);
  return {
    subset_pk: subset.pk,
    subset_name: subset.name,
    study_sid: subset.study.sid,
    study_name: subset.study.name,
    output_pk: points.map((point) => point.pk),
    // First-seen order, as timecourses.csv writes it (e.g. [2216, 2214]); every point shares the set.
    intervention_pk: [...new Set(points.flatMap((point) => point.interventions.map((i) => i.pk)))],
    group_pk: refPk(first.group),
    individual_pk: refPk(first.individual),
    normed: first.normed,
    ...sidAndLabel('tissue', first.tissue),
    ...sidAndLabel('method', first.method),
    label: first.label,
    time: points.map((point) => point.time),
    time_unit: first.time_unit,
    measurement_type: first.measurement_type.sid,
    measurement_type_label: first.measurement_type.label,
    ...sidAndLabel('choice', first.choice),
    ...sidAndLabel('substance', first.substance),
    value: series(pick('value')),
    mean: series(pick('mean')),
    median: series(pick('median')),
    min: series(pick('min')),
    max: series(pick('max')),
    // PK-DB API notes §5 says PK-DB collapses equal sd/se to a scalar, but the real 2020-10-16
    // timecourses.csv keeps lists of equal values (e.g. subset 1330), so lists stay lists.
    sd: series(pick('sd')),
    se: series(pick('se')),
    cv: series(pick('cv')),
    unit: first.unit,
  };
}

/** Fields scatters.csv keeps as per-point lists even when all points agree (PK-DB API notes §8). */
const ALWAYS_LISTS = new Set(['time', 'value', 'mean', 'median', 'cv']);

/** What a scatter axis needs beyond the subset: outputs by pk, and data point pks from /pkdata/data/ by `subset:output`. */
interface ScatterContext {
  outputByPk: Map<number, OutputRecord>;
  dataPointOf: Map<string, number>;
}

/**
 * One axis of a scatter as scatters.csv writes it (keys without `x_`/`y_`):
 * a column that is null at every point is null (an empty cell), a value
 * identical across points collapses to a scalar, except the ALWAYS_LISTS.
 * `data_point` needs /pkdata/data/ rows; without them it is null.
 */
function scatterAxis(subsetPk: number, outputs: SubsetOutput[], { outputByPk, dataPointOf }: ScatterContext, dimension: number): Record<string, unknown> {
  const term = (pick: (o: SubsetOutput) => TermRef | null, part: 'sid' | 'label') => outputs.map((o) => pick(o)?.[part] ?? null);
  const columns: Record<string, unknown[]> = {
    outputs_pk: outputs.map((o) => o.pk),
    interventions: outputs.map((o) => o.interventions.map((i) => i.pk)),
    group_pk: outputs.map((o) => refPk(o.group)),
    individual_pk: outputs.map((o) => refPk(o.individual)),
    normed: outputs.map((o) => o.normed),
    // Scatter members are curated arrays (PK-DB calculates from timecourses only): the
    // fallbacks cover outputs /outputs/ does not list (e.g. ones without interventions).
    calculated: outputs.map((o) => outputByPk.get(o.pk)?.calculated ?? false),
    tissue: term((o) => o.tissue, 'sid'),
    tissue_label: term((o) => o.tissue, 'label'),
    method: term((o) => o.method, 'sid'),
    method_label: term((o) => o.method, 'label'),
    label: outputs.map((o) => o.label),
    output_type: outputs.map((o) => outputByPk.get(o.pk)?.output_type ?? 'array'),
    time: outputs.map((o) => o.time),
    time_unit: outputs.map((o) => o.time_unit),
    measurement_type: term((o) => o.measurement_type, 'sid'),
    measurement_type__label: term((o) => o.measurement_type, 'label'),
    choice: term((o) => o.choice, 'sid'),
    choice_label: term((o) => o.choice, 'label'),
    substance: term((o) => o.substance, 'sid'),
    substance_label: term((o) => o.substance, 'label'),
    ...Object.fromEntries((['value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const).map((key) => [key, outputs.map((o) => o[key])])),
    unit: outputs.map((o) => o.unit),
    dimension: outputs.map(() => dimension),
    // An output can sit in several scatters, so the data point is looked up per subset.
    data_point: outputs.map((o) => dataPointOf.get(`${subsetPk}:${o.pk}`) ?? null),
  };
  const axis: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(columns)) {
    const same = values.every((value) => JSON.stringify(value) === JSON.stringify(values[0]));
    // pandas writes an empty cell for None and for an empty tuple alike.
    if (values.every((value) => value === null || (Array.isArray(value) && value.length === 0))) axis[key] = null;
    else axis[key] = same && !ALWAYS_LISTS.has(key) ? values[0] : values;
  }
  return axis;
}

function scatterRecord(subset: Subset, context: ScatterContext): ScatterRecord {
  const axisOf = (dimension: number) =>
    scatterAxis(subset.pk, subset.array.map((point) => point[dimension]).filter((o): o is SubsetOutput => o !== undefined), context, dimension);
  return { subset_pk: subset.pk, subset_name: subset.name, study_sid: subset.study.sid, study_name: subset.study.name, x: axisOf(0), y: axisOf(1) };
}

function infoNodeRecord(node: InfoNode): InfoNodeRecord {
  const { sid, name, label, ntype, dtype, deprecated, description, synonyms } = node;
  return { sid, name, label, ntype, dtype, deprecated, description, synonyms, mass: node.substance?.mass ?? null, raw: node as Record<string, unknown> };
}

/** The dataset tables of a set of API items (full views). Pure: the items are not modified. */
export function tablesFromApi(items: ApiItems): DatasetTables {
  const terms = new TermCollector(new Map((items.info_nodes ?? []).map((node) => [node.sid, node.ntype])));
  for (const study of items.studies) for (const substance of study.substances) terms.add('substance', substance);
  for (const subject of [...items.groups, ...items.individuals]) for (const c of subject.characteristica) terms.addAll(c, CHARACTERISTICA_TERMS);
  for (const item of items.interventions) terms.addAll(item, INTERVENTION_TERMS);
  for (const item of items.outputs) terms.addAll(item, OUTPUT_TERMS);
  for (const subset of items.subsets) for (const point of subset.array) for (const o of point) terms.addAll(o, OUTPUT_TERMS);

  const interventions = items.interventions.map(interventionRecord);
  linkRawPks(interventions, interventionIdentity);
  const flatRawPk = new Map((items.flatInterventions ?? []).map((row) => [row.intervention_pk, row.raw_pk]));
  for (const record of interventions) if (flatRawPk.has(record.pk)) record.raw_pk = flatRawPk.get(record.pk) ?? null;

  const outputs = items.outputs.map(outputRecord);
  linkRawPks(outputs, outputIdentity(interventionNames(interventions)));
  const outputByPk = new Map(outputs.map((o) => [o.pk, o]));

  const timecourses: TimecourseRecord[] = [];
  const scatters: ScatterRecord[] = [];
  const scatterContext = { outputByPk, dataPointOf: new Map((items.dataPoints ?? []).map((row) => [`${row.subset_pk}:${row.output_pk}`, row.data_point_pk])) };
  for (const subset of items.subsets) {
    if (subset.data_type === 'scatter') scatters.push(scatterRecord(subset, scatterContext));
    else if (subset.data_type === 'timecourse') {
      const record = timecourseRecord(subset);
      if (record) timecourses.push(record);
    }
  }
  // A timecourse lists normed outputs; their raw records belong to the same subset.
  for (const tc of timecourses) {
    for (const pk of tc.output_pk) {
      const output = outputByPk.get(pk);
      if (!output) continue;
      output.subset_pk = tc.subset_pk;
      const raw = output.raw_pk !== null ? outputByPk.get(output.raw_pk) : undefined;
      if (raw) raw.subset_pk = tc.subset_pk;
    }
  }

  const groups: GroupRecord[] = items.groups.map(({ pk, name, count, parent, study, characteristica }) => ({
    ...{ pk, name, count, parent_pk: parent?.pk ?? null, study_sid: study.sid, study_name: study.name },
    characteristica: characteristicaRecords(characteristica),
  }));
  const individuals: IndividualRecord[] = items.individuals.map(({ pk, name, group, study, characteristica }) => ({
    ...{ pk, name, group_pk: group.pk, study_sid: study.sid, study_name: study.name },
    characteristica: characteristicaRecords(characteristica),
  }));

  const studies = items.studies.map(studyRecord);
  const tables: DatasetTables = { studies, groups, individuals, interventions, outputs, timecourses, scatters, terms: terms.list() };
  if (items.info_nodes) tables.info_nodes = items.info_nodes.map(infoNodeRecord);
  if (items.references) tables.references = items.references.map(referenceRecord);
  return tables;
}

export interface CrawlOptions {
  /** Only these study sids (default: every study the server shows). */
  studies?: string[];
  /** Items per page (PK-DB has no maximum; pkdb_analysis uses 1000–2000). Default 500. */
  pageSize?: number;
  /** After every page: pages done and total of the list being fetched. */
  onProgress?: (done: number, total: number, resource: string) => void;
}

/**
 * Fetches every list the dataset needs. With `studies`, lists are asked for
 * `sid__in` / `study_sid__in` and also filtered here, because the real PK-DB
 * ignores the study filter on some lists (PK-DB API notes §2: groups `study` ✗).
 */
export async function crawlApiItems(client: PkdbClient, options: CrawlOptions = {}): Promise<ApiItems> {
  const wanted = options.studies ? new Set(options.studies) : undefined;
  const pageSize = options.pageSize ?? 500;
  const onPage = options.onProgress && ((page: PageProgress) => options.onProgress!(page.pagesDone, page.pagesTotal, page.resource));
  const fetchAll = <R extends ResourceName>(resource: R, params: Record<string, string[]> = {}) => client.list(resource, { pageSize, ...params }, { onPage });
  const bySid = wanted && { sid__in: [...wanted] };
  const byStudy = wanted && { study_sid__in: [...wanted] };
  const inStudies = <T extends { study: { sid: string } }>(list: T[]) => (wanted ? list.filter((item) => wanted.has(item.study.sid)) : list);

  const studies = (await fetchAll('studies', bySid)).filter((study) => !wanted || wanted.has(study.sid));
  const groups = inStudies(await fetchAll('groups', byStudy));
  const individuals = inStudies(await fetchAll('individuals', byStudy));
  const interventions = inStudies(await fetchAll('interventions', byStudy));
  const flatInterventions = (await fetchAll('pkdata/interventions', byStudy)).filter((row) => !wanted || wanted.has(row.study_sid));
  const outputs = inStudies(await fetchAll('outputs', byStudy));
  const subsets = inStudies(await fetchAll('subsets', byStudy));
  // Data points only matter for scatters (their `data_point`); skip the large list when there are none.
  const hasScatters = subsets.some((subset) => subset.data_type === 'scatter');
  const dataPoints = hasScatters ? (await fetchAll('pkdata/data', byStudy)).filter((row) => row.data_type === 'scatter' && (!wanted || wanted.has(row.study_sid))) : [];
  const info_nodes = await fetchAll('info_nodes');
  const referenceSids = new Set(studies.map((study) => study.reference.sid));
  const references = (await fetchAll('references', wanted && { sid__in: [...referenceSids] })).filter((ref) => referenceSids.has(ref.sid));
  return { studies, groups, individuals, interventions, flatInterventions, outputs, subsets, dataPoints, info_nodes, references };
}

/** Crawl a PK-DB server (the real one or `pkdb serve`) into a Dataset. */
export async function crawlDataset(client: PkdbClient, options: CrawlOptions = {}): Promise<Dataset> {
  return Dataset.fromTables(tablesFromApi(await crawlApiItems(client, options)), { kind: 'api', location: client.baseUrl });
}
