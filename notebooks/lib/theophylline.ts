/**
 * A Theophylline-like synthetic oral study, in the spirit of the classic
 * Theoph data (Boeckmann, Sheiner & Beal, NONMEM Users Guide V; R `datasets::Theoph`):
 * 12 subjects, a single 320 mg oral dose, 11 samples over 24 h.
 *
 * Model: one compartment with first-order absorption (Bateman function)
 *   C(t) = F·D·ka / (V·(ka − ke)) · (e^(−ke·t) − e^(−ka·t)),   ke = CL/V
 * with typical values close to the published Theoph fits (ka 1.5 /h,
 * CL/F 0.040 L/h/kg, V/F 0.48 L/kg, so t½ ≈ 8 h), log-normal between-subject
 * variability (CV ≈ 50 % ka, 20 % CL, 15 % V), a combined proportional (8 %)
 * and additive (0.05 mg/L) residual error, jittered actual sampling times, and
 * concentrations rounded to 0.01 mg/L as a lab would report them.
 * Deterministic: one seeded PRNG, no clock.
 */
import { mulberry32 } from '../../src/nca/random.js';

/** Standard normal deviates by the Box–Muller transform. */
export function normalDeviates(uniform: () => number): () => number {
  return () => {
    const u = 1 - uniform(); // (0, 1]: log(0) is never taken
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}

/** Bateman function (ka ≠ ke): concentration after an oral dose at time 0, bioavailability folded into V and CL. */
export function bateman(t: number, dose: number, ka: number, ke: number, volume: number): number {
  if (t <= 0) return 0;
  return ((dose * ka) / (volume * (ka - ke))) * (Math.exp(-ke * t) - Math.exp(-ka * t));
}

export const NOMINAL_TIMES_H = [0, 0.25, 0.5, 1, 2, 3.5, 5, 7, 9, 12, 24] as const;
export const DOSE_MG = 320;

export interface TheophSample {
  subject: string;
  weight_kg: number;
  dose_mg: number;
  time_h: number;
  conc_mg_l: number;
}

/** The model parameters each subject was simulated with: the truth NCA should recover. */
export interface TheophSubject {
  subject: string;
  weight_kg: number;
  ka_per_h: number;
  cl_f_l_per_h: number;
  v_f_l: number;
  ke_per_h: number;
  thalf_h: number;
  auc_inf_mg_h_per_l: number;
}

export interface TheophStudy {
  samples: TheophSample[];
  subjects: TheophSubject[];
}

export function simulateTheophylline(seed = 20201016, subjects = 12): TheophStudy {
  const rnd = mulberry32(seed);
  const z = normalDeviates(rnd);
  const logNormal = (typical: number, cv: number) => typical * Math.exp(Math.sqrt(Math.log(1 + cv * cv)) * z());
  const samples: TheophSample[] = [];
  const truth: TheophSubject[] = [];
  for (let i = 1; i <= subjects; i++) {
    const subject = `S${String(i).padStart(2, '0')}`;
    const weight = Math.round(Math.min(86, Math.max(54, 70 + 9 * z())) * 10) / 10;
    let ka = logNormal(1.5, 0.5);
    const cl = logNormal(0.04, 0.2) * weight;
    const v = logNormal(0.48, 0.15) * weight;
    const ke = cl / v;
    // The Bateman form is singular at ka = ke (flip-flop edge case); keep absorption clearly faster.
    if (ka < 1.5 * ke) ka = 1.5 * ke;
    truth.push({ subject, weight_kg: weight, ka_per_h: ka, cl_f_l_per_h: cl, v_f_l: v, ke_per_h: ke, thalf_h: Math.LN2 / ke, auc_inf_mg_h_per_l: DOSE_MG / cl });
    for (const nominal of NOMINAL_TIMES_H) {
      // Actual times drift from the protocol by a few minutes, as in the clinic.
      const time = nominal === 0 ? 0 : Math.round(nominal * (1 + 0.03 * z()) * 100) / 100;
      const predicted = bateman(time, DOSE_MG, ka, ke, v);
      const observed = predicted * (1 + 0.08 * z()) + 0.05 * z();
      // The pre-dose sample holds no drug: its assay noise would be below the limit of quantification, reported as 0.
      const conc = time === 0 ? 0 : Math.max(0, Math.round(observed * 100) / 100);
      samples.push({ subject, weight_kg: weight, dose_mg: DOSE_MG, time_h: time, conc_mg_l: conc });
    }
  }
  return { samples, subjects: truth };
}
