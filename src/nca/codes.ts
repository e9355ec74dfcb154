/**
 * Routes and AUC methods. The parameter codes (CDISC SDTM PPTESTCD, as
 * NonCompart and PKNCA name them), their units and their functions live in one
 * table, ./parameters.ts, which imports the routes from here; the dictionary that maps
 * them to Phoenix WinNonlin's column names is applied in test/nca/winnonlin.test.ts (WinNonlin, docs/references.md).
 */

export type Route = 'extravascular' | 'iv-bolus' | 'iv-infusion';
export const ROUTES: readonly Route[] = ['extravascular', 'iv-bolus', 'iv-infusion'];

export type AucMethod = 'linear' | 'lin-up-log-down';
export const AUC_METHODS: readonly AucMethod[] = ['linear', 'lin-up-log-down'];
