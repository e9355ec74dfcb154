/**
 * Values below the lower limit of quantification (BLQ): which samples are
 * BLQ, and what each becomes by its position in the profile, as PKNCA's
 * `clean.conc.blq` does.
 *
 * A sample is BLQ when it is flagged (a "BLQ" or "<0.1" cell, a flag column),
 * or when its value is below its LLOQ (one LLOQ per profile or one per row).
 * Its position, by time among the rows with a time: `first` before the first
 * measurable (non-BLQ) value, `last` after the last one, `middle` between
 * (a profile without a measurable value is all `first`). Rules per position:
 * - `drop`: the row is left out (reported in `excluded.blq`);
 * - `zero`: 0;
 * - `lloq/2`, `lloq`: half the LLOQ, the LLOQ (needs one);
 * - `keep`: the measured number when there is one, else 0 — PKNCA's "keep",
 *   where BLQ values are coded 0.
 * Presets: `pknca`, PKNCA's default (`PKNCA.options("conc.blq")`): first keep,
 * middle drop, last keep (BLQ coded 0); `missing`, every BLQ value left out —
 * what Phoenix WinNonlin does with a non-numeric concentration cell when no
 * BQL rule is set (it is excluded as missing); `zero`, every BLQ value 0.
 * Missing values (no number, not BLQ) are not BLQ: they are still dropped
 * and reported as missing.
 */
import { NcaInputError } from './clean.js';

export type BlqRule = 'drop' | 'zero' | 'lloq/2' | 'lloq' | 'keep';
export const BLQ_RULES: readonly BlqRule[] = ['drop', 'zero', 'lloq/2', 'lloq', 'keep'];

export interface BlqRules {
  first: BlqRule;
  middle: BlqRule;
  last: BlqRule;
}

export const BLQ_PRESETS = {
  pknca: { first: 'keep', middle: 'drop', last: 'keep' },
  missing: { first: 'drop', middle: 'drop', last: 'drop' },
  zero: { first: 'zero', middle: 'zero', last: 'zero' },
} as const satisfies Record<string, BlqRules>;
export type BlqPreset = keyof typeof BLQ_PRESETS;

export function blqRules(rules: BlqRules | BlqPreset | undefined): BlqRules {
  if (rules === undefined) return BLQ_PRESETS.pknca;
  if (typeof rules === 'string') {
    if (!(rules in BLQ_PRESETS)) throw new NcaInputError(`BLQ preset must be one of ${Object.keys(BLQ_PRESETS).join(', ')}, got "${rules}"`);
    return BLQ_PRESETS[rules];
  }
  for (const position of ['first', 'middle', 'last'] as const) {
    if (!BLQ_RULES.includes(rules[position])) throw new NcaInputError(`BLQ rule for ${position} must be one of ${BLQ_RULES.join(', ')}, got "${rules[position]}"`);
  }
  return rules;
}

export interface BlqInput {
  time: readonly (number | null)[];
  conc: readonly (number | null)[];
  /** Per row: true when the cell was BLQ (its `conc` may be null). */
  blq?: readonly boolean[];
  /** One LLOQ for the profile, or one per row (null: none). */
  lloq?: number | readonly (number | null)[];
}

export interface BlqApplied {
  conc: (number | null)[];
  /** Rows that were BLQ, and those of them left out by a `drop` rule. */
  blq: number[];
  dropped: number[];
}

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

function lloqAt(lloq: BlqInput['lloq'], i: number): number | null {
  if (lloq === undefined) return null;
  const v = typeof lloq === 'number' ? lloq : lloq[i];
  return finite(v) ? v : null;
}

function replaced(rule: BlqRule, measured: number | null, lloq: number | null, row: number): number | null {
  switch (rule) {
    case 'drop':
      return null;
    case 'zero':
      return 0;
    case 'keep':
      return measured ?? 0;
    case 'lloq':
    case 'lloq/2':
      if (lloq === null) throw new NcaInputError(`row ${row + 1} is BLQ and the rule "${rule}" needs an LLOQ`);
      return rule === 'lloq' ? lloq : lloq / 2;
  }
}

/** The concentrations after the BLQ rules (see the header); rows keep their positions, dropped ones are null. */
export function applyBlq(input: BlqInput, rules: BlqRules): BlqApplied {
  const { time, conc, blq: flags, lloq } = input;
  if (flags && flags.length !== conc.length) throw new NcaInputError(`blq has ${flags.length} flags but concentration has ${conc.length} values`);
  if (lloq !== undefined && typeof lloq !== 'number' && lloq.length !== conc.length) {
    throw new NcaInputError(`lloq has ${lloq.length} values but concentration has ${conc.length}`);
  }
  if (typeof lloq === 'number' && !(finite(lloq) && lloq >= 0)) throw new NcaInputError(`lloq must be a number ≥ 0, got ${lloq}`);
  const isBlq = conc.map((c, i) => {
    if (flags?.[i]) return true;
    const l = lloqAt(lloq, i);
    return finite(c) && l !== null && c < l;
  });
  let firstMeasured = Infinity;
  let lastMeasured = -Infinity;
  conc.forEach((c, i) => {
    const t = time[i];
    if (isBlq[i] || !finite(c) || !finite(t)) return;
    if (t < firstMeasured) firstMeasured = t;
    if (t > lastMeasured) lastMeasured = t;
  });
  const out = conc.slice();
  const blq: number[] = [];
  const dropped: number[] = [];
  for (let i = 0; i < conc.length; i++) {
    if (!isBlq[i]) continue;
    blq.push(i);
    const t = time[i];
    const position = !finite(t) || t < firstMeasured || lastMeasured === -Infinity ? 'first' : t > lastMeasured ? 'last' : 'middle';
    const v = replaced(rules[position], finite(conc[i]) ? conc[i] : null, lloqAt(lloq, i), i);
    if (v === null) dropped.push(i);
    out[i] = v;
  }
  return { conc: out, blq, dropped };
}
