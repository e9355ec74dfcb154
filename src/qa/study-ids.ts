/**
 * Numbers for the keys the within-study comparison groups by (study-items.ts): pools, their bases and
 * conditions, and placement slots. The check groups ~23,000 items of the shared export by pool, base and
 * placement; numbered once when the items are built, they are grouped by array index rather than by
 * hashing key text per item and lookup.
 */

export type KeyPart = string | number | null | undefined;

/**
 * Numbers for keys of several parts, in order of first appearance: a tree of maps with one lookup per part,
 * so no key text is built per item (a part that is a stored string hashes once for the whole run).
 */
export class Numbering {
  private readonly root = new Map<KeyPart, unknown>();
  size = 0;
  of(parts: readonly KeyPart[]): number {
    let node = this.root;
    const last = parts.length - 1;
    for (let k = 0; k < last; k++) {
      let next = node.get(parts[k]) as Map<KeyPart, unknown> | undefined;
      if (next === undefined) node.set(parts[k], (next = new Map()));
      node = next;
    }
    let id = node.get(parts[last]) as number | undefined;
    if (id === undefined) node.set(parts[last], (id = this.size++));
    return id;
  }
}

/**
 * Placement slots (`StudyItem.slot`): one per record, measure and output. A value's slot is found by its output
 * pk, checked against the record and measure the pk was first seen with (another record or measure under the same
 * pk, which only a duplicated output row gives, falls back to a key of all three); a curve's by its subset pk.
 */
export class Slots {
  size = 0;
  private readonly byOutput = new Map<number, number>();
  private readonly records: string[] = [];
  private readonly measures: string[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byCurve = new Map<number, number>();

  ofValue(outputPk: number, measure: string, record: string): number {
    const first = this.byOutput.get(outputPk);
    if (first === undefined) {
      const slot = this.size++;
      this.byOutput.set(outputPk, slot);
      this.records[slot] = record;
      this.measures[slot] = measure;
      return slot;
    }
    if (this.records[first] === record && this.measures[first] === measure) return first;
    const key = `${record}|${measure}|${outputPk}`;
    let slot = this.byKey.get(key);
    if (slot === undefined) this.byKey.set(key, (slot = this.size++));
    return slot;
  }

  ofCurve(subsetPk: number): number {
    let slot = this.byCurve.get(subsetPk);
    if (slot === undefined) this.byCurve.set(subsetPk, (slot = this.size++));
    return slot;
  }
}
