/**
 * The `normed-vs-raw` check: every normed copy against its raw record
 * converted again (normed-vs-raw.ts); with normed records only (export zips),
 * the units of interventions, outputs and characteristica (kind `unit`).
 */
import type { QaCheck } from '../check.js';
import { checkNormedVsRaw } from '../normed-vs-raw.js';

export const normedVsRawCheck: QaCheck = {
  kind: 'normed-vs-raw',
  description: 'normed copies against their raw records converted again; normalised units (kind unit)',
  run(ctx) {
    return checkNormedVsRaw(ctx.tables);
  },
};
