/**
 * A capture's lifecycle events, free until someone asks for them: the rxjs `Subject` is
 * created on first access (rxjs is loaded then, not at start-up: `spool run` loads none),
 * and no event is built while nobody listens.
 *
 * @example
 * ```ts
 * import { createEventBus } from "./capture-events.js"; // internal to @spool/core
 * const bus = createEventBus();
 * bus.emit(() => ({ type: "persistence-stopped", stream: "stdout", reason: "quota" })); // nobody listens: not built
 * bus.subject.subscribe((event) => console.log(event.type));
 * ```
 */
import { createRequire } from "node:module";
import type { Subject } from "rxjs";
import type { CaptureEvent } from "./capture-options.js";

export interface EventBus {
  /** The events; created (and rxjs loaded) on first access. Completed after the last. */
  readonly subject: Subject<CaptureEvent>;
  /** Build and send an event, only if the subject exists. */
  emit(make: () => CaptureEvent): void;
  complete(): void;
}

export function createEventBus(): EventBus {
  let subject: Subject<CaptureEvent> | null = null;
  let completed = false;
  return {
    get subject() {
      if (!subject) {
        subject = new (loadSubject())<CaptureEvent>();
        if (completed) subject.complete();
      }
      return subject;
    },
    emit: (make) => subject?.next(make()),
    complete() {
      completed = true;
      subject?.complete();
    },
  };
}

/**
 * `Subject` from rxjs's public entry, loaded on demand. A static import would load every
 * operator at start-up; `createRequire` keeps the getter synchronous.
 */
function loadSubject(): typeof Subject {
  return (createRequire(import.meta.url)("rxjs") as { Subject: typeof Subject }).Subject;
}
