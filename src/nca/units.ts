/**
 * Units of the standard profile's parameters, composed as strings from the
 * time (T), concentration (C) and dose (D) units. The rule, chosen so that the
 * common cases read like WinNonlin's (dose mg, time h, conc mg/L):
 * - volume V: when C is written "A/B" and A equals D, V = B (mg and mg/L give L);
 *   otherwise V = D/(C), left unsimplified rather than guessed;
 * - AUC T*C (h*mg/L), AUMC T^2*C (h^2*mg/L), λz 1/T, clearance V/T (L/h),
 *   dose-normalised X/D ((mg/L)/mg, h*mg/L/mg);
 * - "%" for percentages, "count" for LAMZNPT, "" for R², R²adj and r.
 * No conversion happens here: every parameter is in the units the inputs imply.
 */
import { PPTESTCD, type Pptestcd } from './codes.js';

export interface UnitSystem {
  time: string;
  conc: string;
  dose: string;
}

export const DEFAULT_UNITS: UnitSystem = { time: 'h', conc: 'mg/L', dose: 'mg' };

/** The volume unit D/C, simplified when C's numerator is D. */
export function volumeUnit(dose: string, conc: string): string {
  const slash = conc.indexOf('/');
  if (slash > 0 && conc.slice(0, slash).trim() === dose.trim()) return conc.slice(slash + 1).trim();
  return `${dose}/(${conc})`;
}

function composeUnits({ time, conc, dose }: UnitSystem): Record<Pptestcd, string> {
  const auc = `${time}*${conc}`;
  const aumc = `${time}^2*${conc}`;
  const volume = volumeUnit(dose, conc);
  const clearance = `${volume}/${time}`;
  const units = {} as Record<Pptestcd, string>;
  for (const code of PPTESTCD) units[code] = '';
  Object.assign(units, {
    CMAX: conc, CLST: conc, CLSTP: conc, C0: conc,
    TMAX: time, TLAG: time, TLST: time, LAMZHL: time, LAMZLL: time, LAMZUL: time,
    MRTEVLST: time, MRTEVIFO: time, MRTEVIFP: time, MRTIVLST: time, MRTIVIFO: time, MRTIVIFP: time,
    AUCLST: auc, AUCALL: auc, AUCIFO: auc, AUCIFP: auc,
    AUMCLST: aumc, AUMCIFO: aumc, AUMCIFP: aumc,
    AUCPEO: '%', AUCPEP: '%', AUMCPEO: '%', AUMCPEP: '%', AUCPBEO: '%', AUCPBEP: '%',
    LAMZ: `1/${time}`, LAMZNPT: 'count',
    CMAXD: `(${conc})/${dose}`, AUCIFOD: `${auc}/${dose}`, AUCIFPD: `${auc}/${dose}`,
    CLFO: clearance, CLFP: clearance, CLO: clearance, CLP: clearance,
    VZFO: volume, VZFP: volume, VZO: volume, VZP: volume, VSSO: volume, VSSP: volume,
  } satisfies Partial<Record<Pptestcd, string>>);
  return units;
}

const cache = new Map<string, Record<Pptestcd, string>>();

/** Unit of every parameter for this unit system (memoised: profiles of a table share one). */
export function parameterUnits(system: UnitSystem): Record<Pptestcd, string> {
  const key = `${system.time}\u0000${system.conc}\u0000${system.dose}`;
  let units = cache.get(key);
  if (!units) {
    units = composeUnits(system);
    cache.set(key, units);
  }
  return units;
}
