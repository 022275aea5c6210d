/**
 * TLS secrets in the NSS key log format, the lines a program writes to `SSLKEYLOGFILE`
 * (curl, Firefox, Chrome, Python's `ssl`, Go's `KeyLogWriter`) so Wireshark can decrypt a
 * capture: a label, the connection's 32-byte client random in hex, and the secret in hex
 * (`CLIENT_RANDOM` a TLS 1.2 master secret, 48 bytes; TLS 1.3's traffic and exporter
 * secrets, 32 or 48 bytes; 64 for a hash of 512 bits). The label and the client random stay
 * (they identify the connection, and the random is sent in the clear); the secret, 64, 96
 * or 128 hex digits ending the entry, is redacted.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText(`CLIENT_RANDOM ${"ab".repeat(32)} ${"3f".repeat(48)}`);
 * // "CLIENT_RANDOM abab… [REDACTED:tls-key-log]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, HEX_VALUE } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

const LABELS = [
  "CLIENT_RANDOM",
  "CLIENT_EARLY_TRAFFIC_SECRET",
  "CLIENT_HANDSHAKE_TRAFFIC_SECRET",
  "SERVER_HANDSHAKE_TRAFFIC_SECRET",
  "CLIENT_TRAFFIC_SECRET_0",
  "SERVER_TRAFFIC_SECRET_0",
  "EARLY_EXPORTER_SECRET",
  "EXPORTER_SECRET",
  "ECH_SECRET",
];
/** The client random's hex digits. */
const RANDOM = 64;
/** The secrets' lengths in hex digits: 32, 48 and 64 bytes. */
const SECRET_DIGITS = new Set([64, 96, 128]);
const MOST_DIGITS = 128;
const SPACE = 0x20;

/** A label inside a longer name (`EXPORTER_SECRET` in `EARLY_EXPORTER_SECRET`) is not one. */
const NOT_BEFORE = byteSet("A-Za-z0-9_");

export const TLS_KEY_LOG_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "tls-key-log",
    anchors: LABELS,
    maxLength: RANDOM + MOST_DIGITS + 4,
    start(match): Candidate | undefined {
      if (match.before >= 0 && NOT_BEFORE[match.before] === 1) return undefined;
      return new KeyLogCandidate(match.length);
    },
  },
  NOT_BEFORE,
);

class KeyLogCandidate implements Candidate {
  /** The secret's first digit: a space, the random, a space after the label. */
  readonly from: number;
  /** Bytes read after the label. */
  private read = 0;

  constructor(label: number) {
    this.from = label + RANDOM + 2;
  }

  next(byte: number): Verdict {
    const at = this.read++;
    if (at === 0 || at === RANDOM + 1) return byte === SPACE ? Verdict.Hold : Verdict.Reject;
    if (HEX_VALUE[byte]! >= 0)
      return at <= RANDOM + 1 + MOST_DIGITS ? Verdict.Hold : Verdict.Reject;
    // The secret ends: redacted when it has a secret's length.
    return at > RANDOM + 1 && SECRET_DIGITS.has(at - RANDOM - 2) ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    return this.read > RANDOM + 1 && SECRET_DIGITS.has(this.read - RANDOM - 2)
      ? Verdict.Close
      : Verdict.Reject;
  }
}

keepShape(new KeyLogCandidate(13));
