/**
 * Units: PK-DB unit spellings on mathjs, conversion (molar ↔ mass with a
 * molar mass), the normalised unit per measurement type, and PK-DB's normed
 * copies. Pure functions; lower than nca and qa in the data flow.
 */
export { UnitError, type UnitErrorCode, type UnitErrorContext } from './errors.js';
export { toMathjsExpression, measurementTypeKey } from './spelling.js';
export {
  parseUnit,
  parseUnitOrNull,
  parseUnitResult,
  dimensionOf,
  sameDimension,
  divideUnits,
  multiplyUnits,
  formatPint,
  type ParsedUnit,
  type Dimension,
  type Scale,
  type UnitMeasure,
} from './parse.js';
export {
  conversionFactor,
  conversionFactorOrNull,
  productFactorOrNull,
  convert,
  isConvertible,
  molarExponent,
  type ConversionOptions,
} from './convert.js';
export {
  BUILTIN_MOLAR_MASSES,
  molarMassLookup,
  type MolarMass,
  type MolarMassEntry,
  type MolarMassLookup,
  type MolarMassSource,
} from './molar-mass.js';
export {
  normalisedUnits,
  normalisedTarget,
  isNormalisedUnit,
  measurementTypesWithUnits,
  KNOWN_ODD_UNITS,
  PKDB_PROFILE_UNITS,
} from './normalised-units.js';
export {
  normalize,
  normalizeAll,
  unitNormalisation,
  completeErrorMeasures,
  type NormalizableRecord,
  type NormalizeOptions,
  type NormalizeOutcome,
  type UnitNormalisation,
} from './normalize.js';
export { explainRatio, type ScaleExplanation } from './scale-factors.js';
