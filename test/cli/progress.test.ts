import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

describe('createProgress', () => {
  it('shows a phase at once, redraws its count at most every interval, and ends with its time', () => {
    const out: string[] = [];
    let t = 0;
    const p = createProgress({ enabled: true, write: (s) => out.push(s), now: () => t, interval: 100 });
    p.start('checks');
    expect(out).toEqual(['\r\x1b[Kchecks 0.0 s…']);
    t = 50;
    p.update(1, 10); // within the interval: not drawn
    t = 150;
    p.update(2, 10);
    t = 1250;
    p.end('3 findings');
    expect(out.slice(1)).toEqual(['\r\x1b[Kchecks 2/10 0.1 s…', '\r\x1b[Kchecks 3 findings 1.3 s\n']);
  });

  it('ends the previous phase when the next starts, erases a phase shorter than a second, and writes nothing when disabled', () => {
    const out: string[] = [];
    let t = 0;
    const p = createProgress({ enabled: true, write: (s) => out.push(s), now: () => t });
    p.start('a');
    t = 2000;
    p.start('b');
    expect(out[1]).toBe('\r\x1b[Ka 2.0 s\n');
    // A phase within a second is erased.
    t = 2500;
    p.end();
    expect(out.slice(-1)).toEqual(['\r\x1b[K']);
    const quiet: string[] = [];
    const off = createProgress({ enabled: false, write: (s) => quiet.push(s) });
    off.start('a');
    off.update(1, 2);
    off.end();
    expect(quiet).toEqual([]);
  });
});
