/**
 * `Authorization:` (and `Proxy-Authorization:`; spelled authorization, AUTHORIZATION or
 * Authorization) values, in HTTP dumps, curl `-v` output,
 * JSON and assignments. With a known scheme (`Bearer`, `Basic`, `Token`, …) the scheme
 * stays and the credential is redacted; otherwise the whole value is. The value runs to its
 * closing quote when quoted, else to the end of the line. Only the scheme word is ever
 * held (at most 32 bytes).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("> Authorization: Basic dXNlcjpwYXNz\n");
 * // "> Authorization: Basic [REDACTED:authorization-header]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet } from "./byte-classes.js";
import { keywordSpellings } from "./keyword-spellings.js";

const SCHEMES = new Set([
  "bearer",
  "basic",
  "token",
  "digest",
  "negotiate",
  "ntlm",
  "bot",
  "apikey",
  "key",
  "hoba",
  "mutual",
  "dpop",
  "gnap",
  "aws4-hmac-sha256",
  "sharedkey",
]);
const NAME = byteSet("A-Za-z0-9_-");
const WORD = byteSet("A-Za-z0-9-");
const MAX_WORD = 32;
const MAX_NAME = 32;

const Phase = {
  Name: 0,
  AfterName: 1,
  ValueStart: 2,
  QuotedFirst: 3,
  Word: 4,
  CredentialStart: 5,
  Credential: 6,
} as const;

export const AUTHORIZATION_HEADER_RULE: MatcherRule = {
  kind: "matcher",
  name: "authorization-header",
  anchors: keywordSpellings(["authorization"]),
  maxLength: MAX_WORD + 2,
  // Over 80 lines on purpose: a candidate whose per-byte grammar (`next`, one switch over
  // `phase`, in the redactor's hot loop), `skip` and `end` share this closure's state.
  start(match): Candidate {
    let phase: number = Phase.Name;
    let here = match.length - 1;
    let claim = match.length;
    let count = 0;
    let keyQuoted = false;
    let quote = 0;
    let escaped = false;
    let word = "";
    const endsValue = (byte: number) => byte === quote || byte === 0x0a || byte === 0x0d;
    return {
      get from() {
        return claim;
      },
      next(byte) {
        here++;
        for (;;) {
          switch (phase) {
            case Phase.Name:
              claim = here + 1;
              if (NAME[byte] === 1) return ++count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
              phase = Phase.AfterName;
              continue;
            case Phase.AfterName:
              claim = here + 1;
              if ((byte === 0x22 || byte === 0x27) && !keyQuoted) {
                keyQuoted = true;
                return Verdict.Hold;
              }
              if (BLANK[byte] === 1) return Verdict.Hold;
              if (byte !== 0x3a && byte !== 0x3d) return Verdict.Reject;
              phase = Phase.ValueStart;
              return Verdict.Hold;
            case Phase.ValueStart:
              claim = here + 1;
              if (BLANK[byte] === 1) return Verdict.Hold;
              if (byte === 0x22 || byte === 0x27) {
                quote = byte;
                phase = Phase.QuotedFirst;
                return Verdict.Hold;
              }
              phase = Phase.Word;
              continue;
            case Phase.QuotedFirst:
              if (endsValue(byte)) return Verdict.Reject;
              phase = Phase.Word;
              continue;
            case Phase.Word:
              if (word === "") claim = here;
              if (WORD[byte] === 1 && word.length < MAX_WORD) {
                word += String.fromCharCode(byte | 0x20);
                return Verdict.Hold;
              }
              if (endsValue(byte) && word !== "") return Verdict.Close;
              if (BLANK[byte] === 1 && SCHEMES.has(word)) {
                phase = Phase.CredentialStart;
                claim = here + 1;
                return Verdict.Hold;
              }
              if (endsValue(byte)) return Verdict.Reject;
              // Not a scheme: the value itself is the credential.
              phase = Phase.Credential;
              continue;
            case Phase.CredentialStart:
              claim = here + 1;
              if (BLANK[byte] === 1) return Verdict.Hold;
              if (endsValue(byte)) return Verdict.Reject;
              claim = here;
              phase = Phase.Credential;
              continue;
            case Phase.Credential:
              if (escaped) {
                escaped = false;
                return Verdict.Redact;
              }
              if (endsValue(byte)) return Verdict.Close;
              escaped = quote === 0x22 && byte === 0x5c;
              return Verdict.Redact;
          }
        }
      },
      skip(input, start, end) {
        let i = start;
        if (phase === Phase.Credential) {
          for (; i < end; i++) {
            if (escaped) {
              escaped = false;
              continue;
            }
            const byte = input[i]!;
            if (endsValue(byte)) break;
            escaped = quote === 0x22 && byte === 0x5c;
          }
        } else if (phase === Phase.Name) {
          const stop = Math.min(end, start + (MAX_NAME - count));
          while (i < stop && NAME[input[i]!] === 1) i++;
          count += i - start;
          claim = here + (i - start) + 1;
        }
        here += i - start;
        return i;
      },
      stateKey: () => (phase === Phase.Credential ? quote * 2 + (escaped ? 1 : 0) : undefined),
      end() {
        return phase === Phase.Word && word !== "" ? Verdict.Close : Verdict.Reject;
      },
    };
  },
};
