/**
 * Ages and moments on the command line: `--older-than D` (`rm`) takes a duration
 * (`90s`, `15m`, `2h`, `7d`, `0s`); `--since T` (`export`) takes an ISO 8601 time or a
 * duration meaning that long ago.
 */
import { shown, usageError } from "./args.js";

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** A duration in milliseconds: a whole number followed by `s`, `m`, `h`, `d` or `w`. */
export function parseDuration(raw: string, what: string): number {
  const m = /^(\d{1,9})([smhdw])$/.exec(raw);
  if (!m) throw usageError(`${what} takes a duration like 90s, 15m, 2h or 7d, not "${shown(raw)}"`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** A moment: an ISO 8601 time with a zone, or a duration before `now`. Milliseconds since the epoch. */
export function parseSince(raw: string, now: number, what: string): number {
  if (/^\d{1,9}[smhdw]$/.test(raw)) return now - parseDuration(raw, what);
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(at)) {
    throw usageError(
      `${what} takes an ISO time (2026-12-01T10:00:00Z) or a duration (2h), not "${shown(raw)}"`,
    );
  }
  return at;
}
