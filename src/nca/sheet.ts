/**
 * The result sheet: evaluates the rows of the parameter table
 * (./parameters.ts) for one profile, in table order, into the result objects
 * `{ CODE: { value, unit } }` and the notes saying why a value is missing.
 * A null or non-finite value is missing; its note is the reason of the row's
 * first unmet need (`Need`), or "not computable".
 */
import type { Need, ParameterRow, Pptestcd, Quantities, Values } from './parameters.js';

export interface ParameterValue {
  value: number | null;
  unit: string;
}

export type Parameters = Partial<Record<Pptestcd, ParameterValue>>;
export type Notes = Partial<Record<Pptestcd, string>>;

function unmet(need: Need, q: Quantities): string | null {
  switch (need) {
    case 'area':
      return q.aucall === null ? q.areaReason : null;
    case 'aucint':
      return q.aucint === null ? q.aucintReason : null;
    case 'positive':
      return q.clast === null ? 'no positive concentration' : null;
    case 'lambdaZ':
      return q.fit === null ? q.fitReason : null;
    case 'dose':
      return q.dose === null ? 'no dose given' : null;
    case 'auclast':
      return q.auclst ? null : 'AUCLST is missing or 0';
    case 'dosingInterval':
      return q.tau === null ? 'the interval does not start at a dose' : null;
    case 'trough':
      return q.ctrough === null ? q.troughReason : null;
    case 'firstInterval':
      return q.firstAuctau === null ? 'no first dosing interval to compare with' : null;
  }
}

/** Why a row's value is missing. */
export function missingReason(needs: readonly Need[], q: Quantities): string {
  for (const need of needs) {
    const reason = unmet(need, q);
    if (reason !== null) return reason;
  }
  return 'not computable';
}

/**
 * Values of `rows` for the quantities `q`. With `wanted`, only those codes are
 * reported (every row is still computed: later rows may read earlier ones).
 */
export function evaluate(
  rows: readonly ParameterRow<Pptestcd>[],
  q: Quantities,
  units: Readonly<Record<Pptestcd, string>>,
  wanted?: ReadonlySet<string>,
): { parameters: Parameters; notes: Notes } {
  const v: Values = {};
  const parameters: Parameters = {};
  const notes: Notes = {};
  for (const row of rows) {
    let x = row.compute(q, v);
    let note: string | null = null;
    if (x === null) note = missingReason(row.needs, q);
    else if (!Number.isFinite(x)) {
      note = `not computable (value ${x})`;
      x = null;
    }
    v[row.code] = x;
    if (wanted && !wanted.has(row.code)) continue;
    parameters[row.code] = { value: x, unit: units[row.code] };
    if (note !== null) notes[row.code] = note;
  }
  return { parameters, notes };
}
