/**
 * The last lines of a stream, the one function behind `spool tail` and the MCP `tail`
 * tool: where the last N lines begin (through the store, never a scan from the start),
 * then, when following, every newly committed byte until the capture is no longer live.
 *
 * @example
 * ```ts
 * import { tailCapture } from "./tail-capture.js";
 * declare const store: import("@spool/core").CaptureStore;
 * await tailCapture(store, { captureId, stream: "stdout", lines: 10 }, (chunk) => process.stdout.write(chunk));
 * ```
 */
import type { CaptureStore, StoredCapture, StreamName } from "@spool/core";

/** What to tail. */
export interface TailRequest {
  readonly captureId: string;
  readonly stream: StreamName;
  /** How many lines. */
  readonly lines: number;
  /** Go on writing new bytes until the capture is no longer live. @default false */
  readonly follow?: boolean;
  /**
   * Write only the last this many bytes of the lines (moved back to a character start;
   * what a follow writes after them is not cut): for a caller that holds them in memory.
   * @default no limit
   */
  readonly maxBytes?: number;
}

/** What a tail wrote. */
export interface TailResult {
  /** The capture's state the last bytes were written against. */
  readonly state: StoredCapture;
  /** Where the last lines begin (before any `maxBytes` cut). */
  readonly start: number;
  /** One past the last byte written. */
  readonly end: number;
}

/** Write the last lines of a stream (then, with `follow`, what is committed after them). */
export async function tailCapture(
  store: CaptureStore,
  request: TailRequest,
  write: (chunk: Buffer) => void,
): Promise<TailResult> {
  const { captureId, stream } = request;
  // Write what `view` has committed from `from` (null: the start of the last lines) on.
  const writeFrom = async (view: StoredCapture, from: number | null) => {
    const reader = await store.openStream(view, stream);
    try {
      const start = from ?? (await reader.tailStart(request.lines));
      const most = from === null ? (request.maxBytes ?? reader.committed) : reader.committed;
      const cut = Math.max(start, reader.committed - most);
      const { start: first, end } = await reader.span(cut, reader.committed - cut);
      for await (const chunk of reader.chunks(first, end)) write(chunk);
      return { start, end };
    } finally {
      await reader.close();
    }
  };
  let state = await store.state(captureId);
  const { start, end: firstEnd } = await writeFrom(state, null);
  let end = firstEnd;
  if (request.follow !== true) return { state, start, end };
  // Each state bounds what is written, so the last bytes committed before the end are written.
  for await (const next of store.watch(captureId)) {
    state = next;
    end = (await writeFrom(state, end)).end;
  }
  return { state, start, end };
}
