/**
 * `pkdb diff OLD NEW`: what changed between two releases (export zips or
 * servers): studies and records added, removed and changed with the factor of
 * each changed value, and the QA findings resolved, introduced and changed
 * (src/qa/release-diff.ts). Exit codes as diff(1): 0 no differences,
 * 1 differences, 2 usage error or unreadable source.
 */
import type { Command } from 'commander';
import { credentialOptions, type CredentialOptions } from '../credentials.js';
import { UsageError } from '../errors.js';

interface DiffCliOptions extends CredentialOptions {
  oldBaseUrl?: string;
  newBaseUrl?: string;
  study?: string[];
  out?: string;
  json?: boolean;
  qa: boolean;
}

/** The source of one side: a zip path or a base URL, exactly one. */
function side(name: 'OLD' | 'NEW', file: string | undefined, baseUrl: string | undefined): { export?: string; baseUrl?: string } {
  const flag = `--${name.toLowerCase()}-base-url`;
  if (file && baseUrl) throw new UsageError(`give ${name} as a zip or ${flag}, not both`);
  if (!file && !baseUrl) throw new UsageError(`${name} is missing: give an export zip or ${flag}`);
  return file ? { export: file } : { baseUrl };
}

export function register(program: Command, setExit: (code: number) => void): void {
  credentialOptions(program.command('diff'), 'a base URL')
    .description('compare two releases (export zips or servers): studies, records and QA findings added, removed and changed')
    .argument('[old]', 'the old export zip (or --old-base-url)')
    .argument('[new]', 'the new export zip (or --new-base-url)')
    .option('--old-base-url <url>', 'the old release as a PK-DB API base URL')
    .option('--new-base-url <url>', 'the new release as a PK-DB API base URL')
    .option('--study <sid-or-name...>', 'compare only these studies (sids or names); their QA findings are from a run over the whole release')
    .option('--out <dir>', 'write diff.json, diff.csv and diff.html here')
    .option('--json', 'print the whole diff as JSON on stdout')
    .option('--no-qa', 'compare records only, not QA findings')
    .action(async (oldFile: string | undefined, newFile: string | undefined, opts: DiffCliOptions) => {
      const oldSide = side('OLD', oldFile, opts.oldBaseUrl);
      const newSide = side('NEW', newFile, opts.newBaseUrl);
      const [{ loadSourceAndStudies }, { diffReleases }, { writeDiffOutputs }] = await Promise.all([
        import('../source.js'),
        import('../../qa/release-diff.js'),
        import('../../report/diff.js'),
      ]);
      const credentials = { user: opts.user, password: opts.password, token: opts.token };
      // Whole releases: with --study, the QA sets those studies against every other one of their release.
      const load = async (s: { export?: string; baseUrl?: string }) =>
        loadSourceAndStudies({ ...s, ...(s.baseUrl ? credentials : {}), study: opts.study, unknownStudies: 'report' });
      const progress = process.stderr.isTTY && !opts.json ? (phase: string) => process.stderr.write(`pkdb diff: ${phase}…\n`) : undefined;
      progress?.('loading the old release');
      const oldSource = await load(oldSide);
      progress?.('loading the new release');
      const newSource = await load(newSide);
      // A study added or removed between the releases is in one of them: only a name neither knows is an error.
      const unknown = (oldSource.unknown ?? []).filter((name) => newSource.unknown?.includes(name));
      if (unknown.length > 0) throw new UsageError(`unknown study ${unknown.join(', ')} in both releases`);
      const studies = opts.study?.length ? [...new Set([...(oldSource.studies ?? []), ...(newSource.studies ?? [])])] : undefined;
      const diff = diffReleases(oldSource.dataset, newSource.dataset, { qa: opts.qa, onPhase: progress, studies });
      const files = opts.out ? await writeDiffOutputs(diff, opts.out) : [];
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(diff, null, 1)}\n`);
      } else {
        const changed = Object.entries(diff.counts)
          .filter(([, c]) => c.added + c.removed + c.changed > 0)
          .map(([t, c]) => `${t} +${c.added} -${c.removed} ~${c.changed}`);
        const f = diff.findings;
        process.stdout.write(
          `studies: ${diff.studies.added.length} added, ${diff.studies.removed.length} removed, ${diff.studies.changed.length} changed\n` +
            `records: ${changed.length ? changed.join(', ') : 'no changes'}\n` +
            (f ? `findings (minor and major): ${f.resolved.length} resolved, ${f.introduced.length} introduced, ${f.changed.length} changed, ${f.unchanged} unchanged\n` : '') +
            (opts.out ? `wrote ${files.join(', ')} to ${opts.out}\n` : ''),
        );
      }
      setExit(diff.differences ? 1 : 0);
    });
}
