/**
 * The one error type of the units layer. It always names the unit, and the
 * record when the caller gave one, so that a batch can turn it into a finding
 * that a curator can act on.
 */
export type UnitErrorCode =
  | 'empty'
  | 'unparseable'
  | 'incompatible'
  | 'no-normalised-unit';

export interface UnitErrorContext {
  /** Where the unit came from, e.g. `output 1234` or `interventions.csv row 17`. */
  record?: string;
  measurementType?: string;
}

export class UnitError extends Error {
  override readonly name = 'UnitError';

  constructor(
    readonly code: UnitErrorCode,
    readonly unit: string,
    /** What is wrong, without the unit and record. */
    readonly detail: string,
    readonly context: UnitErrorContext = {},
  ) {
    super(`${context.record ? `${context.record}: ` : ''}unit '${unit}': ${detail}`);
  }

  /** The same error, attributed to a record (errors from the cached parser carry none). */
  withContext(context: UnitErrorContext): UnitError {
    return new UnitError(this.code, this.unit, this.detail, { ...this.context, ...context });
  }
}
