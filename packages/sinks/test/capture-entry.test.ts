/**
 * The capture as a library user calls it: defaults, the spool's root, the plan check at
 * capture time, user stages before the redactor (a joining stage cannot leak, markers keep
 * their provenance), observers after it, and the AbortSignal.
 */
import { Readable } from "node:stream";
import { isSpoolError, type Stage } from "@spool/core";
import { captureSource, createFileSpool, createMemorySpool, startCapture } from "@spool/sinks";
import {
  createAnsiStrip,
  createPreviewTap,
  createRedactor,
  createStreamPlan,
  createUtf8Decoder,
  previewTapBudget,
} from "@spool/transforms";
import { describe, expect, it } from "vitest";

const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const bytes = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

/** Drops every `\r`: joins what a carriage return split. */
const dropCr = (): Stage => ({
  name: "drop-cr",
  transform: "drop-cr",
  held: 0,
  push: (batch) => batch.map((c) => Buffer.from([...c].filter((b) => b !== 0x0d))),
  end: () => [],
});
/** Prefixes every line with "> " (changes lengths). */
const quote = (): Stage => {
  let atStart = true;
  return {
    name: "quote",
    held: 0,
    push: (batch) =>
      batch.map((c) => {
        const out: number[] = [];
        for (const b of c) {
          if (atStart) out.push(0x3e, 0x20);
          out.push(b);
          atStart = b === 0x0a;
        }
        return Buffer.from(out);
      }),
    end: () => [],
  };
};

describe("captureSource and startCapture, as a library user calls them", () => {
  it("the smallest safe capture is one call with the source: redacted, previewed, in memory", async () => {
    const { receipt } = await captureSource(bytes("hello\n", `token=${TOKEN}\n`)).done;
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    expect(receipt.root).toBe("memory");
    expect(receipt.source.declared).toBe("unknown");
    expect(receipt.preview.text).toBe("hello\ntoken=[REDACTED:github-token]\n");
    expect(receipt.streams.stdout.transforms).toEqual(["ansi-strip", "redact"]);
  });

  it("refuses a hand-built plan that redacts before the ANSI strip, before reading: the colour-split token never reaches the spool", () => {
    const memory = createMemorySpool();
    const split = bytes(`token=${TOKEN.slice(0, 12)}\x1b[31m${TOKEN.slice(12)}\n`);
    const unsafe = () => ({
      stages: [createUtf8Decoder(), createRedactor(), createAnsiStrip()],
      tap: createPreviewTap(previewTapBudget(400)),
    });
    let refused: unknown;
    try {
      captureSource(split, { spool: memory, plan: unsafe });
    } catch (error) {
      refused = error;
    }
    expect(isSpoolError(refused, "SPOOL_E_PLAN")).toBe(true);
    expect((refused as Error).message).toMatch(/ansi-strip runs after the redactor/);
    expect(split.readableFlowing).toBe(null);
    expect(memory.store.list()).resolves.toEqual([]);
  });

  it("the same plan runs under unsafePlan: true (the expert opt-out), and leaks, as documented", async () => {
    const split = bytes(`${TOKEN.slice(0, 12)}\x1b[31m${TOKEN.slice(12)}\n`);
    const { receipt } = await captureSource(split, {
      unsafePlan: true,
      plan: () => ({
        stages: [createUtf8Decoder(), createRedactor(), createAnsiStrip()],
        tap: createPreviewTap(previewTapBudget(400)),
      }),
    }).done;
    expect(receipt.preview.text).toContain(TOKEN);
  });

  it("a user stage that joins bytes runs before the redactor: a token split by \\r cannot leak", async () => {
    const { receipt } = await captureSource(bytes(`${TOKEN.slice(0, 20)}\r${TOKEN.slice(20)}\n`), {
      plan: (stream, budget) =>
        createStreamPlan({ preview: { budget, stream }, stages: [dropCr()] }),
    }).done;
    expect(receipt.preview.text).toBe("[REDACTED:github-token]\n");
    expect(receipt.streams.stdout.transforms).toEqual(["ansi-strip", "drop-cr", "redact"]);
  });

  it("refuses a hand-built plan with a stage after the redactor that is not an observer", () => {
    expect(() =>
      captureSource(bytes("x\n"), {
        plan: () => ({
          stages: [createUtf8Decoder(), createAnsiStrip(), createRedactor(), dropCr()],
          tap: createPreviewTap(previewTapBudget(400)),
        }),
      }),
    ).toThrow(/stage "drop-cr" runs after the redactor/);
  });

  it("keeps the redactor's markers as its own after a stage that changes lengths: shown as markers, and a tiny capture stays inline", async () => {
    const memory = createMemorySpool();
    const { receipt } = await captureSource(bytes(`key ${TOKEN}\n`, "forged [REDACTED:x]\n"), {
      spool: memory,
      plan: (stream, budget) =>
        createStreamPlan({ preview: { budget, stream }, stages: [quote()] }),
    }).done;
    // The real marker as itself; the child's look-alike escaped (a stream with text that
    // needs escaping is stored, by design, so the preview is never the only copy).
    expect(receipt.preview.text).toBe("> key [REDACTED:github-token]\n> forged \\[REDACTED:x]\n");
    const tiny = await captureSource(bytes(`key ${TOKEN}\n`), {
      spool: memory,
      plan: (stream, budget) =>
        createStreamPlan({ preview: { budget, stream }, stages: [quote()] }),
    }).done;
    expect(tiny.receipt.preview.text).toBe("> key [REDACTED:github-token]\n");
    expect(tiny.receipt.streams.stdout.ref).toBeNull(); // inline: nothing spilled
    expect((await memory.store.list()).map((c) => c.captureId)).not.toContain(
      tiny.receipt.captureId,
    );
  });

  it("an observer after the redactor sees redacted bytes; one that changes them stops the stream with stage-error", async () => {
    const seen: string[] = [];
    const watch: Stage = {
      name: "watch",
      held: 0,
      push: (batch) => {
        for (const c of batch) seen.push(Buffer.from(c).toString());
        return [...batch];
      },
      end: () => [],
    };
    await captureSource(bytes(`t ${TOKEN}\n`), {
      plan: (stream, budget) =>
        createStreamPlan({
          preview: { budget, stream },
          observers: stream === "stdout" ? [watch] : [],
        }),
    }).done;
    expect(seen.join("")).toBe("t [REDACTED:github-token]\n");
    const { receipt } = await captureSource(bytes("abc\n"), {
      plan: (stream, budget) =>
        createStreamPlan({ preview: { budget, stream }, observers: [dropCr()] }),
    }).done;
    // drop-cr hands on new chunks (even with no \r to drop): not an observer.
    expect(receipt.capture.reasons).toEqual(["stage-error"]);
    expect(receipt.capture.stageError).toMatchObject({ stage: "drop-cr" });
  });

  it("the spool owns its root: a file spool's root is the receipt's, a different one is refused", async () => {
    const memory = createMemorySpool();
    expect(() => captureSource(bytes("x"), { spool: memory, root: "/elsewhere" })).toThrow(
      /the spool owns its root \(memory\)/,
    );
    expect(() => captureSource(bytes("x"), { spool: memory.factory })).toThrow(/owns no root/);
    const files = createFileSpool({});
    expect(() => captureSource(bytes("x"), { spool: files })).toThrow(/owns no root/);
    await files.destroy();
  });

  it("an AbortSignal cancels a command", async () => {
    const controller = new AbortController();
    const capture = startCapture({ command: "sleep", args: ["30"], signal: controller.signal });
    capture.events.subscribe((e) => e.type === "start" && controller.abort());
    const { receipt, exitStatus } = await capture.done;
    expect(receipt.process.signal).toBe("SIGTERM");
    expect(exitStatus).toBe(143);
  });
});
