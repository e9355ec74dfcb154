/**
 * PK identities among values of one subject, intervention set, substance and
 * tissue (issue 13, item 2), and which value is the odd one out when they
 * disagree. Pure: the check (checks/pk-identities.ts) gathers the values.
 *
 * Each identity is a product  r = C · Π vᵢ^pᵢ  that is 1 when the identity
 * holds (equalities) or lies in a band (bounds). References: Rowland & Tozer,
 * Clinical Pharmacokinetics and Pharmacodynamics (4th ed.), ch. 3–5;
 * Gabrielsson & Weiner, Pharmacokinetic and Pharmacodynamic Data Analysis, ch. 2.
 * - cl-dose-auc   CL = dose / AUC∞ (intravascular); CL/F = dose / AUC∞ otherwise,
 *                 and a true CL reported for an extravascular dose is F · dose / AUC∞.
 * - thalf-kel     t½ = ln 2 / kel.
 * - vz-cl-thalf   Vz = CL · t½ / ln 2.
 * - vz-cl-kel     Vz = CL / kel.
 * - vss-cl-mrt    Vss = CL · MRT (intravascular only: MRT after an oral dose includes absorption).
 * - mrt-thalf     MRT ≤ 1/λz = t½/ln 2 after an IV bolus (MRT is a mean of the 1/λᵢ, each ≤ 1/λz);
 *                 ≤ 2·t½/ln 2 after first-order absorption (MAT = 1/ka ≤ 1/λz). A bound: MRT may be
 *                 far below it (a small slow phase), never far above.
 * - auc-cmax-thalf AUC∞ / Cmax is a mean time of the order of t½/ln 2: r = AUC∞·ln 2/(Cmax·t½)
 *                 lies within [1/20, 20] on the shared export (1 for a one-compartment IV bolus);
 *                 a bound, that sees only slips of ×1000 and more.
 * - clr-fe-dose-auc CLr = fe · dose / AUC∞ (any route: CLr = Ae/AUC, Ae = fe · dose): fe and CLr are
 *                 often over a collection window 0–t (CLr = Ae(0–t)/AUC(0–t)) while AUC is to infinity, so
 *                 r = CLr·AUC∞/(fe·dose) = AUC∞/AUC(0–t): within ×2 (RENAL_BAND).
 * - clr-cl        CLr ≤ CL (the kidney is one route of elimination; CL/F ≥ CL after an oral dose): a bound, r =
 *                 CLr/CL ≤ 1.5, with no lower limit (fe of 0.01 % exist): it sees only a CLr too high, and names
 *                 no factor alone (×1000 and ×10⁶ fit alike); the equality above names it.
 * - clu-cl-fu     CLu = CL / fu (the clearance of the unbound drug): on the shared export the 48 keys with all three
 *                 agree within 0.97–1.30.
 * - vu-v-fu       Vu = V / fu: the 33 keys with all three within 0.97–1.06.
 * - mrt-aumc-auc  MRT = AUMC∞ / AUC∞ (its definition; the shared export's 3 keys with all three: 0.98–1.39, one MRT
 *                 of another interval).
 * - fe-ae-dose    fe = Ae / dose: a fraction of the dose excreted and the amount excreted over the same collection
 *                 period (both at one time, or neither timed) of the dosed substance (PK-DB's pairs on the shared export
 *                 agree within 1 %).
 * - thalf-abs-kabs t½abs = ln 2 / ka.
 * - abs-thalf     t½abs ≤ t½ after an extravascular dose: the terminal phase is the slower of absorption and
 *                 elimination (flip-flop: absorption), so absorption cannot be slower than it. A bound, r = t½abs/t½ ≤
 *                 1.5; on the shared export the 43 keys with both lie at 0.008–0.92 but for one study's (PKDB00147)
 *                 t½ and t½abs exchanged (r 4–27, the ka beside them agreeing with the t½abs the t½ holds).
 * - kel-kabs      kel ≤ ka, the same bound in rates.
 * - same-value    a value stated per kg and absolute: X = X/kg · body weight.
 *
 * Two values of one unit exchanged (a t½ curated as the absorption's and the reverse) break identities that no single
 * value explains; `explain` then tries each such exchange and names it when it makes every identity hold.
 *
 * Tolerances (the heart of the check: reported values are mostly means of
 * individual parameters, and mean CL ≠ dose / mean AUC by Jensen's inequality,
 * ~×1.2 at a CV of 50 %): an equality agrees within ×AGREE (1.5); on the shared
 * export 90 % of reported pairs agree within ×1.25 and 95 % within ×1.5. Beyond it a
 * disagreement is minor at most, unless a slip factor reconciles it (see `explain`).
 */
import { pushTo } from '../data/records.js';

export const AGREE = 1.5;
/** Lowest bioavailability that a true CL reported for an extravascular dose is taken to imply (r = F). */
export const MIN_BIOAVAILABILITY = 0.05;
export const TAU_BAND: readonly [number, number] = [1 / 20, 20];
/**
 * CLr·AUC∞/(fe·dose) = AUC∞/AUC(0–t) when fe and CLr cover a collection window 0–t: about 1 for a window of three
 * half-lives or more (the usual 24–48 h), more for a short one. ×2 either way: symmetric, so that r itself says by
 * how much a value is off (identities.ts `pointEstimate`).
 */
export const RENAL_BAND: readonly [number, number] = [1 / 2, 2];

export type Slot =
  | 'clearance' | 'clearance_renal' | 'recovery' | 'auc_inf' | 'cmax' | 'thalf' | 'kel' | 'vd' | 'vd_ss' | 'mrt' | 'dose'
  | 'clearance_unbound' | 'vd_unbound' | 'fraction_unbound' | 'aumc_inf' | 'amount' | 'thalf_absorption' | 'kabs';

/** Slots whose recomputation from a curve divides the dose (CL = dose/AUC, V = CL/λz): see `explain`. */
const DOSE_DIVIDED: ReadonlySet<Slot> = new Set(['clearance', 'vd', 'vd_ss']);
/** `iv`: bolus or short injection; `infusion`: a constant-rate IV infusion (MRT then includes half its duration). */
export type RouteClass = 'iv' | 'infusion' | 'extravascular' | null;

export interface IdentityNode {
  /** Index within its key, for the caller's records. */
  index: number;
  slot: Slot;
  /** In the slot's canonical unit, per kg when kgPower = -1. */
  value: number;
  /** -1 for a value per kg body weight (L/kg, L/h/kg, g/kg), else 0. */
  kgPower: 0 | -1;
  /** Agrees with an independent recomputation (its timecourse): never the culprit. */
  anchored: boolean;
  /** Disagrees with its own timecourse by a slip: an identity it agrees in exonerates no one. */
  suspect?: boolean;
  /** The time the value refers to in hours (the end of a collection period), null when not curated. */
  time?: number | null;
}

export interface Identity {
  /** The finding's check code. */
  code: string;
  formula: string;
  kind: 'equality' | 'bound';
  /** The slot the finding names when no single culprit is found (its value is "predicted" by the others). */
  lhs: Slot;
  terms: readonly { slot: Slot; power: 1 | -1 }[];
  constant: number;
  /** The band of r within which the identity holds for this route; null when it does not apply. */
  band(route: RouteClass): readonly [number, number] | null;
  /** Slots whose values must refer to one time (`IdentityNode.time`): an amount and a fraction over one period. */
  sameTime?: readonly Slot[];
}

const LN2 = Math.log(2);
const equal: readonly [number, number] = [1 / AGREE, AGREE];

export const IDENTITIES: readonly Identity[] = [
  {
    code: 'identity/cl-dose-auc', formula: 'CL = dose / AUC∞ (CL/F after an extravascular dose)', kind: 'equality', lhs: 'clearance',
    terms: [{ slot: 'clearance', power: 1 }, { slot: 'auc_inf', power: 1 }, { slot: 'dose', power: -1 }], constant: 1,
    band: (route) => (route === 'iv' || route === 'infusion' ? equal : route === 'extravascular' ? [MIN_BIOAVAILABILITY / AGREE, AGREE] : null),
  },
  {
    code: 'identity/thalf-kel', formula: 't½ = ln 2 / kel', kind: 'equality', lhs: 'thalf',
    terms: [{ slot: 'thalf', power: 1 }, { slot: 'kel', power: 1 }], constant: 1 / LN2, band: () => equal,
  },
  {
    code: 'identity/vz-cl-thalf', formula: 'Vz = CL · t½ / ln 2', kind: 'equality', lhs: 'vd',
    terms: [{ slot: 'vd', power: 1 }, { slot: 'clearance', power: -1 }, { slot: 'thalf', power: -1 }], constant: LN2, band: () => equal,
  },
  {
    code: 'identity/vz-cl-kel', formula: 'Vz = CL / kel', kind: 'equality', lhs: 'vd',
    terms: [{ slot: 'vd', power: 1 }, { slot: 'clearance', power: -1 }, { slot: 'kel', power: 1 }], constant: 1, band: () => equal,
  },
  {
    code: 'identity/vss-cl-mrt', formula: 'Vss = CL · MRT (intravascular)', kind: 'equality', lhs: 'vd_ss',
    terms: [{ slot: 'vd_ss', power: 1 }, { slot: 'clearance', power: -1 }, { slot: 'mrt', power: -1 }], constant: 1,
    band: (route) => (route === 'iv' ? equal : null),
  },
  {
    code: 'identity/mrt-thalf', formula: 'MRT ≤ t½ / ln 2 (IV bolus), ≤ 2 · t½ / ln 2 (extravascular)', kind: 'bound', lhs: 'mrt',
    terms: [{ slot: 'mrt', power: 1 }, { slot: 'thalf', power: -1 }], constant: LN2,
    band: (route) => (route === 'iv' ? [1 / 50, AGREE] : route === 'extravascular' ? [1 / 50, 2 * AGREE] : null),
  },
  {
    code: 'identity/auc-cmax-thalf', formula: 'AUC∞ / Cmax ≈ t½ / ln 2 (within ×20)', kind: 'bound', lhs: 'auc_inf',
    terms: [{ slot: 'auc_inf', power: 1 }, { slot: 'cmax', power: -1 }, { slot: 'thalf', power: -1 }], constant: LN2, band: () => TAU_BAND,
  },
  {
    code: 'identity/clr-fe-dose-auc', formula: 'CLr = fe · dose / AUC∞ (within ×2: fe and CLr over 0–t)', kind: 'equality', lhs: 'clearance_renal',
    terms: [{ slot: 'clearance_renal', power: 1 }, { slot: 'auc_inf', power: 1 }, { slot: 'recovery', power: -1 }, { slot: 'dose', power: -1 }],
    constant: 1, band: () => RENAL_BAND,
  },
  {
    code: 'identity/clu-cl-fu', formula: 'CLu = CL / fu', kind: 'equality', lhs: 'clearance_unbound',
    terms: [{ slot: 'clearance_unbound', power: 1 }, { slot: 'fraction_unbound', power: 1 }, { slot: 'clearance', power: -1 }], constant: 1, band: () => equal,
  },
  {
    code: 'identity/vu-v-fu', formula: 'Vu = V / fu', kind: 'equality', lhs: 'vd_unbound',
    terms: [{ slot: 'vd_unbound', power: 1 }, { slot: 'fraction_unbound', power: 1 }, { slot: 'vd', power: -1 }], constant: 1, band: () => equal,
  },
  {
    code: 'identity/mrt-aumc-auc', formula: 'MRT = AUMC∞ / AUC∞', kind: 'equality', lhs: 'mrt',
    terms: [{ slot: 'mrt', power: 1 }, { slot: 'auc_inf', power: 1 }, { slot: 'aumc_inf', power: -1 }], constant: 1, band: () => equal,
  },
  {
    code: 'identity/fe-ae-dose', formula: 'fe = Ae / dose (over one collection period)', kind: 'equality', lhs: 'recovery',
    terms: [{ slot: 'recovery', power: 1 }, { slot: 'dose', power: 1 }, { slot: 'amount', power: -1 }], constant: 1, band: () => equal,
    sameTime: ['recovery', 'amount'],
  },
  {
    code: 'identity/thalf-abs-kabs', formula: 't½abs = ln 2 / ka', kind: 'equality', lhs: 'thalf_absorption',
    terms: [{ slot: 'thalf_absorption', power: 1 }, { slot: 'kabs', power: 1 }], constant: 1 / LN2, band: () => equal,
  },
  {
    code: 'identity/abs-thalf', formula: 't½abs ≤ t½ (extravascular: the terminal phase is the slower of absorption and elimination)', kind: 'bound', lhs: 'thalf_absorption',
    terms: [{ slot: 'thalf_absorption', power: 1 }, { slot: 'thalf', power: -1 }], constant: 1, band: (route) => (route === 'extravascular' ? [0, AGREE] : null),
  },
  {
    code: 'identity/kel-kabs', formula: 'kel ≤ ka (extravascular: the terminal phase is the slower of absorption and elimination)', kind: 'bound', lhs: 'kabs',
    terms: [{ slot: 'kel', power: 1 }, { slot: 'kabs', power: -1 }], constant: 1, band: (route) => (route === 'extravascular' ? [0, AGREE] : null),
  },
  {
    code: 'identity/clr-cl', formula: 'CLr ≤ CL', kind: 'bound', lhs: 'clearance_renal',
    terms: [{ slot: 'clearance_renal', power: 1 }, { slot: 'clearance', power: -1 }], constant: 1, band: () => [0, AGREE],
  },
];

/** X (absolute) = X (per kg) · body weight, for a slot stated both ways in one key. */
export const SAME_VALUE: Identity = {
  code: 'identity/same-value', formula: 'X = X per kg · body weight', kind: 'equality', lhs: 'clearance',
  terms: [], constant: 1, band: () => equal,
};

export interface Instance {
  identity: Identity;
  nodes: readonly IdentityNode[];
  powers: readonly number[];
  /** r = C · Π vᵢ^pᵢ, per-kg values scaled to absolute with the body weight. */
  residual: number;
  band: readonly [number, number];
  agrees: boolean;
}

/** Enumerating value combinations stops here: a key holds a handful of values per slot. */
export const MAX_INSTANCES_PER_IDENTITY = 64;

function residualOf(constant: number, nodes: readonly IdentityNode[], powers: readonly number[], bodyWeightKg: number | null): number | null {
  let r = constant;
  let kg = 0;
  nodes.forEach((n, i) => {
    r *= n.value ** powers[i];
    kg += n.kgPower * powers[i];
  });
  if (kg !== 0) {
    if (bodyWeightKg === null || !(bodyWeightKg > 0)) return null;
    r *= bodyWeightKg ** -kg;
  }
  return Number.isFinite(r) && r > 0 ? r : null;
}

function instance(identity: Identity, nodes: IdentityNode[], powers: number[], band: readonly [number, number], bodyWeightKg: number | null): Instance | null {
  const residual = residualOf(identity.constant, nodes, powers, bodyWeightKg);
  if (residual === null) return null;
  return { identity, nodes, powers, residual, band, agrees: residual >= band[0] && residual <= band[1] };
}

/** Two values' times are one: both untimed, or within 1 % (24 h and 1440 min). */
function sameTime(a: number | null | undefined, b: number | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return Math.abs(a - b) <= 0.01 * Math.max(Math.abs(a), Math.abs(b));
}

/** Every instance of every identity over the nodes (one value per slot each), bounded per identity. */
export function instancesOf(nodes: readonly IdentityNode[], route: RouteClass, bodyWeightKg: number | null): Instance[] {
  const bySlot = new Map<Slot, IdentityNode[]>();
  for (const n of nodes) {
    pushTo(bySlot, n.slot, n);
  }
  const instances: Instance[] = [];
  for (const identity of IDENTITIES) {
    const band = identity.band(route);
    if (!band) continue;
    const choices = identity.terms.map((t) => bySlot.get(t.slot) ?? []);
    if (choices.some((c) => c.length === 0)) continue;
    if (choices.reduce((n, c) => n * c.length, 1) > MAX_INSTANCES_PER_IDENTITY) continue;
    const powers = identity.terms.map((t) => t.power);
    const timed = identity.sameTime ? identity.terms.flatMap((t, i) => (identity.sameTime?.includes(t.slot) ? [i] : [])) : [];
    const pick = (i: number, chosen: IdentityNode[]): void => {
      if (i === choices.length) {
        if (timed.length > 1 && !timed.every((k) => sameTime(chosen[k].time, chosen[timed[0]].time))) return;
        const made = instance(identity, [...chosen], powers, band, bodyWeightKg);
        if (made) instances.push(made);
        return;
      }
      for (const n of choices[i]) pick(i + 1, [...chosen, n]);
    };
    pick(0, []);
  }
  for (const list of bySlot.values()) {
    const absolute = list.filter((n) => n.kgPower === 0);
    const perKg = list.filter((n) => n.kgPower === -1);
    if (absolute.length * perKg.length > MAX_INSTANCES_PER_IDENTITY) continue;
    for (const a of absolute) {
      for (const k of perKg) {
        const made = instance({ ...SAME_VALUE, lhs: a.slot }, [a, k], [1, -1], equal, bodyWeightKg);
        if (made) instances.push(made);
      }
    }
  }
  return instances;
}

/** A value that alone could explain every disagreement, off by a factor within `interval`. */
export interface Candidate {
  node: IdentityNode;
  /** The factor by which it is off: geometric mean over its equalities; null when only bounds constrain it. */
  factor: number | null;
  /** Every factor that, divided out of the value, makes all its identities hold. */
  interval: readonly [number, number];
}

export interface Explanation {
  /**
   * `odd-one-out`: one value explains it all; `ambiguous`: several could; `swap`: no single value can, but two values
   * of one unit exchanged can (`swapped`); `unexplained`: neither.
   */
  kind: 'odd-one-out' | 'ambiguous' | 'swap' | 'unexplained';
  candidates: Candidate[];
  disagreeing: Instance[];
  agreeing: Instance[];
  swapped?: readonly [IdentityNode, IdentityNode];
}

/** Slots whose values share a unit and meaning close enough to be curated one for the other. */
const EXCHANGEABLE: readonly (readonly Slot[])[] = [
  ['thalf', 'thalf_absorption', 'mrt'],
  ['kel', 'kabs'],
  ['clearance', 'clearance_renal', 'clearance_unbound'],
  ['vd', 'vd_ss', 'vd_unbound'],
];

/** The residual of an instance with two nodes' values exchanged (r × (b/a)^pa × (a/b)^pb). */
function swappedResidual(inst: Instance, a: IdentityNode, b: IdentityNode): number {
  let r = inst.residual;
  const ia = inst.nodes.indexOf(a);
  const ib = inst.nodes.indexOf(b);
  if (ia >= 0) r *= (b.value / a.value) ** inst.powers[ia];
  if (ib >= 0) r *= (a.value / b.value) ** inst.powers[ib];
  return r;
}

/**
 * Two values of exchangeable slots, of one kind (absolute or per kg), neither anchored, whose exchange makes every
 * identity hold — at least two of them broken before and at least one equality among them (a bound alone can be
 * met by many exchanges). Only one such pair, else none.
 */
function exchangedPair(nodes: readonly IdentityNode[], instances: readonly Instance[]): readonly [IdentityNode, IdentityNode] | null {
  let found: readonly [IdentityNode, IdentityNode] | null = null;
  for (const group of EXCHANGEABLE) {
    const members = nodes.filter((n) => group.includes(n.slot) && !n.anchored);
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const a = members[i];
        const b = members[j];
        if (a.slot === b.slot || a.kgPower !== b.kgPower) continue;
        const touched = instances.filter((inst) => inst.nodes.includes(a) || inst.nodes.includes(b));
        const broken = touched.filter((inst) => !inst.agrees);
        if (broken.length < 2 || !broken.some((inst) => inst.identity.kind === 'equality')) continue;
        const holds = touched.every((inst) => {
          const r = swappedResidual(inst, a, b);
          return r >= inst.band[0] && r <= inst.band[1];
        });
        if (!holds || instances.some((inst) => !inst.agrees && !touched.includes(inst))) continue;
        if (found) return null;
        found = [a, b];
      }
    }
  }
  return found;
}

/** Factors g such that dividing the node by g puts the instance's residual inside its band: r/g^p ∈ band. */
function factorInterval(inst: Instance, position: number): [number, number] {
  const p = inst.powers[position];
  const [lo, hi] = inst.band;
  const a = (inst.residual / hi) ** (1 / p);
  const b = (inst.residual / lo) ** (1 / p);
  return a < b ? [a, b] : [b, a];
}

/**
 * Whether the instance says by how much a value is off (r itself): an equality with a symmetric
 * band does; so does CL/F = dose/AUC∞ above its band (F ≤ 1 cannot raise r), but below it r = F ·
 * slip with F unknown, so only the band's interval constrains the factor there. Bounds never do.
 */
function pointEstimate(inst: Instance): boolean {
  if (inst.identity.kind !== 'equality') return false;
  const [lo, hi] = inst.band;
  return Math.abs(Math.log(lo * hi)) < 1e-9 || inst.residual > hi;
}

function candidateFor(node: IdentityNode, involving: readonly Instance[]): Candidate | null {
  let lo = 0;
  let hi = Infinity;
  const logs: number[] = [];
  for (const inst of involving) {
    const position = inst.nodes.indexOf(node);
    const [a, b] = factorInterval(inst, position);
    lo = Math.max(lo, a);
    hi = Math.min(hi, b);
    if (pointEstimate(inst)) logs.push(Math.log(inst.residual) / inst.powers[position]);
  }
  if (!(lo <= hi)) return null;
  let factor = logs.length ? Math.exp(logs.reduce((s, l) => s + l, 0) / logs.length) : null;
  if (factor !== null) factor = Math.min(hi, Math.max(lo, factor));
  return { node, factor, interval: [lo, hi] };
}

/**
 * Which value is the odd one out (a hitting set of size one): the values that
 * appear in every disagreeing identity, are not anchored, and for which one
 * factor, divided out, makes every identity they are in hold — agreeing ones
 * included, so a value whose other identities agree cannot be the culprit.
 * One such value: the odd one out; several (e.g. t½ and kel with nothing
 * else): ambiguous, unless exactly one of them also disagrees with its own
 * timecourse (`suspect`); none: unexplained (two slips, or ordinary scatter).
 * Null when every identity holds.
 */
export function explain(instances: readonly Instance[]): Explanation | null {
  const disagreeing = instances.filter((i) => !i.agrees);
  if (disagreeing.length === 0) return null;
  const agreeing = instances.filter((i) => i.agrees);
  const shared = disagreeing[0].nodes.filter((n) => !n.anchored && disagreeing.every((i) => i.nodes.includes(n)));
  let candidates: Candidate[] = [];
  for (const node of new Set(shared)) {
    // An identity that holds only because another value slipped alike (a suspect) proves nothing about this one.
    const evidence = instances.filter((i) => i.nodes.includes(node) && !(i.agrees && i.nodes.some((n) => n !== node && n.suspect)));
    const candidate = candidateFor(node, evidence);
    if (candidate) candidates.push(candidate);
  }
  // Of several candidates, the one its own timecourse also disagrees with — but a CL's or V's recomputation from its
  // curve divides the same dose: beside the dose as a candidate, its disagreement tells the two apart no more than
  // the identity does (a dose ×10 makes the CL ×1/10 its recomputation too).
  const doseCandidate = candidates.some((c) => c.node.slot === 'dose');
  const suspects = candidates.filter((c) => c.node.suspect && !(doseCandidate && DOSE_DIVIDED.has(c.node.slot)));
  if (candidates.length > 1 && suspects.length === 1) candidates = suspects;
  if (candidates.length === 0) {
    const swapped = exchangedPair([...new Set(instances.flatMap((i) => i.nodes))], instances);
    if (swapped) return { kind: 'swap', candidates, disagreeing, agreeing, swapped };
  }
  const kind = candidates.length === 1 ? 'odd-one-out' : candidates.length > 1 ? 'ambiguous' : 'unexplained';
  return { kind, candidates, disagreeing, agreeing };
}

/** What the identity predicts for the node at `position`: the value that makes r = 1 (bounds: the nearest band edge). */
export function predicted(inst: Instance, position: number): number {
  const node = inst.nodes[position];
  const p = inst.powers[position];
  const target = inst.identity.kind === 'equality' ? 1 : Math.min(inst.band[1], Math.max(inst.band[0], inst.residual));
  return node.value * (target / inst.residual) ** (1 / p);
}
