/**
 * The receipt: the one JSON shape every capture reports, live or final (SPEC §3).
 * The zod schema is the source of truth; the TypeScript type is inferred from it and
 * `receipt.schema.json` at the package root is generated from it (and tested to match).
 *
 * @example
 * ```ts
 * import { ReceiptSchema } from "@spool/core";
 * const parsed = ReceiptSchema.safeParse(JSON.parse('{"version":1}'));
 * parsed.success; // false: a receipt needs every field
 * ```
 */
import { z } from "zod";
import { CAPTURE_ID_PATTERN } from "./ids.js";
import {
  CAPTURE_REASONS,
  CAPTURE_STATES,
  PROCESS_STATES,
  REPRESENTATIONS,
  SOURCE_DECLARATIONS,
  SOURCE_KINDS,
  STREAM_NAMES,
} from "./receipt-vocabulary.js";
import {
  COUNTER_NAME,
  MAX_COUNTED_STAGES,
  MAX_STAGE_COUNTERS,
  MAX_STAGE_NAME,
} from "./stage-counters.js";

const count = z.number().int().nonnegative();
const isoTime = z.iso.datetime({ offset: true });

/**
 * One stage's own counters in a stream receipt (`stageCounters`), bounded: at most 32
 * counters named like rules, non-negative integers. A stage that broke a bound has no
 * counters and says which bound in `invalid`.
 *
 * @category receipts
 * @example
 * ```ts
 * import { StageCountersReceiptSchema } from "@spool/core";
 * StageCountersReceiptSchema.safeParse({ stage: "rows", counters: { rows: 3 } }).success; // true
 * StageCountersReceiptSchema.safeParse({ stage: "rows", counters: { rows: -1 } }).success; // false
 * ```
 */
export const StageCountersReceiptSchema = z.object({
  stage: z.string().max(MAX_STAGE_NAME),
  counters: z
    .record(
      z.string().regex(COUNTER_NAME),
      z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    )
    .refine((c) => Object.keys(c).length <= MAX_STAGE_COUNTERS, {
      message: `at most ${MAX_STAGE_COUNTERS} counters`,
    }),
  invalid: z.string().max(200).optional(),
});

/**
 * The zod schema of one stream's block of the receipt: its representation, the
 * transforms applied, the raw and produced byte counts, what is retained and where it is
 * stored (`ref`, `path`, `sha256`).
 *
 * @category receipts
 * @example
 * ```ts
 * import { StreamReceiptSchema } from "@spool/core";
 * declare const json: unknown;
 * const stdout = StreamReceiptSchema.parse(json);
 * stdout.committed === stdout.produced; // every byte stored
 * ```
 */
export const StreamReceiptSchema = z.object({
  representation: z.enum(REPRESENTATIONS),
  transforms: z.array(z.string()),
  raw: z.object({ observed: count, accepted: count, pending: count, discarded: count }),
  produced: count,
  committed: count,
  retained: z.object({ start: count, end: count }).nullable(),
  replacements: count,
  redactions: count,
  omissions: count,
  /**
   * Input bytes that redaction replaced by markers (`[REDACTED:…]`, `[OMITTED:…]`), and
   * the bytes of those markers: with them every byte read is accounted for, `produced =
   * accepted - redactedBytes + markerBytes` for a stream no other stage resized. Absent in
   * receipts written before they were counted.
   */
  redactedBytes: count.optional(),
  markerBytes: count.optional(),
  /** Present only when a stage reports its own counters (`Stage.namedCounters`). */
  stageCounters: z.array(StageCountersReceiptSchema).max(MAX_COUNTED_STAGES).optional(),
  lines: count.nullable(),
  endsWithNewline: z.boolean().nullable(),
  ref: z.string().nullable(),
  path: z.string().nullable(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});

/**
 * The zod schema of the receipt's `process` block: state, exit code or signal, pid and
 * its start time, timing, and the spawn error when the child could not start.
 *
 * @category receipts
 * @example
 * ```ts
 * import { ProcessReceiptSchema } from "@spool/core";
 * declare const json: unknown;
 * const { state, exitCode } = ProcessReceiptSchema.parse(json);
 * ```
 */
export const ProcessReceiptSchema = z.object({
  state: z.enum(PROCESS_STATES),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  reason: z.string().nullable(),
  pid: z.number().int().positive().nullable(),
  /**
   * The start time of `pid` as the OS reports it (Linux: clock ticks since boot, field 22
   * of `/proc/<pid>/stat`), recorded when spool started it: `kill` signals the process
   * group `pid` only while its leader still has this start time (or has exited and its
   * group lives on), never a later process that got the same number. Absent or null where
   * unknown.
   */
  pidStart: z.string().nullable().optional(),
  startedAt: isoTime,
  endedAt: isoTime.nullable(),
  /** Present only when the child could not be started: the errno and the system call. */
  spawnError: z.object({ code: z.string(), syscall: z.string() }).optional(),
  /**
   * Present only when stdin was not the default empty one (/dev/null): "inherited", the
   * capturing process's stdin was passed; "withheld", it was a pipe or a terminal and the
   * child got an empty stdin instead (`spool run --stdin` passes it).
   */
  stdin: z.enum(["inherited", "withheld"]).optional(),
});

/**
 * The zod schema of the receipt's `source` block. A capture of a source that is not a
 * child process (`captureSource`): what it was, what it declared of its own
 * completeness, and the error it ended with, if any. A receipt has either `process` or
 * `source`, never both.
 *
 * @category receipts
 * @example
 * ```ts
 * import { SourceReceiptSchema } from "@spool/core";
 * declare const json: unknown;
 * const source = SourceReceiptSchema.parse(json);
 * if (source.error !== null) console.error(source.error);
 * ```
 */
export const SourceReceiptSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  label: z.string().nullable(),
  /** "running" until every stream of the source ended. */
  state: z.enum(["running", "ended"]),
  declared: z.enum(SOURCE_DECLARATIONS),
  /** The source's error message (its first), or null. */
  error: z.string().nullable(),
  startedAt: isoTime,
  endedAt: isoTime.nullable(),
});

/**
 * The zod schema of the receipt's `capture` block: the capture state, its reasons, and
 * what failed in storage when it could not be opened.
 *
 * @category receipts
 * @example
 * ```ts
 * import { CaptureReceiptSchema } from "@spool/core";
 * CaptureReceiptSchema.parse({ state: "partial", reasons: ["quota"] }).reasons; // ["quota"]
 * ```
 */
export const CaptureReceiptSchema = z.object({
  state: z.enum(CAPTURE_STATES),
  reasons: z.array(z.enum(CAPTURE_REASONS)),
  /**
   * Present only when storage failed: it could not be opened (`storage-unavailable`), a
   * write, sync or rename failed (`no-space`, `write-error`), the receipt could not be
   * published, or a line index could not be written (no byte lost: may be `complete`).
   * The first failure's errno, operation and path (secret-looking segments redacted).
   */
  storageError: z
    .object({ errno: z.string(), operation: z.string(), path: z.string().nullable() })
    .optional(),
  /**
   * Present only when a stage threw (reason `stage-error`): the first one's stream, the
   * stage's name, the message it threw (at most 240 characters: a stage's own text, so it
   * should not quote its input), and the representation bytes the stages held then (lost
   * with it). The raw bytes of the batch it threw on, and every later one, are `discarded`.
   */
  stageError: z
    .object({
      stream: z.enum(STREAM_NAMES),
      stage: z.string(),
      message: z.string(),
      heldBytes: count,
    })
    .optional(),
});

/**
 * The zod schema of the receipt's `preview` block: the preview text, whether something
 * was omitted, its size in bytes and the budget it was rendered within.
 *
 * @category receipts
 * @example
 * ```ts
 * import { PreviewReceiptSchema } from "@spool/core";
 * declare const json: unknown;
 * console.log(PreviewReceiptSchema.parse(json).text);
 * ```
 */
export const PreviewReceiptSchema = z.object({
  state: z.enum(["complete", "omitted"]),
  text: z.string(),
  bytes: count,
  budget: z.object({ stdoutChars: count, stderrChars: count, maxBytes: count }),
});

/**
 * The zod schema of a receipt's `provenance`. Where a capture came from when it was not
 * captured in its root: `imported` from a bundle (`spool import`), or `shared` from a
 * parent root (`spool share`). Absent on ordinary captures, so their receipts are
 * unchanged.
 *
 * @category receipts
 * @example
 * ```ts
 * import { ProvenanceSchema } from "@spool/core";
 * ProvenanceSchema.parse({ kind: "shared", from: "/srv/spool", at: "2026-12-01T10:00:00.000Z" }).kind; // "shared"
 * ```
 */
export const ProvenanceSchema = z.object({
  kind: z.enum(["imported", "shared"]),
  /** The bundle (imported) or the parent root (shared), as an absolute path. */
  from: z.string(),
  /** When the capture arrived in this root. */
  at: isoTime,
});

/**
 * The zod schema of a whole receipt, with its cross-field rules (one of `process` and
 * `source`; raw counts add up; a complete capture committed every byte). Use it to
 * validate a `receipt.json` read from disk or received from elsewhere.
 *
 * @category receipts
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { ReceiptSchema } from "@spool/core";
 * const result = ReceiptSchema.safeParse(JSON.parse(readFileSync("receipt.json", "utf8")));
 * if (!result.success) console.error(result.error.issues[0]?.message);
 * ```
 */
export const ReceiptSchema = z
  .object({
    version: z.literal(1),
    captureId: z.string().regex(CAPTURE_ID_PATTERN),
    callId: z.string().nullable(),
    label: z.string().nullable(),
    root: z.string(),
    /** Absent for a source capture (which has `source` instead). */
    process: ProcessReceiptSchema.optional(),
    /** Present only for a source capture. */
    source: SourceReceiptSchema.optional(),
    capture: CaptureReceiptSchema,
    streams: z.object({ stdout: StreamReceiptSchema, stderr: StreamReceiptSchema }),
    preview: PreviewReceiptSchema,
    provenance: ProvenanceSchema.optional(),
  })
  .superRefine((receipt, ctx) => {
    if ((receipt.process === undefined) === (receipt.source === undefined)) {
      ctx.addIssue({ code: "custom", path: ["process"], message: "needs one of process, source" });
    }
    const producing = (receipt.process?.state ?? receipt.source?.state) === "running";
    for (const name of STREAM_NAMES) {
      const s = receipt.streams[name];
      const { observed, accepted, pending, discarded } = s.raw;
      if (observed !== accepted + pending + discarded) {
        ctx.addIssue({
          code: "custom",
          path: ["streams", name, "raw"],
          message: "observed ≠ accepted + pending + discarded",
        });
      }
      if (s.committed > s.produced) {
        ctx.addIssue({
          code: "custom",
          path: ["streams", name, "committed"],
          message: "committed > produced",
        });
      }
      if (!producing && receipt.capture.state !== "pending" && pending !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["streams", name, "raw", "pending"],
          message: "a final receipt has pending bytes",
        });
      }
      if (receipt.capture.state === "complete" && s.committed !== s.produced) {
        ctx.addIssue({
          code: "custom",
          path: ["streams", name],
          message: "complete capture with uncommitted bytes",
        });
      }
    }
  });

/**
 * One stream's block of a {@link Receipt} (`receipt.streams.stdout`).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { StreamReceipt } from "@spool/core";
 * declare const stdout: StreamReceipt;
 * if (stdout.ref !== null) console.log(`read it with: spool read ${stdout.ref}`);
 * ```
 */
export type StreamReceipt = z.infer<typeof StreamReceiptSchema>;
/**
 * The `process` block of a {@link Receipt} of a process capture.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { ProcessReceipt } from "@spool/core";
 * declare const proc: ProcessReceipt;
 * if (proc.spawnError) console.error(`${proc.spawnError.syscall}: ${proc.spawnError.code}`);
 * ```
 */
export type ProcessReceipt = z.infer<typeof ProcessReceiptSchema>;
/**
 * The `source` block of a {@link Receipt} of a source capture.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { SourceReceipt } from "@spool/core";
 * declare const source: SourceReceipt;
 * console.log(source.kind, source.label, source.declared);
 * ```
 */
export type SourceReceipt = z.infer<typeof SourceReceiptSchema>;
/**
 * The `capture` block of a {@link Receipt}: the capture state and its reasons.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { CaptureReceipt } from "@spool/core";
 * declare const capture: CaptureReceipt;
 * if (capture.storageError) console.error(capture.storageError.errno, capture.storageError.path);
 * ```
 */
export type CaptureReceipt = z.infer<typeof CaptureReceiptSchema>;
/**
 * The `preview` block of a {@link Receipt}: the bounded text to show in place of the output.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { PreviewReceipt } from "@spool/core";
 * declare const preview: PreviewReceipt;
 * if (preview.state === "omitted") console.log("output was cut; read the rest by its ref");
 * ```
 */
export type PreviewReceipt = z.infer<typeof PreviewReceiptSchema>;
/**
 * The receipt: the one JSON shape every capture reports, live or final, inferred from
 * {@link ReceiptSchema}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * console.log(receipt.captureId, receipt.capture.state, receipt.streams.stdout.ref);
 * ```
 */
export type Receipt = z.infer<typeof ReceiptSchema>;
/**
 * A receipt's `provenance`: where an imported or shared capture came from.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * if (receipt.provenance?.kind === "imported") console.log(`from bundle ${receipt.provenance.from}`);
 * ```
 */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * The receipt's JSON Schema (draft 2020-12), generated from {@link ReceiptSchema}: for
 * validating receipts in another language.
 *
 * @category receipts
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs";
 * import { receiptJsonSchema } from "@spool/core";
 * writeFileSync("receipt.schema.json", JSON.stringify(receiptJsonSchema(), null, 2));
 * ```
 */
export function receiptJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ReceiptSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
}
