/**
 * A one-line status on a terminal while work is quiet: after `quietMs` without anything
 * shown, a line such as `[spool] running 12s · stdout 1.2 MiB, 3,400 lines · stderr 0 B`
 * is drawn on stderr and redrawn every `tickMs`; it is erased before anything else is
 * written and when the work ends. Drawing, erasing and wrapping to the terminal's width
 * are log-update's, loaded only when a line is first drawn (nothing at start-up).
 *
 * Only for a person: the caller starts one only when stderr (and, for `spool run`, stdout)
 * is a terminal.
 *
 * @example
 * ```ts
 * import { startProgressLine } from "./progress-line.js";
 * const line = startProgressLine({ stream: process.stderr, text: (ms) => `[spool] export ${Math.round(ms / 1000)}s` });
 * // … quiet work …
 * line.stop();
 * ```
 */
import { statSync } from "node:fs";
import type { Writable } from "node:stream";
import type { Io } from "./io.js";
import type { StreamTally } from "./live-view.js";

/** Quiet time before the line appears. */
export const PROGRESS_QUIET_MS = 3000;
const TICK_MS = 1000;

/** Options of {@link startProgressLine}. */
export interface ProgressLineOptions {
  /** Where the line is drawn (a terminal). */
  readonly stream: Writable;
  /** The line's text after `elapsedMs` of work. */
  readonly text: (elapsedMs: number) => string;
  /** Whether the line may be drawn now (nothing queued for the terminal, a line just ended). @default always */
  readonly mayDraw?: () => boolean;
  /** @default PROGRESS_QUIET_MS */
  readonly quietMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** A running progress line. */
export interface ProgressLine {
  /** Something else is about to be written: erase the line, and wait `quietMs` again. */
  activity(): void;
  /** Erase the line for good. */
  stop(): void;
}

type LogUpdate = ((text: string) => void) & { clear(): void };

export function startProgressLine(options: ProgressLineOptions): ProgressLine {
  const now = options.now ?? Date.now;
  const quietMs = options.quietMs ?? PROGRESS_QUIET_MS;
  const started = now();
  let lastActivity = started;
  let drawn = false;
  let stopped = false;
  let render: LogUpdate | null = null;
  let loading = false;
  const erase = () => {
    if (drawn) render?.clear();
    drawn = false;
  };
  const draw = () => {
    if (stopped || render === null) return;
    render(options.text(now() - started));
    drawn = true;
  };
  const tick = () => {
    if (stopped || now() - lastActivity < quietMs) return;
    if (!(options.mayDraw?.() ?? true)) return erase();
    if (render !== null) return draw();
    if (loading) return;
    loading = true;
    import("log-update").then(
      ({ createLogUpdate }) => {
        render = createLogUpdate(options.stream as NodeJS.WriteStream, { showCursor: true });
        draw();
      },
      // The line is a courtesy: without its renderer there is none.
      () => {
        stopped = true;
      },
    );
  };
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return {
    activity() {
      lastActivity = now();
      erase();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      erase();
    },
  };
}

/** `running 12s · stdout 1.2 MiB, 3,400 lines · stderr 0 B`, prefixed with `[spool] `. */
export function runProgressText(
  elapsedMs: number,
  tally: Readonly<Record<"stdout" | "stderr", StreamTally>>,
): string {
  const stream = (name: "stdout" | "stderr") => {
    const t = tally[name];
    const lines = t.lines > 0 ? `, ${t.lines.toLocaleString("en-US")} lines` : "";
    return `${name} ${humanBytes(t.bytes)}${lines}`;
  };
  return `[spool] running ${duration(elapsedMs)} · ${stream("stdout")} · ${stream("stderr")}`;
}

/** `45s`, `2m05s`, `1h02m`. */
export function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** `512 B`, `1.2 KiB`, `3.4 MiB`, `1.0 GiB`. */
export function humanBytes(n: number): string {
  const units = ["KiB", "MiB", "GiB", "TiB"];
  if (n < 1024) return `${n} B`;
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/**
 * Run `work` with a progress line on stderr when it is a terminal (`what` and the elapsed
 * time, then `detail()` if it says anything): export, import and share of large bundles.
 */
export async function withProgress<T>(
  io: Pick<Io, "descriptors">,
  what: string,
  detail: () => string,
  work: () => Promise<T>,
): Promise<T> {
  const line = io.descriptors?.().stderr
    ? startProgressLine({
        stream: process.stderr,
        text: (ms) => {
          const more = detail();
          return `[spool] ${what} ${duration(ms)}${more ? ` · ${more}` : ""}`;
        },
      })
    : null;
  try {
    return await work();
  } finally {
    line?.stop();
  }
}

/** The size of the file at `file` in words (`340.0 MiB`), or "" while it has none. */
export function fileSize(file: string): () => string {
  return () => {
    try {
      const stat = statSync(file);
      return stat.isFile() ? humanBytes(stat.size) : "";
    } catch {
      return "";
    }
  };
}
