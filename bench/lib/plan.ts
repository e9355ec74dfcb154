/**
 * Which study gets which slip in which copy, deterministically from a seed.
 * Each copy slips `perCopy` distinct studies, one slip each; the classes
 * rotate over the copies' slots (slot g gets class g mod 15, or of the classes
 * chosen), so every class gets about copies·perCopy/15 samples. Per class, the eligible studies are
 * drawn from a seeded shuffle without replacement until all were used once
 * (then reshuffled), so the samples spread over as many studies as the class
 * allows; within the study the record is drawn uniformly.
 */
import { DEFAULT_SLIP_CLASSES, SLIP_CLASSES, type Candidates, type SlipClassName } from './slip-classes.js';
import { mulberry32 } from '../../src/nca/random.js';

export interface PlanOptions {
  copies: number;
  /** Distinct studies slipped in each copy. */
  perCopy: number;
  seed: number;
  /** The classes that rotate over the slots (default DEFAULT_SLIP_CLASSES): `--classes molar` studies the molar ones alone. */
  classes?: readonly SlipClassName[];
}

export interface PlannedSlip {
  copy: number;
  study_sid: string;
  slipClass: SlipClassName;
  /** The output pk, subset pk or intervention pk hit (by the class's target). */
  target: number;
}

/** FNV-1a of a text: one independent stream per (seed, class). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Fisher–Yates with the given generator; returns a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A class's studies in seeded order, reshuffled after each full round. */
class StudyDeck {
  private order: string[] = [];
  private next = 0;
  constructor(
    private readonly studies: readonly string[],
    private readonly random: () => number,
  ) {}

  /**
   * The next study of this round not in `used`. When every study left in the
   * round is used by this copy, one already drawn this round is repeated and
   * the rest kept for later copies; null when every study is used.
   */
  draw(used: ReadonlySet<string>): string | null {
    if (this.next >= this.order.length) {
      this.order = shuffled(this.studies, this.random);
      this.next = 0;
    }
    for (let k = this.next; k < this.order.length; k++) {
      if (used.has(this.order[k])) continue;
      [this.order[this.next], this.order[k]] = [this.order[k], this.order[this.next]];
      return this.order[this.next++];
    }
    return this.order.slice(0, this.next).find((s) => !used.has(s)) ?? null;
  }
}

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${value}`);
}

/** The slips of every copy. A slot whose class has no study left in that copy stays empty. */
export function planSlips(candidates: Candidates, options: PlanOptions): PlannedSlip[][] {
  checkCount('copies', options.copies, 0);
  checkCount('perCopy', options.perCopy, 1);
  checkCount('seed', options.seed, 0);
  const decks = new Map<SlipClassName, StudyDeck>();
  const picks = new Map<SlipClassName, () => number>();
  for (const c of SLIP_CLASSES) {
    const studies = [...(candidates.get(c.name)?.keys() ?? [])].sort();
    decks.set(c.name, new StudyDeck(studies, mulberry32(hash(`${options.seed}:deck:${c.name}`))));
    picks.set(c.name, mulberry32(hash(`${options.seed}:pick:${c.name}`)));
  }
  const rotation = options.classes ?? DEFAULT_SLIP_CLASSES;
  if (rotation.length === 0) throw new Error('no slip class to plant');
  const copies: PlannedSlip[][] = [];
  for (let copy = 0; copy < options.copies; copy++) {
    const used = new Set<string>();
    const slips: PlannedSlip[] = [];
    for (let slot = 0; slot < options.perCopy; slot++) {
      const cls = rotation[(copy * options.perCopy + slot) % rotation.length];
      const study = decks.get(cls)!.draw(used);
      if (study === null) continue;
      used.add(study);
      const pks = candidates.get(cls)!.get(study)!;
      slips.push({ copy, study_sid: study, slipClass: cls, target: pks[Math.floor(picks.get(cls)!() * pks.length)] });
    }
    copies.push(slips);
  }
  return copies;
}
