/**
 * Progress of a command's phases on stderr, for a person at a terminal: a
 * line per phase that counts up in place (`PNG 120/938 12.4 s`) and ends with
 * its time; a phase done within a second is erased, not kept. Redraws are
 * throttled and need no timer, so a synchronous loop (the QA checks) updates
 * it too. Disabled (every call a no-op) when stderr
 * is not a TTY, so logs and pipes stay clean.
 */

export interface Progress {
  /** A phase starts: shown at once, so a long silent step (loading a zip) says what it is doing. */
  start(phase: string): void;
  /** Counted work in the current phase. */
  update(done: number, total: number): void;
  /** The phase ends; `note` replaces the count in its final line. */
  end(note?: string): void;
}

export interface ProgressOptions {
  enabled: boolean;
  write?: (text: string) => void;
  now?: () => number;
  /** Minimum ms between redraws. */
  interval?: number;
  /** Phases shorter than this (ms) leave no line behind. */
  keepAfter?: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function createProgress(options: ProgressOptions): Progress {
  if (!options.enabled) return { start() {}, update() {}, end() {} };
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const now = options.now ?? (() => performance.now());
  const interval = options.interval ?? 100;
  const keepAfter = options.keepAfter ?? 1000;
  let phase: string | null = null;
  let started = 0;
  let drawn = -Infinity;
  let count = '';
  const draw = (final: boolean, note?: string) => {
    const t = now();
    if (!final && t - drawn < interval) return;
    drawn = t;
    const text = `${phase}${note ?? count ? ` ${note ?? count}` : ''} ${seconds(t - started)}`;
    // \r and clear-to-end-of-line: the line is rewritten in place.
    write(`\r\x1b[K${final ? `${text}\n` : `${text}…`}`);
  };
  return {
    start(name) {
      if (phase) this.end();
      phase = name;
      started = now();
      drawn = -Infinity;
      count = '';
      draw(false);
    },
    update(done, total) {
      if (!phase) return;
      count = `${done}/${total}`;
      draw(false);
    },
    end(note) {
      if (!phase) return;
      if (now() - started < keepAfter) write('\r\x1b[K');
      else draw(true, note);
      phase = null;
    },
  };
}
