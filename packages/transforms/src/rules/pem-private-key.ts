/**
 * Private key blocks. PEM private key blocks, redacted whole: from `-----BEGIN … PRIVATE
 * KEY-----` through the matching `-----END … -----` line, however long (an RSA-4096 key is
 * ~3.3 KB; nothing is held, the span is swallowed as it arrives). The anchor is `BEGIN …
 * PRIVATE KEY-----`, the dashes before it read behind it (held back for it; those another
 * span already redacted stay with that span), so a run of dashes does not stop the scan.
 * The block also ends at the first byte that cannot be part of one, so a key cut off
 * without its END line does not swallow the rest of the output; escaped newlines (`\n`
 * inside JSON) are part of the block.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nok");
 * // "[REDACTED:pem-private-key]\nok"
 * ```
 *
 * PuTTY's `.ppk` key files: the `Private-Lines: N` line says how many base64 lines of the
 * private key follow; exactly those lines are redacted (the header and the public lines,
 * before it, stay readable; so does the `Private-MAC:` after it).
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";

const KINDS = ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ", "SSH2 ENCRYPTED "];
/** Base64 body, header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`), escaped newlines. */
const BODY = byteSet("A-Za-z0-9+/=:,.()\\ \t\r\n-");
/** The END line's name (OpenVPN's have small letters and digits: `Static key V1`). */
const END_LINE = byteSet("A-Za-z0-9 -");
const DASH = 0x2d;

/** The dashes before `BEGIN`, read behind the anchor and redacted with the block. */
const OPENING_DASHES = 5;

export const PEM_PRIVATE_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "pem-private-key",
  // Anchored at `BEGIN`, its dashes read behind it: an anchor that began with them stopped
  // the start filter all along every run of dashes (a log's separator lines).
  anchors: [
    ...KINDS.map((kind) => `BEGIN ${kind}PRIVATE KEY-----`),
    "BEGIN PGP PRIVATE KEY BLOCK-----",
    // OpenVPN's shared keys (`openvpn --genkey`): `secret`, `tls-auth`, `tls-crypt` and
    // `tls-crypt-v2` keys, hex or base64 lines in a block of their own name.
    "BEGIN OpenVPN Static key V1-----",
    "BEGIN OpenVPN tls-crypt-v2 server key-----",
    "BEGIN OpenVPN tls-crypt-v2 client key-----",
  ],
  lookbehind: { length: OPENING_DASHES, body: "-" },
  maxLength: 64,
  start(match): Candidate | undefined {
    // A dash right before `BEGIN`: the block claims the dashes still held (up to five; any
    // before them another span has already redacted, or they are fewer: still a key).
    if (match.before !== DASH) return undefined;
    let dashes = 0;
    // 0: body; 1-3: matched "E", "N", "D" after five dashes; 4: in the END line; 5: done.
    let phase = 0;
    // Between two string literals of code that joins the block's lines (see `joinedLiterals`).
    const join = { stage: 0, quote: 0, bytes: 0 };
    return {
      from: -(match.lead?.length ?? 0),
      next(byte) {
        if (join.stage !== 0) return joinedLiterals(join, byte);
        if (phase === 5) return Verdict.Reject;
        if (phase === 0 && (byte === 0x22 || byte === 0x27)) {
          join.stage = 1;
          join.quote = byte;
          join.bytes = 0;
          return Verdict.Hold;
        }
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
        if (phase !== 0 || dashes !== 0 || join.stage !== 0) return i;
        for (; i < end; i++) {
          const byte = input[i]!;
          if (BODY[byte] !== 1 || byte === DASH) break;
        }
        return i;
      },
      stateKey: () => (join.stage === 0 ? phase * 8 + Math.min(dashes, 5) : undefined),
      end: () => Verdict.Close,
    };
  },
};

/** Most bytes between two joined literals' quotes (the operator, a line break, indentation). */
const MAX_JOIN = 64;
const JOIN_OPERATOR = byteSet("+.&");
const BLANKS = byteSet(" \t\r");

/**
 * A byte after a quote that closed one of the block's lines in code that writes the key as
 * joined string literals (`"-----BEGIN RSA PRIVATE KEY-----" +` / `"MIIE…" +` on the next
 * line, `.` in PHP, `&` in Visual Basic, none in C and Python): the quote, an operator, one
 * line break and indentation are held, and redacted once the next literal's quote opens;
 * anything else leaves them, and the block ends at the quote.
 */
function joinedLiterals(
  join: { stage: number; quote: number; bytes: number },
  byte: number,
): Verdict {
  if (++join.bytes > MAX_JOIN) return Verdict.Reject;
  if (BLANKS[byte] === 1) return Verdict.Hold;
  if (byte === 0x0a && join.stage < 3) {
    join.stage = 3;
    return Verdict.Hold;
  }
  if (JOIN_OPERATOR[byte] === 1 && join.stage !== 2 && join.stage !== 4) {
    join.stage = join.stage === 1 ? 2 : 4;
    return Verdict.Hold;
  }
  if (byte !== join.quote || join.stage < 3) return Verdict.Reject;
  join.stage = 0;
  return Verdict.Redact;
}

/** Base64 of a `.ppk` file's private lines. */
const PPK_BODY = byteSet("A-Za-z0-9+/=");
/** Most private lines a PuTTY key has (an RSA-16384 key has ~120). */
const MAX_PPK_LINES = 256;

/** Where a `.ppk` candidate stands: the line count, a line's base64, or a line end. */
const Ppk = { Count: 0, Body: 1, LineEnd: 2 } as const;
type Ppk = (typeof Ppk)[keyof typeof Ppk];
/** `from` before the first private line: nothing held. */
const NONE = Number.MAX_SAFE_INTEGER;

export const PUTTY_PRIVATE_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "putty-private-key",
  anchors: ["Private-Lines:"],
  maxLength: 32,
  start(match): Candidate {
    let phase: Ppk = Ppk.Count;
    let lines = 0;
    /** Line ends still to come: the last one ends the last private line. */
    let left = 0;
    let here = match.length - 1;
    let from = NONE;
    /** In a line end, after a backslash (`\\n` inside a JSON or C string). */
    let escaped = false;
    const going = (): Verdict => (from === NONE ? Verdict.Hold : Verdict.Redact);
    const lineEnd = (byte: number): Verdict => {
      if (lines === 0) return Verdict.Reject;
      if (--left === 0) return from === NONE ? Verdict.Reject : Verdict.Close;
      phase = Ppk.LineEnd;
      escaped = byte === 0x5c;
      return going();
    };
    return {
      get from() {
        return from;
      },
      next(byte) {
        here++;
        switch (phase) {
          case Ppk.Count:
            if (byte >= 0x30 && byte <= 0x39) {
              lines = lines * 10 + (byte - 0x30);
              return lines > MAX_PPK_LINES ? Verdict.Reject : Verdict.Hold;
            }
            if (byte === 0x20 && lines === 0) return Verdict.Hold;
            if (byte !== 0x0a && byte !== 0x0d && byte !== 0x5c) return Verdict.Reject;
            left = lines + 1;
            return lineEnd(byte);
          case Ppk.LineEnd:
            // `\r\n`, `\n`, or escaped `\\n`, `\\r\\n`.
            if (escaped ? byte === 0x6e || byte === 0x72 : byte === 0x0a) {
              escaped = false;
              return going();
            }
            if (byte === 0x5c && !escaped) {
              escaped = true;
              return going();
            }
            if (PPK_BODY[byte] !== 1 || escaped) return Verdict.Reject;
            phase = Ppk.Body;
            if (from === NONE) from = here;
            return Verdict.Redact;
          default:
            if (PPK_BODY[byte] === 1) return Verdict.Redact;
            if (byte === 0x0a || byte === 0x0d || byte === 0x5c) return lineEnd(byte);
            return Verdict.Close;
        }
      },
      end: () => (from === NONE ? Verdict.Reject : Verdict.Close),
    };
  },
};
