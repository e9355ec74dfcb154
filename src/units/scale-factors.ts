/**
 * Naming the unit slip behind a ratio: when two numbers that should be equal
 * differ by a power of ten, a time-unit factor or a molar mass, the ratio says
 * what went wrong (a mg/µg prefix, minutes read as hours, mol vs g).
 */

export interface ScaleExplanation {
  /** The factor the ratio is close to (≥ 1 or its inverse, as found). */
  readonly factor: number;
  /** e.g. `×1000 (power of ten: a unit prefix slip)`. */
  readonly cause: string;
}

/** Time-unit factors: min↔h 60, h↔day 24, min↔day 1440, h↔week 168, day↔week 7, s↔h 3600, min↔week 10080. */
const TIME_FACTORS: readonly [number, string][] = [
  [60, 'minutes vs hours'],
  [24, 'hours vs days'],
  [1440, 'minutes vs days'],
  [168, 'hours vs weeks'],
  [7, 'days vs weeks'],
  [3600, 'seconds vs hours'],
  [10080, 'minutes vs weeks'],
];

function near(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a / b - 1) <= tolerance;
}

function times(f: number): string {
  const text = f >= 1 ? String(Number(f.toPrecision(12))) : `1/${Number((1 / f).toPrecision(12))}`;
  return `×${text}`;
}

/**
 * The known factor `ratio` equals within `tolerance` (relative): a power of
 * ten 10^k (k ≠ 0, |k| ≤ 12), a time factor, or the molar mass (optionally
 * combined with a power of ten); null when it is none of these.
 */
export function explainRatio(ratio: number, opts: { molarMass?: number | null; tolerance?: number } = {}): ScaleExplanation | null {
  if (!Number.isFinite(ratio) || ratio <= 0) return null;
  const tolerance = opts.tolerance ?? 1e-6;
  const k = Math.round(Math.log10(ratio));
  if (k !== 0 && Math.abs(k) <= 12 && near(ratio, Number(`1e${k}`), tolerance)) {
    return { factor: Number(`1e${k}`), cause: `${times(Number(`1e${k}`))} (power of ten: a unit prefix slip)` };
  }
  for (const [f, what] of TIME_FACTORS) {
    for (const candidate of [f, 1 / f]) {
      if (near(ratio, candidate, tolerance)) return { factor: candidate, cause: `${times(candidate)} (${what})` };
    }
  }
  const mass = opts.molarMass;
  if (mass && mass > 0) {
    for (const m of [mass, 1 / mass]) {
      const rest = ratio / m;
      const j = Math.round(Math.log10(rest));
      if (near(rest, Number(`1e${j}`), tolerance)) {
        const factor = m * Number(`1e${j}`);
        return { factor, cause: `${times(factor)} (the molar mass ${mass} g/mol${j === 0 ? '' : ` and 10^${j}`}: molar vs mass unit)` };
      }
    }
  }
  return null;
}
