import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLiveView, TerminalSink } from "../src/live-view.js";
import { duration, humanBytes, runProgressText, startProgressLine } from "../src/progress-line.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spool-live-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file standing in for the terminal, and what was written to it. */
function terminalFile(name: string): { fd: number; text: () => string } {
  const path = join(dir, name);
  const fd = openSync(path, "wx", 0o600);
  return { fd, text: () => readFileSync(path, "utf8") };
}

describe("createLiveView", () => {
  it("passes each batch on unchanged, shows it made safe, and counts bytes and lines", async () => {
    const out = terminalFile("out");
    const err = terminalFile("err");
    const view = createLiveView({
      live: true,
      keepAnsi: false,
      fds: { stdout: out.fd, stderr: err.fd },
    });
    const stdout = view.stage("stdout");
    const stderr = view.stage("stderr");
    const batch = [Buffer.from("one\ntw"), Buffer.from("o\u001b[2J\n")];
    expect(stdout.push(batch)).toBe(batch);
    stderr.push([Buffer.from("warning")]);
    expect(stdout.end()).toEqual([]);
    expect(stderr.end()).toEqual([]);
    await view.settle();
    closeSync(out.fd);
    closeSync(err.fd);
    expect(out.text()).toBe("one\ntwo\\x1b[2J\n");
    expect(err.text()).toBe("warning");
    expect(view.tally).toEqual({
      stdout: { bytes: 12, lines: 2 },
      stderr: { bytes: 7, lines: 0 },
    });
    expect(view.shown).toEqual({ any: true, endsLine: false });
    expect(view.quiet()).toBe(false); // stderr's last line is open
  });

  it("only counts when not live (nothing is written)", async () => {
    const out = terminalFile("out");
    const view = createLiveView({
      live: false,
      keepAnsi: false,
      fds: { stdout: out.fd, stderr: out.fd },
    });
    view.stage("stdout").push([Buffer.from("a\nb\n")]);
    await view.settle();
    closeSync(out.fd);
    expect(out.text()).toBe("");
    expect(view.tally.stdout).toEqual({ bytes: 4, lines: 2 });
    expect(view.quiet()).toBe(true);
  });
});

describe("TerminalSink", () => {
  it("skips what would go past its budget and says how much once it has caught up", async () => {
    const out = terminalFile("out");
    const sink = new TerminalSink(out.fd, 1000);
    const chunk = (c: string) => Buffer.from(`${c.repeat(599)}\n`);
    // Written at once, before any write completes: the first fits, the next four do not.
    for (const c of "abcde") sink.write(chunk(c));
    await sink.settled();
    sink.write(chunk("f"));
    await sink.settled();
    closeSync(out.fd);
    expect(out.text()).toBe(
      `${chunk("a")}[spool] 2400 bytes not shown here: the terminal fell behind (the capture has them)\n${chunk("f")}`,
    );
  });

  it("copies what it queues (the caller may reuse its buffer)", async () => {
    const out = terminalFile("out");
    const sink = new TerminalSink(out.fd, 1 << 20);
    const buf = Buffer.from("first\n");
    sink.write(buf);
    buf.write("XXXXX\n");
    await sink.settled();
    closeSync(out.fd);
    expect(out.text()).toBe("first\n");
  });

  it("takes nothing more once its descriptor fails (a closed terminal)", async () => {
    const out = terminalFile("out");
    closeSync(out.fd);
    const sink = new TerminalSink(out.fd, 1 << 20);
    sink.write(Buffer.from("lost\n"));
    await sink.settled();
    sink.write(Buffer.from("also lost\n"));
    await sink.settled();
    expect(sink.idle).toBe(true);
  });
});

describe("the progress line", () => {
  it("reads at a glance", () => {
    expect(duration(0)).toBe("0s");
    expect(duration(59_999)).toBe("59s");
    expect(duration(125_000)).toBe("2m05s");
    expect(duration(3_720_000)).toBe("1h02m");
    expect(humanBytes(512)).toBe("512 B");
    expect(humanBytes(1536)).toBe("1.5 KiB");
    expect(humanBytes(3 * 1024 * 1024 * 1024)).toBe("3.0 GiB");
    expect(
      runProgressText(12_000, {
        stdout: { bytes: 1024 * 1024, lines: 3400 },
        stderr: { bytes: 0, lines: 0 },
      }),
    ).toBe("[spool] running 12s · stdout 1.0 MiB, 3,400 lines · stderr 0 B");
  });

  it("appears after the quiet time, is erased on activity and at the end, and waits while it may not draw", async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      let mayDraw = true;
      const written: string[] = [];
      const stream = {
        isTTY: true,
        columns: 80,
        write(text: string) {
          written.push(text);
          return true;
        },
      };
      const line = startProgressLine({
        stream: stream as never,
        text: (ms) => `[spool] running ${ms / 1000}s`,
        mayDraw: () => mayDraw,
        quietMs: 3000,
        now: () => now,
      });
      const tick = async (ms: number) => {
        now += ms;
        await vi.advanceTimersByTimeAsync(ms);
        await vi.dynamicImportSettled();
      };
      await tick(2000);
      expect(written.join("")).toBe("");
      await tick(1000);
      expect(written.join("")).toContain("[spool] running 3s");
      line.activity();
      const erased = written.length;
      expect(erased).toBeGreaterThan(1); // the erase
      await tick(2000);
      expect(written.length).toBe(erased); // quiet again only 2 s
      mayDraw = false;
      await tick(2000);
      expect(written.join("")).not.toContain("running 7s");
      mayDraw = true;
      await tick(1000);
      expect(written.at(-1)).toContain("[spool] running 8s");
      const before = written.length;
      line.stop();
      expect(written.length).toBe(before + 1); // erased
      await tick(5000);
      expect(written.length).toBe(before + 1); // never drawn again
    } finally {
      vi.useRealTimers();
    }
  });
});
