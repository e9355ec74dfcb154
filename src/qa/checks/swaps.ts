/**
 * The `swap` check (issue 13, item 7): a reported value that disagrees with its
 * own recomputation but agrees with that of a sibling timecourse of the same
 * study (another arm, dose, subject, or analyte: parent and metabolite) was
 * curated against the wrong record. In a hand review of real majors, 5 of 25
 * real errors were such swaps (parent and metabolite curves exchanged, outputs
 * of two arms exchanged) and none had been given a cause.
 *
 * - An exchange: output A disagrees with its timecourse a (major), output B
 *   (same parameter) with its timecourse b, while A agrees with b and B with a.
 *   Major (reported-vs-recomputed's verdict on A is); the
 *   culprit is undecided (the outputs or the curves were exchanged). One
 *   finding per pair, on the lower output pk, naming both.
 * - One way: A's disagreement is major, A agrees with exactly one sibling
 *   timecourse b whose value is not within A's own timecourse's reach; minor
 *   (with many siblings a match by chance cannot be ruled out), culprit output.
 * "Agrees" is reported-vs-recomputed's agree band (classify.ts), with both
 * profiles tried. It sees only outputs that have a timecourse of their own.
 */
import type { QaCheck } from '../check.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { compareReported, type Comparison } from '../compare-reported.js';

const fmt = (x: number) => String(+x.toPrecision(4));

/** A sibling timecourse needs a recomputed value this far (fold) from the own one for a match to mean anything. */
export const DISTINCT = Math.log(1.5);

function agreesWith(ctx: QaContext, c: Comparison, rt: RecomputedTimecourse): Comparison | null {
  const other = compareReported(c.output, c.parameter, rt, { molarMass: ctx.molarMass(c.output.substance), bodyWeightKg: c.bodyWeightKg });
  return other && other.verdict.classification === 'agree' ? other : null;
}

function swapFinding(c: Comparison, other: Comparison, partner: Comparison | null, exchange: boolean): Finding {
  const severity = exchange ? (c.verdict.classification === 'major' || partner?.verdict.classification === 'major' ? 'major' : 'minor') : 'minor';
  const sibling = other.timecourse.tc;
  const with_ = partner ? `output ${partner.output.pk} (${partner.output.substance}, subset ${sibling.subset_pk})` : `subset ${sibling.subset_pk} (${sibling.substance_label ?? sibling.substance})`;
  return finding({
    kind: 'swap',
    check: exchange ? 'swap/exchange' : 'swap/one-way',
    severity,
    study_sid: c.output.study_sid,
    study_name: c.output.study_name,
    subset_pk: c.timecourse.tc.subset_pk,
    output_pk: c.output.pk,
    measurement_type: c.parameter,
    subject: c.output.individual_pk !== null ? `individual:${c.output.individual_pk}` : `group:${c.output.group_pk}`,
    reported: c.reported,
    reported_unit: c.reported_unit,
    recomputed: c.recomputed,
    recomputed_unit: c.reported_unit,
    ratio: c.verdict.ratio,
    suspected_cause: exchange ? `swap with ${with_}: each reported value matches the other's timecourse` : `swap? matches the timecourse of ${with_}`,
    culprit: exchange ? null : 'output',
    message:
      `reported ${c.parameter} ${fmt(c.reported)} ${c.reported_unit} disagrees with its own timecourse (${fmt(c.recomputed)}) but agrees with ${with_} (${fmt(other.recomputed)})` +
      (partner ? `, whose reported ${fmt(partner.reported)} agrees with this output's timecourse` : ''),
    details: {
      swapWith: { subset_pk: sibling.subset_pk, output_pk: partner?.output.pk ?? null, substance: partner?.output.substance ?? null },
      output_pks: partner ? [c.output.pk, partner.output.pk] : [c.output.pk],
      subset_pks: [c.timecourse.tc.subset_pk, sibling.subset_pk],
    },
  });
}

export const swapsCheck: QaCheck = {
  kind: 'swap',
  description: 'a reported value that disagrees with its own timecourse but agrees with a sibling timecourse of the study (another arm, dose, subject or analyte): outputs or curves exchanged',
  run(ctx) {
    const comparisons = ctx.comparisons;
    const byStudy = new Map<string, RecomputedTimecourse[]>();
    for (const rt of ctx.timecourses) {
      const list = byStudy.get(rt.tc.study_sid);
      if (list) list.push(rt);
      else byStudy.set(rt.tc.study_sid, [rt]);
    }
    // The disagreeing comparison of each (timecourse, parameter), to find the partner of an exchange.
    const disagreeing = new Map<string, Comparison[]>();
    for (const c of comparisons) {
      if (c.verdict.classification === 'agree') continue;
      const key = `${c.timecourse.tc.subset_pk}|${c.parameter}`;
      const list = disagreeing.get(key);
      if (list) list.push(c);
      else disagreeing.set(key, [c]);
    }
    const findings: Finding[] = [];
    const reported = new Set<number>();
    // Only a major disagreement starts a search (a sibling's standard profile is computed on demand).
    for (const c of comparisons) {
      if (c.verdict.classification !== 'major' || reported.has(c.output.pk)) continue;
      const siblings = (byStudy.get(c.output.study_sid) ?? []).filter((rt) => rt !== c.timecourse);
      const matches: Comparison[] = [];
      for (const rt of siblings) {
        const other = agreesWith(ctx, c, rt);
        if (other && Math.abs(Math.log(other.recomputed / c.recomputed)) > DISTINCT) matches.push(other);
      }
      if (matches.length === 0) continue;
      let exchanged = false;
      for (const other of matches) {
        const partners = disagreeing.get(`${other.timecourse.tc.subset_pk}|${c.parameter}`) ?? [];
        const partner = partners.find((p) => p.output.pk !== c.output.pk && !reported.has(p.output.pk) && agreesWith(ctx, p, c.timecourse));
        if (!partner) continue;
        findings.push(swapFinding(c, other, partner, true));
        reported.add(c.output.pk).add(partner.output.pk);
        exchanged = true;
        break;
      }
      if (!exchanged && matches.length === 1 && c.verdict.classification === 'major') {
        findings.push(swapFinding(c, matches[0], null, false));
        reported.add(c.output.pk);
      }
    }
    return findings;
  },
};
