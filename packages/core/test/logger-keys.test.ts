import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createLogger, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
import { runCommandCapture } from "@spool/core/internal";
import { createMemorySpool } from "@spool/sinks";
import { createPreviewTap, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

describe("the log of a capture", () => {
  it("has no key twice on a line: the child's pid is childPid beside pino's pid", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "spool-log-")), "capture.log");
    const logger = createLogger({ destination: file });
    const { receipt } = await runCommandCapture({
      command: "sh",
      args: ["-c", "echo hi"],
      root: "/r",
      preview: DEFAULT_PREVIEW_BUDGET,
      plan: () => ({ stages: [], tap: createPreviewTap(previewTapBudget(64)) }),
      spool: createMemorySpool().factory,
      logger,
    }).done;
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const start = lines.find((l) => l.includes('"event":"start"'))!;
    for (const line of lines) {
      const keys = [...line.matchAll(/"([^"]+)":/g)].map((m) => m[1]);
      expect(
        keys.filter((k, i) => keys.indexOf(k) !== i),
        line,
      ).toEqual([]);
    }
    expect(JSON.parse(start)).toMatchObject({ pid: process.pid, childPid: receipt.process.pid });
  });
});
