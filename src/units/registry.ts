/**
 * The project's own mathjs instance with the units PK-DB's pint registry has
 * and mathjs lacks (`info_nodes/units.py`, PK-DB API notes §4). Isolated from the global
 * mathjs so that no other module's units leak in or out.
 *
 * Built on first use, from mathjs's single-file bundle (an entry its package
 * exports). Why not `import 'mathjs'`: its ESM entry instantiates every mathjs
 * function at import, ~1.4 s of CPU for the few unit parses a run needs
 * (results are cached per spelling in parse.ts). The bundle loads in ~70 ms,
 * and the instance its `create` makes builds each function on first use, so
 * only the unit machinery is ever built (~150 ms, on the first parse).
 */
import { createRequire } from 'node:module';
import type { MathJsInstance } from 'mathjs';

/** Name of the base dimension of international units: like pint's `IU = [activity_amount]`, it never converts to mass. */
export const ACTIVITY_DIMENSION = 'ACTIVITY_AMOUNT';

/**
 * Names of the base dimensions, in the order of a mathjs Unit's `dimensions`
 * array: mathjs's own nine, then the activity dimension `IU` adds. Spelled out
 * so that importing this module does not load mathjs; `buildMath` checks it.
 */
export const BASE_DIMENSIONS: readonly string[] = [
  'MASS',
  'LENGTH',
  'TIME',
  'CURRENT',
  'TEMPERATURE',
  'LUMINOUS_INTENSITY',
  'AMOUNT_OF_SUBSTANCE',
  'ANGLE',
  'BIT',
  ACTIVITY_DIMENSION,
];

/** mathjs's default instance, whose `create` is bound to all factories and takes only a configuration. */
type BundledMathjs = { create(config: object): MathJsInstance };

function loadMathjs(): BundledMathjs {
  return createRequire(import.meta.url)('mathjs/lib/browser/math.js') as BundledMathjs;
}

function buildMath(): MathJsInstance {
  const mathjs = loadMathjs();
  const math = mathjs.create({ number: 'number' });
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
  const actual = (math as unknown as { Unit: { BASE_DIMENSIONS: string[] } }).Unit.BASE_DIMENSIONS;
  if (actual.join() !== BASE_DIMENSIONS.join()) {
    throw new Error(`mathjs base dimensions changed: ${actual.join(', ')} (units/registry.ts expects ${BASE_DIMENSIONS.join(', ')})`);
  }
  return math;
}

let instance: MathJsInstance | undefined;

/** Whether mathjs has been built in this process (a run that meets only preparsed.ts's expressions never builds it). */
export function isUnitMathBuilt(): boolean {
  return instance !== undefined;
}

/** The unit registry's mathjs instance, built on the first call. */
export function unitMath(): MathJsInstance {
  instance ??= buildMath();
  return instance;
}
