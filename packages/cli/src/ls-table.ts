/**
 * `spool ls` for a person at a terminal: one aligned row per capture with a header, start
 * times relative to now (`5m ago`), sizes in words, and the outcome in colour (red for a
 * failure: an exit status other than 0, a signal, a timeout, an unknown end, a capture
 * that is not complete; green for exit 0 with a complete capture), the words saying the
 * same without colour. Not on a terminal, `ls` prints its plain lines (`ls.ts`).
 *
 * @example
 * ```ts
 * import { lsTable } from "./ls-table.js";
 * declare const captures: import("./ops/list-captures.js").CaptureSummary[];
 * process.stdout.write(lsTable(captures, Date.now(), true));
 * ```
 */
import { printable } from "@spool/core";
import { escapeControls } from "./args.js";
import type { CaptureSummary } from "./ops/list-captures.js";
import { humanBytes } from "./progress-line.js";

const RED = "\u001b[31m";
const GREEN = "\u001b[32m";
const YELLOW = "\u001b[33m";
const RESET = "\u001b[0m";

/** One cell: its text and, on a colour terminal, its colour. */
interface Cell {
  readonly text: string;
  readonly colour?: string | undefined;
}

const HEADER: readonly string[] = ["ID", "STARTED", "PROCESS", "CAPTURE", "SIZE", ""];

export function lsTable(captures: readonly CaptureSummary[], now: number, colour: boolean): string {
  // Control characters are escaped in the text itself, before any colour is added.
  const rows = captures.map((c) =>
    row(c, now).map((cell) => ({
      ...cell,
      text: escapeControls(cell.text),
    })),
  );
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => width(r[i]!.text))));
  const render = (cells: readonly Cell[]) =>
    cells
      .map((cell, i) => {
        const last = i === cells.length - 1;
        const padded = last
          ? cell.text
          : cell.text.padEnd(widths[i]! + cell.text.length - width(cell.text));
        return colour && cell.colour ? `${cell.colour}${padded}${RESET}` : padded;
      })
      .join("  ")
      .trimEnd();
  const lines = [render(HEADER.map((text) => ({ text }))), ...rows.map(render)];
  return `${lines.join("\n")}\n`;
}

function row(c: CaptureSummary, now: number): Cell[] {
  const failedProcess =
    c.process === "timeout" ||
    c.process === "unknown" ||
    c.signal !== null ||
    (c.exitCode !== null && c.exitCode !== 0);
  const outcome =
    c.signal !== null
      ? `${c.process} ${c.signal}`
      : c.exitCode !== null
        ? `${c.process} ${c.exitCode}`
        : c.process;
  const capture = c.reasons.length ? `${c.capture} (${c.reasons.join(", ")})` : c.capture;
  const extras = [
    c.groupRunning === null ? "" : `[group ${c.groupRunning} running]`,
    c.label === null ? "" : printable(c.label),
    c.provenance ? `[${c.provenance.kind} from ${printable(c.provenance.from)}]` : "",
  ].filter(Boolean);
  const running = c.process === "running";
  return [
    { text: c.captureId },
    { text: ago(now - Date.parse(c.startedAt)) },
    { text: outcome, colour: running ? YELLOW : failedProcess ? RED : GREEN },
    {
      text: capture,
      colour: c.capture === "complete" ? undefined : c.capture === "failed" ? RED : YELLOW,
    },
    { text: humanBytes(c.committed.stdout + c.committed.stderr) },
    { text: extras.join("  ") },
  ];
}

/** `just now`, `42s ago`, `5m ago`, `3h ago`, `2d ago`. */
export function ago(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 5) return "just now";
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** Columns `text` takes (labels may hold wide characters; each code point counts one). */
function width(text: string): number {
  return [...text].length;
}
