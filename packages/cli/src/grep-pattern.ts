/**
 * The pattern of `spool grep`, matched in linear time whatever it is: a plain word or a
 * `|`-list of words is JavaScript's own `RegExp` (no backtracking is possible without a
 * quantifier or a group); anything else runs on RE2JS, a linear-time automaton engine
 * (RE2's syntax: no lookaround, no backreferences, refused with a one-line error).
 * `grep '^(a+)+$'` on hostile lines therefore costs time proportional to the bytes read,
 * not exponential in a line's length.
 *
 * @example
 * ```ts
 * import { compileGrepPattern } from "./grep-pattern.js";
 * const p = compileGrepPattern("^(a+)+$", false);
 * p.lastIndex = 0;
 * p.exec("aaaa!"); // null, at once
 * ```
 */
import { SpoolError } from "@spool/core/errors";
import { RE2JS } from "re2js";

/** What the scan needs of a pattern: `RegExp`'s `exec` with `lastIndex`, global. */
export interface GrepPattern {
  lastIndex: number;
  exec(text: string): { readonly index: number; readonly 0: string } | null;
}

/** A word, or words joined by `|`, with no other regular-expression syntax. */
const PLAIN = /^[^\\^$.*+?()[\]{}|]+(\|[^\\^$.*+?()[\]{}|]+)*$/;

export interface GrepPatternOptions {
  /**
   * Match bytes, each one character (Latin-1), as the scan does on a binary (`--binary
   * keep`) stream: the pattern's non-ASCII characters become their UTF-8 bytes, so a
   * literal `é` still matches, while `.` is one byte. @default false
   */
  readonly bytes?: boolean;
}

/**
 * The linear-time pattern for `source`, or a usage error saying why it cannot be one (the
 * same refusal for `spool grep` and `spool serve`'s grep, which both compile here).
 */
export function compileGrepPattern(
  source: string,
  ignoreCase: boolean,
  options: GrepPatternOptions = {},
): GrepPattern {
  const text = options.bytes ? Buffer.from(source, "utf8").toString("latin1") : source;
  if (PLAIN.test(text)) return new RegExp(text, ignoreCase ? "gi" : "g");
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(text, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    // `SpoolError` itself rather than args.ts's `usageError` (the same error): the
    // server's grep worker loads this file and should not load the argument parser.
    throw new SpoolError(
      "SPOOL_E_USAGE",
      "cli",
      `PATTERN is not a valid linear-time (RE2) regular expression: ${(error as Error).message} (lookaround and backreferences are not supported)`,
    );
  }
  return linearPattern(compiled);
}

function linearPattern(compiled: RE2JS): GrepPattern {
  let text: string | null = null;
  let matcher: ReturnType<RE2JS["matcher"]> | null = null;
  return {
    lastIndex: 0,
    exec(input) {
      if (input !== text || matcher === null) {
        text = input;
        matcher = compiled.matcher(input);
      }
      if (this.lastIndex > input.length || !matcher.find(this.lastIndex)) {
        this.lastIndex = 0;
        return null;
      }
      const index = matcher.start();
      this.lastIndex = matcher.end();
      return { index, 0: matcher.group() ?? "" };
    },
  };
}
