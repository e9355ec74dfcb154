/**
 * The population a value belongs to, for keeping special populations and
 * interactions apart when values of several studies are pooled (the
 * reference-range check; issue 13, item 4): a cirrhosis arm's clearance is not
 * a slip because it is a fifth of healthy volunteers'.
 *
 * What the data marks (the subject's characteristica, an individual's with its
 * group's, and the intervention set):
 * - `disease:<choice>` for each `disease` characteristic with a choice
 *   (liver cirrhosis, renal disease (end-stage), t2dm, …);
 * - `not healthy` when `healthy` is N and no disease is named;
 * - `pregnant` when `pregnant` is Y;
 * - `<type>:<choice>` for a genotype or phenotype (SLCO1B1 genotype, cyp2d6
 *   phenotype, ...): poor metabolisers and transporter variants differ by
 *   several-fold, which is what a slip factor looks like;
 * - `phenotype:<metaboliser>` for a group named after a metaboliser phenotype its characteristica do not curate
 *   (`groupNameMarks`: Eckhardt1998's groups 'PM' and 'EM' of codeine; PM, IM, UM, poor, intermediate and
 *   ultrarapid metabolisers, slow acetylators; extensive metabolisers are the usual population);
 * - `with:<substance>` for each other substance dosed in the same intervention
 *   set (`dosing` or `qualitative dosing`): an interaction or co-medication arm;
 *   the measured substance and the one whose dose normalises it are not "other".
 * No mark: `healthy` (what most PK studies are, and what an unmarked group is taken to be).
 */
import type { Dataset } from '../data/dataset.js';
import type { CharacteristicaRecord, InterventionRecord } from '../data/model.js';
import { conversionFactorOrNull } from '../units/convert.js';

export const HEALTHY = 'healthy';

const UNKNOWN = new Set(['', 'nr', 'na', 'n', 'none', 'null', 'healthy']);

/** Whether a characteristic type (or a mark's type, before its ':') is a genotype or phenotype. */
const isVariant = (type: string): boolean => type.includes('genotype') || type.includes('phenotype');

/** Whether a characteristic can mark a population (most, age, weight, sex, cannot). */
export function marksPopulation(c: Pick<CharacteristicaRecord, 'measurement_type'>): boolean {
  const type = c.measurement_type;
  return type === 'disease' || type === 'healthy' || type === 'pregnant' || isVariant(type);
}

/** The marks of the subject's characteristica (sorted, unique). */
export function characteristicaMarks(characteristica: readonly CharacteristicaRecord[]): string[] {
  const marks = new Set<string>();
  let unhealthy = false;
  for (const c of characteristica) {
    // The type first: most characteristica mark nothing, and need no normalised choice.
    if (!marksPopulation(c)) continue;
    const type = c.measurement_type;
    const variant = isVariant(type);
    const choice = (c.choice ?? '').trim().toLowerCase();
    if (type === 'disease' && !UNKNOWN.has(choice)) marks.add(`disease:${choice}`);
    else if (type === 'healthy' && choice === 'n') unhealthy = true;
    else if (type === 'pregnant' && choice === 'y') marks.add('pregnant');
    else if (variant && !UNKNOWN.has(choice)) marks.add(`${type}:${choice}`);
  }
  if (unhealthy && ![...marks].some((m) => m.startsWith('disease:'))) marks.add('not healthy');
  return [...marks].sort();
}

/** Other substances dosed in the intervention set (sorted, unique), besides those named in `own`. */
export function coMedication(interventions: readonly InterventionRecord[], own: readonly (string | null)[]): string[] {
  const mine = new Set(own.filter((s): s is string => s !== null));
  const others = new Set<string>();
  for (const i of interventions) {
    if (i.measurement_type !== 'dosing' && i.measurement_type !== 'qualitative dosing') continue;
    if (i.substance && !mine.has(i.substance)) others.add(i.substance);
  }
  return [...others].sort();
}

/** The population label: the marks joined, or `healthy`. */
export function populationLabel(subjectMarks: readonly string[], coMedicated: readonly string[]): string {
  const marks = [...subjectMarks, ...coMedicated.map((s) => `with:${s}`)];
  return marks.length === 0 ? HEALTHY : marks.join(' + ');
}

/**
 * The marks of a record's subject: an individual's own, or when they mark nothing its group's (the common case:
 * age, weight, sex), else the individual's with its group's.
 */
export function subjectMarks(dataset: Pick<Dataset, 'group' | 'individual'>, r: { group_pk: number | null; individual_pk: number | null }): string[] {
  const individual = r.individual_pk === null ? undefined : dataset.individual(r.individual_pk);
  const groupPk = r.group_pk ?? individual?.group_pk ?? null;
  const group = groupPk === null ? undefined : dataset.group(groupPk);
  const own = individual?.characteristica ?? [];
  const marks = individual && !own.some(marksPopulation) ? characteristicaMarks(group?.characteristica ?? []) : characteristicaMarks([...own, ...(group?.characteristica ?? [])]);
  // A phenotype curated only in the group's name, when no characteristic curates one.
  const named = group && !marks.some((m) => isVariant(m.split(':')[0])) ? groupNameMarks(group.name) : [];
  return named.length === 0 ? marks : [...marks, ...named].sort();
}

/**
 * Metaboliser phenotypes a group's name can carry: the abbreviations as written (upper case: 'em' in another study's
 * names is elderly men) and the words in any case. Extensive (normal) metabolisers mark nothing.
 */
const PHENOTYPE_NAMES: readonly { abbreviation: RegExp | null; words: RegExp; phenotype: string }[] = [
  { abbreviation: /\bPMs?\b/, words: /\bpoor (metaboli[sz]|hydroxylat|oxidi[sz])/i, phenotype: 'poor metaboliser' },
  { abbreviation: /\bIMs?\b/, words: /\bintermediate metaboli[sz]/i, phenotype: 'intermediate metaboliser' },
  { abbreviation: /\bUMs?\b/, words: /\bultra-? ?rapid metaboli[sz]/i, phenotype: 'ultrarapid metaboliser' },
  { abbreviation: null, words: /\bslow acetylat/i, phenotype: 'slow acetylator' },
];

/** The phenotype marks of a group's name (`phenotype:<metaboliser>`), none for most names. */
export function groupNameMarks(name: string): string[] {
  return PHENOTYPE_NAMES.filter((p) => p.abbreviation?.test(name) || p.words.test(name)).map((p) => `phenotype:${p.phenotype}`);
}

/** Below this age (years) a subject is a child: an adult's body weight is not assumed. */
export const ADULT_AGE_YEARS = 18;

/**
 * Whether a subject may be taken for an adult human when its weight is not curated: no characteristic of it or its
 * group names another species or an age (minimum first) below ADULT_AGE_YEARS. Unmarked subjects are adults, as
 * most PK studies' volunteers are.
 */
export function mayBeAdultHuman(dataset: Pick<Dataset, 'group' | 'individual'>, r: { group_pk: number | null; individual_pk: number | null }): boolean {
  for (const c of characteristicaOf(dataset, r)) {
    if (otherSpecies(c)) return false;
    if (c.measurement_type !== 'age') continue;
    const years = c.unit ? conversionFactorOrNull(c.unit, 'year') : 1;
    const age = [c.min, c.mean, c.median, c.value].find((v) => v !== null && v !== undefined);
    if (years === null || age === undefined || age === null || age * years < ADULT_AGE_YEARS) return false;
  }
  return true;
}

/** A subject's characteristica: an individual's own, then its group's. */
function characteristicaOf(dataset: Pick<Dataset, 'group' | 'individual'>, r: { group_pk: number | null; individual_pk: number | null }): CharacteristicaRecord[] {
  const individual = r.individual_pk === null ? undefined : dataset.individual(r.individual_pk);
  const groupPk = r.group_pk ?? individual?.group_pk ?? null;
  const group = groupPk === null ? undefined : dataset.group(groupPk);
  return [...(individual?.characteristica ?? []), ...(group?.characteristica ?? [])];
}

const otherSpecies = (c: CharacteristicaRecord): boolean => c.measurement_type === 'species' && !!c.choice && c.choice.toLowerCase() !== 'homo sapiens';

/** Whether a subject may be human: no characteristic of it or its group names another species (unmarked subjects are). */
export function mayBeHuman(dataset: Pick<Dataset, 'group' | 'individual'>, r: { group_pk: number | null; individual_pk: number | null }): boolean {
  return !characteristicaOf(dataset, r).some(otherSpecies);
}
