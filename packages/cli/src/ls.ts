/**
 * `spool ls [--root DIR] [--json]`: every capture in the root with its process and
 * capture states, oldest first. Crash leftovers are reconciled first (as `spool
 * recover` does), so a capture whose supervisor died shows `partial (crash)`.
 */
import { type CaptureStatus, listCaptures, recoverRoot, resolveRoot } from "@spool/sinks";
import { parseArgs, usageError } from "./args.js";
import type { Io } from "./io.js";

const LS_OPTIONS = { root: { kind: "string" }, json: { kind: "flag" } } as const;

export async function lsCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, LS_OPTIONS);
  if (parsed.positionals.length > 0 || parsed.rest !== null)
    throw usageError(`unexpected argument "${parsed.positionals[0] ?? "--"}"`);
  const root = resolveRoot({
    flag: parsed.options.root as string | undefined,
    env: io.env,
    create: false,
  });
  const report = recoverRoot(root);
  for (const e of report.errors) io.stderr(`spool ls: ${e.captureId}: ${e.message}\n`);
  const captures = listCaptures(root);
  if (parsed.options.json) {
    io.stdout(`${JSON.stringify(captures.map(summary), null, 2)}\n`);
    return 0;
  }
  for (const c of captures) io.stdout(`${line(c)}\n`);
  return 0;
}

function summary(c: CaptureStatus) {
  const r = c.receipt;
  return {
    captureId: c.captureId,
    callId: r.callId,
    label: r.label,
    condition: c.condition,
    process: r.process.state,
    exitCode: r.process.exitCode,
    signal: r.process.signal,
    capture: r.capture.state,
    reasons: r.capture.reasons,
    startedAt: r.process.startedAt,
    committed: { stdout: r.streams.stdout.committed, stderr: r.streams.stderr.committed },
    refs: { stdout: r.streams.stdout.ref, stderr: r.streams.stderr.ref },
  };
}

function line(c: CaptureStatus): string {
  const r = c.receipt;
  const reasons = r.capture.reasons.length > 0 ? ` (${r.capture.reasons.join(", ")})` : "";
  const exit =
    r.process.signal !== null
      ? ` ${r.process.signal}`
      : r.process.exitCode !== null
        ? ` ${r.process.exitCode}`
        : "";
  const bytes = r.streams.stdout.committed + r.streams.stderr.committed;
  const label = r.label === null ? "" : `  ${printable(r.label)}`;
  return `${c.captureId}  ${r.process.startedAt}  ${r.process.state}${exit}  ${r.capture.state}${reasons}  ${bytes} B${label}`;
}

/** Control characters shown as "?" so a name cannot drive the terminal. */
function printable(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 || c === 0x7f ? "?" : ch;
  }
  return out;
}
