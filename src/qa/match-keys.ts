/**
 * The match key (context.ts `matchKey`: study, subject, intervention set, substance, tissue) memoised for one
 * run: one string per key, looked up by its fields. Every single value of the shared export asks for its key
 * (32,000, for ~6,000 keys) and the reported-vs-recomputed comparison asks again for each reported output;
 * building the key text (intervention pks sorted and joined) per ask was the larger cost.
 */
import type { LinkKeyFields } from '../data/dataset.js';

/** The intervention set's pks ascending, comma-separated (as in the key); no copy or sort for sets of one or two. */
export function interventionSet(pks: readonly number[]): string {
  if (pks.length === 0) return '';
  if (pks.length === 1) return String(pks[0]);
  if (pks.length === 2) return pks[0] <= pks[1] ? `${pks[0]},${pks[1]}` : `${pks[1]},${pks[0]}`;
  return [...pks].sort((a, b) => a - b).join(',');
}

/**
 * interventionSet for one run, one string per set of one or two pks (most outputs'): 32,000 values of the shared
 * export keep their set's text, and the maps keyed by it hash an interned string once.
 */
export class InterventionSets {
  private readonly ones = new Map<number, string>();
  private readonly twos = new Map<number, Map<number, string>>();

  of(pks: readonly number[]): string {
    if (pks.length === 1) {
      let text = this.ones.get(pks[0]);
      if (text === undefined) this.ones.set(pks[0], (text = interventionSet(pks)));
      return text;
    }
    if (pks.length !== 2) return interventionSet(pks);
    const low = pks[0] <= pks[1] ? pks[0] : pks[1];
    const high = pks[0] <= pks[1] ? pks[1] : pks[0];
    let byHigh = this.twos.get(low);
    if (byHigh === undefined) this.twos.set(low, (byHigh = new Map()));
    let text = byHigh.get(high);
    if (text === undefined) byHigh.set(high, (text = interventionSet(pks)));
    return text;
  }
}

type ByTissue = Map<string | null, string>;
type BySubstance = Map<string | null, ByTissue>;
type BySet = Map<string, BySubstance>;

/** Keys by study, then subject (groups and individuals apart), set, substance and tissue. */
interface StudyKeys {
  group: Map<number, BySet>;
  individual: Map<number | null, BySet>;
}

export class MatchKeys {
  private readonly studies = new Map<string, StudyKeys>();

  /** `make` builds a key's text the first time it is asked for (context.ts `matchKey`). */
  constructor(private readonly make: (fields: LinkKeyFields) => string) {}

  /** The key of a record; `interventions` when the caller has its interventionSet already. */
  of(fields: LinkKeyFields, interventions: string = interventionSet(fields.intervention_pks)): string {
    let study = this.studies.get(fields.study_sid);
    if (study === undefined) this.studies.set(fields.study_sid, (study = { group: new Map(), individual: new Map() }));
    // As linkKey: the group when there is one, else the individual (or none).
    let bySet: BySet | undefined;
    if (fields.group_pk != null) {
      bySet = study.group.get(fields.group_pk);
      if (bySet === undefined) study.group.set(fields.group_pk, (bySet = new Map()));
    } else {
      const individual = fields.individual_pk ?? null;
      bySet = study.individual.get(individual);
      if (bySet === undefined) study.individual.set(individual, (bySet = new Map()));
    }
    let bySubstance = bySet.get(interventions);
    if (bySubstance === undefined) bySet.set(interventions, (bySubstance = new Map()));
    let byTissue = bySubstance.get(fields.substance);
    if (byTissue === undefined) bySubstance.set(fields.substance, (byTissue = new Map()));
    let key = byTissue.get(fields.tissue);
    if (key === undefined) byTissue.set(fields.tissue, (key = this.make(fields)));
    return key;
  }
}
