/**
 * Shared secrets in a network device's configuration, as Cisco IOS (and the many systems
 * that copy its syntax) prints them in `show running-config`: the word after the command,
 * past an optional encryption type (`0` plain, `7` reversible, `5`/`8`/`9` hashes, all of
 * them secret enough to redact):
 *
 * - `snmp-server community <string> RO|RW [acl]` (SNMP's shared password);
 * - `tacacs-server key [0|7] <key>`, `radius-server key [0|7] <key>`, `pac key [0|7] <key>`;
 * - `crypto isakmp key <key> address …`, `key-string [0|7] <key>` (key chains),
 *   `ip ospf authentication-key [0|7] <key>`, `wpa-psk ascii [0|8] <key>`;
 * - `enable secret [0|5|8|9] <secret>`.
 *
 * Only the value is redacted (the command, the type and what follows stay); a value ends
 * at a blank, a line's end or a backslash (a string's escape, inside JSON). A short word of
 * small letters is not read as one: prose names the commands too (`the key-string command`),
 * and so a default community such as `public` stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("snmp-server community S3cretCommunity RW 99\n");
 * // "snmp-server community [REDACTED:network-device-secret] RW 99\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, DIGIT } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Most bytes of a value (IOS allows 128 for most of these). */
const MAX_VALUE = 128;
/** Most blanks between the command and the value. */
const MAX_GAP = 8;
/** Longest word of small letters read as prose, not a value (`the key-string command`). */
const MAX_WORD = 12;
const SMALL = byteSet("a-z");
/**
 * A value's bytes: printable ASCII but a blank, a backslash and a double quote (a
 * configuration carried in a JSON string ends there: `"…community <value>","next"`).
 */
const VALUE = byteSet("!#-[]-~");

const ANCHORS = [
  "snmp-server community",
  "tacacs-server key",
  "radius-server key",
  "pac key",
  "crypto isakmp key",
  "key-string",
  "authentication-key",
  "wpa-psk ascii",
  "enable secret",
];

const Phase = {
  /** Blanks after the command (one at least), then a type digit or the value's first byte. */
  Gap: 0,
  /** After one digit: a blank makes it the type, a value byte makes it the value's. */
  Type: 1,
  /** The value's bytes. */
  Value: 2,
} as const;

/** Blanks within a line. */
const INLINE = byteSet(" \t");

export const NETWORK_CONFIG_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "network-device-secret",
    anchors: ANCHORS,
    // Blanks, a type and its blank, the value and the byte that ends it.
    maxLength: MAX_GAP + MAX_VALUE + 3,
    start(match): Candidate | undefined {
      if (match.before >= 0 && ALNUM[match.before] === 1) return undefined;
      return new NetworkSecretCandidate(match.length);
    },
  },
  ALNUM,
);

/** The value after one command, past its type. */
class NetworkSecretCandidate implements Candidate {
  phase: number = Phase.Gap;
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  /** The value's first byte. */
  from: number;
  to: number | undefined = undefined;
  /** Blanks read after the command. */
  blanks = 0;
  /** The value so far is small letters only. */
  word = true;

  constructor(anchorLength: number) {
    this.here = anchorLength - 1;
    this.from = anchorLength;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.phase === Phase.Gap) {
      if (INLINE[byte] === 1) {
        this.from = here + 1;
        return ++this.blanks > MAX_GAP ? Verdict.Reject : Verdict.Hold;
      }
      if (this.blanks === 0 || VALUE[byte] !== 1) return Verdict.Reject;
      this.phase = DIGIT[byte] === 1 ? Phase.Type : Phase.Value;
      return Verdict.Hold;
    }
    if (this.phase === Phase.Type) {
      this.phase = Phase.Value;
      if (INLINE[byte] === 1) {
        this.from = here + 1;
        return Verdict.Hold;
      }
    }
    if (VALUE[byte] === 1) {
      if (SMALL[byte] !== 1) this.word = false;
      return here - this.from < MAX_VALUE ? Verdict.Hold : Verdict.Reject;
    }
    return this.ended(here);
  }

  end(): Verdict {
    return this.phase === Phase.Value ? this.ended(this.here + 1) : Verdict.Reject;
  }

  /**
   * The value ended before `at`: a secret unless empty or a short word of small letters,
   * which prose about a command has after it (`the key-string command`).
   */
  private ended(at: number): Verdict {
    const length = at - this.from;
    return length > 0 && !(this.word && length <= MAX_WORD) ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new NetworkSecretCandidate(1));
