/**
 * Background jobs end to end, driving the built binary: start, status, wait, read
 * (cursors, lines), tail --follow, grep, kill, run --background-after, REF refusal.
 * Waiting is always on a real state, polled with a bounded number of retries.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { afterAll, describe, expect, it } from "vitest";
import { killGroups, nodeCmd, spool, spoolAsync, tempRoot } from "./helpers.js";

const NO_QUOTA = ["--max-bytes", "1GiB", "--root-quota", "4GiB"];
const leftovers: number[] = [];
afterAll(() => killGroups(leftovers));

function start(root: string, command: string[], extra: string[] = []): Receipt {
  const r = spool(["start", "--root", root, ...NO_QUOTA, ...extra, "--", ...command]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const receipt = JSON.parse(r.stdout.toString()) as Receipt;
  if (receipt.process.pid) leftovers.push(receipt.process.pid);
  return receipt;
}

const finalFile = (root: string, receipt: Receipt, stream = "stdout") =>
  fs.readFileSync(path.join(root, receipt.streams[stream as "stdout"].ref!));

/** Line `i` of the deterministic streaming programs below (multi-byte characters included). */
function line(i: number): string {
  return `${String(i).padStart(7, "0")} é€😀 ${"abcdefghij".repeat((i % 7) + 1)}\n`;
}

describe("spool start and the job commands", () => {
  it("three named cursors, tail --follow and the final file agree on 50 MiB streamed over ~5 s", async () => {
    const root = tempRoot();
    // BEGIN, then 50 MiB in 50 steps of 1 MiB every 100 ms, then END.
    const gen = `const line = ${line.toString()};
      let i = 0; let step = 0; const MiB = 1024 * 1024;
      process.stdout.write("BEGIN\\n");
      const next = () => {
        if (step++ === 50) return process.stdout.write("END\\n");
        let out = ""; let n = 0;
        while (n < MiB) { const l = line(i++); out += l; n += Buffer.byteLength(l); }
        process.stdout.write(out, () => setTimeout(next, 100));
      };
      next();`;
    const launched = start(root, nodeCmd(gen));
    expect(launched.process.state).toBe("running");
    expect(launched.capture.state).toBe("pending");
    expect(launched.streams.stdout.ref).toBe(`tool-outputs/${launched.captureId}/stdout.live`);
    const id = launched.captureId;

    const consume = async (cursor: string, length: number) => {
      const parts: Buffer[] = [];
      let expectOffset = 0;
      for (let round = 0; round < 2000; round++) {
        const r = await spoolAsync([
          "read",
          "--root",
          root,
          id,
          "--cursor",
          cursor,
          "--json",
          "--length",
          String(length),
        ]);
        expect(r.status, r.stderr).toBe(0);
        const frame = JSON.parse(r.stdout.toString());
        expect(frame.offset).toBe(expectOffset);
        expect(frame.nextOffset).toBeLessThanOrEqual(frame.committed);
        const bytes = Buffer.from(frame.text, "utf8");
        expect(bytes.length).toBe(frame.nextOffset - frame.offset); // no replaced, split character
        parts.push(bytes);
        expectOffset = frame.nextOffset;
        if (frame.eof) return Buffer.concat(parts);
        if (bytes.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`cursor ${cursor} did not reach eof`);
    };
    const tail = spoolAsync(["tail", "--root", root, id, "-n", "1000000000", "--follow"]);
    const [a, b, c, followed] = await Promise.all([
      consume("alpha", 3 * 1024 * 1024 + 1),
      consume("beta", 5 * 1024 * 1024 + 2),
      consume("gamma", 7 * 1024 * 1024 + 3),
      tail,
    ]);
    const done = spool(["wait", "--root", root, id]);
    expect(done.status, done.stderr).toBe(0);
    const receipt = JSON.parse(done.stdout.toString()) as Receipt;
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    const file = finalFile(root, receipt);
    expect(file.length).toBeGreaterThan(50 * 1024 * 1024);
    expect(file.subarray(0, 6).toString()).toBe("BEGIN\n");
    expect(file.subarray(-4).toString()).toBe("END\n");
    for (const got of [a, b, c, followed.stdout]) expect(got.equals(file)).toBe(true);
    expect(followed.status).toBe(0);
    // Line ranges come through the sparse index: line 300001 is `line(299999)` (after BEGIN).
    const lines = spool(["read", "--root", root, id, "--lines", "300001:300002"]);
    expect(lines.stdout.toString()).toBe(line(299999) + line(300000));
    expect(fs.statSync(path.join(root, "tool-outputs", id, "stdout.idx")).size).toBeGreaterThan(0);
    // grep offsets are usable with read --offset.
    const g = spool(["grep", "--root", root, id, "^0123456 ", "--max", "1"]);
    expect(g.status).toBe(0);
    const [lineNo, offset] = g.stdout.toString().split(":");
    expect(Number(lineNo)).toBe(123458);
    const at = spool([
      "read",
      "--root",
      root,
      id,
      "--offset",
      offset!,
      "--length",
      String(Buffer.byteLength(line(123456))),
    ]);
    expect(at.stdout.toString()).toBe(line(123456));
  }, 90_000);

  it("a descendant holding the pipe ends the job after the drain window: drain-timeout, exit 0, early kept", () => {
    const root = tempRoot();
    const launched = start(root, ["sh", "-c", "(sleep 30; echo late) & echo early"]);
    const done = spool(["wait", "--root", root, launched.captureId]);
    expect(done.status, `${done.stderr}${done.stdout}`).toBe(0);
    const receipt = JSON.parse(done.stdout.toString()) as Receipt;
    expect(receipt.process).toMatchObject({ state: "exited", exitCode: 0, signal: null });
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["drain-timeout"] });
    // The supervisor finished about one drain window (1 s) after the direct child exited,
    // not when `sleep 30` let go of the pipe (timed by the receipt, not by CLI start-ups).
    const published = fs.statSync(
      path.join(root, "tool-outputs", receipt.captureId, "receipt.json"),
    );
    const finishedAfter = published.mtimeMs - Date.parse(receipt.process.endedAt!);
    expect(finishedAfter).toBeGreaterThanOrEqual(900);
    expect(finishedAfter).toBeLessThan(1000 + 2000);
    expect(spool(["read", "--root", root, launched.captureId]).stdout.toString()).toBe("early\n");
  });

  it("start then kill at once does not hang and reports the signal; killing it again says it finished", () => {
    const root = tempRoot();
    const launched = start(root, ["sleep", "30"]);
    const t0 = Date.now();
    const killed = spool(["kill", "--root", root, launched.captureId]);
    expect(killed.status).toBe(0);
    expect(killed.stdout.toString()).toMatch(/killed by SIGTERM · status 143/);
    expect(Date.now() - t0).toBeLessThan(5000);
    const done = spool(["wait", "--root", root, launched.captureId]);
    expect(done.status).toBe(143);
    const receipt = JSON.parse(done.stdout.toString()) as Receipt;
    expect(receipt.process).toMatchObject({ state: "cancelled", signal: "SIGTERM" });
    const again = spool(["kill", "--root", root, launched.captureId]);
    expect(again.status).toBe(0);
    expect(again.stdout.toString()).toMatch(/already finished/);
    // The finished job stays readable after `ls` has reconciled the root.
    const listed = spool(["ls", "--root", root, "--json"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout.toString()).toContain(launched.captureId);
    expect(spool(["status", "--root", root, launched.captureId]).status).toBe(0);
    expect(spool(["read", "--root", root, launched.captureId, "--json"]).stdout.toString()).toMatch(
      /"eof":true/,
    );
  });

  it("kill escalates to SIGKILL when the job ignores SIGTERM; --timeout ends a job with 124", () => {
    const root = tempRoot();
    const stubborn = start(root, [
      "sh",
      "-c",
      "trap '' TERM; echo ready; while :; do sleep 0.05; done",
    ]);
    const killed = spool(["kill", "--root", root, stubborn.captureId]);
    expect(killed.stdout.toString()).toMatch(/killed by SIGKILL/);
    const timed = start(root, ["sleep", "30"], ["--timeout", "0.3"]);
    const done = spool(["wait", "--root", root, timed.captureId]);
    expect(done.status).toBe(124);
    expect((JSON.parse(done.stdout.toString()) as Receipt).process.state).toBe("timeout");
  });

  it("refuses REFs outside the root, through a symlink, or unknown: one line, exit 64, nothing written", () => {
    const root = tempRoot();
    const launched = start(root, ["sh", "-c", "echo hi"]);
    spool(["wait", "--root", root, launched.captureId]);
    const outputs = path.join(root, "tool-outputs");
    const elsewhere = tempRoot();
    fs.mkdirSync(path.join(elsewhere, "x"));
    fs.symlinkSync(
      path.join(outputs, launched.captureId),
      path.join(outputs, "AAAAAAAAAAAAAAAAAAAAAAAA"),
    );
    const before = fs.readdirSync(path.join(outputs, launched.captureId)).sort();
    const cases: Array<[string[], RegExp]> = [
      [["read", "../../etc/passwd"], /outside tool-outputs/],
      [["read", path.join(elsewhere, "x")], /outside tool-outputs/],
      [["read", "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt"], /symlink/],
      [["status", "AAAAAAAAAAAAAAAAAAAAAAAA"], /symlink/],
      [["status", "no-such-capture"], /no capture/],
      [["status", "../../etc/passwd"], /outside tool-outputs/],
      [["status", "/etc/passwd"], /outside tool-outputs/],
      [["status", path.join(outputs, launched.captureId)], /outside tool-outputs/],
      [["read", `tool-outputs/${launched.captureId}/../${launched.captureId}/stdout.txt`], /\.\./],
      [["read", "tool-outputs/../tool-outputs"], /outside tool-outputs/],
      [["read", `tool-outputs/${launched.captureId}/${"x".repeat(2000)}`], /longer than/],
      [["tail", "..", "-n", "1"], /outside tool-outputs/],
      [["read", launched.captureId, "--cursor", "../x"], /--cursor/],
      [["read", launched.captureId, "--lines", "3:1"], /--lines/],
      [["grep", launched.captureId, "("], /regular expression/],
    ];
    for (const [args, message] of cases) {
      const [command, ...rest] = args;
      const r = spool([command!, "--root", root, ...rest]);
      expect(r.status, args.join(" ")).toBe(64);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    expect(fs.readdirSync(path.join(outputs, launched.captureId)).sort()).toEqual(before);
  });
});

interface Listed {
  captureId: string;
  process: string;
  capture: string;
  reasons: string[];
  job: boolean;
  completionSeen: boolean | null;
}

const ls = (root: string, ...extra: string[]): Listed[] => {
  const r = spool(["ls", "--root", root, "--json", ...extra]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout.toString()) as Listed[];
};
const ids = (listed: Listed[]) => listed.map((c) => c.captureId).sort();

/** Poll `ls` (bounded) until every one of `wanted` has ended; ls itself delivers nothing. */
function untilEnded(root: string, wanted: string[]): void {
  for (let i = 0; i < 200; i++) {
    const ended = ls(root).filter((c) => c.process !== "running" && c.capture !== "pending");
    if (wanted.every((id) => ended.some((c) => c.captureId === id))) return;
  }
  throw new Error(`jobs ${wanted.join(", ")} did not end`);
}

describe("spool ls --unseen", () => {
  it("returns each ended job's completion exactly once; reading never consumes it, wait does", async () => {
    const root = tempRoot();
    const big = 'process.stdout.write("x".repeat(20000) + "\\nlast\\n")';
    const a = start(root, nodeCmd(big));
    const b = start(root, ["sh", "-c", "echo b; exit 3"]);
    const waited = start(root, ["sh", "-c", "echo w"]);
    const slow = start(root, ["sleep", "30"]);
    expect(spool(["wait", "--root", root, waited.captureId]).status).toBe(0);
    // A foreground run that spilled has a directory but is not a job: never listed.
    expect(spool(["run", "--root", root, "--", ...nodeCmd(big)]).status).toBe(0);
    untilEnded(root, [a.captureId, b.captureId]);
    for (const id of [a.captureId, b.captureId]) {
      for (const args of [
        ["status", id],
        ["read", id],
        ["read", id, "--cursor", "me"],
        ["tail", id, "-n", "1"],
        ["tail", id, "--follow"],
        ["grep", id, "."],
      ]) {
        const [command, ...rest] = args;
        expect(spool([command!, "--root", root, ...rest]).status, args.join(" ")).toBe(0);
      }
    }
    expect(ls(root).find((c) => c.captureId === a.captureId)?.completionSeen).toBe(false);

    const first = ls(root, "--unseen");
    expect(ids(first)).toEqual([a.captureId, b.captureId].sort());
    expect(first.find((c) => c.captureId === b.captureId)).toMatchObject({
      process: "exited",
      capture: "complete",
    });
    expect(ls(root, "--unseen")).toEqual([]);

    // The running job appears once it ends, once, to one of two concurrent pollers.
    expect(spool(["kill", "--root", root, slow.captureId]).status).toBe(0);
    const polls = await Promise.all(
      [0, 1].map(() => spoolAsync(["ls", "--root", root, "--json", "--unseen"])),
    );
    const got = polls.flatMap((p) => JSON.parse(p.stdout.toString()) as Listed[]);
    expect(ids(got)).toEqual([slow.captureId]);
    expect(got[0]).toMatchObject({ process: "cancelled", job: true });
    expect(ls(root, "--unseen")).toEqual([]);
    expect(
      ls(root)
        .filter((c) => c.job)
        .every((c) => c.completionSeen === true),
    ).toBe(true);
    expect(ls(root).filter((c) => !c.job)).toHaveLength(1);
    // wait after delivery still answers (it is a reader too), and delivers nothing new.
    expect(spool(["wait", "--root", root, b.captureId]).status).toBe(3);
  });
});

describe("spool run --background-after", () => {
  // 600 lines over ~1.8 s: promotion falls before or after the spill (8 KiB preview).
  const gen = `const line = ${line.toString()}; let i = 0;
    const t = setInterval(() => { for (let k = 0; k < 10; k++) process.stdout.write(line(i++));
      if (i >= 600) { clearInterval(t); process.stderr.write("done\\n"); } }, 30);`;

  it("promotes at a random moment; the final file is byte-identical to an unpromoted run", async () => {
    const root = tempRoot();
    const plain = spool(["run", "--root", root, "--json", ...NO_QUOTA, "--", ...nodeCmd(gen)]);
    expect(plain.status).toBe(0);
    const reference = finalFile(root, JSON.parse(plain.stdout.toString()) as Receipt);
    expect(reference.length).toBeGreaterThan(8192);
    const moments = [0.05 + Math.random() * 0.2, 0.3 + Math.random() * 1.2];
    const results = await Promise.all(
      moments.map((s) =>
        spoolAsync([
          "run",
          "--root",
          root,
          ...NO_QUOTA,
          "--background-after",
          s.toFixed(3),
          "--",
          ...nodeCmd(gen),
        ]),
      ),
    );
    for (const [i, r] of results.entries()) {
      expect(r.status, `promoted at ${moments[i]} s`).toBe(0);
      const live = JSON.parse(r.stdout.toString()) as Receipt;
      expect(live.process.state).toBe("running");
      expect(live.streams.stdout.ref).toMatch(/stdout\.live$/);
      leftovers.push(live.process.pid!);
      const done = spool(["wait", "--root", root, live.captureId]);
      expect(done.status).toBe(0);
      const receipt = JSON.parse(done.stdout.toString()) as Receipt;
      expect(receipt.capture.state).toBe("complete");
      expect(finalFile(root, receipt).equals(reference), `promoted at ${moments[i]} s`).toBe(true);
    }
  });

  it("a run that ends before S is an ordinary foreground run with its exit status", () => {
    const root = tempRoot();
    const r = spool([
      "run",
      "--root",
      root,
      "--background-after",
      "30",
      "--",
      "sh",
      "-c",
      "echo hi; exit 3",
    ]);
    expect(r.status).toBe(3);
    expect(r.stdout.toString()).toMatch(/^hi\n\[spool\] exit 3 · status 3/);
  });
});
