/**
 * The contract every {@link CaptureSpool} implementation passes (file spool, memory
 * spool, yours): bytes offered before and after `spill` are committed whole and in
 * order, `finish` reports exactly what was committed, a stopped stream keeps a known
 * boundary, and nothing is accepted after `finish`. Framework-agnostic: it throws on the
 * first violation, so it runs under any test runner.
 *
 * The read side has its own suite, `checkStoreContract` (`store-contract.ts`, exported
 * here too), which every `CaptureStore` passes.
 *
 * @example
 * ```ts
 * import { checkSpoolContract } from "@spool/sinks/testing";
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * await checkSpoolContract({ factory: memory.factory, root: "/unused", readBack: (id, s) => memory.bytes(id, s) });
 * ```
 */
import { randomBytes } from "node:crypto";
import {
  type CaptureSpool,
  newCaptureId,
  type SpoolFactory,
  type StreamFinal,
  type StreamName,
} from "@spool/core";

/**
 * What {@link checkSpoolContract} takes: the spool factory under test and how to read a
 * finished stream back.
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * import type { SpoolContractOptions } from "@spool/sinks/testing";
 * const memory = createMemorySpool();
 * const options: SpoolContractOptions = { factory: memory.factory, root: "/unused", readBack: (id, stream) => memory.bytes(id, stream) };
 * ```
 */
export interface SpoolContractOptions {
  /** The spool factory under test. */
  readonly factory: SpoolFactory;
  /** The root its captures are given (unused by spools that keep no files). */
  readonly root: string;
  /** The committed bytes of a finished stream, read back from wherever the spool keeps them. */
  readonly readBack: (
    captureId: string,
    stream: StreamName,
    final: StreamFinal,
  ) => Buffer | Promise<Buffer>;
}

/**
 * Run the spool contract on `options.factory`; rejects with the first violation.
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * import { checkSpoolContract } from "@spool/sinks/testing";
 * const memory = createMemorySpool();
 * await checkSpoolContract({ factory: memory.factory, root: "/unused", readBack: (id, s) => memory.bytes(id, s) });
 * ```
 */
export async function checkSpoolContract(options: SpoolContractOptions): Promise<void> {
  await checkRoundTrip(options);
  await checkStop(options);
  await checkSmallPath(options);
}

function violated(what: string): never {
  throw new Error(`spool contract: ${what}`);
}

const open = (options: SpoolContractOptions): [string, CaptureSpool] => {
  const captureId = newCaptureId();
  return [captureId, options.factory({ captureId, root: options.root, startedAt: Date.now() })];
};

async function offerAll(spool: CaptureSpool, stream: StreamName, chunks: Buffer[]) {
  for (const chunk of chunks) {
    const r = spool.streams[stream].offer([chunk]);
    if (r === "stopped") violated(`${stream} stopped unexpectedly`);
    if (r === "wait") await spool.streams[stream].ready();
  }
}

async function checkRoundTrip(options: SpoolContractOptions) {
  const [id, spool] = open(options);
  const before = [randomBytes(1000), randomBytes(3)];
  const after = Array.from({ length: 40 }, () => randomBytes(64 * 1024));
  await offerAll(spool, "stdout", before);
  await offerAll(spool, "stderr", [Buffer.from("err\n")]);
  if (spool.spilled) violated("spilled before spill() was called");
  await spool.spill();
  if (!spool.spilled) violated("not spilled after spill()");
  await offerAll(spool, "stdout", after);
  const finals = await spool.finish();
  const expected = Buffer.concat([...before, ...after]);
  if (finals.stdout.committed !== expected.length)
    violated(`committed ${finals.stdout.committed} of ${expected.length}`);
  if (finals.stdout.stopped !== null) violated(`stdout stopped: ${finals.stdout.stopped}`);
  const back = await options.readBack(id, "stdout", finals.stdout);
  if (!back.equals(expected)) violated("stdout bytes read back differ from what was offered");
  if (!(await options.readBack(id, "stderr", finals.stderr)).equals(Buffer.from("err\n")))
    violated("stderr bytes differ");
  if (finals.stdout.sha256 === null) violated("no sha256 for a stored stream");
  await spool.close();
}

async function checkStop(options: SpoolContractOptions) {
  const [id, spool] = open(options);
  await spool.spill();
  await offerAll(spool, "stdout", [Buffer.from("kept\n")]);
  await spool.streams.stdout.flushed();
  const before = spool.streams.stdout.state.committed;
  spool.streams.stdout.stop("quota");
  if (spool.streams.stdout.offer([Buffer.from("dropped")]) !== "stopped")
    violated("a stopped stream accepted bytes");
  const finals = await spool.finish();
  if (finals.stdout.stopped !== "quota")
    violated(`stop reason not reported (${finals.stdout.stopped})`);
  if (finals.stdout.committed < before) violated("committed went backwards");
  const back = await options.readBack(id, "stdout", finals.stdout);
  if (
    back.length !== finals.stdout.committed ||
    !Buffer.from("kept\n").subarray(0, back.length).equals(back)
  ) {
    violated("the stored bytes are not the committed prefix");
  }
  await spool.close();
}

async function checkSmallPath(options: SpoolContractOptions) {
  const [, spool] = open(options);
  await offerAll(spool, "stdout", [Buffer.from("small")]);
  const finals = await spool.finish();
  if (finals.stdout.ref !== null || finals.stdout.committed !== 0)
    violated("finish without spill stored something");
  await spool.close();
}

export {
  createFaultyFs,
  type FaultCode,
  type FaultSpec,
  nodeFs,
} from "./file/fs-layer.js";
export {
  checkStoreContract,
  type StoreContractOptions,
} from "./store/store-contract.js";
