import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import type { GroupRecord, InterventionRecord, OutputRecord } from '../../src/data/model.js';
import { ALIKE_PAIR_FACTOR, armDeviations, BIG_FACTOR } from '../../src/qa/arm-deviations.js';
import { prepareContext } from '../../src/qa/context.js';
import { arm, curve, dosing, group } from '../helpers/study-records.js';

function deviations(outputs: OutputRecord[], interventions: InterventionRecord[], groups: GroupRecord[] = [], curves: ReturnType<typeof curve>[] = []) {
  const tables = {
    studies: [], groups, individuals: [], interventions, scatters: [], terms: [],
    outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc),
  };
  return armDeviations(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('armDeviations: where each record is set against the other arms of its study', () => {
  it('sets each arm’s record against the centre of the others in its strict pool: an AUC ×1000 lies ln 1000 off', () => {
    const arms = [1, 2, 3, 4].map((g) => arm(g, 1));
    arms[3][1].mean = 20_000;
    const byArm = deviations(arms.flat(), [dosing(1, 0.1)]);
    expect(byArm.size).toBe(4);
    const all = [...byArm.values()].flat();
    const auc = all.find((d) => d.item.output?.pk === arms[3][1].pk)!;
    expect(auc.d).toBeCloseTo(Math.log(1000), 6);
    expect(auc.arms).toBe(3);
    // Each record is placed once.
    expect(new Set(all.map((d) => d.item.slot)).size).toBe(all.length);
  });

  it('gives a lone arm nothing to be set against', () => {
    expect(deviations(arm(1, 1), [dosing(1, 0.1)]).size).toBe(0);
  });

  it(`sets the two arms of a pair against each other as partners, naming factors of ×${BIG_FACTOR} and more only, ×${ALIKE_PAIR_FACTOR} for groups of one population`, () => {
    const pair = [...arm(1, 1), ...arm(2, 1, { cmax: 10, auc: 1, thalf: 1, cl: 1 })];
    const cmaxOf = (groups: GroupRecord[]) => [...deviations(pair, [dosing(1, 0.1)], groups).values()].flat().filter((d) => d.item.measure === 'cmax');
    for (const [groups, minFactor, alike] of [[[group(1), group(2, 'cirrhosis')], BIG_FACTOR, undefined], [[group(1), group(2)], ALIKE_PAIR_FACTOR, true]] as const) {
      const cmax = cmaxOf([...groups]);
      expect(cmax).toHaveLength(2);
      for (const d of cmax) {
        expect(d.partner).toBeDefined();
        expect(d.minFactor).toBe(minFactor);
        expect(d.alike).toBe(alike);
        expect(Math.abs(d.d)).toBeCloseTo(Math.log(10), 6);
      }
    }
  });

  it('marks a pool of groups with the same population marks alike, and not one with a diseased group', () => {
    const curves = [1, 2, 3].map((g) => curve(g, g, 1, [1, 1.2, 10][g - 1]));
    const alike = [...deviations([], [dosing(1, 0.1)], [group(1), group(2), group(3)], curves).values()].flat();
    expect(alike.length).toBeGreaterThan(0);
    expect(alike.every((d) => d.alike === true)).toBe(true);
    const mixed = [...deviations([], [dosing(1, 0.1)], [group(1), group(2), group(3, 'cirrhosis')], curves).values()].flat();
    expect(mixed.some((d) => d.alike === true)).toBe(false);
  });
});
