/**
 * A stage's own counters reach the stream receipt's `stageCounters`, bounded: the plain
 * check a capture runs agrees with the receipt's zod schema, a stage cannot bloat the
 * receipt, and receipts of stages that report nothing are unchanged.
 */
import { Readable } from "node:stream";
import {
  DEFAULT_PREVIEW_BUDGET,
  MAX_COUNTED_STAGES,
  MAX_STAGE_COUNTERS,
  namedCountersProblem,
  ReceiptSchema,
  type Stage,
  StageCountersReceiptSchema,
  stageCountersOf,
} from "@spool/core";
import { runCommandCapture, runSourceCapture } from "@spool/core/internal";
import { createMemorySpool } from "@spool/sinks";
import {
  createPreviewTap,
  createRedactor,
  createUtf8Decoder,
  previewTapBudget,
  tokenRule,
} from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Passes bytes through, counting lines and bytes under its own names. */
function lineCounter(): Stage {
  let lines = 0;
  let bytes = 0;
  return {
    name: "line-counter",
    held: 0,
    push(batch) {
      for (const chunk of batch) {
        bytes += chunk.byteLength;
        for (const b of chunk) if (b === 0x0a) lines++;
      }
      return [...batch];
    },
    end: () => [],
    get namedCounters() {
      return { lines, "bytes.seen": bytes };
    },
  };
}

function counting(name: string, counters: Record<string, number>): Stage {
  return { name, held: 0, push: (b) => [...b], end: () => [], namedCounters: counters };
}

const countersSchema = StageCountersReceiptSchema.shape.counters;

describe("namedCountersProblem agrees with the receipt's zod schema", () => {
  it("on random counter sets (names valid and not, values of every kind, up to 40 of them)", () => {
    const name = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/),
      fc.string({ maxLength: 70 }),
      fc.constant("x".repeat(65)),
    );
    const value = fc.oneof(
      fc.nat(),
      fc.integer(),
      fc.double(),
      fc.constant(Number.MAX_SAFE_INTEGER + 2),
      fc.string() as fc.Arbitrary<unknown>,
    );
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 40 }), (counters) => {
        const plain = namedCountersProblem(counters) === null;
        expect(plain).toBe(countersSchema.safeParse(counters).success);
      }),
      { numRuns: 500 },
    );
  });
});

describe("a counter named __proto__", () => {
  it("is skipped, as the receipt's schema skips it: neither checked nor kept", () => {
    // A JSON parse makes `__proto__` an own key (a literal would set the prototype).
    const counters = JSON.parse('{"__proto__": "", "rows": 3}') as Record<string, number>;
    expect(namedCountersProblem(counters)).toBeNull();
    expect(countersSchema.safeParse(counters).success).toBe(true);
    const [entry] = stageCountersOf([counting("rows", counters)]);
    expect(Object.keys(entry!.counters)).toEqual(["rows"]);
    expect(JSON.stringify(entry)).not.toContain("__proto__");
  });
});

describe("stageCountersOf", () => {
  it("lists stages that report counters, in plan order, and leaves the rest out", () => {
    expect(
      stageCountersOf([
        counting("a", { x: 1 }),
        { name: "silent", held: 0, push: (b) => [...b], end: () => [] },
        counting("empty", {}),
        counting("b", { y: 0 }),
      ]),
    ).toEqual([
      { stage: "a", counters: { x: 1 } },
      { stage: "b", counters: { y: 0 } },
    ]);
  });

  it("bounds a stage that would bloat the receipt: no counters, the bound it broke", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_STAGE_COUNTERS + 1 }, (_, i) => [`c${i}`, i]),
    );
    const entries = stageCountersOf([
      counting("many", many),
      counting("long-name", { ["k".repeat(65)]: 1 }),
      counting("float", { ratio: 0.5 }),
      counting("s".repeat(300), { ok: 1 }),
      {
        name: "throws",
        held: 0,
        push: (b) => [...b],
        end: () => [],
        get namedCounters(): Record<string, number> {
          throw new Error("boom");
        },
      },
    ]);
    expect(entries.map((e) => [e.stage.length, e.counters, e.invalid])).toEqual([
      [4, {}, `${MAX_STAGE_COUNTERS + 1} counters, at most ${MAX_STAGE_COUNTERS}`],
      [9, {}, "counter names must be 1-64 letters, digits, '.', '_', ':' or '-'"],
      [5, {}, "counter values must be non-negative safe integers"],
      [64, { ok: 1 }, undefined],
      [6, {}, "reading the counters threw"],
    ]);
    for (const entry of entries) expect(StageCountersReceiptSchema.parse(entry)).toBeTruthy();
    const stages = Array.from({ length: MAX_COUNTED_STAGES + 5 }, (_, i) =>
      counting(`s${i}`, { n: i }),
    );
    expect(stageCountersOf(stages)).toHaveLength(MAX_COUNTED_STAGES);
  });

  it("copies: a stage counting on does not change an entry already built", () => {
    const counters = { n: 1 };
    const [entry] = stageCountersOf([counting("c", counters)]);
    counters.n = 2;
    expect(entry?.counters).toEqual({ n: 1 });
  });
});

describe("stage counters through a capture", () => {
  const plan =
    (stages: () => Stage[]) =>
    (): { stages: Stage[]; tap: ReturnType<typeof createPreviewTap> } => ({
      stages: stages(),
      tap: createPreviewTap(previewTapBudget(200)),
    });

  it("a user stage's, the redactor's per rule and the decoder's reach the receipt, schema-valid", async () => {
    const memory = createMemorySpool();
    const rule = tokenRule({
      name: "acme-key",
      prefixes: ["acme_"],
      body: "A-Za-z0-9",
      minBody: 16,
    });
    const capture = runCommandCapture({
      command: "sh",
      args: [
        "-c",
        "printf 'k=acme_0123456789abcdefXY\\nagain acme_ZZZZ0123456789abcd\\n\\377\\n'; printf 'err\\n' >&2",
      ],
      root: "/r",
      preview: DEFAULT_PREVIEW_BUDGET,
      plan: plan(() => [createUtf8Decoder(), createRedactor({ rules: [rule] }), lineCounter()]),
      spool: memory.factory,
    });
    const { receipt } = await capture.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.streams.stdout.stageCounters).toEqual([
      { stage: "utf8-decoder", counters: { replacements: 1 } },
      { stage: "redactor", counters: { "acme-key": 2 } },
      {
        stage: "line-counter",
        counters: { lines: 3, "bytes.seen": receipt.streams.stdout.produced },
      },
    ]);
    expect(receipt.streams.stdout.redactions).toBe(2);
    // stderr: only the user stage counted (no replacement, no redaction).
    expect(receipt.streams.stderr.stageCounters).toEqual([
      { stage: "line-counter", counters: { lines: 1, "bytes.seen": 4 } },
    ]);
  });

  it("a bloating stage gets an invalid entry, and the receipt stays valid", async () => {
    const memory = createMemorySpool();
    const huge = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const capture = runSourceCapture({
      stdout: Readable.from([Buffer.from("x\n")]),
      declared: "complete",
      root: "/r",
      preview: DEFAULT_PREVIEW_BUDGET,
      plan: plan(() => [counting("bloat", huge)]),
      spool: memory.factory,
    });
    const { receipt } = await capture.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.streams.stdout.stageCounters).toEqual([
      { stage: "bloat", counters: {}, invalid: "10000 counters, at most 32" },
    ]);
    expect(JSON.stringify(receipt).length).toBeLessThan(4000);
  });

  it("stages that report nothing leave the receipt as it was (no stageCounters key)", async () => {
    const memory = createMemorySpool();
    const capture = runCommandCapture({
      command: "sh",
      args: ["-c", "echo plain"],
      root: "/r",
      preview: DEFAULT_PREVIEW_BUDGET,
      plan: plan(() => [createUtf8Decoder(), createRedactor()]),
      spool: memory.factory,
    });
    const { receipt } = await capture.done;
    expect("stageCounters" in receipt.streams.stdout).toBe(false);
    expect("stageCounters" in receipt.streams.stderr).toBe(false);
  });
});
