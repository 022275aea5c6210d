import { isCaptureId, newCaptureId } from "@spool/core";
import { describe, expect, it } from "vitest";

describe("capture ids", () => {
  it("are 24 base64url characters, distinct, and never start like an option", () => {
    const ids = Array.from({ length: 20_000 }, () => newCaptureId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isCaptureId(id)).toBe(true);
      expect(id).toMatch(/^[A-Za-z0-9]/);
    }
  });
});
