/**
 * NCA results as rows of a CDISC SDTM PP (Pharmacokinetic Parameters) table:
 * one row per subject and parameter, PPTESTCD/PPTEST with the result and its
 * unit (PPORRES, PPORRESU), the way a submission or a PKNCA export lists them.
 * The test names (PPTEST) come from the NCA parameter table, their one home.
 */
import { PARAMETER, type NcaResult, type Pptestcd } from '../../src/nca/index.js';

/** The codes the notebooks report, in report order (codes of another route are skipped per subject). */
export const REPORTED_CODES: readonly Pptestcd[] = [
  'CMAX', 'TMAX', 'TLAG', 'CLST', 'TLST', 'AUCLST', 'AUCIFO', 'AUCIFP', 'AUCPEO', 'LAMZ', 'LAMZHL', 'LAMZNPT', 'LAMZLL',
  'LAMZUL', 'R2ADJ', 'MRTEVIFO', 'CLFO', 'VZFO', 'CLO', 'VZO', 'VSSO',
];

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
    return [{ USUBJID: subject, PPTESTCD: code, PPTEST: PARAMETER[code].test, PPORRES: parameter.value, PPORRESU: parameter.unit, PPREASND: result.notes[code] ?? '' }];
  });
}
