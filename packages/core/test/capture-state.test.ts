/**
 * The capture's phase table: every move between two phases, allowed or refused, the
 * decision each phase drives (may storage be opened on demand), and the one writer of
 * the storage error.
 */
import { isSpoolError, type StorageFailure } from "@spool/core";
import { describe, expect, it } from "vitest";
import {
  CAPTURE_PHASES,
  type CapturePhase,
  type CaptureRun,
  enterPhase,
  PHASE_RULES,
  phaseRule,
  recordStorageError,
} from "../src/capture-state.js";

/** The moves the lifecycle has, written out here and not read from the table under test. */
const ALLOWED = new Set([
  "spawning→running",
  "spawning→draining", // the child could not be started
  "running→draining",
  "draining→finishing",
  "finishing→published",
  "published→closed",
]);

/** Only the fields these functions touch; the rest of a run plays no part. */
function runAt(phase: CapturePhase): CaptureRun {
  return { phase, storageError: null } as unknown as CaptureRun;
}

describe("capture phases", () => {
  for (const from of CAPTURE_PHASES) {
    for (const to of CAPTURE_PHASES) {
      const move = `${from}→${to}`;
      if (ALLOWED.has(move)) {
        it(`allows ${move}`, () => {
          const run = runAt(from);
          enterPhase(run, to);
          expect(run.phase).toBe(to);
        });
      } else {
        it(`refuses ${move} (SPOOL_E_STATE), staying in ${from}`, () => {
          const run = runAt(from);
          let caught: unknown;
          try {
            enterPhase(run, to);
          } catch (error) {
            caught = error;
          }
          expect(isSpoolError(caught, "SPOOL_E_STATE")).toBe(true);
          expect(String(caught)).toContain(`cannot go from ${from} to ${to}`);
          expect(run.phase).toBe(from);
        });
      }
    }
  }

  it("lists exactly the lifecycle's moves, and every phase is reachable from spawning", () => {
    const listed = CAPTURE_PHASES.flatMap((from) =>
      PHASE_RULES[from].next.map((to) => `${from}→${to}`),
    );
    expect(new Set(listed)).toEqual(ALLOWED);
    const reached = new Set<CapturePhase>(["spawning"]);
    for (const from of CAPTURE_PHASES)
      if (reached.has(from)) for (const to of PHASE_RULES[from].next) reached.add(to);
    expect([...reached].sort()).toEqual([...CAPTURE_PHASES].sort());
  });

  it("opens storage on demand (spill policy, promotion) only until the capture starts finishing", () => {
    const open = CAPTURE_PHASES.filter((phase) => phaseRule(runAt(phase)).opensOnDemand);
    expect(open).toEqual(["spawning", "running", "draining"]);
  });
});

describe("the storage error", () => {
  const failure = (errno: string): StorageFailure => ({ errno, operation: "write", path: null });

  it("keeps the first failure; later ones and absent ones change nothing", () => {
    const run = runAt("running");
    recordStorageError(run, undefined);
    expect(run.storageError).toBeNull();
    recordStorageError(run, failure("ENOSPC"));
    recordStorageError(run, failure("EIO"));
    recordStorageError(run, undefined);
    expect(run.storageError).toEqual(failure("ENOSPC"));
  });
});
