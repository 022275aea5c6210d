import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import {
  resolveWriterQueueOptions,
  WRITER_QUEUE_DEFAULTS,
  type WriterQueueOptions,
} from "../../src/writer/writer-queue-options.js";
import { WriterQueueOptionsSchema } from "../../src/writer/writer-queue-schema.js";

const outcome = (f: () => unknown) => {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    return { ok: false, zod: error instanceof ZodError, message: (error as Error).message };
  }
};

const field = fc.option(
  fc.oneof(
    fc.integer({ min: -2, max: 70_000 }),
    fc.constantFrom(0, -0, 1, 64 * 1024 - 1, 64 * 1024, 2 ** 53 - 1, 2 ** 53, 2 ** 60),
    fc.double(),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, "1024", null, true),
  ),
  { nil: undefined },
);

describe("resolveWriterQueueOptions", () => {
  it("returns exactly what the zod schema returns, and throws its ZodError otherwise", () => {
    fc.assert(
      fc.property(
        fc.record(
          { budgetBytes: field, stallMs: field, creditBytes: field, messageBytes: field },
          { requiredKeys: [] },
        ),
        (options) => {
          const input = options as unknown as WriterQueueOptions;
          expect(outcome(() => resolveWriterQueueOptions(input))).toEqual(
            outcome(() => WriterQueueOptionsSchema.parse(input)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("applies the defaults the schema documents", () => {
    expect(resolveWriterQueueOptions({})).toEqual(WRITER_QUEUE_DEFAULTS);
    expect(WriterQueueOptionsSchema.parse({})).toEqual(WRITER_QUEUE_DEFAULTS);
  });

  it("rejects a budget below 64 KiB with the schema's error", () => {
    expect(() => resolveWriterQueueOptions({ budgetBytes: 1024 })).toThrow(ZodError);
  });
});
