/**
 * How far a reported PK parameter may sit from the value recomputed from its
 * concentration timecourse before a curator should look at it.
 *
 * A tolerance is a pair of fold factors: the ratio r = reported / recomputed
 * (same unit) *agrees* when 1/agree ≤ r ≤ agree and is a *minor* disagreement
 * when 1/minor ≤ r ≤ minor. Beyond that it is major unless an expected reason
 * (see classify.ts) explains it. Fold factors, not differences, because every
 * error we look for multiplies (unit slips, per-kg, dose).
 *
 * Why these numbers (sources: PK-DB calculation, WinNonlin/PKNCA
 * practice, and what digitised figures allow):
 * - Timecourses in PK-DB are mostly digitised from figures (±2–5 % per point),
 *   and authors round reported values: no parameter agrees better than ~10 %.
 * - cmax is an observed point: 10 % covers digitisation. For group data the
 *   reported value is usually the mean of the individual Cmax, which exceeds
 *   the Cmax of the mean curve whenever subjects peak at different times
 *   (Jensen's inequality on max); 2× is still plausible for oral absorption.
 * - auc_end: linear vs log-down trapezoids differ by up to ~10 % on sparse
 *   grids, so 15 % agrees.
 * - auc_inf, thalf, kel: depend on the λz window. PK-DB regresses on *every*
 *   point after Cmax, the authors on the terminal phase only; for a
 *   two-compartment drug the two slopes differ by the ratio of the phases,
 *   commonly 2–4×. Hence 25 % agrees and up to 4× (3× for auc_inf, which is
 *   dominated by the observed AUC) is minor.
 * - vd, vd_ss, clearance: λz as above, plus bioavailability (CL/F vs CL) and
 *   the dose the authors used: 25 % agrees, up to 4× minor.
 * - tmax is a sampling time, not a continuous estimate; it is judged by the
 *   sampling grid (see classify.ts), these folds only apply when no grid is known.
 */
export const REPORTED_PARAMETERS = [
  'cmax',
  'tmax',
  'auc_end',
  'auc_inf',
  'thalf',
  'kel',
  'vd',
  'vd_ss',
  'clearance',
] as const;

export type ReportedParameter = (typeof REPORTED_PARAMETERS)[number];

export function isReportedParameter(name: string): name is ReportedParameter {
  return (REPORTED_PARAMETERS as readonly string[]).includes(name);
}

export interface Tolerance {
  /** Fold factor within which reported and recomputed agree. */
  agree: number;
  /** Fold factor within which a disagreement is minor. */
  minor: number;
  /**
   * How far above the recomputed value a reported one ordinarily lies, where more than `agree` (a group's Cmax: the
   * mean of its members' peaks, above the peak of the mean curve): the window a slip factor is named in once undone
   * (classify.ts) reaches up to it. Measured on the shared export: of 657 group Cmax comparisons 284 lie ×1.1–1.5
   * above their curve's peak, 15 ×1/1.1–1/1.25 below it.
   */
  ordinaryExcess?: number;
}

export interface ParameterTolerance {
  individual: Tolerance;
  /** Group data: reported = mean of individual parameters, recomputed = parameter of the mean curve. */
  group: Tolerance;
}

export const TOLERANCES: Record<ReportedParameter, ParameterTolerance> = {
  cmax: { individual: { agree: 1.1, minor: 1.5 }, group: { agree: 1.1, minor: 2, ordinaryExcess: 1.5 } },
  tmax: { individual: { agree: 1.25, minor: 3 }, group: { agree: 1.25, minor: 4 } },
  auc_end: { individual: { agree: 1.15, minor: 2 }, group: { agree: 1.15, minor: 2 } },
  auc_inf: { individual: { agree: 1.2, minor: 3 }, group: { agree: 1.2, minor: 3 } },
  thalf: { individual: { agree: 1.25, minor: 4 }, group: { agree: 1.25, minor: 4 } },
  kel: { individual: { agree: 1.25, minor: 4 }, group: { agree: 1.25, minor: 4 } },
  vd: { individual: { agree: 1.25, minor: 4 }, group: { agree: 1.25, minor: 4 } },
  vd_ss: { individual: { agree: 1.25, minor: 4 }, group: { agree: 1.25, minor: 4 } },
  clearance: { individual: { agree: 1.25, minor: 4 }, group: { agree: 1.25, minor: 4 } },
};

/** Parameters proportional to the dose: a wrong curated dose scales exactly these. */
export const DOSE_PROPORTIONAL: ReadonlySet<ReportedParameter> = new Set(['vd', 'vd_ss', 'clearance']);

/** Parameters that can be stated per kg body weight. */
export const WEIGHT_NORMALISABLE: ReadonlySet<string> = new Set<ReportedParameter>(['vd', 'vd_ss', 'clearance']);

/**
 * How close a ratio must be to a unit factor (×1000, ×60, …) or to the body
 * weight to name it as the cause: |ln(r / f)| ≤ ln(1 + FACTOR_TOLERANCE).
 * 5 % is about twice the digitisation error, and narrow enough that the
 * windows of 24, 60 and 1000/60 never overlap. A comparison beyond its minor
 * band also names a factor within its agree band (classify.ts), the nearest.
 */
export const FACTOR_TOLERANCE = 0.05;

/** Body weight is known less precisely (group mean, rounded): 10 %. */
export const WEIGHT_TOLERANCE = 0.1;
