/**
 * NCA results as rows of a CDISC SDTM PP (Pharmacokinetic Parameters) table:
 * one row per subject and parameter, PPTESTCD/PPTEST with the result and its
 * unit (PPORRES, PPORRESU), the way a submission or a PKNCA export lists them.
 */
import type { NcaResult, Pptestcd } from '../../src/nca/index.js';

/** CDISC PP test names (PPTEST) of the codes the notebooks report. */
export const PPTEST: Partial<Record<Pptestcd, string>> = {
  CMAX: 'Max Conc',
  TMAX: 'Time of CMAX',
  TLAG: 'Time Until First Nonzero Conc',
  CLST: 'Last Nonzero Conc',
  TLST: 'Time of Last Nonzero Conc',
  AUCLST: 'AUC to Last Nonzero Conc',
  AUCIFO: 'AUC Infinity Obs',
  AUCIFP: 'AUC Infinity Pred',
  AUCPEO: 'AUC %Extrapolation Obs',
  LAMZ: 'Lambda z',
  LAMZHL: 'Half-Life Lambda z',
  LAMZNPT: 'Number of Points for Lambda z',
  LAMZLL: 'Lambda z Lower Limit',
  LAMZUL: 'Lambda z Upper Limit',
  R2ADJ: 'R Squared Adjusted',
  MRTEVIFO: 'MRT Extravasc Infinity Obs',
  CLFO: 'Total CL Obs by F',
  VZFO: 'Vz Obs by F',
  CLO: 'Total CL Obs',
  VZO: 'Vz Obs',
  VSSO: 'Vol Dist Steady State Obs',
};

export const REPORTED_CODES = Object.keys(PPTEST) as Pptestcd[];

export interface PpRow {
  USUBJID: string;
  PPTESTCD: Pptestcd;
  PPTEST: string;
  PPORRES: number | null;
  PPORRESU: string;
  /** Why the value is missing (the NCA's note), empty otherwise. */
  PPREASND: string;
}

/** The PP rows of one subject's result, for the codes it reports (codes of other routes are skipped). */
export function ppRows(subject: string, result: NcaResult, codes: readonly Pptestcd[] = REPORTED_CODES): PpRow[] {
  return codes.flatMap((code) => {
    const parameter = result.parameters[code];
    if (!parameter) return [];
    return [{ USUBJID: subject, PPTESTCD: code, PPTEST: PPTEST[code] ?? code, PPORRES: parameter.value, PPORRESU: parameter.unit, PPREASND: result.notes[code] ?? '' }];
  });
}
