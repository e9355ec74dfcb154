/**
 * Tables in a canonical order for equality checks: an export's row order is
 * unspecified (NOTES.md §8), so records are sorted by their keys.
 */
import type { DatasetTables } from '../../src/data/model.js';

const byPk = <T extends { pk: number }>(rows: readonly T[]) => [...rows].sort((a, b) => a.pk - b.pk);
const bySubset = <T extends { subset_pk: number }>(rows: readonly T[]) => [...rows].sort((a, b) => a.subset_pk - b.subset_pk);

export function sortedTables(t: DatasetTables) {
  return {
    studies: [...t.studies].sort((a, b) => (a.sid < b.sid ? -1 : 1)),
    groups: byPk(t.groups).map((g) => ({ ...g, characteristica: byPk(g.characteristica) })),
    individuals: byPk(t.individuals).map((i) => ({ ...i, characteristica: byPk(i.characteristica) })),
    interventions: byPk(t.interventions),
    outputs: byPk(t.outputs),
    timecourses: bySubset(t.timecourses),
    scatters: bySubset(t.scatters),
    terms: [...t.terms].sort((a, b) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : a.name < b.name ? -1 : 1)),
  };
}
