/**
 * The project's own mathjs instance with the units PK-DB's pint registry has
 * and mathjs lacks (`info_nodes/units.py`, NOTES §4). Isolated from the global
 * mathjs so that no other module's units leak in or out.
 */
import { all, create, type MathJsInstance } from 'mathjs';

/** Name of the base dimension of international units: like pint's `IU = [activity_amount]`, it never converts to mass. */
export const ACTIVITY_DIMENSION = 'ACTIVITY_AMOUNT';

function buildMath(): MathJsInstance {
  const math = create(all, { number: 'number' });
  math.createUnit('IU', { baseName: ACTIVITY_DIMENSION, prefixes: 'short' } as Parameters<typeof math.createUnit>[1]);
  // pint: `none = count`, `cups`/`beverages` = count (PK-DB's registry; this overrides mathjs's volume `cups`).
  for (const name of ['count', 'none', 'dimensionless', 'beverages', 'cups']) {
    math.createUnit(name, { definition: '1' }, { override: true });
  }
  math.createUnit('percent', { definition: '0.01' });
  math.createUnit('mcg', { definition: '1 ug' });
  // pint's mmHg is a millimetre of mercury at standard gravity, 133.322387415 Pa; mathjs rounds it to 133.322.
  math.createUnit('mmHg', { definition: '133.322387415 Pa' }, { override: true });
  // pint's becquerel is counts per second; mathjs has no activity units of radioactivity.
  math.createUnit('becquerel', { definition: '1 s^-1', prefixes: 'long' } as Parameters<typeof math.createUnit>[1]);
  math.createUnit('Bq', { definition: '1 s^-1', prefixes: 'short' } as Parameters<typeof math.createUnit>[1]);
  // pint's `a` (annum, the Julian year mathjs also uses). With prefixes, because pint
  // reads the export's time unit `na` as nano-year.
  math.createUnit('annum', { definition: '1 year', prefixes: 'short', aliases: ['a'] } as Parameters<
    typeof math.createUnit
  >[1]);
  return math;
}

export const math: MathJsInstance = buildMath();

/** Names of the base dimensions, in the order of a mathjs Unit's `dimensions` array. */
export const BASE_DIMENSIONS: readonly string[] = (
  math as unknown as { Unit: { BASE_DIMENSIONS: string[] } }
).Unit.BASE_DIMENSIONS.slice();
