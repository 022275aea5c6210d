import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Receipt, ReceiptSchema } from "@spool/core";
import {
  bundleFileOf,
  bundleReceipt,
  createMemorySpool,
  createStager,
  MAX_BUNDLE_CAPTURES,
  skeletonReceipt,
  writeBundle,
} from "@spool/sinks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ID = "AAAAAAAAAAAAAAAAAAAAAAAA";

describe("bundleFileOf", () => {
  it("accepts exactly the bundle's file names under tool-outputs/<id>/", () => {
    expect(bundleFileOf(`tool-outputs/${ID}/stdout.txt`)).toEqual({
      captureId: ID,
      name: "stdout.txt",
    });
    expect(bundleFileOf(`tool-outputs/${ID}/receipt.json`)?.name).toBe("receipt.json");
    for (const bad of [
      "../x",
      "/etc/passwd",
      `tool-outputs/${ID}/../${ID}/stdout.txt`,
      `tool-outputs/${ID}/stdout.live`,
      `tool-outputs/${ID}/owner.json`,
      `tool-outputs/${ID}/job.json`,
      `tool-outputs/${ID}/cursors/stdout.a.json`,
      `tool-outputs/${ID}/`,
      `tool-outputs/${ID}`,
      `./tool-outputs/${ID}/stdout.txt`,
      `tool-outputs//stdout.txt`,
      `tool-outputs/..${ID.slice(2)}/stdout.txt`,
    ]) {
      expect(bundleFileOf(bad)).toBeNull();
    }
  });

  it("never accepts a path with an empty, dot or dot-dot segment, or an absolute one", () => {
    const segment = fc.oneof(
      fc.constantFrom("..", ".", "", "tool-outputs", ID, "stdout.txt", "receipt.json", "/"),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        const p = parts.join("/");
        const got = bundleFileOf(p);
        if (got === null) return;
        const segments = p.split("/");
        expect(p.startsWith("/")).toBe(false);
        expect(segments.some((s) => s === "" || s === "." || s === "..")).toBe(false);
        expect(p).toBe(`tool-outputs/${got.captureId}/${got.name}`);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("createStager", () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "spool-stager-"));

  it("stages the same bytes and sha256 however the entry is split", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 4096 }),
        fc.array(fc.nat({ max: 4096 }), { maxLength: 12 }),
        (data, cuts) => {
          const root = tmp();
          const stager = createStager(root, 1 << 20);
          const name = `tool-outputs/${ID}/stdout.txt`;
          const sink = stager.open(name, data.length);
          const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
          let at = 0;
          for (const p of [...points, data.length]) {
            sink.write(Buffer.from(data.subarray(at, p)));
            at = p;
          }
          sink.end();
          const staged = stager.files.get(name)!;
          expect(staged.bytes).toBe(data.length);
          expect(staged.sha256).toBe(createHash("sha256").update(data).digest("hex"));
          const file = path.join(stager.dir, ID, "stdout.txt");
          expect(fs.readFileSync(file).equals(Buffer.from(data))).toBe(true);
          expect(fs.statSync(file).mode & 0o777).toBe(0o600);
          expect(fs.statSync(stager.dir).mode & 0o777).toBe(0o700);
          stager.discard();
          expect(fs.existsSync(stager.dir)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses more or fewer bytes than declared, duplicates, and bytes past the allowance", () => {
    const stager = createStager(tmp(), 4096);
    const long = stager.open(`tool-outputs/${ID}/stdout.txt`, 2);
    expect(() => long.write(Buffer.from("abc"))).toThrow(/more than its header/);
    const short = stager.open(`tool-outputs/${ID}/stderr.txt`, 5);
    short.write(Buffer.from("ab"));
    expect(() => short.end()).toThrow(/truncated/);
    expect(() => stager.open(`tool-outputs/${ID}/stdout.txt`, 1)).toThrow(/appears twice/);
    expect(() => stager.open(`tool-outputs/${ID}/stdout.idx`, 10 << 20)).toThrow(/allowance/);
    expect(() => stager.open("manifest.json", 64 << 20)).toThrow(/more than/);
    stager.discard();
  });

  it("creates nothing for a bundle refused at its first entry", () => {
    const root = path.join(tmp(), "fresh");
    const stager = createStager(root, 4096);
    expect(() => stager.open("../evil", 1)).toThrow(/not a file a bundle may hold/);
    stager.discard();
    expect(fs.existsSync(root)).toBe(false);
  });
});

describe("bundleReceipt", () => {
  const live = (): Receipt => {
    const base = skeletonReceipt(ID, "/abs/root", new Date(0).toISOString());
    const stream = {
      ...base.streams.stdout,
      raw: { observed: 100, accepted: 90, pending: 10, discarded: 0 },
      produced: 90,
      committed: 60,
      retained: { start: 0, end: 60 },
      ref: `tool-outputs/${ID}/stdout.live`,
      path: `/abs/root/tool-outputs/${ID}/stdout.live`,
    };
    return { ...base, streams: { ...base.streams, stdout: stream } };
  };

  it("turns a live capture into a partial snapshot at the copied boundary, refs relative", () => {
    const got = bundleReceipt(live(), "live", {
      stdout: { bytes: 50, sha256: "a".repeat(64) },
      stderr: null,
    });
    expect(got.capture.state).toBe("partial");
    expect(got.root).toBe(".");
    expect(got.streams.stdout).toMatchObject({
      committed: 50,
      retained: { start: 0, end: 50 },
      ref: `tool-outputs/${ID}/stdout.txt`,
      path: `tool-outputs/${ID}/stdout.txt`,
      sha256: "a".repeat(64),
    });
    expect(ReceiptSchema.safeParse(got).success).toBe(true);
  });

  it("counts held bytes as discarded once the process has ended", () => {
    const r = live();
    const ended = { ...r, process: { ...r.process, state: "exited" as const, exitCode: 0 } };
    const got = bundleReceipt(ended, "live", {
      stdout: { bytes: 60, sha256: "b".repeat(64) },
      stderr: null,
    });
    expect(got.streams.stdout.raw).toEqual({
      observed: 100,
      accepted: 90,
      pending: 0,
      discarded: 10,
    });
  });
});

describe("bundle size bounds", () => {
  it("export refuses more captures than import accepts, before writing anything", async () => {
    const ids = Array.from({ length: MAX_BUNDLE_CAPTURES + 1 }, (_, i) =>
      String(i).padStart(24, "A"),
    );
    const added: string[] = [];
    const writer = {
      add: async (name: string) => {
        added.push(name);
      },
      link: () => false,
      finish: async () => {},
      abort: async () => {},
    };
    const store = createMemorySpool().store;
    await expect(
      writeBundle(store, ids, writer, { omitted: [], now: () => new Date(0) }),
    ).rejects.toThrow(/at most 10000 captures \(10001 chosen\)/);
    expect(added).toEqual([]);
  });
});
