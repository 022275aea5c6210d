/** The inline result of `spool run`: the preview, then one status line outside it. */
import type { Receipt, StreamReceipt } from "@spool/core/runtime";

export function formatInline(receipt: Receipt, exitStatus: number): string {
  let text = receipt.preview.text;
  if (text.length > 0 && !text.endsWith("\n")) text += "\n";
  return `${text}${statusLine(receipt, exitStatus)}\n`;
}

export function statusLine(receipt: Receipt, exitStatus: number): string {
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
  return `[spool] ${outcome} · status ${exitStatus} · ${capture} · ${streams.join(" · ")} · id ${receipt.captureId}`;
}

function streamPart(name: string, s: StreamReceipt): string {
  const size = `${s.produced} B${s.lines !== null && s.produced > 0 ? `/${s.lines} lines` : ""}`;
  const extra = [
    // What could not be kept is said, not only counted in the receipt.
    s.committed < s.produced ? `only ${s.committed} B kept` : "",
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
