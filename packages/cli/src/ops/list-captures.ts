/**
 * The captures of a store, summarized: the one function behind `spool ls` and the MCP
 * `ls` tool and resource list. Crash leftovers are reconciled first (`store.recover()`),
 * so a capture whose owner died is listed `partial (crash)`. With `unseen`, only the
 * ended jobs whose completion notice was undelivered are listed, and it is delivered
 * (each once, also to concurrent pollers).
 *
 * A capture that ended or crashed while something of its process group still runs says
 * so (`groupRunning`: the group id, else null).
 *
 * @example
 * ```ts
 * import { listCaptureSummaries } from "./list-captures.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const { captures } = await listCaptureSummaries(store);
 * for (const c of captures) console.log(c.captureId, c.process, c.capture);
 * ```
 */
import { type CaptureStore, ProvenanceSchema, producerOf, type StoredCapture } from "@spool/core";
import { liveGroupIds } from "@spool/core/process-group";
import { z } from "zod";
import { groupLeft } from "../job-group.js";

const streams = <T extends z.ZodType>(value: T) => z.object({ stdout: value, stderr: value });

/** One capture of a listing (`spool ls --json` prints an array of them, keys in this order). */
export const CaptureSummarySchema = z.object({
  captureId: z.string(),
  callId: z.string().nullable(),
  label: z.string().nullable(),
  condition: z.enum(["final", "live", "crashed"]),
  process: z.string().describe("the process (or source) state: running, exited, …"),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  capture: z.string().describe("the capture state: complete, partial, …"),
  reasons: z.array(z.string()),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  committed: streams(z.number().int()),
  refs: streams(z.string().nullable()),
  job: z.boolean(),
  completionSeen: z
    .boolean()
    .nullable()
    .describe("a job's completion delivered (by wait or ls --unseen); null: not a job"),
  provenance: ProvenanceSchema.nullable().describe("imported or shared: where it came from"),
  groupRunning: z
    .number()
    .int()
    .nullable()
    .describe("ended with its process group still running: the group id"),
});

/** One capture of a listing. */
export type CaptureSummary = z.infer<typeof CaptureSummarySchema>;

/** Options of {@link listCaptureSummaries}. */
export interface ListOptions {
  /** Only ended jobs whose completion is undelivered, delivering it. @default false */
  readonly unseen?: boolean;
}

/** A listing, and the captures that could not be looked at (or delivered) with why. */
export interface CaptureList {
  /** Oldest first. */
  readonly captures: CaptureSummary[];
  readonly errors: Array<{ captureId: string; message: string }>;
}

/** Reconcile, then summarize every capture of `store` (or only the unseen ended jobs). */
export async function listCaptureSummaries(
  store: CaptureStore,
  options: ListOptions = {},
): Promise<CaptureList> {
  const errors = [...(await store.recover()).errors];
  let captures = await store.list();
  if (options.unseen === true) captures = await deliverUnseen(store, captures, errors);
  const running = survivorsOf(captures);
  return {
    captures: await Promise.all(captures.map((c) => summary(store, c, running))),
    errors,
  };
}

/** The ended jobs whose completion this call delivered (and so marked seen). */
async function deliverUnseen(
  store: CaptureStore,
  captures: readonly StoredCapture[],
  errors: CaptureList["errors"],
): Promise<StoredCapture[]> {
  const delivered: StoredCapture[] = [];
  for (const c of captures) {
    // After recover() a crashed capture is final too; a live one has not ended.
    if (c.condition !== "final" || c.job === null) continue;
    try {
      if (await store.completion.take(c.captureId)) delivered.push(c);
    } catch (error) {
      // Not delivered, not marked: the next poll tries again.
      errors.push({ captureId: c.captureId, message: (error as Error).message });
    }
  }
  return delivered;
}

/** Captures that ended or crashed with their process group still running: id → pgid. */
function survivorsOf(captures: readonly StoredCapture[]): Map<string, number> {
  const out = new Map<string, number>();
  const ended = captures.filter((c) => c.condition !== "live" && c.receipt.process?.pid);
  if (ended.length === 0) return out;
  const live = liveGroupIds();
  for (const c of ended) {
    const group = groupLeft(c.receipt, live);
    if (group !== null) out.set(c.captureId, group.pgid);
  }
  return out;
}

async function summary(
  store: CaptureStore,
  c: StoredCapture,
  running: Map<string, number>,
): Promise<CaptureSummary> {
  const r = c.receipt;
  const producer = producerOf(r);
  const job = c.job !== null;
  return {
    captureId: c.captureId,
    callId: r.callId,
    label: r.label,
    condition: c.condition,
    process: producer.state,
    exitCode: producer.exitCode,
    signal: producer.signal,
    capture: r.capture.state,
    reasons: r.capture.reasons,
    startedAt: producer.startedAt,
    endedAt: producer.endedAt,
    committed: { stdout: r.streams.stdout.committed, stderr: r.streams.stderr.committed },
    refs: { stdout: r.streams.stdout.ref, stderr: r.streams.stderr.ref },
    job,
    completionSeen: job ? await store.completion.seen(c.captureId) : null,
    provenance: r.provenance ?? null,
    groupRunning: running.get(c.captureId) ?? null,
  };
}
