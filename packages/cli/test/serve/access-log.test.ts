import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { type AccessEntry, accessLine, openAccessLog } from "../../src/serve/access-log.js";

const entry: AccessEntry = {
  time: Date.UTC(2026, 0, 2, 3, 4, 5),
  method: "GET",
  target: "/api/v1/captures/x/streams/stdout/grep?pattern=hunter2&i=1&pattern=again",
  status: 200,
  bytes: 42,
  ms: 3.4,
  complete: true,
};
const dir = () => fs.mkdtempSync(path.join(tmpdir(), "spool-access-"));
const quiet = { stdout: () => {}, onError: () => {} };

describe("access log", () => {
  it("a line names the query's parameters, never their values", () => {
    const line = accessLine(entry);
    expect(line.endsWith("\n")).toBe(true);
    expect(JSON.parse(line)).toEqual({
      time: "2026-01-02T03:04:05.000Z",
      method: "GET",
      path: "/api/v1/captures/x/streams/stdout/grep",
      query: ["pattern", "i"],
      status: 200,
      bytes: 42,
      ms: 3,
      complete: true,
    });
    expect(line).not.toContain("hunter2");
    // A refused target of any bytes is one bounded JSON line.
    const odd = JSON.parse(accessLine({ ...entry, target: `/${"\u0000\n".repeat(600)}` }));
    expect(odd.path).toHaveLength(512);
  });

  it("creates a new file 0600 whatever the umask, and appends to it later", async () => {
    const file = path.join(dir(), "access.log");
    const old = process.umask(0o277);
    let log: ReturnType<typeof openAccessLog>;
    try {
      log = openAccessLog(file, quiet);
    } finally {
      process.umask(old);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    log.record(entry);
    await log.close();
    const again = openAccessLog(file, quiet);
    again.record({ ...entry, status: 404 });
    await again.close();
    const lines = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status)).toEqual([200, 404]);
  });

  it("refuses a file others may read, a link, a second hard link and a FIFO", () => {
    const d = dir();
    const open = fs.openSync(path.join(d, "open.log"), "w", 0o644);
    fs.closeSync(open);
    fs.chmodSync(path.join(d, "open.log"), 0o644);
    fs.writeFileSync(path.join(d, "private.log"), "", { mode: 0o600 });
    fs.symlinkSync(path.join(d, "private.log"), path.join(d, "link.log"));
    fs.linkSync(path.join(d, "private.log"), path.join(d, "hard.log"));
    execFileSync("mkfifo", [path.join(d, "fifo.log")]);
    fs.mkdirSync(path.join(d, "dir.log"), { mode: 0o700 });
    for (const name of ["open.log", "link.log", "hard.log", "fifo.log", "dir.log"]) {
      let message = "";
      try {
        openAccessLog(path.join(d, name), quiet);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, name).toMatch(/^serve: (--access-log must|cannot open --access-log)/);
      expect(message).not.toContain("\n");
      expect(message).not.toContain(d);
    }
    expect(fs.readFileSync(path.join(d, "private.log"), "utf8")).toBe("");
  });

  it("- writes each line to stdout", async () => {
    const out: string[] = [];
    const log = openAccessLog("-", { stdout: (t) => out.push(t), onError: () => {} });
    log.record(entry);
    await log.close();
    expect(out).toEqual([accessLine(entry)]);
  });
});
