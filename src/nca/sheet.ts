/**
 * Parameter values of one profile, collected by code position and turned into
 * the result objects once at the end. The result objects are written as
 * literals with fixed keys per route: building a 35-key object by computed keys
 * costs several times more than the whole NCA of a 15-point profile.
 */
import { PPTESTCD, type Pptestcd, type Route } from './codes.js';

export interface ParameterValue {
  value: number | null;
  unit: string;
}

export type Parameters = Partial<Record<Pptestcd, ParameterValue>>;

/** Position of each code in a ParameterSheet. */
export const AT = Object.fromEntries(PPTESTCD.map((code, i) => [code, i])) as Record<Pptestcd, number>;

/** The observed (O) and predicted (P) variants of the extrapolated parameters. */
export const VARIANTS = (['O', 'P'] as const).map((s) => ({
  AUCIF: AT[`AUCIF${s}`], AUCPE: AT[`AUCPE${s}`], AUMCIF: AT[`AUMCIF${s}`], AUMCPE: AT[`AUMCPE${s}`],
  AUCIFD: AT[`AUCIF${s}D`], MRTEVIF: AT[`MRTEVIF${s}`], MRTIVIF: AT[`MRTIVIF${s}`], CL: AT[`CL${s}`],
  CLF: AT[`CLF${s}`], VZ: AT[`VZ${s}`], VZF: AT[`VZF${s}`], VSS: AT[`VSS${s}`], AUCPBE: AT[`AUCPBE${s}`],
}));

/** Values by code position; a null or non-finite value stays missing, with its reason. */
export class ParameterSheet {
  private readonly values = new Float64Array(PPTESTCD.length).fill(NaN);
  private readonly reasons: string[] = new Array<string>(PPTESTCD.length);

  constructor(private readonly units: Record<Pptestcd, string>) {}

  set(at: number, value: number | null, reason: string): void {
    if (value !== null && Number.isFinite(value)) {
      this.values[at] = value;
      return;
    }
    this.reasons[at] = value === null ? reason : `${reason} (value ${value})`;
  }

  /** Why each missing code of the route is missing (`fallback` where no reason was recorded). */
  notes(codes: readonly Pptestcd[], fallback: string): Partial<Record<Pptestcd, string>> {
    const notes: Partial<Record<Pptestcd, string>> = {};
    for (const code of codes) if (Number.isNaN(this.values[AT[code]])) notes[code] = this.reasons[AT[code]] ?? fallback;
    return notes;
  }

  /** Every parameter of the route, in codesForRoute order (one literal per route: see the header). */
  parameters(route: Route): Parameters {
    const v = this.values;
    const u = this.units;
    const p = (at: number, unit: string): ParameterValue => ({ value: Number.isNaN(v[at]) ? null : v[at], unit });
    if (route === 'extravascular') {
      return {
        CMAX: p(AT.CMAX, u.CMAX), TMAX: p(AT.TMAX, u.TMAX), CLST: p(AT.CLST, u.CLST), TLST: p(AT.TLST, u.TLST),
        CLSTP: p(AT.CLSTP, u.CLSTP), AUCLST: p(AT.AUCLST, u.AUCLST), AUCALL: p(AT.AUCALL, u.AUCALL),
        AUCIFO: p(AT.AUCIFO, u.AUCIFO), AUCIFP: p(AT.AUCIFP, u.AUCIFP), AUCPEO: p(AT.AUCPEO, u.AUCPEO),
        AUCPEP: p(AT.AUCPEP, u.AUCPEP), LAMZ: p(AT.LAMZ, u.LAMZ), LAMZHL: p(AT.LAMZHL, u.LAMZHL),
        LAMZNPT: p(AT.LAMZNPT, u.LAMZNPT), LAMZLL: p(AT.LAMZLL, u.LAMZLL), LAMZUL: p(AT.LAMZUL, u.LAMZUL),
        R2: p(AT.R2, u.R2), R2ADJ: p(AT.R2ADJ, u.R2ADJ), CORRXY: p(AT.CORRXY, u.CORRXY),
        AUMCLST: p(AT.AUMCLST, u.AUMCLST), AUMCIFO: p(AT.AUMCIFO, u.AUMCIFO), AUMCIFP: p(AT.AUMCIFP, u.AUMCIFP),
        AUMCPEO: p(AT.AUMCPEO, u.AUMCPEO), AUMCPEP: p(AT.AUMCPEP, u.AUMCPEP), CMAXD: p(AT.CMAXD, u.CMAXD),
        AUCIFOD: p(AT.AUCIFOD, u.AUCIFOD), AUCIFPD: p(AT.AUCIFPD, u.AUCIFPD), TLAG: p(AT.TLAG, u.TLAG),
        MRTEVLST: p(AT.MRTEVLST, u.MRTEVLST), MRTEVIFO: p(AT.MRTEVIFO, u.MRTEVIFO),
        MRTEVIFP: p(AT.MRTEVIFP, u.MRTEVIFP), CLFO: p(AT.CLFO, u.CLFO), CLFP: p(AT.CLFP, u.CLFP),
        VZFO: p(AT.VZFO, u.VZFO), VZFP: p(AT.VZFP, u.VZFP),
      };
    }
    if (route === 'iv-infusion') {
      return {
        CMAX: p(AT.CMAX, u.CMAX), TMAX: p(AT.TMAX, u.TMAX), CLST: p(AT.CLST, u.CLST), TLST: p(AT.TLST, u.TLST),
        CLSTP: p(AT.CLSTP, u.CLSTP), AUCLST: p(AT.AUCLST, u.AUCLST), AUCALL: p(AT.AUCALL, u.AUCALL),
        AUCIFO: p(AT.AUCIFO, u.AUCIFO), AUCIFP: p(AT.AUCIFP, u.AUCIFP), AUCPEO: p(AT.AUCPEO, u.AUCPEO),
        AUCPEP: p(AT.AUCPEP, u.AUCPEP), LAMZ: p(AT.LAMZ, u.LAMZ), LAMZHL: p(AT.LAMZHL, u.LAMZHL),
        LAMZNPT: p(AT.LAMZNPT, u.LAMZNPT), LAMZLL: p(AT.LAMZLL, u.LAMZLL), LAMZUL: p(AT.LAMZUL, u.LAMZUL),
        R2: p(AT.R2, u.R2), R2ADJ: p(AT.R2ADJ, u.R2ADJ), CORRXY: p(AT.CORRXY, u.CORRXY),
        AUMCLST: p(AT.AUMCLST, u.AUMCLST), AUMCIFO: p(AT.AUMCIFO, u.AUMCIFO), AUMCIFP: p(AT.AUMCIFP, u.AUMCIFP),
        AUMCPEO: p(AT.AUMCPEO, u.AUMCPEO), AUMCPEP: p(AT.AUMCPEP, u.AUMCPEP), CMAXD: p(AT.CMAXD, u.CMAXD),
        AUCIFOD: p(AT.AUCIFOD, u.AUCIFOD), AUCIFPD: p(AT.AUCIFPD, u.AUCIFPD), MRTIVLST: p(AT.MRTIVLST, u.MRTIVLST),
        MRTIVIFO: p(AT.MRTIVIFO, u.MRTIVIFO), MRTIVIFP: p(AT.MRTIVIFP, u.MRTIVIFP), CLO: p(AT.CLO, u.CLO),
        CLP: p(AT.CLP, u.CLP), VZO: p(AT.VZO, u.VZO), VZP: p(AT.VZP, u.VZP), VSSO: p(AT.VSSO, u.VSSO),
        VSSP: p(AT.VSSP, u.VSSP),
      };
    }
    return {
      CMAX: p(AT.CMAX, u.CMAX), TMAX: p(AT.TMAX, u.TMAX), CLST: p(AT.CLST, u.CLST), TLST: p(AT.TLST, u.TLST),
      CLSTP: p(AT.CLSTP, u.CLSTP), AUCLST: p(AT.AUCLST, u.AUCLST), AUCALL: p(AT.AUCALL, u.AUCALL),
      AUCIFO: p(AT.AUCIFO, u.AUCIFO), AUCIFP: p(AT.AUCIFP, u.AUCIFP), AUCPEO: p(AT.AUCPEO, u.AUCPEO),
      AUCPEP: p(AT.AUCPEP, u.AUCPEP), LAMZ: p(AT.LAMZ, u.LAMZ), LAMZHL: p(AT.LAMZHL, u.LAMZHL),
      LAMZNPT: p(AT.LAMZNPT, u.LAMZNPT), LAMZLL: p(AT.LAMZLL, u.LAMZLL), LAMZUL: p(AT.LAMZUL, u.LAMZUL),
      R2: p(AT.R2, u.R2), R2ADJ: p(AT.R2ADJ, u.R2ADJ), CORRXY: p(AT.CORRXY, u.CORRXY),
      AUMCLST: p(AT.AUMCLST, u.AUMCLST), AUMCIFO: p(AT.AUMCIFO, u.AUMCIFO), AUMCIFP: p(AT.AUMCIFP, u.AUMCIFP),
      AUMCPEO: p(AT.AUMCPEO, u.AUMCPEO), AUMCPEP: p(AT.AUMCPEP, u.AUMCPEP), CMAXD: p(AT.CMAXD, u.CMAXD),
      AUCIFOD: p(AT.AUCIFOD, u.AUCIFOD), AUCIFPD: p(AT.AUCIFPD, u.AUCIFPD), MRTIVLST: p(AT.MRTIVLST, u.MRTIVLST),
      MRTIVIFO: p(AT.MRTIVIFO, u.MRTIVIFO), MRTIVIFP: p(AT.MRTIVIFP, u.MRTIVIFP), CLO: p(AT.CLO, u.CLO),
      CLP: p(AT.CLP, u.CLP), VZO: p(AT.VZO, u.VZO), VZP: p(AT.VZP, u.VZP), VSSO: p(AT.VSSO, u.VSSO),
      VSSP: p(AT.VSSP, u.VSSP), C0: p(AT.C0, u.C0), AUCPBEO: p(AT.AUCPBEO, u.AUCPBEO),
      AUCPBEP: p(AT.AUCPBEP, u.AUCPBEP),
    };
  }
}
