/**
 * Option validation through the built binary: every size and duration option has a range;
 * a value outside it, an unknown option or command is one line on stderr, exit 64, and
 * nothing created on disk; what the user typed is echoed with control characters escaped.
 * Help and --version come from the command definitions.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeCmd, spool, tempRoot } from "./helpers.js";

/** A root path that does not exist yet: anything created shows up as it. */
function freshRoot(): string {
  return path.join(tempRoot(), "root");
}

function refused(args: string[], message: RegExp) {
  const r = spool(args);
  expect(r.status, r.stderr).toBe(64);
  expect(r.stderr.split("\n")).toHaveLength(2); // one line and its newline
  expect(r.stderr).toMatch(message);
  expect(r.stdout.length).toBe(0);
  return r;
}

describe("spool option ranges (built binary)", () => {
  const TOO_LONG_MS = String(2 ** 31); // one past the longest Node timer
  const TOO_LONG_S = "2147484";

  it.each([
    ["run", "--timeout", TOO_LONG_S],
    ["run", "--background-after", TOO_LONG_S],
    ["run", "--drain-ms", TOO_LONG_MS],
    ["run", "--stall-ms", TOO_LONG_MS],
    ["run", "--live-ms", TOO_LONG_MS],
    ["start", "--timeout", TOO_LONG_S],
    ["start", "--drain-ms", TOO_LONG_MS],
    ["run", "--timeout", "0"],
    ["run", "--queue-bytes", "0"],
    ["run", "--queue-bytes", "1"],
    ["run", "--queue-bytes", "257MiB"],
    ["run", "--preview-stdout", "999999999999999"],
    ["run", "--preview-stdout", "100000000"],
    ["run", "--preview-stderr", "1048577"],
    ["run", "--preview-bytes", "255"],
    ["run", "--preview-bytes", "5MiB"],
    ["run", "--max-bytes", "1025GiB"],
    ["run", "--root-quota", "1025GiB"],
  ])("%s %s %s: one line, exit 64, nothing created", (command, option, value) => {
    const root = freshRoot();
    refused(
      [command, "--root", root, option, value, "--", "true"],
      new RegExp(`^spool ${command}: ${option} (must be between|takes a)`),
    );
    expect(existsSync(root)).toBe(false);
  });

  it("wait and bench options are checked before anything is looked up or loaded", () => {
    const root = freshRoot();
    refused(
      ["wait", "--root", root, "--timeout", TOO_LONG_S, "x"],
      /^spool wait: --timeout must be between 0\.001s and 2147483\.647s$/m,
    );
    refused(["bench", "startup", "--rounds", "0"], /^spool bench: --rounds must be between 1/);
    expect(existsSync(root)).toBe(false);
  });

  it("accepts the limits themselves", () => {
    const root = freshRoot();
    const r = spool([
      "run",
      "--root",
      root,
      "--json",
      "--timeout",
      "2147483.647",
      "--drain-ms",
      String(2 ** 31 - 1),
      "--queue-bytes",
      "64KiB",
      "--preview-stdout",
      "1048576",
      "--preview-bytes",
      "4MiB",
      "--",
      ...nodeCmd('process.stdout.write("x".repeat(300000))'),
    ]);
    expect(r.status, r.stderr).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as {
      preview: { text: string; budget: { stdoutChars: number; maxBytes: number } };
    };
    expect(receipt.preview.budget).toEqual({
      stdoutChars: 1048576,
      stderrChars: 2048,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(receipt.preview.text).toBe("x".repeat(300000));
  });

  it("a root that is not a directory is a usage error, inside one or not", () => {
    refused(
      ["run", "--root", "/dev/null", "--", "true"],
      /^spool run: the root \/dev\/null is not a directory$/m,
    );
    refused(
      ["start", "--root", "/dev/null/x", "--", "true"],
      /^spool start: the root \/dev\/null\/x is not a directory$/m,
    );
  });
});

describe("spool checks what the options name before creating anything", () => {
  it.each(["run", "start"])("%s: a log that cannot be written is one line, exit 64", (command) => {
    const root = freshRoot();
    refused(
      [command, "--root", root, "--log", "/nonexistent/dir/spool.log", "--", "true"],
      new RegExp(
        `^spool ${command}: cannot write the log /nonexistent/dir/spool\\.log \\(ENOENT\\)$`,
        "m",
      ),
    );
    refused(
      [command, "--root", root, "--log", tempRoot(), "--", "true"],
      /cannot write the log .* \(EISDIR\)$/m,
    );
    expect(existsSync(root)).toBe(false);
  });
});

describe("spool echoes user input escaped", () => {
  it("unknown command and option show ESC as \\x1b, never raw", () => {
    const cmd = refused(["\u001b[2Jevil"], /^spool: unknown command "\\x1b\[2Jevil"/);
    expect(cmd.stderr).not.toContain("\u001b");
    const opt = refused(
      ["run", "--\u001b[31mred", "--", "true"],
      /^spool run: unknown option --\\x1b\[31mred$/m,
    );
    expect(opt.stderr).not.toContain("\u001b");
    const value = refused(["run", "--binary", "\u0007x", "--", "true"], /not "\\x07x"/);
    expect(value.stderr).not.toContain("\u0007");
    const ref = refused(
      ["status", "--root", tempRoot(), "a", "\u001bb"],
      /unexpected argument "\\x1bb"/,
    );
    expect(ref.stderr).not.toContain("\u001b");
  });
});

describe("spool help and --version (from the command definitions)", () => {
  it("lists every command, and each command's help lists its options", () => {
    const list = spool(["help"]);
    expect(list.status).toBe(0);
    for (const name of ["run", "start", "status", "wait", "read", "tail", "grep", "kill", "ls"])
      expect(list.stdout.toString()).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(list.stdout.toString()).not.toContain("__supervise");
    const run = spool(["help", "run"]).stdout.toString();
    for (const option of ["--redact-env NAME", "--redact-file FILE", "--no-redact", "--keep-ansi"])
      expect(run).toContain(option);
    expect(run).toContain("--queue-bytes N");
    expect(run).toContain("64KiB-256MiB");
    expect(spool(["run", "--help"]).stdout.toString()).toBe(run);
    // After `--`, --help belongs to CMD.
    const passed = spool([
      "run",
      "--root",
      tempRoot(),
      "--",
      ...nodeCmd("console.log(process.argv[1])"),
      "--",
      "--help",
    ]);
    expect(passed.stdout.toString()).toMatch(/^--help\n/);
  });

  it("prints the version in package.json", async () => {
    const { default: pkg } = await import("../packages/cli/package.json", {
      with: { type: "json" },
    });
    const r = spool(["--version"]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe(`spool ${pkg.version}\n`);
  });

  it("help for an unknown command is a usage error", () => {
    refused(["help", "frob"], /^spool help: unknown command "frob"/);
  });
});
