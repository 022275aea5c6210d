/**
 * The main thread's end of a capture's writer port: it numbers every request, wakes the
 * one request a reply names (`re`), and is the only place that bounds waiting on a
 * silent writer. A request unanswered after `timeoutMs` (the file spool's
 * `finishTimeoutMs`) marks the writer stuck: every request waiting then, and every later
 * one, is answered `null` at once, so the capture is never again made to wait for it.
 *
 * @example
 * ```ts
 * import { MessageChannel } from "node:worker_threads";
 * // internal to @spool/sinks (not exported)
 * import { createWriterLink } from "./writer-link.js";
 * const { port1 } = new MessageChannel();
 * const link = createWriterLink(port1, { timeoutMs: 10_000, onStream: () => {} });
 * const answer = await link.request({ op: "live", json: "{}\n" }); // LiveReplacedReply | null
 * ```
 */
import type { MessagePort } from "node:worker_threads";
import { type Clock, systemClock } from "@spool/core/runtime";
import type {
  AckReply,
  FailedReply,
  FinishedReply,
  FromWriter,
  LiveReplacedReply,
  OpenedReply,
  PublishedReply,
  StreamErrorReply,
  ToWriter,
} from "./protocol.js";

/** A request as the caller writes it: the link adds the `id`. */
export type Unsent<T> = T extends unknown ? Omit<T, "id"> : never;

/** The reply each answered request waits for (besides {@link FailedReply}). */
export interface Replies {
  open: OpenedReply;
  live: LiveReplacedReply;
  finish: FinishedReply;
  receipt: PublishedReply;
}

export interface WriterLinkOptions {
  /** How long a request waits for its reply before the writer counts as stuck. */
  readonly timeoutMs: number;
  /** Write replies (`ack`, `stream-error`), in the order the writer sent them. */
  readonly onStream: (reply: AckReply | StreamErrorReply) => void;
  readonly clock?: Clock;
}

export interface WriterLink {
  /**
   * Send a request and wait for its reply: the reply, a {@link FailedReply}, or null when
   * the writer stayed silent for `timeoutMs` (or was stuck already, or the link closed).
   */
  request<K extends keyof Replies>(
    message: Unsent<Extract<ToWriter, { op: K }>>,
  ): Promise<Replies[K] | FailedReply | null>;
  /** Send a request that is answered through `onStream` (writes) or not at all (exit, close). */
  post(
    message: Unsent<Extract<ToWriter, { op: "write" | "exit" | "close" }>>,
    transfer?: ArrayBuffer[],
  ): void;
  /** Wait for `promise` under the same rule (null past `timeoutMs`, or once stuck). */
  bounded<T>(promise: Promise<T>): Promise<T | null>;
  /** The task ended or failed: answer every waiting request with a failure. */
  gone(code: string, message: string): void;
  /** Stop sending; waiting requests are answered null. */
  close(): void;
  /** True once a request went unanswered for `timeoutMs`. */
  readonly stuck: boolean;
}

export function createWriterLink(port: MessagePort, options: WriterLinkOptions): WriterLink {
  const clock = options.clock ?? systemClock;
  const waiting = new Map<number, (reply: FromWriter | null) => void>();
  let nextId = 1;
  let stuck = false;
  let closed = false;
  let goneWith: FailedReply | null = null;

  const answerAll = (reply: (re: number) => FromWriter | null) => {
    for (const [re, resolve] of [...waiting]) resolve(reply(re));
  };
  const markStuck = () => {
    stuck = true;
    answerAll(() => null);
  };
  port.on("message", (reply: FromWriter) => {
    if (reply.op === "ack" || reply.op === "stream-error") options.onStream(reply);
    else waiting.get(reply.re)?.(reply);
  });

  const link: WriterLink = {
    get stuck() {
      return stuck;
    },
    request<K extends keyof Replies>(message: Unsent<Extract<ToWriter, { op: K }>>) {
      type Answer = Replies[K] | FailedReply | null;
      const id = nextId++;
      if (goneWith) return Promise.resolve<Answer>({ ...goneWith, re: id });
      if (stuck || closed) return Promise.resolve<Answer>(null);
      return new Promise<Answer>((resolve) => {
        const cancel = clock.setTimeout(markStuck, options.timeoutMs);
        waiting.set(id, (reply) => {
          cancel();
          waiting.delete(id);
          resolve(reply as Answer);
        });
        port.postMessage({ ...message, id });
      });
    },
    post(message, transfer = []) {
      if (closed || goneWith) return;
      port.postMessage({ ...message, id: nextId++ }, transfer);
    },
    bounded(promise) {
      if (stuck) return Promise.resolve(null);
      return waitBounded(promise, options.timeoutMs, clock, markStuck);
    },
    gone(code, message) {
      goneWith ??= { op: "failed", re: 0, stage: "worker", code, message };
      answerAll((re) => ({ ...goneWith!, re }));
    },
    close() {
      closed = true;
      answerAll(() => null);
      port.close();
    },
  };
  return link;
}

/**
 * `promise`'s value, or null once `ms` have passed (then `onTimeout` runs) or it rejects.
 * The one timeout a silent writer (or writer thread) can cost.
 */
export function waitBounded<T>(
  promise: Promise<T>,
  ms: number,
  clock: Clock = systemClock,
  onTimeout: () => void = () => {},
): Promise<T | null> {
  return new Promise<T | null>((resolve) => {
    const cancel = clock.setTimeout(() => {
      onTimeout();
      resolve(null);
    }, ms);
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      () => {
        cancel();
        resolve(null);
      },
    );
  });
}
