/**
 * What users get is what is tested: build, `npm pack`, install the tarball into
 * a fresh ESM TypeScript project, type-check and run an import of the public
 * surface, and run the installed `pkdb` command.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './helpers/shared.js';
import { STUDY_SIDS } from '../fixtures/generator/studies.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc');

const consumer = `
import { Dataset, loadFixtures, nca, runQa, PkdbClient, schemas, convert, type NcaResult, type Finding } from 'pkdb-toolkit';

const dataset: Dataset = await loadFixtures();
const result: NcaResult = nca({ time: [0, 1, 2, 4, 8, 12], conc: [0, 8, 6, 3, 1, 0.4], dose: 100 });
const findings: Finding[] = runQa(dataset).findings;
const client = new PkdbClient({ baseUrl: 'http://127.0.0.1:1/api/v1/' });
await client.close();
console.log(JSON.stringify({
  studies: dataset.counts().studies,
  lambdaZ: result.parameters.LAMZ?.value,
  major: findings.filter((f) => f.severity === 'major').length,
  mgPerLitre: convert(1, 'gram / liter', 'mg/l'),
  resources: Object.keys(schemas.RESOURCES).length,
}));
`;

/** The README's TypeScript examples, each as a module (they import from 'pkdb-toolkit' as a user would). */
function readmeExamples(): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => `${m[1]}\nexport {};\n`);
}

describe('the packed package', () => {
  let work: string;
  let app: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'pkdb-pack-'));
    // `npm pack` runs the prepack build, so dist/ is fresh.
    execFileSync(npm, ['pack', '--pack-destination', work, '--silent'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
    app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'], typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')] },
        include: ['main.ts', 'readme-*.ts'],
      }),
    );
    writeFileSync(join(app, 'main.ts'), consumer);
    readmeExamples().forEach((example, i) => writeFileSync(join(app, `readme-${i + 1}.ts`), example));
    execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', join(work, tarball)], { cwd: app, stdio: 'pipe' });
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('type-checks and runs an ESM TypeScript import of the public surface', () => {
    execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: app, stdio: 'pipe' });
    const out = execFileSync(process.execPath, [join(app, 'out', 'main.js')], { cwd: app, encoding: 'utf8' });
    const summary = JSON.parse(out) as Record<string, number>;
    expect(summary.studies).toBeGreaterThan(0);
    expect(summary.lambdaZ).toBeGreaterThan(0);
    expect(summary.major).toBeGreaterThan(0);
    expect(summary.mgPerLitre).toBeCloseTo(1000, 12);
    expect(summary.resources).toBeGreaterThanOrEqual(18);
  });

  it("type-checks every TypeScript example of the README against the installed package", () => {
    // The same tsc run as above compiles them (tsconfig includes readme-*.ts); this names the count so that
    // a README without examples, or a broken extraction, fails here.
    expect(readmeExamples().length).toBeGreaterThanOrEqual(6);
    const out = execFileSync(tsc, ['-p', 'tsconfig.json', '--noEmit', '--listFilesOnly'], { cwd: app, encoding: 'utf8' });
    expect(out.split('\n').filter((line) => /readme-\d+\.ts$/.test(line))).toHaveLength(readmeExamples().length);
  });

  it('installs a working `pkdb` command', () => {
    const out = execFileSync(join(app, 'node_modules', '.bin', 'pkdb'), ['summary', '--json'], { cwd: app, encoding: 'utf8' });
    const counts = JSON.parse(out) as Record<string, number>;
    expect(counts.studies).toBe(STUDY_SIDS.length);
    expect(counts.timecourses).toBeGreaterThan(0);
  });
});
