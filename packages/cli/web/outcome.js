// A capture's outcome in words and in a class (colour is never the only sign):
// running, passed, or failed with why (exit ≠ 0, a signal, cancelled, timed out, a crash,
// a partial capture). Works on the list's summaries and on receipts alike.

/** `{ kind: "running" | "passed" | "failed", words, exit }`. */
export function outcome(s) {
  const exit = s.exitCode ?? null;
  const signal = s.signal ?? null;
  const words = [];
  if (s.condition === "live") words.push("running");
  else if (s.condition === "crashed") words.push("crashed");
  if (s.condition !== "live") {
    if (signal) words.push(`killed by ${signal}`);
    else if (exit !== null && exit !== 0) words.push(`exit ${exit}`);
    if (s.process === "cancelled" || s.process === "timeout" || s.process === "unknown")
      words.push(s.process);
    if (s.capture === "partial" || s.capture === "failed" || s.capture === "unavailable") {
      const why = s.reasons?.length ? ` (${s.reasons.join(", ")})` : "";
      words.push(`${s.capture} capture${why}`);
    }
  }
  let kind = "passed";
  if (s.condition === "live") kind = "running";
  else if (words.length > 0) kind = "failed";
  if (kind === "passed") words.push(exit === 0 ? "passed (exit 0)" : "ended");
  if (kind === "failed") words.unshift("failed:");
  return { kind, words: words.join(" "), exit };
}

/** The same fields from a receipt and its condition. */
export function summaryOf(condition, receipt) {
  const p = receipt.process ?? receipt.source ?? {};
  return {
    condition,
    process: p.state,
    capture: receipt.capture.state,
    reasons: receipt.capture.reasons,
    exitCode: p.exitCode ?? null,
    signal: p.signal ?? null,
    startedAt: p.startedAt,
    endedAt: p.endedAt ?? null,
  };
}

/** The tab says how the capture went: its title and its favicon. */
export function markDocument(kind, title) {
  const mark = { running: "● running", failed: "✖ failed", passed: "✔ passed" }[kind] ?? "";
  document.title = `${mark ? `${mark} · ` : ""}${title} · spool`;
  const icon = document.getElementById("favicon");
  if (icon) icon.href = `/favicon-${kind ?? "idle"}.svg`;
}
