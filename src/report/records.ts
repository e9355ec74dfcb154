/**
 * What a finding is about, in the words and links a curator uses: the subject
 * by name and size ("group 'healthy' (n=12)"), every record involved with its
 * exact id, the record most likely to fix, and links to the study on PK-DB and
 * to each record on a local `pkdb serve` (its detail routes
 * `/api/v1/<resource>/<pk>/`, studies by sid).
 */
import type { Dataset } from '../data/dataset.js';
import { doseOf, type Finding } from '../qa/finding.js';

/** The API resources a record id is served under. */
export type RecordResource = 'outputs' | 'subsets' | 'interventions' | 'groups' | 'individuals';

export interface RecordRef {
  /** What the page calls it: output, timecourse, intervention, group, ... */
  role: string;
  resource: RecordResource | null;
  pk: number;
  /** The finding column or details path it came from (for tests and tooltips). */
  field: string;
}

export const PKDB_STUDY_URL = 'https://pk-db.com/data/';
export const DEFAULT_SERVE_URL = 'http://127.0.0.1:8000/';

export function pkdbStudyUrl(sid: string): string {
  return `${PKDB_STUDY_URL}${encodeURIComponent(sid)}`;
}

/** A record on a local `pkdb serve` (base like http://127.0.0.1:8000/). */
export function localRecordUrl(serveUrl: string, resource: RecordResource | 'studies', id: number | string): string {
  return new URL(`api/v1/${resource}/${encodeURIComponent(String(id))}/`, serveUrl.endsWith('/') ? serveUrl : `${serveUrl}/`).href;
}

/** `group:12` → group 'healthy' (n=12); individuals with their group; the raw label when the dataset lacks it. */
export function subjectText(subject: string | null, dataset?: Dataset): string | null {
  if (!subject) return null;
  const m = /^(group|individual):(\d+)$/.exec(subject);
  if (!m) return subject;
  const pk = Number(m[2]);
  if (m[1] === 'group') {
    const g = dataset?.group(pk);
    if (!g) return `group ${pk}`;
    return `group '${g.name}'${g.count !== null ? ` (n=${g.count})` : ''}`;
  }
  const i = dataset?.individual(pk);
  if (!i) return `individual ${pk}`;
  const g = i.group_pk !== null ? dataset?.group(i.group_pk) : undefined;
  return `individual '${i.name}'${g ? ` of group '${g.name}'` : ''}`;
}

/** The table of a record copied into details, by the fields only that table has (as finding-id.ts). */
function detailResource(record: Record<string, unknown>): RecordResource | null {
  if ('intervention_pks' in record) return 'outputs';
  if ('route' in record) return 'interventions';
  if ('subset_pk' in record && 'time' in record) return 'subsets';
  return null;
}

/** The resource a details key names (`auc_end_output_pk`, `dosing_pks`, ...). */
function resourceOfKey(key: string): RecordResource | null {
  if (/output/.test(key)) return 'outputs';
  if (/intervention|dosing|dose/.test(key)) return 'interventions';
  if (/subset|timecourse/.test(key)) return 'subsets';
  if (/group/.test(key)) return 'groups';
  if (/individual/.test(key)) return 'individuals';
  return null;
}

/** Summary lists (`pks` of a unit problem) are cut here; the JSON has them whole. */
const MAX_LIST = 20;

/**
 * Every record a finding names, each once: its columns (output, timecourse,
 * intervention, subject), then records in its details (copied records with a
 * `pk`, keys ending in `_pk` / `_pks`, a `pks` list).
 */
export function recordsOf(f: Finding): RecordRef[] {
  const refs: RecordRef[] = [];
  const seen = new Set<string>();
  const add = (ref: RecordRef) => {
    const key = `${ref.resource ?? ref.role}:${ref.pk}`;
    if (seen.has(key)) return;
    seen.add(key);
    refs.push(ref);
  };
  if (f.output_pk !== null) add({ role: 'output', resource: 'outputs', pk: f.output_pk, field: 'output_pk' });
  if (f.subset_pk !== null) add({ role: 'timecourse', resource: 'subsets', pk: f.subset_pk, field: 'subset_pk' });
  if (f.intervention_pk != null) add({ role: 'intervention', resource: 'interventions', pk: f.intervention_pk, field: 'intervention_pk' });
  const subject = f.subject ? /^(group|individual):(\d+)$/.exec(f.subject) : null;
  if (subject) add({ role: subject[1], resource: subject[1] === 'group' ? 'groups' : 'individuals', pk: Number(subject[2]), field: 'subject' });
  for (const [key, value] of Object.entries(f.details ?? {})) {
    const items = Array.isArray(value) ? value.slice(0, MAX_LIST) : [value];
    for (const item of items) {
      if (typeof item === 'number' && Number.isInteger(item) && (/_pks?$/.test(key) || key === 'pks')) {
        const resource = resourceOfKey(key);
        add({ role: key.replace(/_?pks?$/, '').replace(/_/g, ' ') || (resource ?? 'record').replace(/s$/, ''), resource, pk: item, field: `details.${key}` });
      } else if (item !== null && typeof item === 'object' && typeof (item as { pk?: unknown }).pk === 'number') {
        const record = item as Record<string, unknown>;
        const resource = detailResource(record);
        add({ role: `${key}${resource ? ` ${resource.replace(/s$/, '')}` : ''}`, resource, pk: record.pk as number, field: `details.${key}` });
      }
    }
  }
  return refs;
}

const CULPRIT_TEXT: Record<string, (f: Finding) => string> = {
  output: (f) => `the reported output${f.output_pk !== null ? ` ${f.output_pk}` : ''}`,
  timecourse: (f) => `the timecourse${f.subset_pk !== null ? ` ${f.subset_pk}` : ''}`,
  dose: (f) => {
    const pk = doseOf(f);
    return `the dose${pk !== null ? ` (intervention ${pk})` : ''}`;
  },
  subject: (f) => {
    const pk = (f.details?.characteristica as { pk?: unknown } | undefined)?.pk;
    return `${f.subject ?? 'the subject'}'s ${f.measurement_type ?? 'characteristic'}${typeof pk === 'number' ? ` (characteristic ${pk})` : ''}`;
  },
};

/** The record most likely to fix, in words; null when the checks could not tell. */
export function culpritText(f: Finding): string | null {
  return f.culprit ? (CULPRIT_TEXT[f.culprit]?.(f) ?? f.culprit) : null;
}
