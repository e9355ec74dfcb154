/**
 * Parameter names of the standard NCA profile: the CDISC SDTM PP test codes
 * (PPTESTCD), as NonCompart and PKNCA name them. The dictionary that maps them
 * to Phoenix WinNonlin's column names is in ../shared/reference/nca/README.md.
 */

export type Route = 'extravascular' | 'iv-bolus' | 'iv-infusion';
export const ROUTES: readonly Route[] = ['extravascular', 'iv-bolus', 'iv-infusion'];

export type AucMethod = 'linear' | 'lin-up-log-down';
export const AUC_METHODS: readonly AucMethod[] = ['linear', 'lin-up-log-down'];

/** Parameters every route reports, in report order. */
const COMMON = [
  'CMAX', 'TMAX', 'CLST', 'TLST', 'CLSTP',
  'AUCLST', 'AUCALL', 'AUCIFO', 'AUCIFP', 'AUCPEO', 'AUCPEP',
  'LAMZ', 'LAMZHL', 'LAMZNPT', 'LAMZLL', 'LAMZUL', 'R2', 'R2ADJ', 'CORRXY',
  'AUMCLST', 'AUMCIFO', 'AUMCIFP', 'AUMCPEO', 'AUMCPEP',
  'CMAXD', 'AUCIFOD', 'AUCIFPD',
] as const;

/** Extravascular only: lag time and the apparent (/F) clearance and volume. */
const EXTRAVASCULAR = ['TLAG', 'MRTEVLST', 'MRTEVIFO', 'MRTEVIFP', 'CLFO', 'CLFP', 'VZFO', 'VZFP'] as const;

/** Intravascular (bolus and infusion): systemic clearance, volumes and MRT. */
const INTRAVASCULAR = ['MRTIVLST', 'MRTIVIFO', 'MRTIVIFP', 'CLO', 'CLP', 'VZO', 'VZP', 'VSSO', 'VSSP'] as const;

/** IV bolus only: back-extrapolated C0 and the share of AUC it contributes. */
const BOLUS = ['C0', 'AUCPBEO', 'AUCPBEP'] as const;

export const PPTESTCD = [...COMMON, ...EXTRAVASCULAR, ...INTRAVASCULAR, ...BOLUS] as const;
export type Pptestcd = (typeof PPTESTCD)[number];

const BY_ROUTE: Record<Route, readonly Pptestcd[]> = {
  extravascular: [...COMMON, ...EXTRAVASCULAR],
  'iv-bolus': [...COMMON, ...INTRAVASCULAR, ...BOLUS],
  'iv-infusion': [...COMMON, ...INTRAVASCULAR],
};

/** The codes a profile of this route reports (the CSV columns of `pkdb nca`). */
export function codesForRoute(route: Route): readonly Pptestcd[] {
  return BY_ROUTE[route];
}
