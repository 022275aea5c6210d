/**
 * The per-stage CPU breakdown of `spool bench throughput`: the bench's log text run in
 * this process through each part of a capture's byte path on its own (the decoder, the
 * ANSI strip, the redactor, the preview tap, the ledger, the writer queue, and the file
 * writer's write, sha256 and line index), each part fed the recorded output of the one
 * before it, interleaved round by round. A regression in the whole-tree CPU figure then
 * shows where it is. Figures are CPU seconds per GiB of input (user + system of this
 * process, minimum over the rounds: the least disturbed run).
 *
 * @example
 * ```ts
 * import { stageCpuBreakdown } from "./stage-cpu.js";
 * const rows = stageCpuBreakdown({ bytes: 16 * 1024 * 1024, rounds: 3, dir: "/tmp/x" });
 * rows.find((r) => r.stage === "redactor")?.cpuSPerGiB;
 * ```
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { type Batch, createLedger, type Stage } from "@spool/core/runtime";
import { createLineIndexer, createWriterQueue } from "@spool/sinks/runtime";
import {
  compileRedaction,
  createAnsiStrip,
  createPreviewTap,
  createRedactor,
  createUtf8Decoder,
  knownValuesFromEnv,
  previewTapBudget,
  type ScanCounters,
} from "@spool/transforms";
import {
  BENCH_SECRET_ENV,
  benchSecretEnv,
  benchSecrets,
  denseCredentialBlock,
  logBlock,
  quietLogBlock,
} from "./log-generator.js";

export interface StageCpuOptions {
  /** Bytes of log text run through the path. */
  readonly bytes: number;
  readonly rounds: number;
  /** A private scratch directory for the writer's file (removed by the caller). */
  readonly dir: string;
}

export interface StageCpuRow {
  readonly stage: string;
  /** Pieces the part received, in all (per-piece work shows here). */
  readonly pieces: number;
  readonly cpuSPerGiB: number;
  /** Redactor rows: times its start filter handed bytes to the automata, per MiB of input. */
  readonly filterStopsPerMiB?: number;
  /** Redactor rows: anchor occurrences that started (or tried) a candidate, per MiB of input. */
  readonly anchorStartsPerMiB?: number;
}

/** The pipe's read size: what the reader hands the stages at a time. */
const READ_BYTES = 64 * 1024;
/** The writer queue's message size (its default): what the file writer writes at a time. */
const MESSAGE_BYTES = 256 * 1024;

/** One part of the path: its name and a run over its recorded input. */
interface Part {
  readonly stage: string;
  readonly input: readonly Batch[];
  run(input: readonly Batch[]): void;
  /** Redactor parts: where the scan stopped on this input. */
  stops?: ScanCounters;
}

export function stageCpuBreakdown(options: StageCpuOptions): StageCpuRow[] {
  const text = repeated(logBlock, options.bytes);
  const reads: Batch[] = [];
  for (let at = 0; at < text.byteLength; at += READ_BYTES)
    reads.push([text.subarray(at, at + READ_BYTES)]);
  const redaction = compileRedaction({
    knownValues: knownValuesFromEnv([...BENCH_SECRET_ENV], benchSecretEnv()),
  });
  const makers: Array<[string, () => Stage]> = [
    ["decoder", () => createUtf8Decoder()],
    ["ansi-strip", () => createAnsiStrip()],
    ["redactor", () => createRedactor(redaction)],
    ["preview-tap", () => createPreviewTap(previewTapBudget(2000))],
  ];
  const parts: Part[] = [];
  let input: readonly Batch[] = reads;
  for (const [stage, make] of makers) {
    parts.push({ stage, input, run: (batches) => drain(make(), batches) });
    input = pushBatches(make(), input);
  }
  // The same redactor on log text where one line in a hundred carries a credential (its
  // everyday case) and on lines that each carry one (its worst everyday case).
  const redactorOn = (stage: string, input: readonly Batch[]): Part => {
    const part: Part = {
      stage,
      input,
      run: (batches) => {
        part.stops = runRedactor(createRedactor(redaction), batches);
      },
    };
    return part;
  };
  const at = parts.findIndex((p) => p.stage === "redactor");
  parts.splice(
    at,
    1,
    redactorOn("redactor", parts[at]!.input),
    redactorOn(
      "redactor, 1% credential lines",
      decodedReads(repeated(quietLogBlock, options.bytes)),
    ),
    redactorOn(
      "redactor, dense credentials",
      decodedReads(repeated(denseCredentialBlock, options.bytes)),
    ),
  );
  const messages = messagesOf(input);
  const file = path.join(options.dir, "stage-cpu.out");
  parts.push(
    { stage: "ledger", input, run: runLedger },
    { stage: "writer-queue", input, run: runQueue },
    { stage: "writer write", input: messages, run: (m) => runWrite(m, file) },
    { stage: "writer sha256", input: messages, run: runHash },
    { stage: "writer line index", input: messages, run: runIndex },
  );
  const best = new Map<string, number>();
  for (let round = 0; round < options.rounds; round++) {
    for (const part of parts) {
      const before = process.cpuUsage();
      part.run(part.input);
      const used = process.cpuUsage(before);
      const s = (used.user + used.system) / 1e6;
      best.set(part.stage, Math.min(best.get(part.stage) ?? s, s));
    }
  }
  fs.rmSync(file, { force: true });
  const gib = text.byteLength / 2 ** 30;
  const mib = text.byteLength / 2 ** 20;
  return parts.map((p) => ({
    stage: p.stage,
    pieces: p.input.reduce((n, batch) => n + batch.length, 0),
    cpuSPerGiB: best.get(p.stage)! / gib,
    ...(p.stops === undefined
      ? {}
      : {
          filterStopsPerMiB: p.stops.filterStops / mib,
          anchorStartsPerMiB: p.stops.anchorStarts / mib,
        }),
  }));
}

/** Run `redactor` over `batches`; returns where its scan stopped. */
function runRedactor(redactor: ReturnType<typeof createRedactor>, batches: readonly Batch[]) {
  drain(redactor, batches);
  return redactor.scanCounters;
}

/** `bytes` of a generator's text (its 1 MiB block, repeated). */
function repeated(
  block: (secrets: readonly string[], bytes: number) => Buffer,
  bytes: number,
): Buffer {
  const once = block(benchSecrets(), 1024 * 1024);
  const text = Buffer.allocUnsafe(bytes);
  for (let at = 0; at < bytes; at += once.byteLength) once.copy(text, at, 0, bytes - at);
  return text;
}

/** `text` in pipe reads, through the decoder and the ANSI strip (what the redactor gets). */
function decodedReads(text: Buffer): Batch[] {
  const reads: Batch[] = [];
  for (let at = 0; at < text.byteLength; at += READ_BYTES)
    reads.push([text.subarray(at, at + READ_BYTES)]);
  return pushBatches(createAnsiStrip(), pushBatches(createUtf8Decoder(), reads));
}

/**
 * Push every batch through `stage`, then end it, dropping what it hands on as a capture's
 * writer does once it wrote it: a timed part that kept a GiB of output would time the
 * collector's work on it too (the dense text's redactor row read ~1.6x its cost so).
 */
function drain(stage: Stage, batches: readonly Batch[]): void {
  for (const batch of batches) stage.push(batch);
  stage.end();
}

/** Push every batch through `stage`, then end it; returns what it handed on, batch by batch. */
function pushBatches(stage: Stage, batches: readonly Batch[]): Batch[] {
  const out: Batch[] = [];
  for (const batch of batches) {
    const pieces = stage.push(batch);
    if (pieces.length > 0) out.push(pieces);
  }
  const last = stage.end();
  if (last.length > 0) out.push(last);
  return out;
}

function runLedger(batches: readonly Batch[]): void {
  const ledger = createLedger();
  for (const batch of batches) ledger.produce(batch);
}

/** The queue with a writer that commits each message at once and hands its buffer back. */
function runQueue(batches: readonly Batch[]): void {
  let committed = 0;
  const queue = createWriterQueue({});
  queue.connect({
    send(message) {
      committed += message.byteLength;
      queue.recycle(message.buffer as ArrayBuffer);
      queue.ack(committed);
    },
  });
  for (const batch of batches) queue.offer(batch);
}

/** The writer's messages: the stream cut into whole queue messages. */
function messagesOf(batches: readonly Batch[]): Batch[] {
  const all = Buffer.concat(batches.flat());
  const out: Batch[] = [];
  for (let at = 0; at < all.byteLength; at += MESSAGE_BYTES)
    out.push([all.subarray(at, at + MESSAGE_BYTES)]);
  return out;
}

function runWrite(messages: readonly Batch[], file: string): void {
  const fd = fs.openSync(file, "w", 0o600);
  try {
    for (const m of messages) for (const chunk of m) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}

function runHash(messages: readonly Batch[]): void {
  const hash = createHash("sha256");
  for (const m of messages) for (const chunk of m) hash.update(chunk);
  hash.digest();
}

function runIndex(messages: readonly Batch[]): void {
  const indexer = createLineIndexer();
  for (const m of messages) for (const chunk of m) indexer.scan(chunk);
}
