/**
 * The one receipt rewriter: a rewrite changes the root and where the streams are, in
 * place, and nothing else.
 */
import {
  assembleReceipt,
  type Receipt,
  receiptParts,
  rewriteReceipt,
  skeletonReceipt,
} from "@spool/core";
import { describe, expect, it } from "vitest";

const ID = "AAAAAAAAAAAAAAAAAAAAAAAA";

/** A receipt with both streams stored, built by the one builder. */
function storedReceipt(): Receipt {
  const parts = receiptParts(skeletonReceipt(ID, "/r", new Date(0).toISOString()));
  const stored = (name: string) => ({
    ...parts.streams.stdout,
    committed: 3,
    produced: 3,
    raw: { observed: 3, accepted: 3, pending: 0, discarded: 0 },
    kept: true,
    ref: `tool-outputs/${ID}/${name}.txt`,
    path: `/r/tool-outputs/${ID}/${name}.txt`,
    sha256: "0".repeat(64),
  });
  return assembleReceipt({
    ...parts,
    streams: { stdout: stored("stdout"), stderr: stored("stderr") },
  });
}

describe("rewriteReceipt (the one rewriter)", () => {
  it("changes the root and each stream's ref and path in place, and nothing else", () => {
    const receipt = storedReceipt();
    const moved = rewriteReceipt(receipt, {
      root: "/elsewhere",
      locate: (name, s) =>
        name === "stdout" && s.ref !== null ? { ref: s.ref, path: `/elsewhere/${s.ref}` } : null,
    });
    expect(moved.root).toBe("/elsewhere");
    expect(moved.streams.stdout.path).toBe(`/elsewhere/${receipt.streams.stdout.ref}`);
    expect(moved.streams.stderr).toMatchObject({ ref: null, path: null });
    const { root: _a, streams: _b, ...rest } = moved;
    const { root: _c, streams: _d, ...before } = receipt;
    expect(rest).toEqual(before);
    const unplaced = (r: Receipt) => ({
      ...r,
      root: "",
      streams: {
        stdout: { ...r.streams.stdout, ref: null, path: null },
        stderr: { ...r.streams.stderr, ref: null, path: null },
      },
    });
    // Same keys in the same order: only the values of root, ref and path differ.
    expect(JSON.stringify(unplaced(moved))).toBe(JSON.stringify(unplaced(receipt)));
    expect(receipt.root).toBe("/r"); // the original is not touched
  });
});
