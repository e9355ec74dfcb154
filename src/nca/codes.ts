/**
 * Routes, AUC methods and the parameter codes: CDISC SDTM PP test codes
 * (PPTESTCD), as NonCompart and PKNCA name them. The codes, their units and
 * their functions live in one table, ./parameters.ts; the dictionary that maps
 * them to Phoenix WinNonlin's column names is applied in test/nca/winnonlin.test.ts (WinNonlin, docs/references.md).
 */

export type Route = 'extravascular' | 'iv-bolus' | 'iv-infusion';
export const ROUTES: readonly Route[] = ['extravascular', 'iv-bolus', 'iv-infusion'];

export type AucMethod = 'linear' | 'lin-up-log-down';
export const AUC_METHODS: readonly AucMethod[] = ['linear', 'lin-up-log-down'];

export { PPTESTCD, codesForRoute, type Pptestcd } from './parameters.js';
