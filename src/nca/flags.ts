/**
 * Quality flags of a profile's terminal phase, as PKNCA raises them (its
 * options `min.span.ratio` 2, `min.hl.r.squared` 0.9, `max.aucinf.pext` 20)
 * and WinNonlin users check them: a λz over fewer than 2 half-lives (LAMZSPN),
 * a regression with adjusted R² below 0.9 (R2ADJ), an AUC∞ more than 20 %
 * extrapolated (AUCPEO). Flags never change a value: the parameters stay,
 * and each flag's `message` is a note a reader (and the QA) can show.
 */
import type { Parameters } from './sheet.js';

export interface FlagThresholds {
  /** Fewest half-lives the λz points should span. */
  minSpan: number;
  /** Lowest acceptable adjusted R² of the λz regression. */
  minAdjR2: number;
  /** Largest acceptable extrapolated share of AUC∞, %. */
  maxExtrapolated: number;
}

export const DEFAULT_FLAG_THRESHOLDS: FlagThresholds = { minSpan: 2, minAdjR2: 0.9, maxExtrapolated: 20 };

export interface QualityFlag {
  code: 'LAMZSPN' | 'R2ADJ' | 'AUCPEO';
  value: number;
  threshold: number;
  message: string;
}

const fmt = (x: number) => String(+x.toPrecision(3));

/** The flags raised by a profile's parameters (empty when none is). */
export function qualityFlags(p: Parameters, given?: Partial<FlagThresholds>): QualityFlag[] {
  const t = given ? { ...DEFAULT_FLAG_THRESHOLDS, ...given } : DEFAULT_FLAG_THRESHOLDS;
  const flags: QualityFlag[] = [];
  const span = p.LAMZSPN?.value;
  if (span != null && span < t.minSpan) {
    flags.push({ code: 'LAMZSPN', value: span, threshold: t.minSpan, message: `λz spans ${fmt(span)} half-lives (< ${t.minSpan}): t½ is uncertain` });
  }
  const r2 = p.R2ADJ?.value;
  if (r2 != null && r2 < t.minAdjR2) {
    flags.push({ code: 'R2ADJ', value: r2, threshold: t.minAdjR2, message: `λz regression adjusted R² ${fmt(r2)} (< ${t.minAdjR2})` });
  }
  const pe = p.AUCPEO?.value;
  if (pe != null && pe > t.maxExtrapolated) {
    flags.push({ code: 'AUCPEO', value: pe, threshold: t.maxExtrapolated, message: `AUC∞ is ${fmt(pe)} % extrapolated (> ${t.maxExtrapolated} %)` });
  }
  return flags;
}
