/**
 * Molar masses for molar ↔ mass conversion. A dataset's own info nodes
 * (`substance.mass`) are authoritative: PK-DB converted with exactly those,
 * and a substance whose node has no mass stayed molar. Without info nodes the
 * built-in table below stands in.
 */
import type { DatasetTables } from '../data/model.js';

export interface MolarMassEntry {
  /** Info-node name as outputs.csv and interventions.csv write it. */
  readonly substance: string;
  readonly formula: string;
  /** g/mol. */
  readonly mass: number;
}

/**
 * Average molecular masses (g/mol) of common PK-DB substances, computed from
 * the molecular formula with IUPAC standard atomic weights and rounded to
 * 0.01 g/mol — the figure PubChem lists as computed "Molecular Weight" and
 * ChEBI as "average mass" (the two atomic-weight editions differ by at most
 * 0.01 g/mol, ≤ 5e-5 relative). PK-DB's own masses carry more digits
 * (caffeine 194.19076), so conversions with this table agree with PK-DB only
 * to about 1e-4 relative; the normed-vs-raw check allows for that.
 *
 * Not listed on purpose: omeprazole, whose PK-DB info node had no mass in
 * 2020 (its data stayed in `mole / liter`), and mixtures or ratios
 * (`apap+apapsul+...`, `px/caf`), which have no molar mass.
 */
export const BUILTIN_MOLAR_MASSES: readonly MolarMassEntry[] = [
  { substance: 'caffeine', formula: 'C8H10N4O2', mass: 194.19 },
  { substance: 'paraxanthine', formula: 'C7H8N4O2', mass: 180.16 },
  { substance: 'theophylline', formula: 'C7H8N4O2', mass: 180.16 },
  { substance: 'theobromine', formula: 'C7H8N4O2', mass: 180.16 },
  { substance: '1-methylxanthine', formula: 'C6H6N4O2', mass: 166.14 },
  { substance: 'paracetamol', formula: 'C8H9NO2', mass: 151.16 },
  { substance: 'paracetamol glucuronide', formula: 'C14H17NO8', mass: 327.29 },
  { substance: 'paracetamol sulfate', formula: 'C8H9NO5S', mass: 231.23 },
  { substance: 'midazolam', formula: 'C18H13ClFN3', mass: 325.77 },
  { substance: '1-hydroxymidazolam', formula: 'C18H13ClFN3O', mass: 341.77 },
  { substance: 'codeine', formula: 'C18H21NO3', mass: 299.36 },
  { substance: 'codeine-6-glucuronide', formula: 'C24H29NO9', mass: 475.49 },
  { substance: 'norcodeine', formula: 'C17H19NO3', mass: 285.34 },
  { substance: 'morphine', formula: 'C17H19NO3', mass: 285.34 },
  { substance: 'morphine-3-glucuronide', formula: 'C23H27NO9', mass: 461.46 },
  { substance: 'morphine-6-glucuronide', formula: 'C23H27NO9', mass: 461.46 },
  { substance: 'diazepam', formula: 'C16H13ClN2O', mass: 284.74 },
  { substance: 'nordazepam', formula: 'C15H11ClN2O', mass: 270.71 },
  { substance: 'oxazepam', formula: 'C15H11ClN2O2', mass: 286.71 },
  { substance: 'alprazolam', formula: 'C17H13ClN4', mass: 308.77 },
  { substance: 'dextromethorphan', formula: 'C18H25NO', mass: 271.4 },
  { substance: 'dextrorphan', formula: 'C17H23NO', mass: 257.37 },
  { substance: 'debrisoquine', formula: 'C10H13N3', mass: 175.23 },
  { substance: 'tolbutamide', formula: 'C12H18N2O3S', mass: 270.35 },
  { substance: 'torasemide', formula: 'C16H20N4O3S', mass: 348.42 },
  { substance: 'simvastatin', formula: 'C25H38O5', mass: 418.57 },
  { substance: 'simvastatin acid', formula: 'C25H40O6', mass: 436.58 },
  { substance: 'atorvastatin', formula: 'C33H35FN2O5', mass: 558.64 },
  { substance: 'antipyrine', formula: 'C11H12N2O', mass: 188.23 },
  { substance: 'chlorzoxazone', formula: 'C7H4ClNO2', mass: 169.56 },
  { substance: 'warfarin', formula: 'C19H16O4', mass: 308.33 },
  { substance: 'digoxin', formula: 'C41H64O14', mass: 780.94 },
  { substance: 'alfentanil', formula: 'C21H32N6O3', mass: 416.52 },
  { substance: 'quinidine', formula: 'C20H24N2O2', mass: 324.42 },
  { substance: 'cortisol', formula: 'C21H30O5', mass: 362.46 },
  { substance: 'salicylic acid', formula: 'C7H6O3', mass: 138.12 },
  { substance: 'sulfapyridine', formula: 'C11H11N3O2S', mass: 249.29 },
  { substance: 'glucose', formula: 'C6H12O6', mass: 180.16 },
];

/** Where a molar mass came from; the normed-vs-raw check is looser for the built-in table's rounded masses. */
export type MolarMassSource = 'override' | 'info-node' | 'builtin';

export interface MolarMass {
  readonly mass: number;
  readonly source: MolarMassSource;
}

export type MolarMassLookup = (substance: string | null | undefined) => MolarMass | null;

const BUILTIN_BY_NAME = new Map(BUILTIN_MOLAR_MASSES.map((e) => [e.substance.toLowerCase(), e.mass]));

/**
 * A lookup of molar masses for a dataset: `overrides` first (by substance
 * name), then the dataset's substance info nodes by name, sid or label when it
 * has any — a node without a mass means none, as in PK-DB — else the
 * built-in table.
 */
export function molarMassLookup(
  tables: Pick<DatasetTables, 'info_nodes'> | null = null,
  overrides: ReadonlyMap<string, number> = new Map(),
): MolarMassLookup {
  const fromNodes = new Map<string, number | null>();
  for (const node of tables?.info_nodes ?? []) {
    if (node.ntype !== 'substance') continue;
    for (const key of [node.name, node.sid, node.label]) fromNodes.set(key.toLowerCase(), node.mass);
  }
  const useNodes = fromNodes.size > 0;
  const overrideByName = new Map([...overrides].map(([k, v]) => [k.toLowerCase(), v]));
  return (substance) => {
    if (!substance) return null;
    const key = substance.toLowerCase();
    const override = overrideByName.get(key);
    if (override !== undefined) return { mass: override, source: 'override' };
    if (useNodes) {
      const mass = fromNodes.get(key);
      return mass == null ? null : { mass, source: 'info-node' };
    }
    const mass = BUILTIN_BY_NAME.get(key);
    return mass === undefined ? null : { mass, source: 'builtin' };
  };
}
