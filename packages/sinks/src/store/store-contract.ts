/**
 * The contract every {@link CaptureStore} passes (the file store, the memory store,
 * yours): captures are written through the store's own write side (a real child under
 * `startCapture`, through `factory`) and read back through the store only. It checks REF
 * resolution and its refusals, final / live / crashed states, bounded reads (never past
 * what the state advertises, never splitting a UTF-8 character, whatever the lengths),
 * the line index, cursors, once-only completion, `watch` of a live capture to its end,
 * recovery, usage and removal. Framework-agnostic: it throws on the first violation.
 *
 * @example
 * ```ts
 * import { checkStoreContract } from "@spool/sinks/testing";
 * import { createMemorySpool } from "@spool/sinks";
 * declare const plan: Parameters<typeof checkStoreContract>[0]["plan"]; // decoder + preview tap
 * declare const crash: Parameters<typeof checkStoreContract>[0]["crash"];
 * const memory = createMemorySpool();
 * await checkStoreContract({ store: memory.store, factory: memory.factory, root: "/r", plan, crash });
 * ```
 */
import { isUtf8 } from "node:buffer";
import {
  type CaptureStore,
  isSpoolError,
  newCaptureId,
  producerOf,
  type SpoolErrorCode,
  type SpoolFactory,
  type StoredCapture,
  type StoredStream,
  type StreamName,
  type StreamPlan,
} from "@spool/core";
import { startCapture } from "../capture/capture-entry.js";

/**
 * What {@link checkStoreContract} takes: the store under test, its write side, a plan,
 * and how to leave a crashed capture behind.
 *
 * @category testing
 * @example
 * ```ts
 * import type { StoreContractOptions } from "@spool/sinks/testing";
 * declare const options: StoreContractOptions;
 * const { store, factory, root } = options;
 * ```
 */
export interface StoreContractOptions {
  /** The store under test. */
  readonly store: CaptureStore;
  /** Its write side: captures made through it must be readable through `store`. */
  readonly factory: SpoolFactory;
  /** The root the factory writes under. */
  readonly root: string;
  /** Fresh stages for each stream (a decoder and a preview tap, e.g. from `@spool/transforms`). */
  readonly plan: (stream: StreamName) => StreamPlan;
  /**
   * Leave a capture whose owner is gone before publishing a final receipt (a crash),
   * holding `stdout` as its committed stdout; resolves to its captureId.
   */
  readonly crash: (stdout: Buffer) => Promise<string>;
  /** Longest wait for a capture or a watch to end before the suite calls it hung. @default 30000 */
  readonly hangMs?: number;
}

/** Lines the suite's capture writes: multi-byte characters, and enough lines for the line index. */
const LINES = 2600;
const lineText = (i: number) => `${i}:aé€😀 ${"x".repeat(i % 7)}\n`;
const TEXT = Buffer.from(Array.from({ length: LINES }, (_, i) => lineText(i + 1)).join(""));
const SCRIPT = `const l=(i)=>i+":aé€😀 "+"x".repeat(i%7)+"\\n";let s="";for(let i=1;i<=${LINES};i++)s+=l(i);process.stdout.write(s);process.stderr.write("err é\\n");`;
const PREVIEW = { stdoutChars: 64, stderrChars: 64, maxBytes: 1024 };

/**
 * export async function checkStoreContract(
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * import { checkStoreContract } from "@spool/sinks/testing";
 * declare const options: import("@spool/sinks/testing").StoreContractOptions;
 * await checkStoreContract(options); // real captures through your spool, read back through your store
 * ```
 */
export async function checkStoreContract(options: StoreContractOptions): Promise<void> {
  await checkRefusals(options.store);
  const final = await captureText(options);
  await checkResolve(options.store, final);
  await checkFinalState(options.store, final, options.hangMs ?? 30_000);
  await checkReads(options.store, final);
  await checkBounds(options.store, final);
  await checkCursors(options.store, final.captureId);
  await checkCompletion(options.store, final.captureId);
  await checkLive(options);
  await checkCrash(options);
  await checkUsageAndRemove(options.store, final.captureId);
}

function violated(what: string): never {
  throw new Error(`store contract: ${what}`);
}

async function expectCode(what: string, code: SpoolErrorCode, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    if (isSpoolError(error, code)) return;
    violated(`${what}: expected ${code}, got ${(error as Error)?.message ?? error}`);
  }
  violated(`${what}: expected ${code}, but it succeeded`);
}

async function checkRefusals(store: CaptureStore) {
  const id = newCaptureId();
  const refused: Array<[string, SpoolErrorCode]> = [
    ["", "SPOOL_E_REF_INVALID"],
    ["a\0b", "SPOOL_E_REF_INVALID"],
    ["x".repeat(2000), "SPOOL_E_REF_INVALID"],
    ["/etc/passwd", "SPOOL_E_REF_OUTSIDE_ROOT"],
    ["..", "SPOOL_E_REF_OUTSIDE_ROOT"],
    [`tool-outputs/../${id}`, "SPOOL_E_REF_OUTSIDE_ROOT"],
    [`tool-outputs/${id}/../../etc`, "SPOOL_E_REF_OUTSIDE_ROOT"],
    [`tool-outputs//${id}`, "SPOOL_E_REF_OUTSIDE_ROOT"],
    [`elsewhere/${id}/stdout.txt`, "SPOOL_E_REF_OUTSIDE_ROOT"],
    ["tool-outputs/not-an-id/stdout.txt", "SPOOL_E_REF_INVALID"],
    [`tool-outputs/${id}/.hidden`, "SPOOL_E_REF_INVALID"],
    [id, "SPOOL_E_REF_NOT_FOUND"],
    [`tool-outputs/${id}/stdout.txt`, "SPOOL_E_REF_NOT_FOUND"],
  ];
  for (const [ref, code] of refused) {
    await expectCode(`resolve(${JSON.stringify(ref.slice(0, 40))})`, code, () =>
      store.resolve(ref),
    );
  }
  await expectCode("state of an unknown capture", "SPOOL_E_REF_NOT_FOUND", () => store.state(id));
}

interface Written {
  readonly captureId: string;
  readonly callId: string;
}

async function captureText(options: StoreContractOptions): Promise<Written> {
  const callId = `call-${newCaptureId().slice(0, 12)}`;
  const capture = startCapture({
    command: process.execPath,
    args: ["-e", SCRIPT],
    root: options.root,
    callId,
    preview: PREVIEW,
    plan: options.plan,
    unsafePlan: true, // the suite tests storage: the plan is the caller's to choose
    spool: options.factory,
    drainMs: 5000,
  });
  const { receipt } = await capture.done;
  if (receipt.capture.state !== "complete") violated(`the capture is ${receipt.capture.state}`);
  if (receipt.streams.stdout.ref === null) violated("the capture did not spill");
  return { captureId: capture.captureId, callId };
}

async function checkResolve(store: CaptureStore, w: Written) {
  const same = async (ref: string, stream: StreamName | null) => {
    const got = await store.resolve(ref);
    if (got.captureId !== w.captureId || got.stream !== stream)
      violated(`resolve(${ref}) gave ${JSON.stringify(got)}`);
  };
  await same(w.captureId, null);
  await same(w.callId, null);
  await same(`tool-outputs/${w.captureId}`, null);
  // A ref handed out while running keeps working after the rename.
  await same(`tool-outputs/${w.captureId}/stdout.live`, "stdout");
  await same(`tool-outputs/${w.captureId}/stderr.txt`, "stderr");
}

async function checkFinalState(store: CaptureStore, w: Written, hang: number) {
  const state = await store.state(w.captureId);
  if (state.condition !== "final") violated(`a finished capture is ${state.condition}`);
  if (state.captureId !== w.captureId || state.receipt.captureId !== w.captureId)
    violated("the state names another capture");
  if (state.receipt.streams.stdout.committed !== TEXT.length)
    violated(`committed ${state.receipt.streams.stdout.committed} of ${TEXT.length}`);
  const listed = (await store.list()).find((c) => c.captureId === w.captureId);
  if (listed?.condition !== "final") violated("list() does not report the finished capture");
  const watched = await watchAll(store, w.captureId, hang);
  if (watched.length !== 1 || watched[0]?.condition !== "final")
    violated(`watch of a final capture yielded ${watched.length} states, not the final one once`);
}

/** A deterministic sequence of read lengths, 1..13 bytes and a few large ones. */
function* lengths(): Generator<number> {
  let x = 12345;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x % 17 === 0 ? 4096 + (x % 9000) : 1 + (x % 13);
  }
}

async function checkReads(store: CaptureStore, w: Written) {
  const state = await store.state(w.captureId);
  const stream = await store.openStream(state, "stdout");
  try {
    if (stream.committed !== TEXT.length || stream.binary)
      violated("stdout opened with the wrong bound");
    const parts: Buffer[] = [];
    const sizes = lengths();
    for (let offset = 0; offset < stream.committed; ) {
      const slice = await stream.read(offset, sizes.next().value as number);
      if (slice.offset !== offset) violated(`a read at ${offset} started at ${slice.offset}`);
      if (!isUtf8(slice.bytes)) violated(`a read at ${offset} split a character`);
      if (slice.bytes.length === 0) violated(`a read at ${offset} made no progress`);
      if (slice.nextOffset !== offset + slice.bytes.length)
        violated("nextOffset is not offset + bytes");
      parts.push(slice.bytes);
      offset = slice.nextOffset;
    }
    if (!Buffer.concat(parts).equals(TEXT)) violated("reads do not reassemble the stream");
    if (!(await collect(stream.chunks(0, TEXT.length * 2))).equals(TEXT))
      violated("chunks() do not give the stream");
    if (!(await collectInto(stream, 0, 7)).equals(TEXT))
      violated("readInto() does not give the stream");
    const inside = TEXT.indexOf("é") + 1;
    if ((await stream.read(inside, 8)).offset !== inside - 1)
      violated("an offset inside a character did not move back to its start");
    await checkLines(stream);
  } finally {
    await stream.close();
  }
  const stderr = await store.openStream(state, "stderr");
  try {
    if (!(await stderr.read(0, 1024)).bytes.equals(Buffer.from("err é\n")))
      violated("stderr differs");
  } finally {
    await stderr.close();
  }
}

async function checkLines(stream: Awaited<ReturnType<CaptureStore["openStream"]>>) {
  const startOf = (line: number) => TEXT.indexOf(Buffer.from(`\n${lineText(line)}`)) + 1;
  for (const [first, last] of [
    [1, 1],
    [1023, 1026],
    [2049, 2049],
    [LINES - 1, LINES + 50],
  ] as const) {
    const got = await stream.lineRange(first, last);
    const start = first === 1 ? 0 : startOf(first);
    const end = last >= LINES ? TEXT.length : startOf(last + 1);
    if (got.start !== start || got.end !== end)
      violated(
        `lineRange(${first}, ${last}) is [${got.start}, ${got.end}), not [${start}, ${end})`,
      );
  }
  if ((await stream.tailStart(3)) !== startOf(LINES - 2)) violated("tailStart(3) is wrong");
}

/**
 * A state advertising less than is stored (what a reader sees while bytes are still
 * being committed): nothing past it is returned, and no character is split at it.
 */
async function checkBounds(store: CaptureStore, w: Written) {
  const state = await store.state(w.captureId);
  const firstE = TEXT.indexOf("é");
  for (const bound of [0, firstE + 1, TEXT.indexOf("😀", 20_000) + 2, TEXT.length - 3]) {
    const s = state.receipt.streams.stdout;
    const fewer: StoredCapture = {
      ...state,
      receipt: {
        ...state.receipt,
        streams: {
          ...state.receipt.streams,
          stdout: { ...s, committed: bound, retained: { start: 0, end: bound } },
        },
      },
    };
    const stream = await store.openStream(fewer, "stdout");
    try {
      if (stream.committed !== bound)
        violated(`opened with bound ${stream.committed}, not ${bound}`);
      const all = await stream.read(0, TEXT.length);
      if (all.nextOffset > bound)
        violated(`read past the advertised committed (${all.nextOffset} > ${bound})`);
      if (!isUtf8(all.bytes) || !TEXT.subarray(0, all.bytes.length).equals(all.bytes))
        violated(`a read bounded at ${bound} split a character or differs`);
      if (bound - all.bytes.length >= 4) violated(`a read bounded at ${bound} stopped early`);
      const span = await stream.span(bound - 1, 2);
      if (span.end > bound) violated("span() passed the advertised committed");
      const chunked = await collect(stream.chunks(0, TEXT.length));
      if (chunked.length > bound) violated("chunks() passed the advertised committed");
      if ((await collectInto(stream, 0, 4096)).length > bound)
        violated("readInto() passed the advertised committed");
      const tail = await stream.lineRange(1, LINES);
      if (tail.end > bound) violated("lineRange() passed the advertised committed");
    } finally {
      await stream.close();
    }
  }
}

async function checkCursors(store: CaptureStore, captureId: string) {
  const { cursors } = store;
  if ((await cursors.get(captureId, "stdout", "a")) !== 0) violated("a new cursor is not at 0");
  await cursors.advance(captureId, "stdout", "a", 10);
  await cursors.advance(captureId, "stdout", "b", 3);
  await cursors.advance(captureId, "stderr", "a", 1);
  const got = [
    await cursors.get(captureId, "stdout", "a"),
    await cursors.get(captureId, "stdout", "b"),
    await cursors.get(captureId, "stderr", "a"),
  ];
  if (got.join() !== "10,3,1") violated(`cursors moved each other: ${got.join()}`);
  await expectCode("a cursor named ../x", "SPOOL_E_REF_INVALID", () =>
    cursors.advance(captureId, "stdout", "../x", 1),
  );
}

async function checkCompletion(store: CaptureStore, captureId: string) {
  if (await store.completion.seen(captureId)) violated("completion seen before it was taken");
  const takes = await Promise.all(
    Array.from({ length: 8 }, () => store.completion.take(captureId)),
  );
  if (takes.filter(Boolean).length !== 1)
    violated(`${takes.filter(Boolean).length} of 8 concurrent takes delivered the completion`);
  if (!(await store.completion.seen(captureId))) violated("completion not seen after it was taken");
  if (await store.completion.take(captureId)) violated("the completion was delivered twice");
}

/** The stream from `position` on, through one reused buffer of `size` bytes. */
async function collectInto(stream: StoredStream, position: number, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  const buf = Buffer.alloc(size);
  for (let at = position, n = 1; n > 0; at += n) {
    n = await stream.readInto(at, buf);
    parts.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(parts);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const LIVE_BYTES = 5000;
const LIVE_SCRIPT = `process.stdout.write("y".repeat(${LIVE_BYTES - 1})+"\\n");setInterval(()=>{},1000);`;

/** Two watchers follow a live capture to its end; a third leaves early; a live capture is not removable. */
async function checkLive(options: StoreContractOptions) {
  const capture = startCapture({
    command: process.execPath,
    args: ["-e", LIVE_SCRIPT],
    root: options.root,
    preview: PREVIEW,
    plan: options.plan,
    unsafePlan: true, // the suite tests storage: the plan is the caller's to choose
    spool: options.factory,
    liveIntervalMs: 10,
    drainMs: 5000,
  });
  let cancelled = false;
  try {
    if (!(await capture.spill())) violated("the live capture did not spill");
    const hang = options.hangMs ?? 30_000;
    const seen = await followLive(options.store, capture.captureId, hang, async () => {
      cancelled = true;
      capture.cancel();
    });
    await withDeadline(capture.done, hang, "the live capture");
    for (const states of seen) {
      const last = states.at(-1);
      if (last?.condition !== "final") violated(`a watch ended on ${last?.condition}, not final`);
      if (states.slice(0, -1).some((s) => s.condition !== "live"))
        violated("watch went on past the end");
      const committed = states.map((s) => s.receipt.streams.stdout.committed);
      if (committed.some((c, i) => i > 0 && c < committed[i - 1]!))
        violated(`committed went backwards in a watch: ${committed.join(",")}`);
    }
  } finally {
    // Whatever failed, the child (which never exits by itself) must not outlive the suite.
    if (!cancelled) capture.cancel();
  }
}

/**
 * Two watchers follow capture `id`; once one sees all its bytes committed while live,
 * removal is refused and `end` ends the capture. A third watcher leaves after its first state.
 */
async function followLive(
  store: CaptureStore,
  id: string,
  hang: number,
  end: () => Promise<void>,
): Promise<StoredCapture[][]> {
  const leave = new AbortController();
  const early = (async () => {
    for await (const _ of store.watch(id, { signal: leave.signal })) leave.abort();
  })();
  let ended = false;
  const act = async (state: StoredCapture) => {
    const committed = state.receipt.streams.stdout.committed;
    if (!ended && state.condition === "live" && committed >= LIVE_BYTES) {
      await expectCode("remove a live capture", "SPOOL_E_STATE", () => store.remove(id));
      ended = true;
      await end();
    }
  };
  const seen = await Promise.all([watchAll(store, id, hang, act), watchAll(store, id, hang)]);
  await withDeadline(early, hang, "an aborted watch");
  if (!ended) violated("watch never showed the live capture's committed bytes");
  return seen;
}

async function checkCrash(options: StoreContractOptions) {
  const { store } = options;
  const bytes = Buffer.from("kept é\n".repeat(300));
  const id = await options.crash(bytes);
  const state = await store.state(id);
  if (state.condition !== "crashed") violated(`an abandoned capture is ${state.condition}`);
  const r = state.receipt;
  if (r.capture.state !== "partial" || !r.capture.reasons.includes("crash"))
    violated(`a crashed capture reads ${r.capture.state} (${r.capture.reasons.join()})`);
  if (producerOf(r).running) violated("a crashed capture's process is still running");
  if (r.streams.stdout.committed !== bytes.length)
    violated(
      `a crashed capture advertises ${r.streams.stdout.committed} of ${bytes.length} stored bytes`,
    );
  const stream = await store.openStream(state, "stdout");
  try {
    if (!(await collect(stream.chunks(0, bytes.length))).equals(bytes))
      violated("a crashed capture's bytes do not read back");
  } finally {
    await stream.close();
  }
  const watched = await watchAll(store, id, options.hangMs ?? 30_000);
  if (watched.length !== 1 || watched[0]?.condition !== "crashed")
    violated("watch of a crash did not end");
  const first = await store.reconcile(id);
  if (!first.recovered || first.condition !== "final")
    violated("reconcile did not recover a crash");
  const again = await store.reconcile(id);
  if (again.recovered || again.condition !== "final")
    violated("a second reconcile changed something");
  const after = await store.state(id);
  if (after.condition !== "final" || after.receipt.capture.state !== "partial")
    violated("a recovered capture is not final and partial");
  const report = await store.recover();
  if (report.recovered.includes(id) || !report.final.includes(id))
    violated("recover() recovered a capture twice");
}

async function checkUsageAndRemove(store: CaptureStore, captureId: string) {
  const usage = await store.usage(captureId);
  if (usage.streams.stdout !== TEXT.length)
    violated(`usage counts ${usage.streams.stdout} stdout bytes`);
  if (usage.bytes < usage.streams.stdout + usage.streams.stderr)
    violated("usage bytes < its streams");
  await store.remove(captureId);
  await expectCode("state of a removed capture", "SPOOL_E_REF_NOT_FOUND", () =>
    store.state(captureId),
  );
  await expectCode("resolve a removed capture", "SPOOL_E_REF_NOT_FOUND", () =>
    store.resolve(captureId),
  );
  if ((await store.list()).some((c) => c.captureId === captureId))
    violated("list() shows a removed capture");
}

/** Every state a watch yields, to its end; it must end within `ms` (a hang guard). */
async function watchAll(
  store: CaptureStore,
  captureId: string,
  ms: number,
  onState?: (state: StoredCapture) => Promise<void>,
): Promise<StoredCapture[]> {
  const seen: StoredCapture[] = [];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    for await (const state of store.watch(captureId, { signal: stop.signal })) {
      if (stop.signal.aborted) break;
      seen.push(state);
      await onState?.(state);
    }
  } finally {
    clearTimeout(timer);
  }
  if (stop.signal.aborted) violated(`a watch of ${captureId} did not end within ${ms} ms`);
  return seen;
}

/** A hang guard, not a timing assertion: the suite must end even on a store that never does. */
async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`store contract: ${what} did not end within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
