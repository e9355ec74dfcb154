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
  // More of PK-DB's substances and common probe drugs, so that a molar ↔ mass slip of their values can be named
  // (qa/causes.ts molarMassSlips) in an export without info nodes; each a defined small molecule whose PK-DB node
  // carries a mass (its normed data is in mass units), computed from the formula as above.
  { substance: 'lorazepam', formula: 'C15H10Cl2N2O2', mass: 321.16 },
  { substance: 'losartan', formula: 'C22H23ClN6O', mass: 422.92 },
  { substance: 'exp3174', formula: 'C22H21ClN6O2', mass: 436.9 },
  { substance: 'metoprolol', formula: 'C15H25NO3', mass: 267.37 },
  { substance: 'zolpidem', formula: 'C19H21N3O', mass: 307.4 },
  { substance: 'fluvoxamine', formula: 'C15H21F3N2O2', mass: 318.34 },
  { substance: 'flurbiprofen', formula: 'C15H13FO2', mass: 244.26 },
  { substance: 'ketoconazole', formula: 'C26H28Cl2N4O4', mass: 531.43 },
  { substance: 'galactose', formula: 'C6H12O6', mass: 180.16 },
  { substance: 'norepinephrine', formula: 'C8H11NO3', mass: 169.18 },
  { substance: 'epinephrine', formula: 'C9H13NO3', mass: 183.21 },
  { substance: 'bilirubin', formula: 'C33H36N4O6', mass: 584.67 },
  { substance: 'cholesterol', formula: 'C27H46O', mass: 386.66 },
  // Analytes with limits in qa/human-limits.ts (lactate as lactic acid: clinical mmol/L ↔ mg/dL conversions use 90.08).
  { substance: 'creatinine', formula: 'C4H7N3O', mass: 113.12 },
  { substance: 'lactate', formula: 'C3H6O3', mass: 90.08 },
  { substance: 'sodium', formula: 'Na', mass: 22.99 },
  { substance: 'potassium', formula: 'K', mass: 39.1 },
  { substance: 'sulfamethizole', formula: 'C9H10N4O2S2', mass: 270.32 },
  { substance: 'theacrine', formula: 'C9H12N4O3', mass: 224.22 },
  { substance: 'normorphine', formula: 'C16H17NO3', mass: 271.32 },
  { substance: 'pholcodine', formula: 'C23H30N2O4', mass: 398.5 },
  { substance: 'atorvastatin acid', formula: 'C33H35FN2O5', mass: 558.65 },
  { substance: 'atorvastatin lactone', formula: 'C33H33FN2O4', mass: 540.63 },
  { substance: '2-hydroxyatorvastatin acid', formula: 'C33H35FN2O6', mass: 574.65 },
  { substance: '2-hydroxyatorvastatin lactone', formula: 'C33H33FN2O5', mass: 556.63 },
  { substance: 'paracetamol cysteine', formula: 'C11H14N2O4S', mass: 270.3 },
  { substance: 'paracetamol mercapturate', formula: 'C13H16N2O5S', mass: 312.34 },
  { substance: 'oxazepam_glucuronide', formula: 'C21H19ClN2O8', mass: 462.84 },
  { substance: '1-hydroxymidazolam glucuronide', formula: 'C24H21ClFN3O7', mass: 517.89 },
  { substance: 'norcodeine-glucuronide', formula: 'C23H27NO9', mass: 461.47 },
  { substance: 'lovastatin', formula: 'C24H36O5', mass: 404.55 },
  { substance: 'pravastatin', formula: 'C23H36O7', mass: 424.53 },
  { substance: 'rosuvastatin', formula: 'C22H28FN3O6S', mass: 481.54 },
  { substance: 'fluvastatin', formula: 'C24H26FNO4', mass: 411.47 },
  { substance: 'ibuprofen', formula: 'C13H18O2', mass: 206.28 },
  { substance: 'metformin', formula: 'C4H11N5', mass: 129.17 },
  { substance: 'nicotine', formula: 'C10H14N2', mass: 162.24 },
  { substance: 'cotinine', formula: 'C10H12N2O', mass: 176.22 },
  { substance: 'propranolol', formula: 'C16H21NO2', mass: 259.35 },
  { substance: 'verapamil', formula: 'C27H38N2O4', mass: 454.61 },
  { substance: 'nifedipine', formula: 'C17H18N2O6', mass: 346.34 },
  { substance: 'diclofenac', formula: 'C14H11Cl2NO2', mass: 296.15 },
  { substance: 'fluconazole', formula: 'C13H12F2N6O', mass: 306.28 },
  { substance: 'clarithromycin', formula: 'C38H69NO13', mass: 747.96 },
  { substance: 'erythromycin', formula: 'C37H67NO13', mass: 733.94 },
  { substance: 'bupropion', formula: 'C13H18ClNO', mass: 239.74 },
  { substance: 'efavirenz', formula: 'C14H9ClF3NO2', mass: 315.67 },
  { substance: 'sildenafil', formula: 'C22H30N6O4S', mass: 474.58 },
  { substance: 'phenytoin', formula: 'C15H12N2O2', mass: 252.27 },
  { substance: 'carbamazepine', formula: 'C15H12N2O', mass: 236.27 },
  { substance: 'lidocaine', formula: 'C14H22N2O', mass: 234.34 },
  { substance: 'metronidazole', formula: 'C6H9N3O3', mass: 171.16 },
  { substance: 'rifampicin', formula: 'C43H58N4O12', mass: 822.95 },
  { substance: 'tacrolimus', formula: 'C44H69NO12', mass: 804.03 },
  { substance: 'cyclosporine', formula: 'C62H111N11O12', mass: 1202.63 },
  { substance: 'talinolol', formula: 'C20H33N3O3', mass: 363.5 },
  { substance: 'glimepiride', formula: 'C24H34N4O5S', mass: 490.62 },
  { substance: 'mephenytoin', formula: 'C12H14N2O2', mass: 218.26 },
  { substance: '6-hydroxychlorzoxazone', formula: 'C7H4ClNO3', mass: 185.56 },
  { substance: '1-methyluric acid', formula: 'C6H6N4O3', mass: 182.14 },
  { substance: '1,7-dimethyluric acid', formula: 'C7H8N4O3', mass: 196.17 },
  { substance: 'sulfasalazine', formula: 'C18H14N4O5S', mass: 398.39 },
  { substance: 'ketamine', formula: 'C13H16ClNO', mass: 237.73 },
  { substance: 'norketamine', formula: 'C12H14ClNO', mass: 223.7 },
  { substance: 'tramadol', formula: 'C16H25NO2', mass: 263.38 },
  { substance: 'oxycodone', formula: 'C18H21NO4', mass: 315.37 },
  { substance: 'oxymorphone', formula: 'C17H19NO4', mass: 301.34 },
  { substance: 'hydromorphone', formula: 'C17H19NO3', mass: 285.34 },
  { substance: 'ethanol', formula: 'C2H6O', mass: 46.07 },
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
