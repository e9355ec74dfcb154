/**
 * Phoenix WinNonlin on Theophylline (../shared/reference/nca): oral, 320 mg,
 * best-fit λz, both AUC methods. Acceptance rule of the reference's README:
 * counts, times and observed concentrations exactly equal, everything else
 * within relative 1e-6 (the export's ~10 significant digits limit it to ~1e-9).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeShared, SHARED_NCA_DIR } from '../helpers/shared.js';
import { ncaByGroup } from '../../src/nca/group.js';
import type { Pptestcd } from '../../src/nca/parameters.js';

/** WinNonlin column -> CDISC PPTESTCD, the README's column dictionary. */
const WINNONLIN_TO_CDISC: Record<string, Pptestcd> = {
  Rsq: 'R2', Rsq_adjusted: 'R2ADJ', Corr_XY: 'CORRXY', No_points_lambda_z: 'LAMZNPT', Lambda_z: 'LAMZ',
  Lambda_z_lower: 'LAMZLL', Lambda_z_upper: 'LAMZUL', HL_Lambda_z: 'LAMZHL', Tlag: 'TLAG', Tmax: 'TMAX',
  Cmax: 'CMAX', Cmax_D: 'CMAXD', Tlast: 'TLST', Clast: 'CLST', AUClast: 'AUCLST', AUCall: 'AUCALL',
  AUCINF_obs: 'AUCIFO', AUCINF_D_obs: 'AUCIFOD', 'AUC_%Extrap_obs': 'AUCPEO', Vz_F_obs: 'VZFO', Cl_F_obs: 'CLFO',
  AUCINF_pred: 'AUCIFP', AUCINF_D_pred: 'AUCIFPD', 'AUC_%Extrap_pred': 'AUCPEP', Vz_F_pred: 'VZFP',
  Cl_F_pred: 'CLFP', AUMClast: 'AUMCLST', AUMCINF_obs: 'AUMCIFO', 'AUMC_%Extrap_obs': 'AUMCPEO',
  AUMCINF_pred: 'AUMCIFP', 'AUMC_%Extrap_pred': 'AUMCPEP', MRTlast: 'MRTEVLST', MRTINF_obs: 'MRTEVIFO',
  MRTINF_pred: 'MRTEVIFP',
};
const EXACT = new Set<Pptestcd>(['LAMZNPT', 'LAMZLL', 'LAMZUL', 'TLAG', 'TMAX', 'CMAX', 'TLST', 'CLST']);

/** The reference files are plain comma-separated text without quotes. */
function readTable(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(SHARED_NCA_DIR, file), 'utf8').trim().split(/\r?\n/);
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])));
}

describeShared('standard profile vs Phoenix WinNonlin (Theoph, 320 mg oral)', SHARED_NCA_DIR, () => {
  for (const [file, aucMethod] of [
    ['theoph_winnonlin_linear.csv', 'linear'],
    ['theoph_winnonlin_log.csv', 'lin-up-log-down'],
  ] as const) {
    describe(aucMethod, () => {
      const data = readTable('theoph.csv');
      const reference = readTable(file);
      const results = ncaByGroup(data, { subject: 'subject', time: 'time', conc: 'conc' }, { dose: 320 }, { aucMethod });

      it('covers all 12 subjects and all 34 parameters', () => {
        expect(results.map((r) => r.subject).sort()).toEqual(reference.map((r) => r.subject).sort());
        expect(Object.keys(WINNONLIN_TO_CDISC)).toHaveLength(34);
        expect(Object.keys(reference[0]).filter((c) => WINNONLIN_TO_CDISC[c])).toHaveLength(34);
      });

      it('matches every subject: exact where observed, relative 1e-6 elsewhere', () => {
        const worst: Partial<Record<Pptestcd, number>> = {};
        for (const row of reference) {
          const result = results.find((r) => r.subject === row.subject)?.result;
          expect(result, `subject ${row.subject}`).toBeTruthy();
          for (const [column, code] of Object.entries(WINNONLIN_TO_CDISC)) {
            const expected = Number(row[column]);
            const actual = result!.parameters[code]?.value;
            expect(actual, `subject ${row.subject} ${code}`).not.toBeNull();
            if (EXACT.has(code)) {
              expect(actual, `subject ${row.subject} ${code}`).toBe(expected);
              continue;
            }
            const relative = Math.abs(actual! - expected) / Math.abs(expected);
            worst[code] = Math.max(worst[code] ?? 0, relative);
            expect(relative, `subject ${row.subject} ${code}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-6);
          }
        }
        const summary = Object.entries(worst).sort((a, b) => b[1] - a[1]);
        console.log(`${aucMethod}: largest relative differences`, summary.slice(0, 5).map(([c, v]) => `${c} ${v.toExponential(1)}`).join(', '));
      });
    });
  }
});
