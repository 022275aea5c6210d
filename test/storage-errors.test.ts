/**
 * Storage failures are loud: the error, the `storage-error` event and the receipt carry the
 * errno, the operation and the path (secret-looking segments redacted); a missing root is
 * refused up front or created private, as the caller chooses.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  type CaptureEvent,
  DEFAULT_PREVIEW_BUDGET,
  isSpoolError,
  redactPath,
  type SpoolError,
  startCapture,
} from "@spool/core";
import { createFileSpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
let base = "";
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "spool-storage-errors-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("a missing root", () => {
  it("is refused up front, with errno, operation and path in the error", () => {
    const root = path.join(base, "nowhere");
    let error: unknown;
    try {
      createFileSpool({ root });
    } catch (e) {
      error = e;
    }
    expect(isSpoolError(error, "SPOOL_E_STORAGE")).toBe(true);
    const e = error as SpoolError;
    expect(e.storage).toEqual({ errno: "ENOENT", operation: "lstat", path: root });
    expect(e.message).toBe(`file-spool: the root does not exist (ENOENT on lstat of ${root})`);
  });

  it("is created private (0700, parents too) when the caller asks", async () => {
    const root = path.join(base, "a", "b");
    const files = createFileSpool({ root, missingRoot: "create" });
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(root)).mode & 0o777).toBe(0o700);
    await files.destroy();
    expect(() => createFileSpool({ missingRoot: "maybe" as "create" })).toThrow(/missingRoot/);
  });

  it("fails a capture's spill loudly: event and receipt say errno, operation and a redacted path", async () => {
    const root = path.join(base, TOKEN, "root");
    const files = createFileSpool({});
    const capture = startCapture({
      command: "sh",
      args: ["-c", "seq 1 100000"],
      root,
      preview: DEFAULT_PREVIEW_BUDGET,
      plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(200)) }),
      spool: files.factory,
    });
    const events: CaptureEvent[] = [];
    capture.events.subscribe((event) => events.push(event));
    const { receipt } = await capture.done;
    await files.destroy();
    expect(receipt.capture.reasons).toContain("storage-unavailable");
    const failure = receipt.capture.storageError;
    expect(failure?.errno).toBe("ENOENT");
    expect(failure?.operation).toMatch(/^(mkdir|open|lstat|stat)$/);
    expect(failure?.path).toContain(path.join(base, "[REDACTED]", "root"));
    const event = events.find((e) => e.type === "storage-error");
    expect(event).toMatchObject({
      type: "storage-error",
      code: "SPOOL_E_STORAGE",
      storage: failure,
    });
    // What the error adds names no secret (the receipt's `root` is the root as the caller gave it).
    expect(JSON.stringify({ failure, event })).not.toContain(TOKEN);
    expect((event as { message: string }).message).toMatch(
      /cannot open the spool \(ENOENT on mkdir of .*\[REDACTED\]/,
    );
  });
});

describe("redactPath", () => {
  it("redacts token-like segments and keeps ordinary names and capture ids", () => {
    expect(redactPath(`/tmp/${TOKEN}/x`)).toBe("/tmp/[REDACTED]/x");
    expect(
      redactPath(
        "/home/me/.local/state/spool/default/tool-outputs/AbC123dEf456GhI789jKl012/stdout.live",
      ),
    ).toBe("/home/me/.local/state/spool/default/tool-outputs/AbC123dEf456GhI789jKl012/stdout.live");
    expect(redactPath("/srv/build-artifacts-2026-12-01")).toBe("/srv/build-artifacts-2026-12-01");
  });
});
