/**
 * Sparse-sampling AUC: each subject gives one or a few samples, so the AUC
 * is that of the mean concentration at each time, with a standard error
 * from the between-subject variation (PKNCA `pk.calc.sparse_auclast`).
 *
 *   AUC = Σ wᵢ·C̄ᵢ,  wᵢ = (tᵢ₊₁ − tᵢ₋₁)/2 (ends: half their one neighbour
 *   interval): the linear trapezoid over the means (Bailer 1988);
 *   Var(AUC) = Σᵢ Σⱼ wᵢ wⱼ rᵢⱼ σᵢⱼ/(nᵢ nⱼ), with nᵢ subjects at tᵢ, rᵢⱼ the
 *   subjects sampled at both tᵢ and tⱼ, and σᵢⱼ Holder's unbiased covariance
 *   Σₖ (Cₖᵢ − C̄ᵢ)(Cₖⱼ − C̄ⱼ)/[rᵢⱼ − 1 + (1 − rᵢⱼ/nᵢ)(1 − rᵢⱼ/nⱼ)] (σᵢᵢ = sᵢ²)
 *   (Nedelman & Jia 1998; Holder 2001). With one sample per subject (serial
 *   sampling) only the diagonal remains: Bailer's Σ wᵢ² sᵢ²/nᵢ.
 *   Degrees of freedom (serial sampling), Satterthwaite:
 *   df = (Σ aᵢ)²/Σ aᵢ²/(nᵢ − 1), aᵢ = wᵢ² sᵢ²/nᵢ (Nedelman, Gibiansky & Lau 1995).
 *   With batch sampling (subjects at several times) df is not given (null, a note).
 * Times with fewer than 2 subjects have no variance: the SE is then null.
 */
import { NcaInputError } from './clean.js';

export interface SparseSample {
  subject: string;
  time: number;
  conc: number;
}

export interface SparseAuc {
  auc: number;
  se: number | null;
  df: number | null;
  /** Per time: n, mean, SD. */
  times: { time: number; n: number; mean: number; sd: number | null }[];
  notes: string[];
}

export const MAX_SPARSE_SAMPLES = 1_000_000;

/** Trapezoid weights of the linear AUC over [t₀, t_m]: Σ wᵢ·Cᵢ is the trapezoid sum. */
export function trapezoidWeights(t: readonly number[]): number[] {
  const m = t.length;
  return t.map((_, i) => ((i + 1 < m ? t[i + 1] : t[i]) - (i > 0 ? t[i - 1] : t[i])) / 2);
}

export function sparseAuc(samples: readonly SparseSample[]): SparseAuc {
  if (samples.length > MAX_SPARSE_SAMPLES) throw new NcaInputError(`sparse AUC: at most ${MAX_SPARSE_SAMPLES} samples`);
  const byTime = new Map<number, Map<string, number>>();
  samples.forEach((s, i) => {
    if (!Number.isFinite(s?.time) || !Number.isFinite(s?.conc)) throw new NcaInputError(`sample ${i + 1}: time and concentration must be finite numbers`);
    let at = byTime.get(s.time);
    if (!at) byTime.set(s.time, (at = new Map()));
    if (at.has(s.subject)) throw new NcaInputError(`sample ${i + 1}: subject ${s.subject} sampled twice at ${s.time}`);
    at.set(s.subject, s.conc);
  });
  const t = [...byTime.keys()].sort((a, b) => a - b);
  if (t.length < 2) throw new NcaInputError('sparse AUC needs at least two sampling times');
  const cells = t.map((time) => byTime.get(time) as Map<string, number>);
  const n = cells.map((c) => c.size);
  const mean = cells.map((c) => [...c.values()].reduce((a, b) => a + b, 0) / c.size);
  const w = trapezoidWeights(t);
  const auc = w.reduce((sum, wi, i) => sum + wi * mean[i], 0);
  const notes: string[] = [];
  const sd = cells.map((c, i) => (n[i] < 2 ? null : Math.sqrt([...c.values()].reduce((a, v) => a + (v - mean[i]) ** 2, 0) / (n[i] - 1))));
  const times = t.map((time, i) => ({ time, n: n[i], mean: mean[i], sd: sd[i] }));
  if (sd.some((s, i) => s === null && w[i] !== 0)) {
    notes.push('a time with fewer than 2 subjects has no variance: no SE');
    return { auc, se: null, df: null, times, notes };
  }
  let variance = 0;
  let batch = false;
  for (let i = 0; i < t.length; i++) {
    variance += (w[i] * w[i] * (sd[i] as number) ** 2) / n[i];
    for (let j = i + 1; j < t.length; j++) {
      let r = 0;
      let cross = 0;
      for (const [subject, ci] of cells[i]) {
        const cj = cells[j].get(subject);
        if (cj === undefined) continue;
        r++;
        cross += (ci - mean[i]) * (cj - mean[j]);
      }
      if (r === 0) continue;
      batch = true;
      const denominator = r - 1 + (1 - r / n[i]) * (1 - r / n[j]);
      if (denominator > 0) variance += (2 * w[i] * w[j] * r * (cross / denominator)) / (n[i] * n[j]);
    }
  }
  let df: number | null = null;
  if (batch) notes.push('subjects sampled at several times (batch design): covariances included, df not computed');
  else {
    const a = sd.map((s, i) => (w[i] * w[i] * (s as number) ** 2) / n[i]);
    const denominator = a.reduce((sum, ai, i) => sum + (ai * ai) / (n[i] - 1), 0);
    df = denominator > 0 ? a.reduce((x, y) => x + y, 0) ** 2 / denominator : null;
  }
  return { auc, se: Math.sqrt(Math.max(variance, 0)), df, times, notes };
}
