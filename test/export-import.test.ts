/**
 * `spool export` / `import` / `share` / `rm` / `du` through the built binary: a mixed
 * root (complete, partial by quota, crashed, running, binary, replaced binary) survives
 * export and import byte for byte through read, grep and tail, with every receipt's
 * states; hostile bundles are refused with nothing written; `rm` frees the allowance and
 * never deletes a running job's files.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import type { Receipt } from "@spool/core";
import { Header } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killGroups, nodeCmd, runJson, spool, spoolAsync, tempRoot } from "./helpers.js";

const pgids: number[] = [];
afterAll(() => killGroups(pgids));

interface Listed {
  captureId: string;
  condition: string;
  process: string;
  capture: string;
  reasons: string[];
  provenance: { kind: string; from: string; at: string } | null;
}

const ls = (root: string): Listed[] =>
  JSON.parse(spool(["ls", "--root", root, "--json"]).stdout.toString());
const receiptOf = (root: string, id: string): Receipt =>
  JSON.parse(spool(["status", "--root", root, id]).stdout.toString());

/** Start a background job; returns its captureId (and remembers its group for cleanup). */
function startJob(root: string, script: string): { id: string; supervisor: number; pgid: number } {
  const r = spool(["start", "--root", root, "--json", "--", ...nodeCmd(script)]);
  expect(r.status).toBe(0);
  const receipt = JSON.parse(r.stdout.toString()) as Receipt;
  const job = JSON.parse(
    fs.readFileSync(path.join(root, "tool-outputs", receipt.captureId, "job.json"), "utf8"),
  ) as { supervisorPid: number; pgid: number };
  pgids.push(job.pgid);
  return { id: receipt.captureId, supervisor: job.supervisorPid, pgid: job.pgid };
}

/** Every path under `dir` with its kind and size, to compare a root before and after. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const st = fs.lstatSync(path.join(d, name));
      out.push(`${rel}${name} ${st.isDirectory() ? "dir" : st.size}`);
      if (st.isDirectory()) walk(path.join(d, name), `${rel}${name}/`);
    }
  };
  if (fs.existsSync(dir)) walk(dir, "");
  return out;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe("round trip of a mixed root", () => {
  const source = tempRoot();
  const target = tempRoot();
  const bundle = path.join(tempRoot(), "all.tar");
  const ids: Record<string, string> = {};
  let running: { id: string; pgid: number };

  beforeAll(async () => {
    // complete, with more than 1024 lines so the line index has entries
    ids.complete = runJson(source, nodeCmd('for(let i=0;i<5000;i++)console.log("line "+i+" é")'), [
      "--label",
      "complete",
    ]).receipt.captureId;
    ids.quota = runJson(source, nodeCmd('for(let i=0;i<9000;i++)console.log("q"+i)'), [
      "--max-bytes",
      "20KiB",
    ]).receipt.captureId;
    ids.binary = runJson(
      source,
      nodeCmd(
        "process.stdout.write(Buffer.from([0,1,2,255,10,0,0,9].concat(Array(40000).fill(7))))",
      ),
      ["--binary", "keep"],
    ).receipt.captureId;
    ids.replaced = runJson(
      source,
      nodeCmd('process.stdout.write(Buffer.from("bad \\xff byte\\n".repeat(5000),"latin1"))'),
    ).receipt.captureId;
    // crashed: the supervisor and its job are SIGKILLed, nothing reconciles it before export
    const crashed = startJob(source, 'let i=0;setInterval(()=>console.log("tick "+(i++)),1)');
    await until(() => receiptOf(source, crashed.id).streams.stdout.committed > 2000);
    process.kill(crashed.supervisor, "SIGKILL");
    process.kill(-crashed.pgid, "SIGKILL");
    await until(() => spool(["status", "--root", source, crashed.id]).stdout.includes('"crash"'));
    ids.crashed = crashed.id;
    // running: still writing while exported
    running = startJob(
      source,
      'let i=0;setInterval(()=>console.log("run "+(i++)+" "+"x".repeat(500)),2)',
    );
    await until(() => receiptOf(source, running.id).streams.stdout.committed > 100_000);
    ids.running = running.id;
    const r = spool(["export", "--root", source, "--all", "--out", bundle, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    spool(["kill", "--root", source, running.id]);
    expect(spool(["import", bundle, "--root", target]).status).toBe(0);
  }, 240_000);

  it("lists every capture with its states and its provenance", () => {
    const before = new Map(ls(source).map((c) => [c.captureId, c]));
    const after = ls(target);
    expect(after.map((c) => c.captureId).sort()).toEqual(Object.values(ids).sort());
    for (const c of after) {
      expect(c.provenance).toMatchObject({ kind: "imported", from: bundle });
      expect(c.condition).toBe("final");
      if (c.captureId === ids.running) {
        expect(c.capture).toBe("partial");
        // Final here, with no owner: nobody here saw its process end.
        expect(c.process).toBe("unknown");
        continue;
      }
      const was = before.get(c.captureId)!;
      expect([c.process, c.capture, c.reasons]).toEqual([was.process, was.capture, was.reasons]);
    }
    const states = Object.fromEntries(after.map((c) => [c.captureId, [c.capture, c.reasons]]));
    expect(states[ids.complete!]).toEqual(["complete", []]);
    expect(states[ids.quota!]).toEqual(["partial", ["quota"]]);
    expect(states[ids.crashed!]).toEqual(["partial", ["crash"]]);
    expect(spool(["ls", "--root", target]).stdout.toString()).toContain(
      `[imported from ${bundle}]`,
    );
  });

  it("reads back byte-identical through read, grep and tail --lines", { timeout: 240_000 }, () => {
    for (const id of Object.values(ids)) {
      const theirs = spool(["read", "--root", source, id]).stdout;
      const read = spool(["read", "--root", target, id]);
      expect(read.status).toBe(0);
      const ours = read.stdout;
      expect(theirs.length).toBeGreaterThan(1000);
      if (id === ids.running) {
        // a snapshot: a prefix of what the job went on to write, at its committed boundary
        expect(ours.length).toBeGreaterThan(100_000);
        expect(theirs.subarray(0, ours.length).equals(ours)).toBe(true);
        expect(receiptOf(target, id).streams.stdout.committed).toBe(ours.length);
        continue;
      }
      expect(ours.equals(theirs)).toBe(true);
    }
    // Line-indexed reads, search and tail on the captures with lines (each spawns spool twice).
    for (const [id, args] of [
      [ids.complete!, ["read", "--lines", "4090:4100"]],
      [ids.complete!, ["grep", "[0-9]7 "]],
      [ids.quota!, ["read", "--lines", "1020:1030"]],
      [ids.quota!, ["tail", "-n", "3"]],
      [ids.crashed!, ["tail", "-n", "2"]],
    ] as const) {
      const [command, ...rest] = args;
      const a = spool([command, "--root", source, id, ...rest]).stdout;
      const b = spool([command, "--root", target, id, ...rest]).stdout;
      expect(a.length).toBeGreaterThan(0);
      expect(b.equals(a)).toBe(true);
    }
    const lines = spool(["read", "--root", target, ids.complete!, "--lines", "4090:4090"]);
    expect(lines.stdout.toString()).toBe("line 4089 é\n");
  });

  it("keeps sha256, rewrites paths to the new root, leaves ownership files behind", () => {
    for (const id of Object.values(ids)) {
      const r = receiptOf(target, id);
      expect(r.root).toBe(target);
      const s = r.streams.stdout;
      expect(s.path).toBe(path.join(target, s.ref!));
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
      const names = fs.readdirSync(path.join(target, "tool-outputs", id));
      expect(names).not.toContain("owner.json");
      expect(names).not.toContain("job.json");
      expect(names.some((n) => n.endsWith(".live"))).toBe(false);
      for (const n of names) {
        expect(fs.statSync(path.join(target, "tool-outputs", id, n)).mode & 0o777).toBe(0o600);
      }
    }
    expect(receiptOf(target, ids.complete!).streams.stdout.sha256).toBe(
      receiptOf(source, ids.complete!).streams.stdout.sha256,
    );
  });

  it("states in the manifest what was left out and why", () => {
    const listing = spawnSync("tar", ["-xOf", bundle, "manifest.json"]);
    const manifest = JSON.parse(listing.stdout.toString()) as {
      captures: Array<{ captureId: string; snapshot: boolean; omitted: Array<{ reason: string }> }>;
    };
    const reasons = (id: string) =>
      manifest.captures.find((c) => c.captureId === id)!.omitted.map((o) => o.reason);
    expect(reasons(ids.running!)).toContain("running");
    expect(reasons(ids.running!)).toContain("not-permitted");
    expect(reasons(ids.crashed!)).toContain("crashed");
    expect(reasons(ids.replaced!)).toContain("binary-not-retained");
    expect(manifest.captures.find((c) => c.captureId === ids.running)!.snapshot).toBe(true);
  });

  it("refuses a second import of the same ids and changes nothing", () => {
    const before = tree(target);
    const r = spool(["import", bundle, "--root", target]);
    expect(r.status).toBe(70);
    expect(r.stderr).toContain("already exists");
    expect(tree(target)).toEqual(before);
  });

  it("exports a directory bundle that imports the same", () => {
    const dir = path.join(tempRoot(), "bundle");
    expect(
      spool(["export", "--root", source, ids.complete!, ids.binary!, "--out", dir]).status,
    ).toBe(0);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const other = tempRoot();
    expect(spool(["import", dir, "--root", other]).status).toBe(0);
    const a = spool(["read", "--root", source, ids.binary!]).stdout;
    expect(spool(["read", "--root", other, ids.binary!]).stdout.equals(a)).toBe(true);
  });
});

describe("hostile bundles", () => {
  const source = tempRoot();
  let good: Buffer;
  let id: string;
  beforeAll(() => {
    id = runJson(source, nodeCmd('for(let i=0;i<3000;i++)console.log("h"+i)')).receipt.captureId;
    const out = path.join(tempRoot(), "good.tar");
    expect(spool(["export", "--root", source, id, "--out", out]).status).toBe(0);
    good = fs.readFileSync(out);
  });

  /** Import `bytes` into a fresh root beside a sentinel directory; expect refusal and no trace. */
  function refuse(bytes: Buffer | ((file: string) => void), expected: RegExp): number {
    const base = tempRoot();
    const root = path.join(base, "root");
    fs.mkdirSync(path.join(root, "tool-outputs"), { recursive: true, mode: 0o700 });
    const file = path.join(base, "bad.tar");
    if (Buffer.isBuffer(bytes)) fs.writeFileSync(file, bytes);
    else bytes(file);
    const before = tree(base);
    const usage = path.join(tempRoot(), "usage.json");
    const r = spool(["import", file, "--root", root], { SPOOL_RUSAGE_FILE: usage });
    expect(r.stderr).toMatch(expected);
    expect(r.status).toBe(65);
    expect(tree(base)).toEqual(before);
    expect(fs.existsSync("/tmp/spool-evil")).toBe(false);
    return (JSON.parse(fs.readFileSync(usage, "utf8")) as { maxRssKiB: number }).maxRssKiB * 1024;
  }

  it("refuses links, devices, fifos, directories, ../ and absolute names", () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { path: `tool-outputs/${id}/stdout.txt`, type: "SymbolicLink", linkpath: "/etc/passwd" },
        /SymbolicLink/,
      ],
      [{ path: `tool-outputs/${id}/stdout.txt`, type: "Link", linkpath: "manifest.json" }, /Link/],
      [{ path: `tool-outputs/${id}/stdout.txt`, type: "CharacterDevice" }, /CharacterDevice/],
      [{ path: `tool-outputs/${id}/stdout.txt`, type: "FIFO" }, /FIFO/],
      [{ path: `tool-outputs/${id}`, type: "Directory" }, /Directory/],
      [{ path: "../spool-evil", type: "File", size: 4 }, /not a file a bundle may hold/],
      [{ path: "/tmp/spool-evil", type: "File", size: 4 }, /not a file a bundle may hold/],
      [{ path: `tool-outputs/${id}/../../spool-evil`, type: "File", size: 4 }, /not a file/],
      [{ path: `tool-outputs/${id}/owner.json`, type: "File", size: 4 }, /not a file/],
    ];
    for (const [header, expected] of cases) refuse(tarOf([header, ...entriesOf(good)]), expected);
  });

  it("refuses a compressed bundle before inflating any of it (a small gzip of 64 MiB of zeros)", () => {
    // A real bundle followed by 64 MiB of zeros, gzipped: about 80 KB that would inflate
    // far past it. Refused from its first bytes, so in no time and no memory.
    const bomb = gzipSync(Buffer.concat([good, Buffer.alloc(64 << 20)]), { level: 9 });
    expect(bomb.length).toBeLessThan(1 << 20);
    refuse(bomb, /gzip-compressed; spool export writes a plain tar/);
  });

  it("refuses duplicate names, giant headers and oversized receipts", () => {
    const entries = entriesOf(good);
    refuse(tarOf([entries[0]!, ...entries]), /appears twice/);
    const pax = { path: "PaxHeader/x", type: "ExtendedHeader", body: Buffer.alloc(200_000, 0x61) };
    refuse(tarOf([pax, ...entries]), /ExtendedHeader|bundle may not hold/);
    const receipt = {
      path: `tool-outputs/${id}/receipt.json`,
      type: "File",
      body: Buffer.alloc(2 << 20, 0x20),
    };
    refuse(
      tarOf([receipt, ...entries.filter((e) => !String(e.path).endsWith("receipt.json"))]),
      /more than/,
    );
  });

  it("refuses tampered bytes, a lying manifest and a truncated tar", () => {
    const entries = entriesOf(good);
    const tampered = entries.map((e) =>
      String(e.path).endsWith("stdout.txt")
        ? { ...e, body: Buffer.from((e.body as Buffer).toString().replace("h1\n", "h9\n")) }
        : e,
    );
    refuse(tarOf(tampered), /sha256/);
    const extra = { path: `tool-outputs/${id}/stderr.bin`, type: "File", body: Buffer.from("x") };
    refuse(tarOf([extra, ...entries]), /not in the manifest|representation|no stderr/);
    refuse(
      tarOf(entries.filter((e) => !String(e.path).endsWith("stdout.idx"))),
      /listed but not in the bundle/,
    );
    refuse(tarOf(entries.filter((e) => e.path !== "manifest.json")), /no manifest/);
    refuse(good.subarray(0, Math.floor(good.length / 2)), /not a valid tar|truncated|no manifest/i);
    refuse(good.subarray(0, 700), /not a valid tar|truncated/i);
    const garbage = Buffer.from(good);
    garbage.fill(0x41, 0, 512);
    refuse(garbage, /not a valid tar/);
  });

  it("reads nothing after the end marker: more than 1 MiB there is refused, in flat memory", () => {
    // Before: the parser buffered whatever followed the end marker (4/16/64 MiB of it
    // grew import's peak to 84/118/328 MB) and the bundle was accepted.
    // (Written a MiB at a time: a child's peak RSS starts from this process's at spawn.)
    const rss: number[] = [];
    const tail = Buffer.alloc(1 << 20, 0x5a);
    for (const mib of [2, 64]) {
      const write = (file: string) => {
        fs.writeFileSync(file, good);
        for (let i = 0; i < mib; i++) fs.appendFileSync(file, tail);
      };
      rss.push(refuse(write, /bytes after the tar's end marker/));
    }
    expect(rss[1]! - rss[0]!).toBeLessThan(16 << 20);
    // A tar writer's record padding (zeros, 10 KiB for GNU tar) is no reason to refuse.
    const padded = path.join(tempRoot(), "padded.tar");
    fs.writeFileSync(padded, Buffer.concat([good, Buffer.alloc(10240)]));
    expect(spool(["import", padded, "--root", tempRoot()]).status).toBe(0);
  });

  it("refuses 100,000 entries from their headers, before staging any", { timeout: 60_000 }, () => {
    // Before: every entry was staged (a directory and an fsynced file each) until the
    // missing manifest refused it, 85-105 s later.
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      path: `tool-outputs/${String(i).padStart(24, "0")}/stdout.txt`,
      type: "File",
      size: 0,
    }));
    refuse(tarOf([...entries, entriesOf(good).at(-1)!]), /more than 50001 entries/);
  });

  it("refuses a bundle bigger than the root's allowance", () => {
    const base = tempRoot();
    const file = path.join(base, "b.tar");
    fs.writeFileSync(file, good);
    const r = spool(["import", file, "--root", path.join(base, "root"), "--root-quota", "4KiB"]);
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/allowance/);
    expect(fs.existsSync(path.join(base, "root"))).toBe(false);
    // the same refusal of a hostile bundle: a root made for the import is removed again
    const evil = path.join(base, "evil.tar");
    fs.writeFileSync(evil, tarOf([{ path: "../x", type: "File", size: 1 }]));
    expect(spool(["import", evil, "--root", path.join(base, "fresh")]).status).toBe(65);
    expect(fs.readdirSync(base).sort()).toEqual(["b.tar", "evil.tar"]);
  });
});

describe("directory bundles", () => {
  it("export copies every file (one link each); import refuses a file with a second link", () => {
    const source = tempRoot();
    const id = runJson(source, nodeCmd('for(let i=0;i<3000;i++)console.log("d"+i)')).receipt
      .captureId;
    const dir = path.join(tempRoot(), "bundle");
    expect(spool(["export", "--root", source, id, "--out", dir]).status).toBe(0);
    const files = tree(dir).filter((line) => !line.endsWith(" dir"));
    for (const line of files) {
      expect(fs.lstatSync(path.join(dir, line.split(" ")[0]!)).nlink).toBe(1);
    }
    // Before: a hard link in a directory bundle was imported, though the docs refuse links.
    const stdout = path.join(dir, "tool-outputs", id, "stdout.txt");
    const elsewhere = path.join(tempRoot(), "elsewhere.txt");
    fs.linkSync(stdout, elsewhere);
    const root = path.join(tempRoot(), "root");
    const r = spool(["import", dir, "--root", root]);
    expect(r.stderr).toMatch(/stdout\.txt is a hard link \(2 links\)/);
    expect(r.status).toBe(65);
    expect(fs.existsSync(root)).toBe(false);
    fs.unlinkSync(elsewhere);
    expect(spool(["import", dir, "--root", root]).status).toBe(0);
  });
});

describe("export integrity", () => {
  it("refuses to export bytes that no longer match their receipt, leaving nothing at --out", () => {
    const root = tempRoot();
    const { receipt } = runJson(root, nodeCmd('for(let i=0;i<3000;i++)console.log("i"+i)'));
    const file = path.join(root, receipt.streams.stdout.ref!);
    const bytes = fs.readFileSync(file);
    bytes[10] = bytes[10]! ^ 1;
    fs.writeFileSync(file, bytes);
    const out = path.join(tempRoot(), "x.tar");
    const r = spool(["export", "--root", root, receipt.captureId, "--out", out]);
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/sha256/);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });
});

describe("share", () => {
  it("copies a final capture into a child root that outlives the parent (never a second link)", () => {
    const parent = tempRoot();
    const child = tempRoot();
    const { receipt } = runJson(parent, nodeCmd('for(let i=0;i<4000;i++)console.log("s"+i)'));
    const before = spool(["read", "--root", parent, receipt.captureId]).stdout;
    const r = spool(["share", "--root", parent, receipt.captureId, "--to", child, "--json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.toString()).linked).toBe(0);
    const file = path.join(child, "tool-outputs", receipt.captureId, "stdout.txt");
    expect(fs.statSync(file).nlink).toBe(1);
    expect(spool(["read", "--root", parent, receipt.captureId]).stdout.equals(before)).toBe(true);
    expect(spool(["rm", "--root", parent, "--all"]).status).toBe(0);
    expect(spool(["read", "--root", child, receipt.captureId]).stdout.equals(before)).toBe(true);
    const listed = ls(child)[0]!;
    expect(listed.provenance).toMatchObject({ kind: "shared", from: parent });
  });

  it("copies a running job as a partial snapshot", async () => {
    const parent = tempRoot();
    const child = tempRoot();
    const job = startJob(parent, 'let i=0;setInterval(()=>console.log("j"+(i++)),1)');
    await until(() => receiptOf(parent, job.id).streams.stdout.committed > 1000);
    expect(spool(["share", "--root", parent, job.id, "--to", child]).status).toBe(0);
    // The copy carries no process identity, and kill in its root signals nothing.
    const shared = receiptOf(child, job.id);
    expect([shared.process?.state, shared.process?.pid, shared.process?.pidStart]).toEqual([
      "unknown",
      null,
      null,
    ]);
    const refused = spool(["kill", "--root", child, job.id]);
    expect(refused.status).toBe(0);
    expect(refused.stdout.toString()).toMatch(
      /was shared from .*: its process is not here; nothing signalled/,
    );
    process.kill(-job.pgid, 0); // the original job still runs
    expect(receiptOf(parent, job.id).process?.state).toBe("running");
    spool(["kill", "--root", parent, job.id]);
    const copy = receiptOf(child, job.id);
    expect(copy.capture.state).toBe("partial");
    const ours = spool(["read", "--root", child, job.id]).stdout;
    expect(ours.length).toBe(copy.streams.stdout.committed);
    expect(
      spool(["read", "--root", parent, job.id]).stdout.subarray(0, ours.length).equals(ours),
    ).toBe(true);
    expect(fs.statSync(path.join(child, "tool-outputs", job.id, "stdout.txt")).nlink).toBe(1);
  });
});

describe("an imported capture controls nothing", () => {
  it("kill signals no process, whatever pid and start time its receipt names", async () => {
    const source = tempRoot();
    const target = tempRoot();
    const bundle = path.join(tempRoot(), "one.tar");
    const id = runJson(source, nodeCmd('process.stdout.write("z".repeat(100000))')).receipt
      .captureId;
    expect(spool(["export", "--root", source, id, "--out", bundle]).status).toBe(0);
    expect(spool(["import", bundle, "--root", target]).status).toBe(0);
    // A bystander, and the imported receipt rewritten to name it exactly (as a crafted
    // bundle could): its pid as the process group and its /proc start time.
    const bystander = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
    pgids.push(bystander.pid!);
    const start = fs
      .readFileSync(`/proc/${bystander.pid}/stat`, "utf8")
      .split(") ")[1]!
      .split(" ")[19]!;
    const file = path.join(target, "tool-outputs", id, "receipt.json");
    const forged = JSON.parse(fs.readFileSync(file, "utf8")) as Receipt;
    forged.process = { ...forged.process!, state: "exited", pid: bystander.pid!, pidStart: start };
    fs.writeFileSync(file, JSON.stringify(forged));
    const r = spool(["kill", "--root", target, id]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(/was imported from .*: its process is not here/);
    process.kill(bystander.pid!, 0); // still alive
    expect(spool(["ls", "--root", target]).stdout.toString()).not.toContain("group");
  });
});

describe("rm and du", () => {
  it("rm of everything frees the allowance so a new capture fits", () => {
    const root = tempRoot();
    const quota = ["--root-quota", "256KiB"];
    const fill = nodeCmd('process.stdout.write("y".repeat(200*1024))');
    expect(runJson(root, fill, quota).receipt.capture.state).toBe("complete");
    const squeezed = runJson(root, fill, quota).receipt;
    expect(squeezed.capture.reasons).toContain("root-quota");
    const du = JSON.parse(spool(["du", "--root", root, ...quota, "--json"]).stdout.toString());
    expect(du.captures).toHaveLength(2);
    expect(du.quota.reserved).toBeGreaterThanOrEqual(200 * 1024);
    const r = spool(["rm", "--root", root, "--all", "--json"]);
    expect(r.status).toBe(0);
    const receipt = JSON.parse(r.stdout.toString());
    expect(receipt.removed).toHaveLength(2);
    expect(receipt.freedBytes).toBeGreaterThan(200 * 1024);
    expect(ls(root)).toEqual([]);
    const after = JSON.parse(spool(["du", "--root", root, ...quota, "--json"]).stdout.toString());
    expect(after.quota.reserved).toBe(0);
    expect(runJson(root, fill, quota).receipt.capture.state).toBe("complete");
  });

  it("rm --older-than picks by age; a REF removes exactly that capture", () => {
    const root = tempRoot();
    const a = runJson(root, nodeCmd('process.stdout.write("a".repeat(100000))')).receipt.captureId;
    const b = runJson(root, nodeCmd('process.stdout.write("b".repeat(100000))')).receipt.captureId;
    expect(
      JSON.parse(spool(["rm", "--root", root, "--older-than", "1d", "--json"]).stdout.toString())
        .removed,
    ).toEqual([]);
    expect(spool(["rm", "--root", root, a]).status).toBe(0);
    expect(ls(root).map((c) => c.captureId)).toEqual([b]);
    expect(spool(["rm", "--root", root, "--older-than", "0s"]).status).toBe(0);
    expect(ls(root)).toEqual([]);
    expect(spool(["rm", "--root", root, "--all", a]).status).toBe(64);
  });

  it("rm racing a running job never deletes its live files; --kill removes it once ended", {
    timeout: 120_000,
  }, async () => {
    const root = tempRoot();
    const stop = path.join(tempRoot(), "stop");
    // Writes until told to stop, then says how many lines it wrote.
    const job = startJob(
      root,
      `const fs=require("fs");let i=0;const t=setInterval(()=>{console.log("r"+(i++)+" "+"z".repeat(300));if(fs.existsSync(${JSON.stringify(stop)})){clearInterval(t);console.error(String(i))}},1)`,
    );
    await until(() => receiptOf(root, job.id).streams.stdout.committed > 10_000);
    const racers = await Promise.all(
      Array.from({ length: 4 }, () => spoolAsync(["rm", "--root", root, "--all", "--json"])),
    );
    fs.writeFileSync(stop, "");
    for (const r of racers) {
      const receipt = JSON.parse(r.stdout.toString());
      expect(receipt.removed).toEqual([]);
      expect(receipt.refused.map((x: { captureId: string }) => x.captureId)).toEqual([job.id]);
      expect(r.status).toBe(75);
    }
    expect(spool(["wait", "--root", root, job.id]).status).toBe(0);
    const final = receiptOf(root, job.id);
    expect(final.capture.state).toBe("complete");
    const written = Number(
      spool(["read", "--root", root, job.id, "--stream", "stderr"]).stdout.toString(),
    );
    expect(final.streams.stdout.lines).toBe(written);
    const second = startJob(root, "setInterval(()=>{},1000)");
    const killed = spool(["rm", "--root", root, second.id, "--kill", "--json"]);
    expect(killed.status).toBe(0);
    expect(
      JSON.parse(killed.stdout.toString()).removed.map((x: { captureId: string }) => x.captureId),
    ).toEqual([second.id]);
    expect(ls(root).map((c) => c.captureId)).toEqual([job.id]);
  });

  it("rm never follows a link planted in a capture directory", () => {
    const root = tempRoot();
    const outside = path.join(tempRoot(), "precious");
    fs.writeFileSync(outside, "keep me");
    const { receipt } = runJson(root, nodeCmd('process.stdout.write("p".repeat(100000))'));
    fs.symlinkSync(outside, path.join(root, "tool-outputs", receipt.captureId, "evil"));
    expect(spool(["rm", "--root", root, receipt.captureId]).status).toBe(0);
    expect(fs.readFileSync(outside, "utf8")).toBe("keep me");
  });
});

describe("export in bounded memory", () => {
  /** Peak RSS of `spool ARGS` in bytes. */
  function peak(args: string[]): number {
    const usage = path.join(tempRoot(), "usage.json");
    const r = spool(args, { SPOOL_RUSAGE_FILE: usage });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    return (JSON.parse(fs.readFileSync(usage, "utf8")) as { maxRssKiB: number }).maxRssKiB * 1024;
  }

  it("export and import of 160 MiB peak no higher than of 16 MiB plus a margin", {
    timeout: 240_000,
  }, () => {
    const MiB = 1024 * 1024;
    const rss: Record<string, number[]> = { export: [], import: [] };
    for (const size of [16 * MiB, 160 * MiB]) {
      const root = tempRoot();
      const limits = ["--max-bytes", "1GiB", "--root-quota", "1GiB"];
      const { receipt } = runJson(
        root,
        nodeCmd(
          `const b=Buffer.alloc(1<<20,"abcdefghij\\n");for(let i=0;i<${size / MiB};i++)process.stdout.write(b)`,
        ),
        limits,
      );
      expect(receipt.streams.stdout.committed).toBe(size);
      const out = path.join(tempRoot(), "big.tar");
      rss.export!.push(peak(["export", "--root", root, receipt.captureId, "--out", out]));
      const other = path.join(tempRoot(), "other");
      rss.import!.push(peak(["import", out, "--root", other, "--root-quota", "1GiB"]));
      expect(receiptOf(other, receipt.captureId).streams.stdout.sha256).toBe(
        receipt.streams.stdout.sha256,
      );
    }
    // Holding the data would add 144 MiB; bounded chunks add at most garbage-collector slack.
    expect(rss.export![1]! - rss.export![0]!).toBeLessThan(64 * MiB);
    expect(rss.import![1]! - rss.import![0]!).toBeLessThan(64 * MiB);
  });
});

// ---- tar building for hostile cases (headers encoded by node-tar, not by hand) ----

interface Entry {
  path: string;
  type: string;
  body?: Buffer;
  size?: number;
  linkpath?: string;
}

function tarOf(entries: ReadonlyArray<Record<string, unknown>>): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries as Entry[]) {
    const body = e.body ?? Buffer.alloc(e.size ?? 0, 0x62);
    const header = new Header({
      path: e.path,
      type: e.type as never,
      size: body.length,
      mode: 0o600,
      mtime: new Date(0),
      ...(e.linkpath ? { linkpath: e.linkpath } : {}),
    });
    header.encode();
    parts.push(header.block!, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The file entries of a tar made by `spool export` (plain ustar headers, no pax). */
function entriesOf(tar: Buffer): Entry[] {
  const out: Entry[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = new Header(tar, at);
    if (!h.path) break;
    const size = h.size ?? 0;
    out.push({
      path: h.path,
      type: h.type ?? "File",
      body: Buffer.from(tar.subarray(at + 512, at + 512 + size)),
    });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
