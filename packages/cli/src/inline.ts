/** The inline result of `spool run`: the preview, then one status line outside it. */
import type { Receipt, StreamReceipt } from "@spool/core/runtime";

export function formatInline(receipt: Receipt, exitStatus: number, colour = false): string {
  let text = receipt.preview.text;
  if (text.length > 0 && !text.endsWith("\n")) text += "\n";
  return `${text}${statusLine(receipt, exitStatus, colour)}\n`;
}

/** SGR colours of the status line (a person's terminal only). */
const RED = "\u001b[31m";
const GREEN = "\u001b[32m";
const YELLOW = "\u001b[33m";
const RESET = "\u001b[0m";

/**
 * Whether a person's terminal gets colours: `isTerminal` and no `NO_COLOR`
 * (https://no-color.org: set and not empty).
 */
export function wantsColour(isTerminal: boolean, env: NodeJS.ProcessEnv): boolean {
  return isTerminal && !env.NO_COLOR;
}

/**
 * The one-line outcome. With `colour`, the outcome is green for exit 0 and red otherwise
 * (a signal, a timeout, a spawn failure), and a capture that is not complete is yellow
 * (red when it failed); the words say the same without colour.
 */
export function statusLine(receipt: Receipt, exitStatus: number, colour = false): string {
  const p = receipt.process;
  const outcome =
    p === undefined
      ? sourceOutcome(receipt.source!)
      : p.state === "timeout"
        ? `timeout (${p.signal ?? "killed"})`
        : p.signal
          ? `killed by ${p.signal}`
          : p.pid === null && p.reason
            ? p.reason
            : `exit ${p.exitCode}`;
  const capture =
    receipt.capture.reasons.length > 0
      ? `capture ${receipt.capture.state} (${receipt.capture.reasons.join(", ")})`
      : `capture ${receipt.capture.state}`;
  const streams = (["stdout", "stderr"] as const).map((name) =>
    streamPart(name, receipt.streams[name]),
  );
  const paint = (text: string, sgr: string | null) =>
    colour && sgr !== null ? `${sgr}${text}${RESET}` : text;
  const state = receipt.capture.state;
  const outcomeColour = exitStatus === 0 ? GREEN : RED;
  const captureColour = state === "complete" ? null : state === "failed" ? RED : YELLOW;
  return `[spool] ${paint(outcome, outcomeColour)} · status ${exitStatus} · ${paint(capture, captureColour)} · ${streams.join(" · ")} · id ${receipt.captureId}`;
}

function streamPart(name: string, s: StreamReceipt): string {
  // A kept stream that was cut counts the lines of what it kept: they go with those bytes.
  const cut = s.committed < s.produced && s.retained !== null;
  const lines = s.lines !== null && s.produced > 0 ? `/${s.lines} lines` : "";
  const size = `${s.produced} B${cut ? "" : lines}`;
  const extra = [
    // What could not be kept is said, not only counted in the receipt.
    s.committed < s.produced ? `only ${s.committed} B${cut ? lines : ""} kept` : "",
    s.redactions > 0 ? `${s.redactions} redacted` : "",
    s.omissions > 0 ? `${s.omissions} omitted` : "",
    s.replacements > 0 ? `${s.replacements} replaced` : "",
  ].filter(Boolean);
  return `${name} ${size}${extra.length ? ` (${extra.join(", ")})` : ""}${s.ref ? ` → ${s.ref}` : ""}`;
}

function sourceOutcome(source: NonNullable<Receipt["source"]>): string {
  if (source.error !== null) return `source error: ${source.error}`;
  return source.declared === "truncated" ? "source truncated" : `source ${source.state}`;
}
