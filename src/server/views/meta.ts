/**
 * Info nodes and statistics: /info_nodes/ (InfoNodeElasticSerializer),
 * /statistics/ (an object of normed counts) and /statistics/substances/ (a
 * bare array over all substances sorted by label; PK-DB API notes §6).
 */
import type { InfoNodeRecord, TermRecord } from '../../data/model.js';
import type { InfoNode, Statistics, SubstanceStatistics } from '../../api/schemas/index.js';
import type { ViewContext } from './context.js';

function infoNodeFromRecord(node: InfoNodeRecord): InfoNode {
  if (node.raw) return node.raw as InfoNode;
  return {
    sid: node.sid,
    name: node.name,
    label: node.label,
    deprecated: node.deprecated,
    ntype: node.ntype,
    dtype: node.dtype ?? 'undefined',
    description: node.description ?? '',
    synonyms: node.synonyms,
    parents: [],
    annotations: [],
    xrefs: [],
    measurement_type: null,
    substance: node.ntype === 'substance' ? { mass: node.mass, charge: null, formula: null } : null,
  };
}

function infoNodeFromTerm(term: TermRecord) {
  return infoNodeFromRecord({
    sid: term.sid,
    name: term.name,
    label: term.label,
    ntype: term.ntype ?? 'info_node',
    dtype: null,
    deprecated: false,
    description: null,
    synonyms: [],
    mass: null,
  });
}

/** Info nodes sorted by sid (they have no integer pk); from the term table when the source had no nodes. */
export function infoNodeItems(ctx: ViewContext): InfoNode[] {
  const nodes = ctx.tables.info_nodes;
  const items = nodes && nodes.length > 0 ? nodes.map(infoNodeFromRecord) : ctx.tables.terms.map(infoNodeFromTerm);
  const seen = new Set<unknown>();
  return items
    .filter((n) => (seen.has(n.sid) ? false : (seen.add(n.sid), true)))
    .sort((a, b) => (String(a.sid) < String(b.sid) ? -1 : String(a.sid) > String(b.sid) ? 1 : 0));
}

export function statisticsItem(ctx: ViewContext, version: string): Statistics {
  const t = ctx.tables;
  const normedOutputs = t.outputs.filter((o) => o.normed);
  return {
    version,
    study_count: t.studies.length,
    reference_count: t.studies.length,
    group_count: t.groups.length,
    individual_count: t.individuals.length,
    intervention_count: t.interventions.filter((i) => i.normed).length,
    output_count: normedOutputs.length,
    output_calculated_count: normedOutputs.filter((o) => o.calculated).length,
    timecourse_count: t.timecourses.length,
    scatter_count: t.scatters.length,
  };
}

/** Normed output and intervention counts per substance, for every substance the dataset names. */
export function substanceStatistics(ctx: ViewContext): SubstanceStatistics[] {
  const counts = new Map<string, { output_count: number; intervention_count: number }>();
  const entry = (name: string) => {
    const label = ctx.term(name)?.label ?? name;
    let c = counts.get(label);
    if (!c) counts.set(label, (c = { output_count: 0, intervention_count: 0 }));
    return c;
  };
  for (const term of ctx.tables.terms) if (term.ntype === 'substance') entry(term.name);
  for (const node of ctx.tables.info_nodes ?? []) if (node.ntype === 'substance') entry(node.name);
  for (const o of ctx.tables.outputs) if (o.normed && o.substance) entry(o.substance).output_count += 1;
  for (const i of ctx.tables.interventions) if (i.normed && i.substance) entry(i.substance).intervention_count += 1;
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([info_node__label, c]) => ({ info_node__label, ...c }));
}
