/**
 * What a person at a terminal sees while `spool run` captures: the command's output as it
 * is captured (live mode), and a one-line progress status while the command is quiet.
 *
 * - Each stream gets a pass-through stage after the redactor ({@link LiveView.stage}): it
 *   counts what the capture produced (bytes, lines) and, in live mode, hands the same
 *   text, made safe for a terminal (`terminal-text.ts`), to a {@link TerminalSink}.
 * - A sink writes to its file descriptor asynchronously and holds at most `budget` bytes:
 *   a terminal that falls behind never holds back the capture; what it could not take is
 *   skipped, counted, and said on the terminal once it catches up (the capture has it all).
 * - The progress line (`progress-line.ts`) is drawn only while every sink is idle and the
 *   last byte shown ended a line, and is erased before anything else is written.
 *
 * @example
 * ```ts
 * import { createLiveView } from "./live-view.js";
 * const view = createLiveView({ live: true, keepAnsi: false, fds: { stdout: 1, stderr: 2 } });
 * const stage = view.stage("stdout"); // after the redactor, before the preview tap
 * stage.push([Buffer.from("building…\n")]); // shown at once
 * await view.settle(); // everything queued is on the terminal
 * ```
 */
import { write } from "node:fs";
import { countNewlines, type Stage, type StreamName } from "@spool/core/runtime";
import { TerminalText } from "./terminal-text.js";

/** Bytes a terminal may have queued before live output is skipped. */
export const LIVE_BUDGET_BYTES = 4 * 1024 * 1024;
const LF = 0x0a;
/** Wait before writing again to a descriptor that said EAGAIN. */
const RETRY_MS = 5;

/** What each stream produced so far (after redaction): what the progress line shows. */
export interface StreamTally {
  bytes: number;
  lines: number;
}

/** Options of {@link createLiveView}. */
export interface LiveViewOptions {
  /** Show the output as it is captured (else only count it). */
  readonly live: boolean;
  /** Pass SGR colours through (`--keep-ansi`). */
  readonly keepAnsi: boolean;
  /** Where each stream is shown. */
  readonly fds: Readonly<Record<StreamName, number>>;
  /** Bytes queued per descriptor before output is skipped. @default LIVE_BUDGET_BYTES */
  readonly budget?: number;
  /** Called (synchronously) before anything is queued for the terminal. */
  readonly beforeWrite?: () => void;
}

/** The live view of one run (see the file comment). */
export interface LiveView {
  /** The pass-through stage of `stream`. */
  stage(stream: StreamName): Stage;
  /** What each stream produced so far. */
  readonly tally: Readonly<Record<StreamName, StreamTally>>;
  /** True when nothing is queued and the last byte shown (if any) ended a line. */
  quiet(): boolean;
  /** Resolves once everything queued has been written (or the terminal went away). */
  settle(): Promise<void>;
  /** Whether anything was shown, and whether it all ended with a newline. */
  readonly shown: { readonly any: boolean; readonly endsLine: boolean };
}

export function createLiveView(options: LiveViewOptions): LiveView {
  const budget = options.budget ?? LIVE_BUDGET_BYTES;
  const tally = { stdout: { bytes: 0, lines: 0 }, stderr: { bytes: 0, lines: 0 } };
  const sinks = new Map<number, TerminalSink>();
  const sinkOf = (stream: StreamName) => {
    const fd = options.fds[stream];
    const sink = sinks.get(fd) ?? new TerminalSink(fd, budget);
    sinks.set(fd, sink);
    return sink;
  };
  return {
    stage(stream) {
      const text = new TerminalText({ keepAnsi: options.keepAnsi });
      const sink = options.live ? sinkOf(stream) : null;
      const show = (bytes: Uint8Array) => {
        if (sink === null || bytes.length === 0) return;
        options.beforeWrite?.();
        sink.write(bytes);
      };
      return {
        name: "live-view",
        held: 0,
        push(batch) {
          for (const chunk of batch) {
            tally[stream].bytes += chunk.length;
            tally[stream].lines += countNewlines(chunk);
            show(text.push(chunk));
          }
          return batch as Uint8Array[];
        },
        end() {
          show(text.end());
          return [];
        },
      };
    },
    tally,
    quiet: () => [...sinks.values()].every((s) => s.idle && s.endsLine),
    settle: async () => {
      for (const sink of sinks.values()) await sink.settled();
    },
    get shown() {
      const all = [...sinks.values()].filter((s) => s.wrote);
      return { any: all.length > 0, endsLine: all.every((s) => s.endsLine) };
    },
  };
}

/**
 * One descriptor's queue: asynchronous writes, one at a time, at most `budget` bytes
 * queued; past that, chunks are skipped and counted, and a line says so once the queue
 * has drained. A descriptor that fails (the terminal closed) takes nothing more.
 */
export class TerminalSink {
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private writing = false;
  private skipped = 0;
  private closed = false;
  private waiters: (() => void)[] = [];
  /** Whether anything was written, and whether the last byte queued was a newline. */
  wrote = false;
  endsLine = true;

  constructor(
    private readonly fd: number,
    private readonly budget: number,
  ) {}

  get idle(): boolean {
    return this.queue.length === 0 && !this.writing;
  }

  write(bytes: Uint8Array): void {
    if (this.closed) return;
    if (this.queued + bytes.length > this.budget) {
      this.skipped += bytes.length;
      return;
    }
    this.enqueue(Uint8Array.prototype.slice.call(bytes));
  }

  settled(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private enqueue(bytes: Uint8Array): void {
    this.queue.push(bytes);
    this.queued += bytes.length;
    this.wrote = true;
    this.endsLine = bytes[bytes.length - 1] === LF;
    this.pump();
  }

  private pump(): void {
    if (this.writing) return;
    const head = this.queue[0];
    if (head === undefined) {
      if (this.skipped > 0 && !this.closed) {
        this.sayWhatWasSkipped();
        return;
      }
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
      return;
    }
    this.writing = true;
    write(this.fd, head, 0, head.length, null, (error, n) => {
      this.writing = false;
      if (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          setTimeout(() => this.pump(), RETRY_MS);
          return;
        }
        this.closed = true;
        this.queue.length = 0;
        this.queued = 0;
        this.pump();
        return;
      }
      this.queued -= n;
      if (n < head.length) this.queue[0] = head.subarray(n);
      else this.queue.shift();
      this.pump();
    });
  }

  private sayWhatWasSkipped(): void {
    const skipped = this.skipped;
    this.skipped = 0;
    const lead = this.endsLine ? "" : "\n";
    this.enqueue(
      Buffer.from(
        `${lead}[spool] ${skipped} bytes not shown here: the terminal fell behind (the capture has them)\n`,
      ),
    );
  }
}
