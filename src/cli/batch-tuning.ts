/**
 * V8 tuning for a process that runs one batch command and exits (`pkdb qa` started from bin/pkdb.js or
 * dist/cli/main.js).
 *
 * V8 compiles a function with its optimising compiler (TurboFan) once the function has run about 66 KB of
 * bytecode (the interrupt budget, 66 KiB). A QA run over an export runs hundreds of functions a few thousand times
 * each, once: compiling them costs more CPU than their optimised code saves before the run ends. With a budget
 * of 1.1 MB (×16) only the functions that stay hot (the CSV scanner, the within-study statistics) are compiled,
 * a little later. Measured on the shared export (built CLI, `qa --no-html`, CPU time user + sys, median of 5
 * runs on one machine): 3.8 s with V8's default, 2.4–2.7 s with ×32. With the QA's checks of issue 13 (more code,
 * each run longer) ×16 is the better trade (2026-11-28, 6 runs alternately: wall 1.76 s at ×32, 1.69 s at ×16, CPU
 * alike; ×4–×8 cost 0.2–0.5 s more CPU on the compiler's thread for no wall time).
 *
 * Only in a process the command owns: the entry points call `oneShotProcess()`, and the qa command
 * `tuneForBatch()` before it loads the QA. Tests that call `main` in their own process keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytecode a function runs before V8 optimises it, in a one-shot batch process: 16 × V8's default of 66 KiB. */
export const V8_DEFAULT_INTERRUPT_BUDGET = 66 * 1024;
export const BATCH_INTERRUPT_BUDGET = 16 * V8_DEFAULT_INTERRUPT_BUDGET;

let oneShot = false;
let tuned = false;

/** Marks this process as one that runs a single command and exits (called by the entry points only). */
export function oneShotProcess(): void {
  oneShot = true;
}

/** Raises V8's interrupt budget for a batch command in a one-shot process; whether the process is tuned. */
export function tuneForBatch(): boolean {
  if (oneShot && !tuned) {
    // Takes effect for functions first run after it: the command's own modules, loaded next.
    setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
    tuned = true;
  }
  return tuned;
}
