/**
 * `pkdb summary [--export FILE.zip | --base-url URL] [--json]`: how many
 * studies, groups, individuals, interventions, outputs (and calculated ones),
 * timecourses and scatters a source holds. Distinct entities, not CSV rows;
 * normed records only where raw and normed copies are both present.
 */
import type { Command } from 'commander';
import { credentialOptions, type CredentialOptions } from '../credentials.js';
import type { DatasetCounts } from '../../data/counts.js';

interface SummaryCliOptions extends CredentialOptions {
  export?: string;
  baseUrl?: string;
  study?: string[];
  json?: boolean;
}

const LABELS: Record<keyof DatasetCounts, string> = {
  studies: 'studies',
  groups: 'groups',
  individuals: 'individuals',
  interventions: 'interventions',
  outputs: 'outputs',
  calculated_outputs: '  calculated',
  timecourses: 'timecourses',
  scatters: 'scatters',
};

/** Labels left-aligned, numbers right-aligned, one line each. */
export function formatCounts(counts: DatasetCounts, source: string): string {
  const keys = Object.keys(LABELS) as (keyof DatasetCounts)[];
  const labelWidth = Math.max(...keys.map((k) => LABELS[k].length));
  const numberWidth = Math.max(...keys.map((k) => String(counts[k]).length));
  const lines = keys.map((k) => `${LABELS[k].padEnd(labelWidth)}  ${String(counts[k]).padStart(numberWidth)}`);
  return `${source}\n${lines.join('\n')}\n`;
}

export function register(program: Command, setExit: (code: number) => void): void {
  credentialOptions(program.command('summary'), '--base-url')
    .description('count the studies, groups, individuals, interventions, outputs, timecourses and scatters of a source')
    .option('--export <file>', 'a PK-DB export zip (default: the bundled fixtures)')
    .option('--base-url <url>', 'a PK-DB API base URL, e.g. https://pk-db.com/api/v1/')
    .option('--study <sid-or-name...>', 'count only these studies (sids or names)')
    .option('--json', 'print the counts as one JSON object on stdout')
    .action(async (opts: SummaryCliOptions) => {
      const { loadSource } = await import('../source.js');
      const dataset = await loadSource(opts);
      const counts = dataset.counts();
      const source = `${dataset.source.kind} ${dataset.source.location}`;
      process.stdout.write(opts.json ? `${JSON.stringify(counts)}\n` : formatCounts(counts, source));
      setExit(0);
    });
}
