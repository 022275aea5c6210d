/**
 * `spool run` for a person at a terminal, under a real pseudo-terminal (util-linux
 * `script`, which runs a command with a pty as its stdin, stdout and stderr): output shown
 * as it is captured, the preview with --no-live, the progress line on quiet work, and what
 * reaches the command's stdin.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SPOOL_BIN, spool, tempRoot } from "./helpers.js";

const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;
if (!HAS_SCRIPT)
  console.warn("terminal tests skipped: util-linux `script` (a pty) is not installed");

/** `s` quoted for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command line run under a pty; what the pty showed so far, and its end. */
interface PtyRun {
  readonly child: ChildProcess;
  text(): string;
  /** Resolves when the pty has shown text matching `pattern` (rejects if it ends first). */
  waitFor(pattern: RegExp): Promise<void>;
  readonly exited: Promise<number | null>;
}

function inPty(
  commandLine: string,
  cwd: string,
  env: NodeJS.ProcessEnv = { NO_COLOR: "1" },
): PtyRun {
  // stdin stays an open pipe: `script` would pass an EOF on to the pty. A pty that
  // `script` opens without a terminal of its own has no size: give it one, as a terminal has.
  const sized = `stty rows 24 cols 120; ${commandLine}`;
  const child = spawn("script", ["-qfec", sized, "/dev/null"], {
    cwd,
    env: { ...process.env, NO_COLOR: undefined, TERM: "xterm", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let shown = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    shown += chunk.toString("utf8");
    for (const w of [...waiters])
      if (w.pattern.test(shown)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    child,
    text: () => shown,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(shown)) return resolve();
        waiters.push({ pattern, resolve });
        void exited.then(() => reject(new Error(`pty ended without ${pattern}:\n${shown}`)));
      }),
    exited,
  };
}

let dir: string;
let root: string;
const running: ChildProcess[] = [];
beforeEach(() => {
  dir = tempRoot();
  root = path.join(dir, "root");
});
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const spoolLine = (args: string) => `${q(process.execPath)} ${q(SPOOL_BIN)} ${args}`;
/** A command that prints `first`, waits until the test creates GO, then prints `second`. */
const waitsForGo = `sh -c ${q("echo first; while [ ! -e GO ]; do sleep 0.05; done; echo second")}`;

describe.skipIf(!HAS_SCRIPT)("spool run at a terminal", () => {
  it("shows the first line while the command still runs, then the status line (no preview)", async () => {
    const pty = inPty(spoolLine(`run --root ${q(root)} -- ${waitsForGo}`), dir);
    running.push(pty.child);
    await pty.waitFor(/first/);
    // The command is still waiting for GO: nothing after its first line is shown yet.
    expect(pty.text()).not.toMatch(/second|\[spool\]/);
    writeFileSync(path.join(dir, "GO"), "");
    expect(await pty.exited).toBe(0);
    const lines = pty.text().split(/\r?\n/).filter(Boolean);
    expect(lines.slice(0, 2)).toEqual(["first", "second"]);
    expect(lines[2]).toMatch(
      /^\[spool\] exit 0 · status 0 · capture complete · stdout 13 B\/2 lines/,
    );
    expect(lines).toHaveLength(3);
  });

  it("shows everything live where the preview would omit, and --no-live restores the preview", async () => {
    const seq = `run --root ${q(root)} -- seq 1 20000`;
    const live = inPty(spoolLine(seq), dir);
    running.push(live.child);
    expect(await live.exited).toBe(0);
    const liveLines = live.text().split(/\r?\n/);
    expect(liveLines.filter((l) => /^\d+$/.test(l))).toHaveLength(20000);
    expect(live.text()).not.toContain("omitted");

    const preview = inPty(spoolLine(`run --no-live --root ${q(root)} -- seq 1 20000`), dir);
    running.push(preview.child);
    expect(await preview.exited).toBe(0);
    expect(preview.text()).toMatch(/bytes of stdout omitted/);
    expect(
      preview
        .text()
        .split(/\r?\n/)
        .filter((l) => /^\d+$/.test(l)).length,
    ).toBeLessThan(20000);
    expect(preview.text()).toMatch(/\[spool\] exit 0 · status 0/);
  });

  it("draws a progress line while the command is quiet", async () => {
    const quiet = `sh -c ${q("while [ ! -e GO ]; do sleep 0.1; done")}`;
    const pty = inPty(spoolLine(`run --root ${q(root)} -- ${quiet}`), dir);
    running.push(pty.child);
    await pty.waitFor(/\[spool\] running \d+s · stdout 0 B · stderr 0 B/);
    writeFileSync(path.join(dir, "GO"), "");
    expect(await pty.exited).toBe(0);
    expect(pty.text()).toMatch(/\[spool\] exit 0 · status 0/);
  });

  it("draws no progress line when stdout is a file", async () => {
    const out = path.join(dir, "out.txt");
    const pty = inPty(`${spoolLine(`run --root ${q(root)} -- sleep 4.5`)} > ${q(out)}`, dir);
    running.push(pty.child);
    expect(await pty.exited).toBe(0);
    expect(pty.text()).not.toContain("running");
    expect(readFileSync(out, "utf8")).toMatch(/^\[spool\] exit 0 · status 0/);
  });

  it("lists captures as an aligned table with relative times, failures in red, plain with NO_COLOR", async () => {
    for (const code of [0, 3]) {
      const r = spool(["run", "--root", root, "--", "sh", "-c", `seq 1 20000; exit ${code}`]);
      expect(r.status).toBe(code);
    }
    const coloured = inPty(spoolLine(`ls --root ${q(root)}`), dir, {});
    running.push(coloured.child);
    expect(await coloured.exited).toBe(0);
    // ESC written as <ESC>, so the patterns hold no control character.
    const rows = coloured.text().replaceAll("\u001b", "<ESC>").split(/\r?\n/).filter(Boolean);
    expect(rows[0]).toMatch(/^ID +STARTED +PROCESS +CAPTURE +SIZE$/);
    // Relative times (`just now` under 5 s; a loaded machine may take longer to get here:
    // `ago` itself is tested at its boundaries in packages/cli/test/ls-table.test.ts).
    const ago = String.raw`(?:just now|\d+s ago|\d+m ago)`;
    expect(rows[1]).toMatch(
      new RegExp(` ${ago} +<ESC>\\[32mexited 0<ESC>\\[0m +complete +106\\.3 KiB +sh -c`),
    );
    expect(rows[2]).toMatch(
      new RegExp(` ${ago} +<ESC>\\[31mexited 3<ESC>\\[0m +complete +106\\.3 KiB +sh -c`),
    );
    // Columns line up: every row has its PROCESS cell where the header has it.
    const at = rows[0]!.indexOf("PROCESS");
    for (const row of rows.slice(1)) expect(row.indexOf("<ESC>[")).toBe(at);

    const plain = inPty(spoolLine(`ls --root ${q(root)}`), dir);
    running.push(plain.child);
    expect(await plain.exited).toBe(0);
    expect(plain.text()).not.toContain("\u001b[");
    expect(plain.text()).toMatch(/exited 3 +complete/);
    // Not a terminal: the plain lines, as before.
    const piped = spool(["ls", "--root", root]).stdout.toString();
    expect(piped).not.toContain("STARTED");
    expect(piped).toMatch(/ exited 3 {2}complete {2}108894 B/);
  });
});

/** `spool run --json -- CMD` with `stdin` as spool's stdin; the receipt. */
function runWithStdin(
  stdin: "pipe" | number,
  input: string | null,
  extra: string[],
  command: string[],
): Receipt {
  const r = spawnSync(
    process.execPath,
    [SPOOL_BIN, "run", "--root", root, "--json", ...extra, "--", ...command],
    { stdio: [stdin, "pipe", "pipe"], ...(input === null ? {} : { input }) },
  );
  expect(r.status, r.stderr.toString()).toBe(0);
  return JSON.parse(r.stdout.toString()) as Receipt;
}

describe("what reaches the command's stdin", () => {
  it("passes a regular file: `spool run -- cat < file` reproduces it", () => {
    const file = path.join(dir, "data.txt");
    const data = Array.from({ length: 20000 }, (_, i) => `line ${i} ${"x".repeat(i % 50)}`).join(
      "\n",
    );
    writeFileSync(file, data);
    const fd = openSync(file, "r");
    let receipt: Receipt;
    try {
      receipt = runWithStdin(fd, null, [], ["cat"]);
    } finally {
      closeSync(fd);
    }
    expect(receipt.process?.stdin).toBe("inherited");
    expect(receipt.streams.stdout.committed).toBe(Buffer.byteLength(data));
    const stored = spool(["read", "--root", root, receipt.streams.stdout.ref!]);
    expect(stored.stdout.toString()).toBe(data);
  });

  it("withholds a pipe unless --stdin is given, and the receipt says which", () => {
    const withheld = runWithStdin("pipe", "piped data\n", [], ["cat"]);
    expect(withheld.process?.stdin).toBe("withheld");
    expect(withheld.streams.stdout.produced).toBe(0);
    const passed = runWithStdin("pipe", "piped data\n", ["--stdin"], ["cat"]);
    expect(passed.process?.stdin).toBe("inherited");
    expect(passed.preview.text).toBe("piped data\n");
  });

  it("gives /dev/null as it always did, and says nothing of it", () => {
    const receipt = runWithStdin("ignore", null, [], ["cat"]);
    expect(receipt.process?.stdin).toBeUndefined();
    expect(receipt.streams.stdout.produced).toBe(0);
    expect(existsSync(root)).toBe(true);
  });
});
