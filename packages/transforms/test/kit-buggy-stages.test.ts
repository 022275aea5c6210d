/**
 * The kit against a table of buggy stages: each is caught, with its reason, and the good
 * ones pass. Seeds are fixed so a failure replays.
 */
import type { Stage } from "@spool/core";
import { checkRedactingStage, checkStageProperty } from "@spool/transforms/testing";
import { describe, expect, it } from "vitest";

const upper = (c: Uint8Array) =>
  Buffer.from(Buffer.from(c).toString("latin1").toUpperCase(), "latin1");
const model = (input: Uint8Array) => upper(input);

const good = (): Stage => ({ name: "upper", held: 0, push: (b) => b.map(upper), end: () => [] });
const reversesBatch = (): Stage => ({ ...good(), push: (b) => b.map(upper).reverse() });
const mutatesInput = (): Stage => ({
  ...good(),
  push: (b) =>
    b.map((c) => {
      const out = upper(c);
      (c as Uint8Array).fill(0x2a); // writes into what it was given
      return out;
    }),
});
const sharedInstance = (() => {
  let line = 0; // state of the one instance both streams get
  const stage: Stage = {
    name: "numbered",
    held: 0,
    push: (b) => b.map((c) => Buffer.concat([Buffer.from(`${line++}:`), c])),
    end: () => [],
  };
  return () => stage;
})();

/** Masks `PIN-` and 8 digits, but only within one chunk: a PIN split across chunks leaks. */
const pinMask = (perChunk: boolean): (() => Stage) => {
  return () => {
    let carry = "";
    return {
      name: "pin-mask",
      get held() {
        return carry.length;
      },
      push(batch) {
        if (perChunk)
          return batch.map((c) =>
            Buffer.from(
              Buffer.from(c)
                .toString("latin1")
                .replace(/PIN-\d{8}/g, "[PIN]"),
              "latin1",
            ),
          );
        let text = carry + Buffer.concat(batch).toString("latin1");
        text = text.replace(/PIN-\d{8}/g, "[PIN]");
        // Hold a tail that could still become a PIN.
        const m = /P(I(N(-\d{0,7})?)?)?$/.exec(text);
        carry = m ? m[0] : "";
        const out = text.slice(0, text.length - carry.length);
        return out.length > 0 ? [Buffer.from(out, "latin1")] : [];
      },
      end() {
        const out = carry;
        carry = "";
        return out.length > 0 ? [Buffer.from(out, "latin1")] : [];
      },
    };
  };
};

const message = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message.split("\n")[0]!;
  }
  return "passed";
};

describe("the kit against buggy stages", () => {
  it("passes the good stage", () => {
    expect(message(() => checkStageProperty({ stage: good, model, numRuns: 200, seed: 7 }))).toBe(
      "passed",
    );
  });

  it.each([
    ["reverses the chunks of a batch", reversesBatch, /is not a prefix of the expected/],
    ["writes into its input", mutatesInput, /push changed its input/],
    ["is one instance for both streams", sharedInstance, /same instance twice/],
  ])("catches a stage that %s", (_, stage, why) => {
    const m = sharedInstance === stage ? undefined : model;
    expect(
      message(() =>
        checkStageProperty({ stage, ...(m ? { model: m } : {}), numRuns: 300, seed: 7 }),
      ),
    ).toMatch(why);
  });

  it("catches a redacting stage that leaks a secret split across chunks, and passes one that holds", () => {
    const secrets = ["PIN-12345678"];
    expect(
      message(() => checkRedactingStage({ stage: pinMask(true), secrets, numRuns: 300, seed: 7 })),
    ).toMatch(/of the secret "PIN-\d{8}" survives in its output/);
    expect(
      message(() => checkRedactingStage({ stage: pinMask(false), secrets, numRuns: 300, seed: 7 })),
    ).toBe("passed");
  });
});
