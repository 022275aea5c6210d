/**
 * A capture's lifecycle events as a read-only, multicast event stream: consumers
 * subscribe, only the capture emits (nothing like a `Subject` a consumer could `.next`).
 * No event is built while nobody listens, and nothing is loaded for it: rxjs is not a
 * dependency. The stream is Observable-shaped (`subscribe(observer)` returning
 * `{ unsubscribe }`, and `@@observable` interop), so rxjs users wrap it with
 * `new Observable((s) => capture.events.subscribe(s))` or `from(capture.events as any)`.
 *
 * @example
 * ```ts
 * import { createEventBus } from "./capture-events.js"; // internal to @spool/core
 * const bus = createEventBus();
 * bus.emit(() => ({ type: "persistence-stopped", stream: "stdout", reason: "quota" })); // nobody listens: not built
 * bus.events.subscribe((event) => console.log(event.type));
 * ```
 */
import type { StorageFailure } from "./errors.js";
import type { Receipt } from "./receipt.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";

/**
 * One lifecycle event of a capture, in order: `start`, maybe `spill` (storage opened),
 * `persistence-stopped` or `storage-error`, `exit` (the producer ended), then `final`
 * (the receipt is published; the stream completes). Each event that carries a receipt
 * carries it as of that moment.
 *
 * @category capture
 * @example
 * ```ts
 * import type { Capture, CaptureEvent } from "@spool/core";
 * declare const capture: Capture;
 * capture.events.subscribe((event: CaptureEvent) => {
 *   if (event.type === "storage-error") console.error(event.code, event.storage?.errno);
 *   if (event.type === "final") console.log(event.receipt.capture.state);
 * });
 * ```
 */
export type CaptureEvent =
  | { type: "start"; receipt: Receipt }
  | { type: "spill"; receipt: Receipt }
  | { type: "persistence-stopped"; stream: StreamName; reason: CaptureReason }
  /**
   * Storage failed: it could not be opened (the capture goes on with its preview only), a
   * stream's write or sync failed (`stream` names it; it keeps what was durable), or the
   * receipt could not be published. `storage` names errno, operation and redacted path.
   */
  | {
      type: "storage-error";
      stream?: StreamName;
      code: string;
      message: string;
      storage: StorageFailure | null;
    }
  | { type: "exit"; receipt: Receipt }
  | { type: "final"; receipt: Receipt };

/**
 * Callbacks of one subscriber to an {@link EventStream}; each optional.
 *
 * @category capture
 * @example
 * ```ts
 * import type { Capture, CaptureEvent, EventObserver } from "@spool/core";
 * declare const capture: Capture;
 * const observer: EventObserver<CaptureEvent> = { next: (e) => console.log(e.type), complete: () => console.log("done") };
 * capture.events.subscribe(observer);
 * ```
 */
export interface EventObserver<T> {
  next?(value: T): void;
  /** Never called by a capture (a failed capture still ends with a `final` receipt). */
  error?(error: unknown): void;
  complete?(): void;
}

/**
 * What `subscribe` returns: call `unsubscribe` to stop hearing events.
 *
 * @category capture
 * @example
 * ```ts
 * import type { Capture } from "@spool/core";
 * declare const capture: Capture;
 * const subscription = capture.events.subscribe((event) => console.log(event.type));
 * subscription.unsubscribe();
 * ```
 */
export interface EventSubscription {
  unsubscribe(): void;
}

/**
 * A read-only stream of events: subscribe with a function or an observer. A subscriber that
 * comes after the stream completed is told `complete` at once.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureEvent, EventStream } from "@spool/core";
 * declare const events: EventStream<CaptureEvent>;
 * const sub = events.subscribe({ next: (e) => console.log(e.type), complete: () => console.log("done") });
 * sub.unsubscribe();
 * ```
 */
export interface EventStream<T> {
  subscribe(observer?: EventObserver<T> | ((value: T) => void)): EventSubscription;
}

export interface EventBus {
  /** The read-only side handed to consumers. */
  readonly events: EventStream<CaptureEvent>;
  /** Build and send an event, only if someone listens. */
  emit(make: () => CaptureEvent): void;
  /** The last event was sent: tell every subscriber, now and later. */
  complete(): void;
}

export function createEventBus(): EventBus {
  const observers = new Set<EventObserver<CaptureEvent>>();
  let completed = false;
  const events: EventStream<CaptureEvent> & { "@@observable"(): EventStream<CaptureEvent> } = {
    subscribe(observer) {
      const o = typeof observer === "function" ? { next: observer } : { ...observer };
      if (completed) {
        deliver(() => o.complete?.());
        return { unsubscribe() {} };
      }
      observers.add(o);
      return { unsubscribe: () => observers.delete(o) };
    },
    "@@observable": () => events,
  };
  return {
    events,
    emit(make) {
      if (observers.size === 0 || completed) return;
      const event = make();
      for (const o of [...observers]) deliver(() => o.next?.(event));
    },
    complete() {
      if (completed) return;
      completed = true;
      const all = [...observers];
      observers.clear();
      for (const o of all) deliver(() => o.complete?.());
    },
  };
}

/**
 * Call a subscriber; what it throws is reported as an uncaught error on a later turn (as
 * rxjs does), never thrown into the capture that emitted.
 */
function deliver(call: () => void): void {
  try {
    call();
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}
