/**
 * outputs.csv, two thirds of an export, read on a second core: a worker
 * thread inflates, types and collapses it while the calling thread reads the
 * other members, and hands the records back as columns of typed arrays
 * (./output-columns.ts), moved rather than copied. Both threads run
 * `readOutputs`, so the records and problems are the same either way.
 *
 * One worker is kept between reads for a few seconds (WORKER_IDLE_MS). When
 * a worker cannot be started, or dies before answering, the caller is told
 * (`WorkerUnavailableError`) and reads outputs.csv itself.
 */
import { parentPort, Worker } from 'node:worker_threads';
import type { OutputRecord } from '../model.js';
import { checkMember, ExportError, ProblemLog, readRows, type ExportProblem } from './cells.js';
import { OUTPUTS } from './columns.js';
import { columnBuffers, outputColumns, outputsFromColumns, type OutputColumns } from './output-columns.js';
import { buildOutputs } from './tables.js';
import { inflateStored, type StoredMember } from './zip.js';

/** outputs.csv, read: its records, and its problems (the first `maxProblems`) with their count. */
export interface OutputsPart {
  outputs: OutputRecord[];
  problems: ExportProblem[];
  problemCount: number;
}

/** Reads outputs.csv into records, its problems into `log`: what either thread runs. */
export function readOutputs(member: StoredMember, log: ProblemLog, archive: string): OutputRecord[] {
  return buildOutputs(readRows(OUTPUTS, checkMember(inflateStored(member, archive)), log, archive), log);
}

/** Where a read types outputs.csv: see `ReadExportOptions.worker`. */
export type WorkerChoice = 'auto' | boolean | 'always';

/**
 * The size of outputs.csv from which a worker reads it (with `true`): starting
 * a worker costs some 30 ms, and typing this many bytes takes longer.
 */
export const WORKER_MIN_BYTES = 4 * 1024 ** 2;

/** Set when a worker could not be started or died: later reads that do not insist (`'always'`) stay on their thread. */
let workerFailed = false;

/**
 * Whether a read of an outputs.csv of `size` bytes should use a worker (see
 * `ReadExportOptions.worker`). `'auto'` reads on the calling thread: the worker
 * does not pay on a two-core machine, cold or warm. The records cross back as
 * columns and are rebuilt as objects on the calling thread, and each heap
 * collects its own garbage, so two threads cost half as much CPU time again
 * and end later. Measured on the shared export (20 MB of CSV, built reader,
 * 6 warm reads after 3 per process, 3 processes each, alternately; 2026-12-01):
 * worker 357–386 ms wall, 550–592 ms CPU; calling thread 312–347 ms wall,
 * 346–414 ms CPU; one cold read per process: alike (≈ 0.55 s). `true` and
 * `'always'` still ask for the worker (for a machine where it may pay). After a
 * worker failed in this process, only `'always'` asks for one again.
 */
export function useWorker(choice: WorkerChoice, size: number): boolean {
  if (choice === 'always') return true;
  return choice === true && size >= WORKER_MIN_BYTES && !workerFailed;
}

interface Job {
  member: StoredMember;
  archive: string;
  maxProblems: number;
}

type Reply =
  | { columns: OutputColumns; problems: ExportProblem[]; problemCount: number }
  | { error: string; problem: ExportProblem | null }
  | { failure: string };

/** The worker's side: reads the outputs.csv of each job it is sent and answers with columns (or the error). */
export function serveOutputs(): void {
  const port = parentPort;
  if (port === null) throw new Error('serveOutputs runs in a worker thread');
  port.on('message', ({ member, archive, maxProblems }: Job) => {
    let reply: Reply;
    let transfer: ArrayBuffer[] = [];
    try {
      const log = new ProblemLog(archive, false, maxProblems);
      const columns = outputColumns(readOutputs(member, log, archive));
      reply = { columns, problems: log.problems, problemCount: log.count };
      transfer = columnBuffers(columns);
    } catch (error) {
      // An ExportError is the answer (the caller throws it as its own); anything else is a fault, passed on as text.
      reply = error instanceof ExportError ? { error: error.message, problem: error.problem } : { failure: String((error as Error).stack ?? error) };
    }
    port.postMessage(reply, transfer);
  });
}

/** The worker could not be started or died before answering: read outputs.csv on the calling thread instead. */
export class WorkerUnavailableError extends Error {
  override name = 'WorkerUnavailableError';
}

/**
 * A new worker. Built, this module is JavaScript and the worker script is its
 * sibling outputs-worker.js. Run from TypeScript source (tsx, vitest), the
 * worker's own module loader would refuse the `.ts` script (tsx's hooks are
 * not inherited by workers on Node 20), so the worker first registers tsx,
 * which is then installed, and imports the script through it.
 */
function startWorker(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = new URL(`./outputs-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(script);
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * How long a worker is kept after a read for the next one. A worker's first
 * read runs its code cold (interpreted, then compiled as it warms up); kept,
 * a worker reads the next export as fast as the calling thread, having started
 * and warmed up once. Idle, it is unref'd: it never holds the process open.
 */
export const WORKER_IDLE_MS = 5000;

/** The worker kept between reads, and the timer that ends it. */
let idle: { worker: Worker; timer: NodeJS.Timeout; onError: () => void } | null = null;

function acquireWorker(): Worker {
  if (idle === null) return startWorker();
  const { worker, timer, onError } = idle;
  idle = null;
  clearTimeout(timer);
  worker.off('error', onError).off('exit', onError);
  worker.ref();
  return worker;
}

/** Keeps `worker` for the next read, or ends it when one is kept already. */
function releaseWorker(worker: Worker): void {
  if (idle !== null) {
    void worker.terminate();
    return;
  }
  worker.unref();
  // A kept worker that fails or exits is forgotten (and a failure is not an unhandled 'error' event).
  const onError = () => {
    if (idle?.worker !== worker) return;
    clearTimeout(idle.timer);
    idle = null;
  };
  const timer = setTimeout(() => {
    idle = null;
    void worker.terminate();
  }, WORKER_IDLE_MS).unref();
  worker.on('error', onError).on('exit', onError);
  idle = { worker, timer, onError };
}

/** Sends `job` to `worker` and waits for its one reply; rejects with WorkerUnavailableError when the worker fails or exits. */
function ask(worker: Worker, job: Job, transfer: ArrayBuffer[]): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const done = () => worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    const onMessage = (reply: Reply) => {
      done();
      resolve(reply);
    };
    const onError = (error: Error) => {
      done();
      reject(new WorkerUnavailableError(`worker failed (${error.message})`, { cause: error }));
    };
    const onExit = (code: number) => {
      done();
      reject(new WorkerUnavailableError(`worker exited with code ${code} before answering`));
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job, transfer);
  });
}

/**
 * Reads outputs.csv in a worker thread, keeping at most `maxProblems`
 * problems. Rejects with the worker's ExportError (an unreadable member, a
 * missing column), an Error for a fault in the worker, or
 * WorkerUnavailableError when there is no worker to ask.
 */
export async function readOutputsInWorker(member: StoredMember, archive: string, maxProblems: number): Promise<OutputsPart> {
  let worker: Worker;
  try {
    worker = acquireWorker();
  } catch (error) {
    workerFailed = true;
    throw new WorkerUnavailableError(`cannot start a worker (${(error as Error).message})`, { cause: error });
  }
  // The compressed bytes move to the worker: a copy of them, as they are a view of the caller's archive.
  const data = new Uint8Array(member.data);
  let reply: Reply;
  try {
    reply = await ask(worker, { member: { ...member, data }, archive, maxProblems }, [data.buffer]);
  } catch (error) {
    workerFailed = true;
    void worker.terminate();
    throw error;
  }
  releaseWorker(worker);
  if ('error' in reply) throw new ExportError(reply.error, reply.problem);
  if ('failure' in reply) throw new Error(`reading outputs.csv in a worker: ${reply.failure}`);
  return { outputs: outputsFromColumns(reply.columns), problems: reply.problems, problemCount: reply.problemCount };
}
