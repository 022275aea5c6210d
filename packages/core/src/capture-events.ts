/**
 * A capture's lifecycle events. The capture emits into a bus of plain listeners (nothing
 * is built while nobody listens); `capture.events` is an rxjs `Observable` over that bus,
 * made on first use: rxjs loads only when a caller asks for the events (a `spool run` of
 * a small result never does), and it is the `Observable` class of the `rxjs` that
 * `import { Observable } from "rxjs"` gives in Node, so `from(capture.events)`, `pipe` and
 * every operator work as they do on any observable. It is also an `AsyncIterable`
 * (`for await (const event of capture.events)`).
 *
 * @example
 * ```ts
 * import { createEventBus } from "./capture-events.js"; // internal to @spool/core
 * const bus = createEventBus();
 * bus.emit(() => ({ type: "persistence-stopped", stream: "stdout", reason: "quota" })); // nobody listens: not built
 * bus.events.subscribe((event) => console.log(event.type));
 * ```
 */
import { createRequire } from "node:module";
import type { Observable } from "rxjs";
import type { StorageFailure } from "./errors.js";
import type { Receipt } from "./receipt.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";

/**
 * One lifecycle event of a capture, in order: `start`, maybe `spill` (storage opened),
 * `persistence-stopped`, `storage-error` or `stage-error`, `exit` (the producer ended),
 * then `final` (the receipt is published; the stream completes). Each event that carries
 * a receipt carries it as of that moment.
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
  /**
   * A stage threw: the stream stops there (reason `stage-error`; what it had produced is
   * kept, the rest is counted as dropped), and the receipt's `capture.stageError` names it.
   */
  | { type: "stage-error"; stream: StreamName; stage: string; message: string }
  | { type: "exit"; receipt: Receipt }
  | { type: "final"; receipt: Receipt };

/**
 * `capture.events`: an rxjs `Observable` of the capture's {@link CaptureEvent}s that is
 * also an `AsyncIterable`. Hot and multicast: a subscriber hears the events from when it
 * subscribes (subscribe in the same turn as the capture starts to hear `start`); one that
 * comes after `final` is completed at once. It never errors: a failed capture still ends
 * with `final`.
 *
 * @category capture
 * @example
 * ```ts
 * import { from, lastValueFrom, toArray } from "rxjs";
 * import type { CaptureEvents } from "@spool/core";
 * declare const events: CaptureEvents;
 * const all = await lastValueFrom(from(events).pipe(toArray()));
 * for await (const event of events) console.log(event.type); // or this way
 * ```
 */
export type CaptureEvents = Observable<CaptureEvent> & AsyncIterable<CaptureEvent>;

/** A listener on the bus (internal callers skip rxjs). */
export interface EventListener {
  next(event: CaptureEvent): void;
  complete(): void;
}

export interface EventBus {
  /** The rxjs side handed to consumers, made (and rxjs loaded) on first use. */
  readonly events: CaptureEvents;
  /** Listen without rxjs; returns the undo. */
  listen(listener: EventListener): () => void;
  /** Build and send an event, only if someone listens. */
  emit(make: () => CaptureEvent): void;
  /** The last event was sent: tell every listener, now and later. */
  complete(): void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  let completed = false;
  let observable: CaptureEvents | undefined;
  const listen = (listener: EventListener) => {
    if (completed) {
      listener.complete();
      return () => {};
    }
    // A fresh wrapper per call: one listener may listen twice and undo each on its own.
    const entry: EventListener = {
      next: (e) => listener.next(e),
      complete: () => listener.complete(),
    };
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
    };
  };
  return {
    get events() {
      observable ??= observableOf(listen);
      return observable;
    },
    listen,
    emit(make) {
      if (listeners.size === 0 || completed) return;
      const event = make();
      for (const l of [...listeners]) deliver(() => l.next(event));
    },
    complete() {
      if (completed) return;
      completed = true;
      const all = [...listeners];
      listeners.clear();
      for (const l of all) deliver(() => l.complete());
    },
  };
}

/** rxjs's `Observable` class, loaded on first use (its own entry: ~15 ms, not all of rxjs). */
function observableClass(): typeof Observable {
  const load = createRequire(import.meta.url);
  return (load("rxjs/internal/Observable") as { Observable: typeof Observable }).Observable;
}

function observableOf(listen: EventBus["listen"]): CaptureEvents {
  const RxObservable = observableClass();
  const observable = new RxObservable<CaptureEvent>((subscriber) =>
    listen({ next: (e) => subscriber.next(e), complete: () => subscriber.complete() }),
  );
  return Object.defineProperty(observable, Symbol.asyncIterator, {
    value: () => iterate(listen),
  }) as CaptureEvents;
}

/** `for await`: the events from now on, queued while the loop body runs, until `final`. */
function iterate(listen: EventBus["listen"]): AsyncIterator<CaptureEvent> {
  const queue: CaptureEvent[] = [];
  let done = false;
  let wake: (() => void) | null = null;
  const stop = listen({
    next: (e) => {
      queue.push(e);
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  const finish = (): IteratorResult<CaptureEvent> => {
    stop();
    done = true;
    queue.length = 0;
    return { done: true, value: undefined };
  };
  return {
    async next() {
      while (queue.length === 0 && !done)
        await new Promise<void>((r) => {
          wake = r;
        });
      wake = null;
      const event = queue.shift();
      return event === undefined ? finish() : { done: false, value: event };
    },
    async return() {
      return finish();
    },
  };
}

/**
 * Call a listener; what it throws is reported as an uncaught error on a later turn (as
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
