/**
 * `spool mcp-proxy`'s relay: newline-delimited JSON-RPC between our stdin/stdout (the
 * client) and a wrapped server's stdio, routed line by line (`relay-routes.ts`), its
 * results captured (`relay-results.ts`). It fails fast, so that a client sees the failure
 * and can restart the proxy: `done` resolves once the wrapped server has gone and every
 * answer and capture is written, and the caller then exits with it.
 *
 * - The client went first (end of our stdin): 0.
 * - The server exited or was killed on its own: 70, with one line on stderr.
 * - The server never started: 127 (command not found), 126 (not executable), else 69;
 *   one line on stderr, and every request that arrives before the proxy exits (the first
 *   one, or after {@link START_FAILURE_GRACE_MS}) gets that line as its error.
 */
import { shown } from "../args.js";
import { createJsonLines } from "../json-lines.js";
import { redactString } from "./relay-redaction.js";
import { partialError } from "./relay-results.js";
import { routeFromClient, routeFromServer } from "./relay-routes.js";
import {
  fail,
  type Id,
  idOf,
  type Message,
  type Relay,
  type RelayOptions,
  SERVER_ERROR,
} from "./relay-state.js";
import { abandonStream, continueStream, startStream, streamThreshold } from "./relay-stream.js";

export type { RelayOptions } from "./relay-state.js";

/** How every line on a server that cannot start begins. */
export const START_FAILED = "spool mcp-proxy: cannot start the wrapped server:";

/** How long a proxy whose server never started waits for a request to answer with why. */
export const START_FAILURE_GRACE_MS = 1000;

export function createRelay(options: RelayOptions): { done: Promise<number> } {
  const { upstream } = options;
  const relay: Relay = {
    options,
    pending: new Map(),
    upstreamTools: new Set(),
    listing: new Set(),
    initializing: new Set(),
    fromServer: createJsonLines((line) => routeFromServer(relay, line)),
    phase: { name: "running" },
    stream: null,
    flooded: false,
    captures: Promise.resolve(),
  };
  const fromClient = createJsonLines((line) => routeFromClient(relay, line));
  upstream.stdout?.on("data", (chunk: Buffer) => fromServer(relay, chunk));
  const onData = (chunk: Buffer) => fromClient.push(chunk);
  process.stdin.on("data", onData);
  const stopReading = () => {
    process.stdin.off("data", onData);
    return fromClient.pending();
  };
  return { done: relayEnd(relay, stopReading) };
}

/**
 * Resolves with the exit status once the wrapped server has gone and answers are written.
 * `stopReading` detaches the relay from stdin and returns the unfinished line it held.
 */
function relayEnd(relay: Relay, stopReading: () => Buffer): Promise<number> {
  const { upstream } = relay.options;
  return new Promise<number>((resolve) => {
    let clientGone = false;
    let spawnError: NodeJS.ErrnoException | null = null;
    process.stdin.once("end", () => {
      clientGone = true;
      upstream.stdin?.end();
      // A server that ignores the end of its input is stopped after a grace period.
      const grace = setTimeout(() => upstream.kill("SIGTERM"), 2000);
      grace.unref();
    });
    upstream.once("error", (error) => {
      if (upstream.pid === undefined) spawnError = error;
    });
    // The stdin of a server that never started fails its writes (EPIPE): answered below.
    upstream.stdin?.on("error", () => {});
    upstream.once("close", (code, signal) => {
      if (spawnError !== null) {
        const { line, status } = startFailure(relay.options.command, spawnError);
        relay.phase = { name: "failed-to-start", failure: line };
        const answered = relay.pending.size > 0;
        answerPending(relay, (id) => fail(id, SERVER_ERROR, line));
        const held = stopReading();
        resolve(
          answered || clientGone ? exitAfter(line, status) : failBeforeStart(line, status, held),
        );
        return;
      }
      relay.phase = { name: "gone" };
      const why = goneReason(relay, code, signal);
      if (relay.stream !== null)
        abandonStream(
          relay,
          relay.stream,
          `${why} before answering ${redactString(relay.stream.call?.tool ?? "a call")}`,
        );
      const tail = relay.fromServer.pending();
      answerPending(relay, (id, call) =>
        partialError(relay, id, call, tail, `${why} before answering ${redactString(call.tool)}`),
      );
      if (!clientGone)
        process.stderr.write(`spool mcp-proxy: ${why}; exiting so that the client restarts it\n`);
      void relay.captures.then(() => resolve(clientGone ? 0 : 70));
    });
  });
}

/** `line` on stderr, and `status`. */
function exitAfter(line: string, status: number): number {
  process.stderr.write(`${line}\n`);
  return status;
}

/**
 * The wrapped server cannot start (`line` says why): `line` on stderr, and every request
 * the client sends gets it as its error until the proxy exits, with `status`, once one
 * was answered, the client closed our stdin, or {@link START_FAILURE_GRACE_MS} passed.
 * `held`: the start of a line already read.
 */
export function failBeforeStart(line: string, status: number, held?: Buffer): Promise<number> {
  process.stderr.write(`${line}\n`);
  return new Promise((resolve) => {
    const lines = createJsonLines((l) => {
      if (refuse(l, line)) done();
    });
    const onData = (chunk: Buffer) => lines.push(chunk);
    const timer = setTimeout(() => done(), START_FAILURE_GRACE_MS);
    const done = () => {
      clearTimeout(timer);
      process.stdin.off("data", onData);
      process.stdin.off("end", done);
      resolve(status);
    };
    process.stdin.on("data", onData);
    process.stdin.once("end", done);
    if (held !== undefined && held.length > 0) lines.push(held);
  });
}

/**
 * Bytes from the wrapped server: to the message being streamed, else to the line splitter;
 * an unfinished message over the stream threshold is streamed from then on, and one over
 * `--max-message-bytes` is a flood: the server is stopped, what arrived is kept.
 */
function fromServer(relay: Relay, chunk: Buffer): void {
  const { upstream, maxMessageBytes, budget } = relay.options;
  let rest = chunk;
  while (rest.length > 0) {
    if (relay.stream !== null) {
      rest = continueStream(relay, relay.stream, rest);
      continue;
    }
    const before = relay.fromServer.pendingBytes;
    relay.fromServer.push(rest);
    rest = Buffer.alloc(0);
    const threshold = streamThreshold(budget);
    // Judged once per message, as it crosses the threshold.
    if (before <= threshold && relay.fromServer.pendingBytes > threshold) {
      const head = relay.fromServer.take();
      relay.stream = startStream(relay, head);
      if (relay.stream === null) relay.fromServer.push(head); // held as before
    }
  }
  const held = relay.stream?.bytes ?? relay.fromServer.pendingBytes;
  if (held > maxMessageBytes && !relay.flooded) {
    relay.flooded = true;
    upstream.kill("SIGKILL");
  }
}

/** Every pending request answered by `answer`, then forgotten. */
function answerPending(
  relay: Relay,
  answer: (id: Id, call: Parameters<typeof partialError>[2]) => void,
): void {
  for (const [k, call] of relay.pending) {
    clearTimeout(call.timer);
    answer(idOf(k) ?? k, call);
  }
  relay.pending.clear();
}

/** Why the server is gone, for errors and the line on stderr. */
function goneReason(relay: Relay, code: number | null, signal: NodeJS.Signals | null): string {
  return relay.flooded
    ? `the wrapped server sent a message over --max-message-bytes (${relay.options.maxMessageBytes} B) and was stopped`
    : `the wrapped server exited (${signal ?? `code ${code}`})`;
}

/** The one line, and the exit status, for a server that could not be started. */
export function startFailure(
  given: string,
  error: NodeJS.ErrnoException,
): { line: string; status: number } {
  const command = shown(given);
  const head = START_FAILED;
  if (error.code === "ENOENT")
    return { line: `${head} command not found: ${command}`, status: 127 };
  if (error.code === "EACCES") return { line: `${head} not executable: ${command}`, status: 126 };
  return { line: `${head} ${command}: ${error.code ?? error.message}`, status: 69 };
}

/** A client's line while the server could not start: a request gets `failure`. True if answered. */
function refuse(line: Buffer, failure: string): boolean {
  let m: Message;
  try {
    m = JSON.parse(line.toString("utf8")) as Message;
  } catch {
    return false;
  }
  if (m === null || typeof m !== "object" || m.method === undefined || m.id == null) return false;
  fail(m.id, SERVER_ERROR, failure);
  return true;
}
