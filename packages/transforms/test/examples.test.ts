import { describe, expect, it } from "vitest";
import { demo, proveInvariants } from "../examples/add-rule.js";

describe("examples/add-rule.ts", () => {
  it("redacts with a literal set, a token rule and a custom matcher", () => {
    expect(demo()).toEqual([
      "deploy [REDACTED:acme-key] ok\n",
      "login [REDACTED:staging-password]",
      "order ORD-123456-[REDACTED:order-pin] shipped",
    ]);
  });

  it("passes the testing kit's invariant checks", () => {
    expect(() => proveInvariants()).not.toThrow();
  });
});
