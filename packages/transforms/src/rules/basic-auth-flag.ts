/**
 * `curl -u user:password` and `--user user:password` (also `--proxy-user`): the whole
 * `user:password` is redacted, to the next whitespace byte or closing quote (an API token
 * often stands as the user). Nothing is held beyond the user name (at most 128 bytes):
 * without a `:` in it the argument is released.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("curl -u deploy:s3cr3t-pass https://x"); // "curl -u [REDACTED:basic-auth] https://x"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";

const SPACE = byteSet(" \t\r\n\v\f");
const MAX_USER = 128;

export const BASIC_AUTH_FLAG_RULE: MatcherRule = {
  kind: "matcher",
  name: "basic-auth",
  anchors: ["-u", "--user", "--proxy-user", "-U"],
  maxLength: MAX_USER + 16,
  start(match): Candidate | undefined {
    if (match.before !== 0x20 && match.before !== 0x09) return undefined;
    let user = 0;
    let quote = 0;
    let phase = -1; // -1: after the flag, 0: value start, 1: user, 2: password
    let claim = match.length;
    let here = match.length - 1;
    return {
      get from() {
        return claim;
      },
      next(byte) {
        here++;
        if (phase === -1) {
          if (byte !== 0x20 && byte !== 0x3d) return Verdict.Reject;
          phase = 0;
          claim = here + 1;
          return Verdict.Hold;
        }
        if (phase === 0) {
          phase = 1;
          if (byte === 0x22 || byte === 0x27) {
            quote = byte;
            claim = here + 1;
            return Verdict.Hold;
          }
        }
        // The whole `user:password` is redacted: it is the credential as sent (an API token
        // often stands as the user, with an empty password).
        if (phase === 1) {
          if (SPACE[byte] === 1 || byte === quote) return Verdict.Reject;
          if (byte === 0x3a) {
            phase = 2;
            return Verdict.Redact;
          }
          return ++user > MAX_USER ? Verdict.Reject : Verdict.Hold;
        }
        if (SPACE[byte] === 1 || byte === quote) return Verdict.Close;
        return Verdict.Redact;
      },
      skip(input, start, end) {
        let i = start;
        if (phase !== 2) return i;
        while (i < end && SPACE[input[i]!] !== 1 && input[i] !== quote) i++;
        here += i - start;
        return i;
      },
      stateKey: () => (phase === 2 && claim <= here ? quote : undefined),
      end: () => (phase === 2 && claim <= here ? Verdict.Close : Verdict.Reject),
    };
  },
};
