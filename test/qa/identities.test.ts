import { describe, expect, it } from 'vitest';
import { explain, instancesOf, predicted, type IdentityNode, type Slot } from '../../src/qa/identities.js';

let index = 0;
const node = (slot: Slot, value: number, extra: Partial<IdentityNode> = {}): IdentityNode => ({ index: index++, slot, value, kgPower: 0, anchored: false, ...extra });

/** 100 mg IV, CL 10 L/h → AUC∞ 0.01 g·h/L; t½ 3.5 h → kel 0.198/h, Vz = 10 · 3.5 / ln 2 = 50.5 L. */
function consistent() {
  return {
    cl: node('clearance', 10), auc: node('auc_inf', 0.01), dose: node('dose', 0.1),
    thalf: node('thalf', 3.5), vz: node('vd', (10 * 3.5) / Math.LN2), kel: node('kel', Math.LN2 / 3.5),
  };
}

describe('identities: instances and residuals', () => {
  it('holds every identity for a consistent one-compartment IV set', () => {
    const n = consistent();
    const instances = instancesOf(Object.values(n), 'iv', null);
    expect(instances.map((i) => i.identity.code).sort()).toEqual(['identity/cl-dose-auc', 'identity/thalf-kel', 'identity/vz-cl-kel', 'identity/vz-cl-thalf']);
    for (const i of instances) expect(i.residual).toBeCloseTo(1, 6);
    expect(explain(instances)).toBeNull();
  });

  it('scales per-kg values with the body weight, and skips a mixed pair without one', () => {
    const cl = node('clearance', 10 / 70, { kgPower: -1 });
    const auc = node('auc_inf', 0.01);
    const dose = node('dose', 0.1);
    expect(instancesOf([cl, auc, dose], 'iv', 70)[0].residual).toBeCloseTo(1, 6);
    expect(instancesOf([cl, auc, dose], 'iv', null)).toEqual([]);
    // Both per kg: no weight needed (CL/kg · AUC / (dose/kg)).
    expect(instancesOf([cl, auc, node('dose', 0.1 / 70, { kgPower: -1 })], 'iv', null)[0].residual).toBeCloseTo(1, 6);
    // A value stated both ways must agree through the weight: 10 L/h vs 0.1 L/h/kg × 70 kg = 7 L/h.
    const same = instancesOf([node('clearance', 10), node('clearance', 0.1, { kgPower: -1 })], null, 70);
    expect(same).toHaveLength(1);
    expect(same[0].identity.code).toBe('identity/same-value');
    expect(same[0].residual).toBeCloseTo(10 / 7, 6);
  });

  it('lets CL reported for an oral dose sit below dose/AUC∞ (r = F) but not above', () => {
    const low = instancesOf([node('clearance', 3), node('auc_inf', 0.01), node('dose', 0.1)], 'extravascular', null)[0];
    expect(low.residual).toBeCloseTo(0.3, 6);
    expect(low.agrees).toBe(true);
    const high = instancesOf([node('clearance', 30), node('auc_inf', 0.01), node('dose', 0.1)], 'extravascular', null)[0];
    expect(high.agrees).toBe(false);
  });

  it('applies Vss = CL · MRT and MRT ≤ t½/ln 2 only after an IV bolus', () => {
    const nodes = [node('clearance', 10), node('vd_ss', 40), node('mrt', 4), node('thalf', 3.5)];
    expect(instancesOf(nodes, 'iv', null).map((i) => i.identity.code).sort()).toEqual(['identity/mrt-thalf', 'identity/vss-cl-mrt']);
    expect(instancesOf(nodes, 'extravascular', null).map((i) => i.identity.code)).toEqual(['identity/mrt-thalf']);
    expect(instancesOf(nodes, null, null)).toEqual([]);
  });
});

describe('identities: the odd one out', () => {
  it('names CL ×60 as the odd one out of CL = dose/AUC∞ and Vz = CL·t½/ln 2 while t½ = ln 2/kel holds', () => {
    const n = consistent();
    n.cl.value = 600;
    const e = explain(instancesOf(Object.values(n), 'iv', null))!;
    expect(e.kind).toBe('odd-one-out');
    expect(e.candidates).toHaveLength(1);
    expect(e.candidates[0].node).toBe(n.cl);
    expect(e.candidates[0].factor).toBeCloseTo(60, 6);
    expect(e.agreeing.map((i) => i.identity.code)).toEqual(['identity/thalf-kel']);
  });

  it('cannot tell t½ from kel with nothing else, nor Vz from CL without the dose', () => {
    const pair = explain(instancesOf([node('thalf', 3.5 * 60), node('kel', Math.LN2 / 3.5)], null, null))!;
    expect(pair.kind).toBe('ambiguous');
    expect(pair.candidates.map((c) => c.factor)).toEqual([expect.closeTo(60, 6), expect.closeTo(60, 6)]);
    const n = consistent();
    n.vz.value *= 1000;
    const e = explain(instancesOf([n.cl, n.vz, n.thalf, n.kel], null, null))!;
    // Vz = CL/kel and Vz = CL·t½/ln 2 both off by 1000, t½ = ln 2/kel holds: CL ×1/1000 or Vz ×1000.
    expect(e.kind).toBe('ambiguous');
    expect(e.candidates.map((c) => [c.node.slot, c.factor])).toEqual([['vd', expect.closeTo(1000, 6)], ['clearance', expect.closeTo(1e-3, 9)]]);
    // With the dose and AUC∞, CL = dose/AUC∞ holds: Vz is the odd one out.
    const all = explain(instancesOf(Object.values(n), 'iv', null))!;
    expect(all.kind).toBe('odd-one-out');
    expect(all.candidates[0].node).toBe(n.vz);
  });

  it('never blames an anchored value, and prefers the one its own timecourse also rejects', () => {
    const t = node('thalf', 3.5 * 60, { anchored: true });
    const e = explain(instancesOf([t, node('kel', Math.LN2 / 3.5)], null, null))!;
    expect(e.kind).toBe('odd-one-out');
    expect(e.candidates[0].node.slot).toBe('kel');
    const s = explain(instancesOf([node('thalf', 3.5 * 60, { suspect: true }), node('kel', Math.LN2 / 3.5)], null, null))!;
    expect(s.kind).toBe('odd-one-out');
    expect(s.candidates[0].node.slot).toBe('thalf');
  });

  it("does not let a CL's disagreement with its curve single it out beside the dose: its recomputation divides the same dose", () => {
    // CL 1 L/h, AUC∞ 0.01 g·h/L, dose 0.1 g curated as 1 g (×10): CL = dose/AUC∞ is off ×1/10, and the CL ×1/10 its
    // recomputation from the curve (which divides the slipped dose) — no more evidence against the CL than against the dose.
    const cl = node('clearance', 1, { suspect: true });
    const dose = node('dose', 1);
    const e = explain(instancesOf([cl, node('auc_inf', 0.01, { anchored: true }), dose], 'iv', null))!;
    expect(e.kind).toBe('ambiguous');
    expect(e.candidates.map((c) => c.node.slot).sort()).toEqual(['clearance', 'dose']);
    // An AUC∞ off its own curve is evidence of its own (its recomputation has no dose in it).
    const auc = node('auc_inf', 0.001, { suspect: true });
    const f = explain(instancesOf([node('clearance', 10), auc, node('dose', 0.1)], 'iv', null))!;
    expect(f.kind).toBe('odd-one-out');
    expect(f.candidates[0].node).toBe(auc);
  });

  it('bounds: AUC∞/Cmax against t½ gives an interval, not a factor', () => {
    // Cmax 0.002 g/L, t½ 3.5 h, AUC∞ 0.01 g·h/L: r = 0.01 · ln 2 / (0.002 · 3.5) = 0.99; Cmax ×1/1000 makes r = 990.
    const cmax = node('cmax', 0.000002);
    const e = explain(instancesOf([node('auc_inf', 0.01), cmax, node('thalf', 3.5)], null, null))!;
    expect(e.kind).toBe('ambiguous');
    const c = e.candidates.find((x) => x.node === cmax)!;
    expect(c.factor).toBeNull();
    const r = (0.01 * Math.LN2) / (0.000002 * 3.5);
    expect(c.interval[0]).toBeCloseTo(0.05 / r, 10);
    expect(c.interval[1]).toBeCloseTo(20 / r, 10);
  });

  it('predicts the value that makes an equality hold', () => {
    const [inst] = instancesOf([node('thalf', 7), node('kel', Math.LN2 / 3.5)], null, null);
    expect(predicted(inst, 0)).toBeCloseTo(3.5, 6);
    expect(predicted(inst, 1)).toBeCloseTo(Math.LN2 / 7, 6);
  });
});

describe('identities: unbound clearance and volume', () => {
  it('holds CLu = CL / fu and Vu = V / fu (diazepam: CL 1.6 L/h, fu 0.02 → CLu 80 L/h; V 80 L → Vu 4000 L)', () => {
    const [cl, fu, clu, vd, vu] = [node('clearance', 1.6), node('fraction_unbound', 0.02), node('clearance_unbound', 80), node('vd', 80), node('vd_unbound', 4000)];
    const instances = instancesOf([cl, fu, clu, vd, vu], 'iv', null);
    expect(instances.map((i) => i.identity.code).sort()).toEqual(['identity/clu-cl-fu', 'identity/vu-v-fu']);
    for (const i of instances) expect(i.residual).toBeCloseTo(1, 9);
  });

  it('names fu ×100 (2 % curated as 2) the odd one out of both: CLu·fu/CL = Vu·fu/V = 100', () => {
    const [cl, fu, clu, vd, vu] = [node('clearance', 1.6), node('fraction_unbound', 2), node('clearance_unbound', 80), node('vd', 80), node('vd_unbound', 4000)];
    const explanation = explain(instancesOf([cl, fu, clu, vd, vu], 'iv', null));
    expect(explanation?.kind).toBe('odd-one-out');
    expect(explanation?.candidates.map((c) => c.node.slot)).toEqual(['fraction_unbound']);
    expect(explanation?.candidates[0].factor).toBeCloseTo(100, 6);
  });
});

describe('identities: MRT = AUMC∞ / AUC∞', () => {
  it('holds for AUMC∞ 0.05 g·h²/L, AUC∞ 0.01 g·h/L, MRT 5 h; names MRT ×1/60 (minutes read as hours) beside t½', () => {
    const [aumc, auc] = [node('aumc_inf', 0.05), node('auc_inf', 0.01)];
    expect(instancesOf([aumc, auc, node('mrt', 5)], 'iv', null)[0]).toMatchObject({ agrees: true });
    expect(instancesOf([aumc, auc, node('mrt', 5)], 'iv', null)[0].residual).toBeCloseTo(1, 12);
    const explanation = explain(instancesOf([aumc, auc, node('mrt', 5 / 60), node('thalf', 3.5)], 'iv', null));
    expect(explanation?.candidates.map((c) => c.node.slot)).toEqual(['mrt']);
    expect(explanation?.candidates[0].factor).toBeCloseTo(1 / 60, 9);
  });
});

describe('identities: two values exchanged', () => {
  it('names a t½ and an absorption t½ curated one for the other when the exchange makes every identity hold', () => {
    // kel 0.35/h (t½ 1.98 h) and ka 4.6/h (t½abs 0.151 h), curated t½ 0.2 h and t½abs 2 h: exchanged, t½ = ln 2/kel
    // r = 2 · 0.35 / 0.693 = 1.01, t½abs = ln 2/ka r = 0.2 · 4.6 / 0.693 = 1.33, t½abs/t½ = 0.1: all hold.
    const nodes = [node('thalf', 0.2), node('thalf_absorption', 2), node('kel', 0.35), node('kabs', 4.6)];
    const e = explain(instancesOf(nodes, 'extravascular', null));
    expect(e?.kind).toBe('swap');
    expect(e?.swapped?.map((n) => n.slot)).toEqual(['thalf', 'thalf_absorption']);
    // With a ka that disagrees with either t½abs (1 /h: t½abs 0.69 h), no exchange makes everything hold.
    const none = explain(instancesOf([node('thalf', 0.2), node('thalf_absorption', 2), node('kel', 0.35), node('kabs', 1)], 'extravascular', null));
    expect(none?.kind).not.toBe('swap');
  });
});
