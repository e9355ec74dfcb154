/**
 * Who an arm's subjects are, for pooling a PK parameter across studies:
 * whether a group or individual belongs to a special population (ill,
 * pregnant, on medication), and whether an arm's interventions dose another
 * substance besides the one analysed (an interaction arm).
 *
 * The markers are PK-DB's characteristica as curated: `healthy` with choice
 * N, any `disease` (choice names it: "liver cirrhosis", "renal disease
 * (end-stage)", ...), a `child-pugh score`, `medication` Y and `pregnant` Y.
 * `healthy: NR` (not reported) is not a marker: most studies of volunteers
 * say nothing more. Smoking and oral contraceptives change caffeine's
 * half-life too, but are lifestyle covariates, not special populations; they
 * stay in and are left to a stratified analysis.
 */
import type { Dataset } from '../../src/data/dataset.js';
import type { CharacteristicaRecord } from '../../src/data/model.js';

/** Why these characteristica make a special population, or null when none does. */
export function specialMarker(characteristica: readonly CharacteristicaRecord[]): string | null {
  for (const c of characteristica) {
    const choice = c.choice ?? '';
    if (c.measurement_type === 'disease') return `disease: ${choice || 'unnamed'}`;
    if (c.measurement_type === 'healthy' && choice === 'N') return 'not healthy';
    if (c.measurement_type === 'child-pugh score') return 'Child–Pugh score given (hepatic impairment)';
    if (c.measurement_type === 'medication' && choice === 'Y') return `on medication${c.substance ? `: ${c.substance}` : ''}`;
    if (c.measurement_type === 'pregnant' && choice === 'Y') return 'pregnant';
    if (c.measurement_type === 'pregnant (categorial)' && choice) return choice;
  }
  return null;
}

/** Depth limit on group trees: PK-DB nests a few levels; a cycle in bad data must not loop. */
const MAX_DEPTH = 20;

/**
 * A group's own marker, else the marker of a subgroup (then the group mixes
 * special subjects with others, e.g. "all patients" over healthy and cirrhotic
 * subgroups).
 */
export function groupMarker(data: Dataset, groupPk: number): string | null {
  const group = data.group(groupPk);
  if (!group) return null;
  const own = specialMarker(group.characteristica);
  if (own) return own;
  const children = new Map<number, number[]>();
  for (const g of data.groupsOfStudy(group.study_sid)) {
    if (g.parent_pk !== null) children.set(g.parent_pk, [...(children.get(g.parent_pk) ?? []), g.pk]);
  }
  let frontier = children.get(groupPk) ?? [];
  for (let depth = 0; frontier.length > 0 && depth < MAX_DEPTH; depth++) {
    for (const pk of frontier) {
      const child = data.group(pk);
      const marker = child ? specialMarker(child.characteristica) : null;
      if (marker) return `includes subgroup "${child!.name}" (${marker})`;
    }
    frontier = frontier.flatMap((pk) => children.get(pk) ?? []);
  }
  return null;
}

/** An individual's marker: its own characteristica, else its group's. */
export function individualMarker(data: Dataset, individualPk: number): string | null {
  const individual = data.individual(individualPk);
  if (!individual) return null;
  return specialMarker(individual.characteristica) ?? (individual.group_pk !== null ? specialMarker(data.group(individual.group_pk)?.characteristica ?? []) : null);
}

/** Substances other than `substance` that the interventions dose (placebo and substance-less ones, e.g. smoking, do not count). */
export function coAdministered(data: Dataset, interventionPks: readonly number[], substance: string): string[] {
  const others = new Set<string>();
  for (const pk of interventionPks) {
    const i = data.intervention(pk);
    if (!i?.substance || i.substance === substance || i.substance === 'placebo') continue;
    if (i.measurement_type === 'dosing' || i.measurement_type === 'qualitative dosing') others.add(i.substance);
  }
  return [...others].sort();
}
