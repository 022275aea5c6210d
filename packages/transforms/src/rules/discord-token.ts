/**
 * Discord's bot and user tokens, bare: three segments joined by dots, the first the base64 of
 * the account's id in decimal (a snowflake, 17 to 20 digits: 23 to 27 characters, padding
 * dropped), then a timestamp (6 base64url characters) and an HMAC (27, or 38 in today's
 * tokens). Base64 of decimal digits has one pattern in every group of four characters
 * (`[MNO][DTjz][AEIMQUYcgk][w-z0-5]`): the anchors are the first three characters of an
 * id's, the first group is held to it, and the segments' lengths do the rest (the id's
 * other characters are not checked, so a made-up id, as scanners' tests write them, still
 * counts). The token is
 * held whole (at most {@link MAX_LENGTH} bytes) and redacted when it ends with its segments
 * in range.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * // The id 123456789012345678, a timestamp, an HMAC of 38 characters:
 * redactText(`bot MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.${"aB3_".repeat(9)}xY`);
 * // "bot [REDACTED:discord-token]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BASE64URL, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotAfter, withNotBefore } from "./not-before.js";

const DOT = 0x2e;
/** The id's segment: 17 to 20 digits. */
const MIN_ID = 23;
const MAX_ID = 27;
const MIN_STAMP = 5;
const MAX_STAMP = 7;
const MIN_HMAC = 25;
const MAX_HMAC = 45;
const MAX_LENGTH = MAX_ID + 1 + MAX_STAMP + 1 + MAX_HMAC + 1;

/**
 * The anchors: base64 of an id's first two digits and the third's high bits (an id never
 * starts with `0`, so `MD…`, `Oj…` and `Oz…` never open one): 90 of them.
 */
const ANCHORS: string[] = [];
for (const pair of "MT Mj Mz ND NT Nj Nz OD OT".split(" "))
  for (const c of "AEIMQUYcgk") ANCHORS.push(`${pair}${c}`);
/** Base64 of decimal digits, by place in a group of four (the first group is held to it). */
const GROUP = ["MNO", "DTjz", "AEIMQUYcgk", "wxyz012345"].map(byteSet);
/** Characters of the id's segment held to {@link GROUP}. */
const CHECKED = 4;

/** Bytes before an anchor that rule it out: a longer run's (base64 of anything), a dot. */
const NOT_BEFORE = byteSet("A-Za-z0-9_.-");

export const DISCORD_TOKEN_RULE: MatcherRule = withNotAfter(
  withNotBefore(
    {
      kind: "matcher",
      name: "discord-token",
      anchors: ANCHORS,
      maxLength: MAX_LENGTH,
      start(match): Candidate | undefined {
        if (match.before >= 0 && NOT_BEFORE[match.before] === 1) return undefined;
        return new DiscordCandidate();
      },
    },
    NOT_BEFORE,
  ),
  // The group's fourth character, the third digit's low bits, comes first.
  GROUP[3]!.map((b) => 1 - b),
);

/** One token from its first character (a class: one allocation a candidate). */
class DiscordCandidate implements Candidate {
  readonly from = 0;
  /** 0: the id's segment, 1: the timestamp's, 2: the HMAC's. */
  segment = 0;
  /** Characters of the current segment read (the anchor's three count). */
  count = 3;
  /** Offset of the byte read last (the anchor's are 0 to 2). */
  here = 2;
  /** After `Close`: the end of the token, a dot held after it being a sentence's. */
  to: number | undefined = undefined;

  next(byte: number): Verdict {
    this.here++;
    if (this.to !== undefined) return BASE64URL[byte] === 1 ? Verdict.Reject : Verdict.Close;
    if (this.segment === 0) return this.idByte(byte);
    if (BASE64URL[byte] === 1) {
      const most = this.segment === 1 ? MAX_STAMP : MAX_HMAC;
      return ++this.count > most ? Verdict.Reject : Verdict.Hold;
    }
    if (this.segment === 1)
      return byte === DOT && this.count >= MIN_STAMP ? this.nextSegment() : Verdict.Reject;
    if (this.count < MIN_HMAC) return Verdict.Reject;
    if (byte !== DOT) return Verdict.Close;
    // A full stop after it ends a sentence; a dot and a fourth segment is another format.
    this.to = this.here;
    return Verdict.Hold;
  }

  /** A character of the id's segment, or its dot. */
  private idByte(byte: number): Verdict {
    if (byte === DOT) return this.count >= MIN_ID ? this.nextSegment() : Verdict.Reject;
    const place = this.count;
    if (place < CHECKED ? GROUP[place % 4]![byte] !== 1 : BASE64URL[byte] !== 1)
      return Verdict.Reject;
    return ++this.count <= MAX_ID ? Verdict.Hold : Verdict.Reject;
  }

  private nextSegment(): Verdict {
    this.segment++;
    this.count = 0;
    return Verdict.Hold;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    if (this.segment !== 2 || this.to !== undefined) return start;
    const stop = Math.min(end, start + (MAX_HMAC - this.count));
    let i = start;
    while (i < stop && BASE64URL[input[i]!] === 1) i++;
    this.count += i - start;
    this.here += i - start;
    return i;
  }

  end(): Verdict {
    if (this.to !== undefined) return Verdict.Close;
    return this.segment === 2 && this.count >= MIN_HMAC ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new DiscordCandidate());
