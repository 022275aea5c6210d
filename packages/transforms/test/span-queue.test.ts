import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SpanQueue } from "../src/span-queue.js";

interface Span {
  start: number;
  end: number;
  rule: number;
}

/** The spans as the redactor kept them before the queue: plain arrays, merged by rescanning. */
function modelAdd(spans: Span[], start: number, end: number, rule: number): void {
  const all = [...spans, { start, end, rule }].sort((a, b) => a.start - b.start || a.rule - b.rule);
  const merged: Span[] = [];
  for (const s of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  spans.splice(0, spans.length, ...merged);
}

/** The queue's spans, first to last (read by draining it, then refilled as it was). */
function contents(queue: SpanQueue): Span[] {
  const spans: Span[] = [];
  while (queue.size > 0) {
    spans.push({ start: queue.firstStart, end: queue.firstEnd, rule: queue.firstRule });
    queue.removeFirst();
  }
  for (const s of spans) queue.add(s.start, s.end, s.rule);
  return spans;
}

const op = fc.oneof(
  fc
    .record({ start: fc.integer({ min: 0, max: 400 }), length: fc.integer({ min: 1, max: 12 }) })
    .chain(({ start, length }) =>
      fc.integer({ min: 0, max: 3 }).map((rule) => ({ kind: "add" as const, start, length, rule })),
    ),
  fc.constant({ kind: "removeFirst" as const }),
  fc.integer({ min: 0, max: 400 }).map((cursor) => ({ kind: "absorb" as const, cursor })),
);

describe("span queue", () => {
  it("keeps the spans sorted, disjoint and merged like a plain list, across growth and removal", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const queue = new SpanQueue();
        const model: Span[] = [];
        for (const o of ops) {
          if (o.kind === "add") {
            queue.add(o.start, o.start + o.length, o.rule);
            modelAdd(model, o.start, o.start + o.length, o.rule);
          } else if (o.kind === "removeFirst") {
            if (model.length === 0) continue;
            queue.removeFirst();
            model.shift();
          } else {
            let end = o.cursor;
            while (model.length > 0 && model[0]!.start <= end) {
              end = Math.max(end, model[0]!.end);
              model.shift();
            }
            expect(queue.absorbInto(o.cursor)).toBe(end);
          }
          expect(queue.size).toBe(model.length);
        }
        expect(contents(queue)).toEqual(model);
      }),
      { numRuns: 500 },
    );
  });

  it("holds many spans at once (storage grows) and names a merge after the earliest start", () => {
    const queue = new SpanQueue();
    for (let k = 0; k < 100; k++) queue.add(10 * k, 10 * k + 5, 2);
    expect(queue.size).toBe(100);
    queue.add(3, 997, 1); // touches every span: one span, named after the one starting at 0
    expect(contents(queue)).toEqual([{ start: 0, end: 997, rule: 2 }]);
    queue.add(0, 1, 0); // same start, lower rule: the merge takes its name
    expect(contents(queue)).toEqual([{ start: 0, end: 997, rule: 0 }]);
  });

  it("covers a range exactly when adding it would change nothing", () => {
    const span = fc.record({
      start: fc.integer({ min: 0, max: 120 }),
      length: fc.integer({ min: 1, max: 12 }),
      rule: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(span, { maxLength: 12 }), span, (spans, query) => {
        const queue = new SpanQueue();
        for (const s of spans) queue.add(s.start, s.start + s.length, s.rule);
        const before = contents(queue);
        const { start, length, rule } = query;
        const covered = queue.covers(start, start + length, rule);
        queue.add(start, start + length, rule);
        expect(covered).toBe(JSON.stringify(contents(queue)) === JSON.stringify(before));
      }),
      { numRuns: 1000 },
    );
  });
});
