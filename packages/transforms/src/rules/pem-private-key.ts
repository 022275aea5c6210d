/**
 * PEM private key blocks, redacted whole: from `-----BEGIN … PRIVATE KEY-----` through the
 * matching `-----END … -----` line, however long (an RSA-4096 key is ~3.3 KB; nothing is
 * held, the span is swallowed as it arrives). The block also ends at the first byte that
 * cannot be part of one, so a key cut off without its END line does not swallow the rest
 * of the output; escaped newlines (`\n` inside JSON) are part of the block.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nok");
 * // "[REDACTED:pem-private-key]\nok"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";

const KINDS = ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ", "SSH2 ENCRYPTED "];
/** Base64 body, header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`), escaped newlines. */
const BODY = byteSet("A-Za-z0-9+/=:,.()\\ \t\r\n-");
const END_LINE = byteSet("A-Z -");
const DASH = 0x2d;

export const PEM_PRIVATE_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "pem-private-key",
  anchors: [
    ...KINDS.map((kind) => `-----BEGIN ${kind}PRIVATE KEY-----`),
    "-----BEGIN PGP PRIVATE KEY BLOCK-----",
  ],
  maxLength: 64,
  start(): Candidate {
    let dashes = 0;
    // 0: body; 1-3: matched "E", "N", "D" after five dashes; 4: in the END line; 5: done.
    let phase = 0;
    return {
      from: 0,
      next(byte) {
        if (phase === 5) return Verdict.Reject;
        if (phase === 4) {
          if (END_LINE[byte] !== 1) return Verdict.Reject;
          dashes = byte === DASH ? dashes + 1 : 0;
          if (dashes === 5) phase = 5;
          return Verdict.Redact;
        }
        if (BODY[byte] !== 1) return Verdict.Reject;
        if (phase > 0 && byte === "END".charCodeAt(phase - 1)) {
          phase++;
          if (phase === 4) dashes = 0;
          return Verdict.Redact;
        }
        phase = 0;
        if (dashes >= 5 && byte === 0x45) phase = 2;
        dashes = byte === DASH ? dashes + 1 : 0;
        return Verdict.Redact;
      },
      skip(input, start, end) {
        // Body bytes other than "-" change nothing while no "-----" is pending.
        let i = start;
        if (phase !== 0 || dashes !== 0) return i;
        for (; i < end; i++) {
          const byte = input[i]!;
          if (BODY[byte] !== 1 || byte === DASH) break;
        }
        return i;
      },
      stateKey: () => phase * 8 + Math.min(dashes, 5),
      end: () => Verdict.Close,
    };
  },
};
