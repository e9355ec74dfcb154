import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/data/fixtures.js';
import { runChecks, type QaCheck } from '../../src/qa/check.js';
import { CHECKS } from '../../src/qa/checks/index.js';
import { prepareContext } from '../../src/qa/context.js';
import { finding } from '../../src/qa/finding.js';
import { runQa } from '../../src/qa/run.js';

const throwing: QaCheck = {
  kind: 'plausibility',
  description: 'throws',
  run() {
    throw new Error('boom');
  },
};
const one: QaCheck = { kind: 'input', description: 'one info', run: () => [finding({ kind: 'input', severity: 'info', message: 'ran' })] };

describe('the check registry', () => {
  it('turns a throwing check into one major finding naming it and runs the others', async () => {
    const ctx = prepareContext(await loadFixtures());
    const findings = runChecks(ctx, [throwing, one]);
    expect(findings).toHaveLength(2);
    expect(findings[0]).toMatchObject({ kind: 'check-failed', severity: 'major', details: { check: 'plausibility' } });
    expect(findings[0].message).toBe('the plausibility check failed: boom');
    expect(findings[1].message).toBe('ran');
  });

  it('runQa runs the checks it is given, the registry by default', async () => {
    const dataset = await loadFixtures();
    const result = runQa(dataset, { checks: [throwing] });
    expect(result.findings.map((f) => f.kind)).toEqual(['check-failed']);
    const ran: string[] = [];
    const spied = CHECKS.map((c): QaCheck => ({ ...c, run: (ctx) => (ran.push(c.kind), c.run(ctx)) }));
    expect(runQa(dataset, { checks: spied }).findings).toEqual(runQa(dataset).findings);
    expect(ran).toEqual(CHECKS.map((c) => c.kind));
  });

  it('gives every check a distinct kind and a description', () => {
    expect(new Set(CHECKS.map((c) => c.kind)).size).toBe(CHECKS.length);
    for (const check of CHECKS) expect(check.description.length).toBeGreaterThan(10);
  });
});
