import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  type CaptureSpool,
  createStreamPipeline,
  ledgerBalances,
  newCaptureId,
  type SpoolFactory,
  STREAM_NAMES,
  type StreamFinal,
  type StreamName,
} from "@spool/core";
import {
  type AllowanceSource,
  createFileSpool,
  createMemoryAllowance,
  createMemorySpool,
  type FileSpool,
  rootQuotaAllowance,
  withQuotas,
} from "@spool/sinks";
import { rootQuotaUsage } from "@spool/sinks/internal";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Offers in order: which stream, how many bytes (content follows from the offset). */
type Op = { stream: 0 | 1; size: number };

const byteAt = (stream: number, offset: number) => (offset * 31 + stream * 7 + 11) & 0xff;
const content = (stream: number, from: number, size: number) => {
  const out = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) out[i] = byteAt(stream, from + i);
  return out;
};

interface Run {
  finals: Record<StreamName, StreamFinal>;
  totals: [number, number];
  /** The most bytes committed over both streams at any moment seen. */
  peak: number;
  captureId: string;
}

/**
 * Drive one capture through the real pipeline (ledger included) with `ops`, spilling
 * before offer number `spillAt`, then finish. Checks the ledger at every step.
 */
async function drive(
  factory: SpoolFactory,
  root: string,
  ops: Op[],
  spillAt: number,
): Promise<Run> {
  const captureId = newCaptureId();
  const spool: CaptureSpool = factory({ captureId, root, startedAt: Date.now() });
  const pipelines = STREAM_NAMES.map((name) =>
    createStreamPipeline({ name, stages: [], writer: spool.streams[name] }),
  );
  const totals: [number, number] = [0, 0];
  let peak = 0;
  const committedNow = () =>
    STREAM_NAMES.reduce((sum, name) => sum + spool.streams[name].state.committed, 0);
  for (const [i, op] of ops.entries()) {
    if (i === spillAt) await spool.spill();
    const chunk = content(op.stream, totals[op.stream], op.size);
    totals[op.stream] += op.size;
    if (pipelines[op.stream]!.write(chunk) === "wait") await pipelines[op.stream]!.ready();
    peak = Math.max(peak, committedNow());
  }
  if (spillAt >= ops.length) await spool.spill();
  for (const p of pipelines) p.end();
  const finals = await spool.finish();
  peak = Math.max(peak, committedNow());
  for (const [i, p] of pipelines.entries()) {
    const snap = p.ledger.snapshot();
    expect(ledgerBalances(snap)).toBe(true);
    expect(snap.raw.observed).toBe(totals[i]);
    expect(snap.produced).toBe(totals[i]);
    expect(finals[STREAM_NAMES[i]!].committed).toBeLessThanOrEqual(snap.produced);
  }
  await spool.publishReceipt({} as never);
  await spool.close();
  return { finals, totals, peak, captureId };
}

const opsArb = fc.array(
  fc.record({
    stream: fc.constantFrom(0 as const, 1 as const),
    size: fc.integer({ min: 1, max: 24_000 }),
  }),
  { minLength: 1, maxLength: 24 },
);

/** What every run must show, whatever the spool: exact cut, prefixes kept, right reasons. */
function checkRun(
  run: Run,
  limits: { maxBytes: number | null; allowance: number | null },
  readBack: (stream: StreamName, final: StreamFinal) => Buffer,
) {
  const total = run.totals[0] + run.totals[1];
  const ceiling = Math.min(limits.maxBytes ?? Infinity, limits.allowance ?? Infinity);
  const kept = run.finals.stdout.committed + run.finals.stderr.committed;
  expect(kept).toBe(Math.min(total, ceiling));
  expect(run.peak).toBeLessThanOrEqual(ceiling);
  const expectedReason =
    total <= ceiling ? null : limits.maxBytes === ceiling ? "quota" : "root-quota";
  const reasons = new Set(STREAM_NAMES.map((n) => run.finals[n].stopped).filter((r) => r !== null));
  expect([...reasons]).toEqual(expectedReason === null ? [] : [expectedReason]);
  for (const [i, name] of STREAM_NAMES.entries()) {
    const final = run.finals[name];
    const back = readBack(name, final);
    expect(back.length).toBe(final.committed);
    expect(back.equals(content(i, 0, final.committed))).toBe(true);
  }
}

describe("withQuotas on the memory spool", () => {
  it("keeps min(total, maxBytes) exactly across chunkings, both streams, any spill point", async () => {
    await fc.assert(
      fc.asyncProperty(
        opsArb,
        fc.integer({ min: 0, max: 200_000 }),
        fc.nat(30),
        async (ops, maxBytes, spillAt) => {
          const memory = createMemorySpool();
          const run = await drive(
            withQuotas(memory.factory, { maxBytes }),
            "/unused",
            ops,
            spillAt,
          );
          checkRun(run, { maxBytes, allowance: null }, (s) => memory.bytes(run.captureId, s));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("keeps min(total, maxBytes, allowance) exactly and the books agree with what was kept", async () => {
    await fc.assert(
      fc.asyncProperty(
        opsArb,
        fc.option(fc.integer({ min: 0, max: 300_000 }), { nil: null }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 70_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        async (ops, maxBytes, limit, stepBytes, before) => {
          const memory = createMemorySpool();
          const allowance = createMemoryAllowance({ limit, stepBytes });
          const factory = withQuotas(memory.factory, { maxBytes, allowance: allowance.source });
          // An earlier capture holds part of the allowance.
          const earlier = await drive(factory, "/unused", [{ stream: 0, size: before + 1 }], 0);
          const held = earlier.finals.stdout.committed;
          expect(allowance.used).toBe(held);
          const run = await drive(factory, "/unused", ops, 0);
          checkRun(run, { maxBytes, allowance: limit - held }, (s) =>
            memory.bytes(run.captureId, s),
          );
          const kept = run.finals.stdout.committed + run.finals.stderr.committed;
          expect(allowance.used).toBe(held + kept);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("bytes held before the spill that the allowance cannot cover whole: that stream keeps nothing", async () => {
    const memory = createMemorySpool();
    const allowance = createMemoryAllowance({ limit: 1000 });
    const factory = withQuotas(memory.factory, { allowance: allowance.source });
    const ops: Op[] = [
      { stream: 0, size: 600 },
      { stream: 1, size: 600 },
      { stream: 0, size: 100 },
      { stream: 1, size: 100 },
    ];
    // Spilled after two offers: stdout's 600 fit (stdout is asked first), stderr's do not.
    const run = await drive(factory, "/unused", ops, 2);
    expect(run.finals.stdout).toMatchObject({ committed: 700, stopped: null });
    expect(run.finals.stderr).toMatchObject({ committed: 0, stopped: "root-quota" });
    expect(allowance.used).toBe(700);
  });

  it("books that cannot be written at spill fail the spill before any byte is stored", async () => {
    const memory = createMemorySpool();
    const broken: AllowanceSource = () => ({
      reserved: 0,
      reserve: () => {
        throw new Error("EACCES");
      },
      release: () => {},
    });
    const spool = withQuotas(memory.factory, { allowance: broken })({
      captureId: newCaptureId(),
      root: "/unused",
      startedAt: 0,
    });
    spool.streams.stdout.offer([Buffer.from("held")]);
    await expect(spool.spill()).rejects.toThrow(/EACCES/);
    expect(spool.spilled).toBe(false);
  });

  it("refuses a ceiling that is not a whole number of bytes", () => {
    expect(() => withQuotas(createMemorySpool().factory, { maxBytes: -1 })).toThrow(/maxBytes/);
    expect(() => createMemoryAllowance({ limit: 1.5 })).toThrow(/limit/);
  });
});

describe("withQuotas on the file spool (real worker, real files, the root's books)", () => {
  let root: string;
  let files: FileSpool;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "spool-quota-spool-"));
    files = createFileSpool({});
  });
  afterAll(async () => {
    await files.destroy();
    rmSync(root, { recursive: true, force: true });
  });
  const fromDisk = (_: StreamName, final: StreamFinal) => readFileSync(final.path!);

  it("keeps min(total, maxBytes) exactly across chunkings, both streams, any spill point", async () => {
    await fc.assert(
      fc.asyncProperty(
        opsArb,
        fc.integer({ min: 0, max: 200_000 }),
        fc.nat(30),
        async (ops, maxBytes, spillAt) => {
          const run = await drive(withQuotas(files.factory, { maxBytes }), root, ops, spillAt);
          checkRun(run, { maxBytes, allowance: null }, fromDisk);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("keeps min(total, maxBytes, root allowance) exactly; the reservation settles to what was kept", async () => {
    await fc.assert(
      fc.asyncProperty(
        opsArb,
        fc.option(fc.integer({ min: 0, max: 300_000 }), { nil: null }),
        fc.integer({ min: 0, max: 200_000 }),
        async (ops, maxBytes, limit) => {
          const own = mkdtempSync(path.join(root, "root-"));
          const allowance: AllowanceSource = rootQuotaAllowance(limit);
          const run = await drive(withQuotas(files.factory, { maxBytes, allowance }), own, ops, 0);
          checkRun(run, { maxBytes, allowance: limit }, fromDisk);
          const kept = run.finals.stdout.committed + run.finals.stderr.committed;
          expect(rootQuotaUsage(own)).toBe(kept);
        },
      ),
      { numRuns: 20 },
    );
  });
});
