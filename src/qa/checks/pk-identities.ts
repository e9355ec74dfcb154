/**
 * The `pk-identity` check: reported values of one subject, intervention set,
 * substance and tissue against each other through the PK identities of
 * src/qa/identities.ts (CL = dose/AUC∞, t½ = ln 2/kel, Vz = CL·t½/ln 2 = CL/kel,
 * Vss = CL·MRT, MRT ≤ t½/ln 2, AUC∞/Cmax ≈ t½/ln 2, CLr = fe·dose/AUC∞, CLr ≤ CL, CLu = CL/fu, Vu = V/fu, MRT = AUMC∞/AUC∞; the renal
 * values from the urine key of the same subject: `withRenalValues`; fe = Ae/dose in an excretion key, an amount
 * excreted and the fraction of the dose over the same period). It needs no timecourse,
 * so it sees reported outputs that reported-vs-recomputed cannot; it cannot
 * see a value that is alone in its key or whose partners are missing.
 *
 * Severity: a disagreement beyond ×1.5 is minor; major only when a slip factor
 * (SCALE_FACTORS of causes.ts within ×1.25, per-kg × body weight, molar ↔ mass ×
 * molar mass), divided out of one value, makes every identity of that value hold.
 * The culprit: the only value in every disagreeing identity whose other
 * identities agree (`odd-one-out`, culprit `output`); a value that agrees with
 * its own timecourse (reported-vs-recomputed) is never the culprit. The dose is
 * the culprit when every key of one dosing intervention disagrees in CL =
 * dose/AUC∞ by one factor, or when it is the odd one out of one key. A salt's dose (codeine phosphate) counts as
 * its base's share of the salt's mass (`doseNode`).
 * AUC∞ ≥ AUClast is the plausibility check's, and Cmax against the timecourse
 * of the same key is reported-vs-recomputed's: neither is repeated here.
 */
import type { InterventionRecord } from '../../data/model.js';
import { pushTo, representativeValue } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { unitFactorCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, SEVERITY_RANK, type Finding } from '../finding.js';
import { findingId } from '../finding-id.js';
import { explain, instancesOf, predicted, type Candidate, type Explanation, type IdentityNode, type Instance, type RouteClass, type Slot } from '../identities.js';
import { outputHours, type ParameterValue } from '../parameters.js';
import { ownJudgment, rangeRun, referenceBacks } from '../range-run.js';
import { doseVouched } from '../range-verdict.js';
import { doseUnitFactor } from '../dose-units.js';
import { dosesItself, saltBase } from '../substance-relations.js';
import { boundCauses, candidateCauses, PREFIXABLE, referenceNamed, slipQuantity, type DoseVouching, type ReferenceBacking } from '../identity-causes.js';

/** Values per slot and key used (the first by pk): bounds the combinations of a key. */
export const MAX_VALUES_PER_SLOT = 6;

/** The canonical units (parameters.ts) each slot reads: absolute and per kg. */
const SLOT_UNITS: Record<Exclude<Slot, 'dose'>, { absolute: string; perKg?: string }> = {
  clearance: { absolute: 'liter / hour', perKg: 'liter / hour / kilogram' },
  clearance_renal: { absolute: 'liter / hour', perKg: 'liter / hour / kilogram' },
  recovery: { absolute: 'dimensionless' },
  vd: { absolute: 'liter', perKg: 'liter / kilogram' },
  vd_ss: { absolute: 'liter', perKg: 'liter / kilogram' },
  auc_inf: { absolute: 'gram * hour / liter' },
  cmax: { absolute: 'gram / liter' },
  thalf: { absolute: 'hour' },
  kel: { absolute: '1 / hour' },
  mrt: { absolute: 'hour' },
  clearance_unbound: { absolute: 'liter / hour', perKg: 'liter / hour / kilogram' },
  vd_unbound: { absolute: 'liter', perKg: 'liter / kilogram' },
  fraction_unbound: { absolute: 'dimensionless' },
  aumc_inf: { absolute: 'gram * hour ** 2 / liter' },
  amount: { absolute: 'gram', perKg: 'gram / kilogram' },
  thalf_absorption: { absolute: 'hour' },
  kabs: { absolute: '1 / hour' },
};
const LABEL: Record<Slot, string> = {
  clearance: 'CL', clearance_renal: 'CLr', recovery: 'fe', vd: 'Vz', vd_ss: 'Vss', auc_inf: 'AUC∞', cmax: 'Cmax', thalf: 't½', kel: 'kel', mrt: 'MRT', dose: 'dose',
  clearance_unbound: 'CLu', vd_unbound: 'Vu', fraction_unbound: 'fu', aumc_inf: 'AUMC∞', amount: 'Ae', thalf_absorption: 't½abs', kabs: 'ka',
};
/** Which value a finding names first when several could be the culprit. */
const SLOT_ORDER: readonly Slot[] = ['clearance', 'clearance_renal', 'vd', 'vd_ss', 'auc_inf', 'thalf', 'kel', 'mrt', 'cmax', 'recovery', 'amount', 'clearance_unbound', 'vd_unbound', 'fraction_unbound', 'aumc_inf', 'thalf_absorption', 'kabs', 'dose'];

/** Measurement types read under another slot's name: an amount excreted (urine, faeces, bile) is Ae. */
const SLOT_OF_TYPE: Readonly<Record<string, Slot>> = { 'cumulative amount': 'amount', amount: 'amount' };

/** The slot a reported value fills, by its measurement type. */
const slotOf = (p: ParameterValue): Slot => SLOT_OF_TYPE[p.measurement_type] ?? (p.measurement_type as Slot);

const fmt = (x: number) => String(+x.toPrecision(3));

/** A node of one key with the record it came from. */
interface KeyNode extends IdentityNode {
  parameter: ParameterValue | null;
  dosing: InterventionRecord | null;
  unit: string;
  /** A salt's dose taken as its base's (codeine phosphate as codeine): the base, for the words. */
  asBase?: string;
}

interface KeyAnalysis {
  key: string;
  nodes: KeyNode[];
  instances: Instance[];
  explanation: Explanation | null;
  bodyWeightKg: number | null;
  molarMass: number | null;
  dose: KeyNode | null;
}

/**
 * The dose of the key's substance (exactly one dosing of it, or of a salt of it, in the set) in g or g/kg of the
 * substance, with its route class. A salt's dose counts by its base's share of the salt's mass (substance-relations.ts
 * `saltBase`: 0.17 g codeine phosphate is 0.128 g codeine), and not at all when the base's molar mass is unknown.
 */
export function doseNode(dosings: readonly InterventionRecord[], substance: string | null, molarMass: number | null, index: number): { node: KeyNode; route: RouteClass } | null {
  const same = dosings.filter((d) => dosesItself(d.substance, substance));
  if (same.length !== 1) return null;
  const d = same[0];
  const amount = representativeValue(d);
  if (amount === null || !(amount > 0) || !d.unit) return null;
  const salt = d.substance === substance ? null : saltBase(d.substance, (s) => (s === substance ? molarMass : null));
  if (d.substance !== substance && salt === null) return null;
  const fraction = salt?.fraction ?? 1;
  // A molar amount of the salt is one of its base (one base per counter-ion share): the salt's mass per base converts it.
  const unit = doseUnitFactor(d.unit, molarMass === null ? null : molarMass / fraction);
  if (unit === null) return null;
  const route: RouteClass = d.route === null ? null : d.route !== 'iv' ? 'extravascular' : d.application === 'constant infusion' ? 'infusion' : 'iv';
  const node: KeyNode = {
    index, slot: 'dose', value: amount * unit.factor * fraction, kgPower: unit.kgPower, anchored: false,
    parameter: null, dosing: d, unit: unit.kgPower === 0 ? 'gram' : 'gram / kilogram', ...(salt ? { asBase: salt.base } : {}),
  };
  return { node, route };
}

/** 0 (absolute) or −1 (per kg) for a reported value an identity reads, null for any other value. */
function kgPowerOf(p: ParameterValue): 0 | -1 | null {
  if (p.source !== 'reported' || p.value === null || !(p.value > 0) || !Number.isFinite(p.value)) return null;
  const units = SLOT_UNITS[slotOf(p) as Exclude<Slot, 'dose'>];
  if (!units) return null;
  return p.unit === units.absolute ? 0 : p.unit === units.perKg ? -1 : null;
}

/** Reported values of the key that an identity reads, as nodes (at most MAX_VALUES_PER_SLOT per slot and unit). */
function valueNodes(values: readonly ParameterValue[], timecourse: TimecourseVerdicts): KeyNode[] {
  // Most keys hold fewer than two such values: no identity, and nothing to sort.
  let readable = 0;
  for (const p of values) if (kgPowerOf(p) !== null && ++readable === 2) break;
  if (readable < 2) return [];
  const nodes: KeyNode[] = [];
  const counts = new Map<string, number>();
  const sorted = [...values].sort((a, b) => a.output.pk - b.output.pk);
  for (const p of sorted) {
    const kgPower = kgPowerOf(p);
    if (kgPower === null) continue;
    const slot = slotOf(p);
    const count = `${slot}|${kgPower}`;
    if ((counts.get(count) ?? 0) >= MAX_VALUES_PER_SLOT) continue;
    counts.set(count, (counts.get(count) ?? 0) + 1);
    nodes.push({
      index: nodes.length, slot, value: p.value as number, kgPower, anchored: timecourse.anchored.has(p.output.pk),
      suspect: timecourse.suspect.has(p.output.pk), parameter: p, dosing: null, unit: p.unit as string, time: outputHours(p),
    });
  }
  return nodes;
}

function analyseKey(ctx: QaContext, key: string, values: readonly ParameterValue[], timecourse: TimecourseVerdicts): KeyAnalysis | null {
  const nodes = valueNodes(values, timecourse);
  if (nodes.length < 2) return null;
  const first = nodes[0].parameter as ParameterValue;
  const molarMass = ctx.molarMass(first.substance);
  const dosed = doseNode(ctx.dosingOfSet(first.output.intervention_pks), first.substance, molarMass, nodes.length);
  if (dosed) nodes.push(dosed.node);
  const bodyWeightKg = first.bodyWeightKg;
  const instances = instancesOf(nodes, dosed?.route ?? null, bodyWeightKg);
  if (instances.length === 0) return null;
  return { key, nodes, instances, explanation: explain(instances), bodyWeightKg, molarMass, dose: dosed?.node ?? null };
}

function describe(inst: Instance): string {
  const values = inst.nodes.map((n) => `${LABEL[n.slot]} ${fmt(n.value)} ${(n as KeyNode).unit}${(n as KeyNode).asBase ? ` as ${(n as KeyNode).asBase}` : ''}`).join(', ');
  return `${inst.identity.formula}: r = ${fmt(inst.residual)} (${values})`;
}

function instanceDetails(list: readonly Instance[]) {
  return list.map((i) => ({ identity: i.identity.code, residual: i.residual, band: i.band, output_pks: i.nodes.map((n) => (n as KeyNode).parameter?.output.pk ?? null) }));
}

function outputFinding(a: KeyAnalysis, node: KeyNode, check: string, fields: Partial<Finding> & Pick<Finding, 'severity' | 'message'>): Finding {
  const p = node.parameter as ParameterValue;
  return finding({
    kind: 'pk-identity', check, study_sid: p.output.study_sid, study_name: p.output.study_name, subset_pk: p.output.subset_pk,
    output_pk: p.output.pk, measurement_type: p.measurement_type, subject: p.subject, reported: node.value, reported_unit: node.unit,
    intervention_pk: a.dose?.dosing?.pk ?? null, ...fields,
  });
}

/**
 * The finding on a dose whose CL = dose / AUC∞ is off alike in every record of it. Undecided (`decided` false: the
 * dose, or the same slip in every CL or AUC∞), it still names the dose's factor (`cause_factors`), so that a check of
 * the dose's own (its label, the other studies' doses) finding it off by that factor settles it (corroborate.ts).
 */
function doseFinding(dose: KeyNode, factor: number, causes: readonly string[], keys: readonly KeyAnalysis[], decided: boolean): Finding {
  const d = dose.dosing as InterventionRecord;
  const outputs = keys.flatMap((a) => a.explanation?.disagreeing.flatMap((i) => i.nodes.map((n) => (n as KeyNode).parameter?.output.pk ?? null)) ?? []);
  const residual = 1 / factor;
  const where = `CL = dose / AUC∞ is off by ×${fmt(residual)} in ${keys.length} record(s) of this dosing`;
  const message = decided
    ? `dose ${fmt(dose.value)} ${dose.unit}${dose.asBase ? ` as ${dose.asBase}` : ''} of ${d.name} is the odd one out: ${where} while CL and AUC∞ agree with their other identities; the reported values imply ${fmt(dose.value / factor)} ${dose.unit}`
    : `dose ${fmt(dose.value)} ${dose.unit}${dose.asBase ? ` as ${dose.asBase}` : ''} of ${d.name}, or the same slip in CL or AUC∞ of every record: ${where} alike`;
  return finding({
    kind: 'pk-identity', check: 'identity/cl-dose-auc', severity: causes.length ? 'major' : 'minor', study_sid: d.study_sid, study_name: d.study_name,
    measurement_type: 'dosing', reported: dose.value, reported_unit: dose.unit, recomputed: dose.value / factor, recomputed_unit: dose.unit,
    ratio: factor, suspected_cause: causes.join(' or ') || null, culprit: decided ? 'dose' : null, intervention_pk: d.pk, message,
    details: { rule: decided ? 'dose' : 'dose-or-all-records', keys: keys.length, output_pks: [...new Set(outputs.filter((pk) => pk !== null))], cause_kinds: causes.length ? ['dose'] : [], cause_factors: causes.length ? [factor] : [] },
  });
}

/** The finding(s) of one key's explanation (the dose ones are decided across keys, see `doseCulprits`). */
export function keyFindings(a: KeyAnalysis, backs: ReferenceBacking = () => null, vouches: DoseVouching = () => false): Finding[] {
  const e = a.explanation;
  if (!e) return [];
  const agreeing = instanceDetails(e.agreeing);
  const codes = [...new Set(e.disagreeing.map((i) => i.identity.code))];
  const ranked = e.candidates
    .map((c) => {
      const causes = candidateCauses(c, a.bodyWeightKg, a.molarMass);
      if (causes.length > 0 || e.kind !== 'odd-one-out') return { c, causes, bound: false };
      const bound = boundCauses(c, codes, a.bodyWeightKg, a.molarMass);
      return { c, causes: bound, bound: bound.length > 0 };
    })
    .sort((x, y) => Number(y.causes.length > 0) - Number(x.causes.length > 0) || SLOT_ORDER.indexOf(x.c.node.slot) - SLOT_ORDER.indexOf(y.c.node.slot));
  // Of several values that could be off, the one the other studies put off by its factor (and no other).
  const named = e.kind === 'ambiguous' ? referenceNamed(ranked, backs, vouches) : null;
  const primary = named ? { c: named.c, causes: [named.cause] } : ranked.find((r) => r.c.node.slot !== 'dose');
  const check = e.disagreeing[0].identity.code;
  const disagreeing = e.disagreeing.map(describe).join('; ');
  if (e.kind !== 'unexplained' && primary) {
    const { c, causes } = primary;
    const node = c.node as KeyNode;
    const odd = e.kind === 'odd-one-out' || named !== null;
    const bound = 'bound' in primary && primary.bound;
    // A broken bound says how far at least (the interval's edge), not by which of its slips.
    const factor = c.factor ?? (bound ? (c.interval[0] >= 1 ? c.interval[0] : c.interval[1]) : (causes[0]?.factor ?? null));
    const others = ranked.filter((r) => r !== primary);
    const anyCause = ranked.some((r) => r.causes.length > 0);
    const cause = odd
      ? bound
        ? `off by at least ×${fmt(factor as number)}, which a definitional bound does not allow: ${causes.map((k) => k.text).join(', or ')}`
        : causes.map((k) => k.text).join('; ') || null
      : ranked.filter((r) => r.causes.length).map((r) => `${LABEL[r.c.node.slot]} ${r.causes.map((k) => k.text).join('; ')}`).join(' or ') || null;
    const who = named
      ? `one of ${ranked.map((r) => LABEL[r.c.node.slot]).join(', ')} is off, and the other studies name ${LABEL[node.slot]} (${named.words})`
      : odd
        ? `${LABEL[node.slot]} is the odd one out${e.agreeing.length ? ` (${e.agreeing.length} identit${e.agreeing.length === 1 ? 'y holds' : 'ies hold'} without it)` : ''}`
        : `one of ${ranked.map((r) => LABEL[r.c.node.slot]).join(', ')} is off`;
    return [
      outputFinding(a, node, check, {
        severity: (odd ? causes.length > 0 : anyCause) ? 'major' : 'minor',
        recomputed: factor === null ? null : node.value / factor, recomputed_unit: node.unit, ratio: factor,
        suspected_cause: cause, culprit: odd ? 'output' : null,
        message: `${who}: ${disagreeing}`,
        details: {
          rule: named ? 'reference-named' : e.kind, agreeing, disagreeing: instanceDetails(e.disagreeing), interval: c.interval,
          candidates: others.map((r) => ({ slot: r.c.node.slot, output_pk: (r.c.node as KeyNode).parameter?.output.pk ?? null, intervention_pk: (r.c.node as KeyNode).dosing?.pk ?? null, factor: r.c.factor })),
          cause_kinds: causes.map((k) => k.kind),
          cause_factors: causes.map((k) => k.factor),
        },
      }),
    ];
  }
  if (e.kind === 'swap' && e.swapped) {
    const [x, y] = e.swapped as readonly [KeyNode, KeyNode];
    // The one SLOT_ORDER puts first is named; the other is the finding's partner.
    const [first, second] = SLOT_ORDER.indexOf(x.slot) <= SLOT_ORDER.indexOf(y.slot) ? [x, y] : [y, x];
    const exchanged = `${LABEL[first.slot]} ${fmt(first.value)} ${first.unit} and ${LABEL[second.slot]} ${fmt(second.value)} ${second.unit} exchanged`;
    return [
      outputFinding(a, first, check, {
        severity: 'major', recomputed: second.value, recomputed_unit: first.unit, ratio: first.value / second.value,
        suspected_cause: `swap: ${exchanged} (every identity holds with them exchanged)`, culprit: 'output',
        message: `${exchanged}: ${disagreeing}`,
        details: {
          rule: 'swap', agreeing, disagreeing: instanceDetails(e.disagreeing),
          swapped_with: { slot: second.slot, output_pk: second.parameter?.output.pk ?? null },
          cause_kinds: ['swap'], cause_factors: [],
        },
      }),
    ];
  }
  // Unexplained: each disagreeing identity on its own, named on its left-hand value; major only for a wide slip of one member.
  return e.disagreeing.map((inst) => {
    const position = Math.max(0, inst.nodes.findIndex((n) => n.slot === inst.identity.lhs));
    const node = inst.nodes[position] as KeyNode;
    const wide = inst.nodes
      .map((n, i) => {
        const q = slipQuantity(n.slot);
        return { n, cause: q === null ? null : unitFactorCause(inst.residual ** (1 / inst.powers[i]), q) };
      })
      .filter((x) => x.cause && PREFIXABLE.has(x.n.slot) && Math.abs(Math.log10(x.cause.factor)) >= 3);
    return outputFinding(a, node, inst.identity.code, {
      severity: wide.length ? 'major' : 'minor', recomputed: predicted(inst, position), recomputed_unit: node.unit,
      ratio: node.value / predicted(inst, position),
      suspected_cause: wide.map((x) => `${LABEL[x.n.slot]} ${x.cause?.text}`).join(' or ') || null, culprit: null,
      message: `${inst.identity.formula} does not hold and no single value explains all disagreements of this record: ${describe(inst)}`,
      details: { rule: 'unexplained', agreeing, disagreeing: instanceDetails([inst]) },
    });
  });
}

/**
 * Dose culprits across keys. A dosing intervention whose every key with a dose
 * identity names the dose among its candidates, with one common factor, and in
 * none agrees: the dose is the culprit when it is the odd one out of at least one
 * key (its CL and AUC∞ confirmed by other identities or their timecourse); with
 * two or more keys that cannot tell the dose from CL or AUC∞, one finding for the
 * dosing names the dose or the same slip in every record (a study's AUC column
 * curated in one wrong unit looks exactly like a wrong dose).
 */
export function doseCulprits(analyses: readonly KeyAnalysis[]): { findings: Finding[]; explained: Set<KeyAnalysis> } {
  const byDosing = new Map<number, { a: KeyAnalysis; c: Candidate | null }[]>();
  for (const a of analyses) {
    const pk = a.dose?.dosing?.pk;
    if (pk === undefined || !a.instances.some((i) => i.nodes.includes(a.dose as KeyNode))) continue;
    const c = a.explanation?.candidates.find((x) => x.node === a.dose) ?? null;
    pushTo(byDosing, pk, { a, c });
  }
  const findings: Finding[] = [];
  const explained = new Set<KeyAnalysis>();
  for (const entries of byDosing.values()) {
    if (entries.some((x) => x.c === null)) continue;
    const decided = entries.some((x) => x.a.explanation?.kind === 'odd-one-out');
    if (entries.length < 2 && !decided) continue;
    const lo = Math.max(...entries.map((x) => (x.c as Candidate).interval[0]));
    const hi = Math.min(...entries.map((x) => (x.c as Candidate).interval[1]));
    if (!(lo <= hi)) continue;
    const factors = entries.map((x) => (x.c as Candidate).factor).filter((f): f is number => f !== null);
    const mean = factors.length ? Math.min(hi, Math.max(lo, Math.exp(factors.reduce((s, f) => s + Math.log(f), 0) / factors.length))) : null;
    const first = entries[0].a;
    const dose = first.dose as KeyNode;
    const doseCauses = candidateCauses({ node: dose, factor: mean, interval: [lo, hi] }, first.bodyWeightKg, first.molarMass);
    const factor = mean ?? doseCauses[0]?.factor ?? null;
    if (factor === null) continue;
    const causes = doseCauses.map((c) => `dose ${c.text}`);
    if (!decided) {
      // The same slip in every record's CL or AUC∞ (r = 1/factor for both, power +1 in CL · AUC∞ / dose).
      for (const slot of ['auc_inf', 'clearance'] as const) {
        const node = { ...dose, slot };
        const slipped = candidateCauses({ node, factor: mean === null ? null : 1 / mean, interval: [1 / hi, 1 / lo] }, first.bodyWeightKg, first.molarMass);
        causes.push(...slipped.map((c) => `every ${LABEL[slot]} ${c.text}`));
      }
    }
    findings.push(doseFinding(dose, factor, causes, entries.map((x) => x.a), decided));
    for (const x of entries) explained.add(x.a);
  }
  return { findings, explained };
}

/** Tissues whose key reads the renal values of its urine key (CLr = Ae/AUC, with the AUC of the blood). */
const CIRCULATING: ReadonlySet<string> = new Set(['plasma', 'serum', 'blood']);
/** What a urine key adds to its subject's plasma key: the renal clearance and the fraction of the dose excreted unchanged. */
const RENAL_TYPES: ReadonlySet<string> = new Set(['clearance_renal', 'recovery']);

/** `key` (context.ts `matchKey`: …|substance|tissue|method) with another tissue. */
export function withTissue(key: string, tissue: string): string {
  const end = key.lastIndexOf('|');
  const start = key.lastIndexOf('|', end - 1);
  return `${key.slice(0, start + 1)}${tissue}${key.slice(end)}`;
}

/**
 * A key's values for the identities: a plasma (serum, blood) key's own, but a fraction excreted only from the
 * urine key of the same subject, set and substance, with its renal clearances (curated in urine or in plasma).
 */
function withRenalValues(ctx: QaContext, key: string, values: readonly ParameterValue[]): readonly ParameterValue[] {
  const tissue = values[0]?.tissue;
  // An excretion key (urine, faeces) keeps its fractions for fe = Ae / dose; a circulating key reads them from urine.
  if (tissue === null || tissue === undefined || !CIRCULATING.has(tissue)) return values;
  const own = values.some((p) => p.measurement_type === 'recovery') ? values.filter((p) => p.measurement_type !== 'recovery') : values;
  const urine = ctx.parametersByKey.get(withTissue(key, 'urine'));
  if (!urine) return own;
  const renal = urine.filter((p) => RENAL_TYPES.has(p.measurement_type));
  return renal.length === 0 ? own : [...own, ...renal];
}

/** Output pks whose reported-vs-recomputed comparison agrees (anchored) or is a major slip (suspect). */
interface TimecourseVerdicts {
  anchored: Set<number>;
  suspect: Set<number>;
}

function timecourseVerdicts(ctx: QaContext): TimecourseVerdicts {
  const anchored = new Set<number>();
  const suspect = new Set<number>();
  for (const c of ctx.comparisons) {
    if (c.verdict.classification === 'agree') anchored.add(c.output.pk);
    else if (c.verdict.classification === 'major' && c.verdict.causes.length > 0) suspect.add(c.output.pk);
  }
  return { anchored, suspect };
}

/**
 * One finding per stable id: a record with several values of one type (two CLs, two kels) can fail the same
 * identity once per partner; the curator fixes one output, so the most severe of those findings stands for all.
 */
function onePerId(findings: readonly Finding[]): Finding[] {
  const byId = new Map<string, Finding>();
  for (const f of findings) {
    const id = findingId(f);
    const kept = byId.get(id);
    if (!kept || SEVERITY_RANK[f.severity] > SEVERITY_RANK[kept.severity]) byId.set(id, f);
  }
  return [...byId.values()];
}

/** Coverage: every value (and dose) that took part in an identity with another value of its key. */
function markExamined(ctx: QaContext, a: KeyAnalysis): void {
  for (const inst of a.instances) {
    for (const node of inst.nodes as KeyNode[]) {
      if (node.parameter && !node.parameter.output.calculated) ctx.examined('output', node.parameter.output.pk, 'pk-identity');
      if (node.dosing) ctx.examined('dosing', node.dosing.pk, 'pk-identity');
    }
  }
}

export const pkIdentitiesCheck: QaCheck = {
  kind: 'pk-identity',
  description: 'reported CL, AUC∞, dose, t½, kel, Vz, Vss, MRT, Cmax, fe and amounts excreted of one subject and intervention set against each other (CL = dose/AUC∞, t½ = ln 2/kel, Vz = CL·t½/ln 2 = CL/kel, Vss = CL·MRT, MRT ≤ t½/ln 2, AUC∞/Cmax ≈ t½/ln 2, CLr = fe·dose/AUC∞, CLr ≤ CL, fe = Ae/dose), naming the odd one out',
  run(ctx) {
    const verdicts = timecourseVerdicts(ctx);
    const analyses: KeyAnalysis[] = [];
    for (const [key, values] of ctx.parametersByKey) {
      // A key is one subject of one study: its identities are its study's own.
      if (!ctx.reported(values[0].output.study_sid)) continue;
      const a = analyseKey(ctx, key, withRenalValues(ctx, key, values), verdicts);
      if (!a) continue;
      analyses.push(a);
      markExamined(ctx, a);
    }
    const dose = doseCulprits(analyses);
    const findings = [...dose.findings];
    const backs: ReferenceBacking = (record, factor) => referenceBacks(ctx, record, factor);
    const vouches: DoseVouching = (dosePk, factor) => doseVouched(ownJudgment(rangeRun(ctx), `dosing:${dosePk}`), [], factor);
    for (const a of analyses) if (!dose.explained.has(a)) findings.push(...keyFindings(a, backs, vouches));
    return onePerId(findings);
  },
};
