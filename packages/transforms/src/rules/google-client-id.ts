/**
 * A Google OAuth client's id, as Google's consoles issue it: the project's number, `-`, 32
 * small letters and digits, and `.apps.googleusercontent.com`
 * (`123456789012-k3j9x2m7q4w1z6c5v0b8n2l5h7g4f1d9.apps.googleusercontent.com`). Google
 * does not count a client id as a secret (a web page holds it), but it names the OAuth
 * app a client secret or a refresh token belongs to, and secret scanners report it; the
 * number and the 32 characters are redacted and the domain is kept.
 *
 * The anchor is the domain, so the id is read behind it (`MatcherRule.lookbehind`): a run
 * of 6 to 16 digits, `-` and 32 letters and digits that starts the word (no letter, digit
 * or `-` before it, but for a string's escape: `\n` and the id).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("client_id=123456789012-k3j9x2m7q4w1z6c5v0b8n2l5h7g4f1d9.apps.googleusercontent.com");
 * // "client_id=[REDACTED:google-oauth-client-id].apps.googleusercontent.com"
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { keepShape } from "./kept-shapes.js";

/** The id: the project's number, `-` and 32 characters, the whole run before the domain. */
const CLIENT_ID = /^[0-9]{6,16}-[A-Za-z0-9]{32}$/;
/** Bytes held behind the anchor: the longest id and one byte more (so a longer run shows). */
const MAX_LEAD = 16 + 1 + 32 + 1;

/** Closes at once: the id was read behind the anchor, and the domain after it is kept. */
class ClientIdCandidate implements Candidate {
  readonly from: number;
  readonly to = 0;

  constructor(length: number) {
    this.from = -length;
  }

  next(): Verdict {
    return Verdict.Close;
  }

  end(): Verdict {
    return Verdict.Close;
  }
}

/**
 * Google OAuth client ids (see the file's comment).
 *
 * @category redaction
 */
export const GOOGLE_CLIENT_ID_RULE: MatcherRule = {
  kind: "matcher",
  name: "google-oauth-client-id",
  anchors: [".apps.googleusercontent.com"],
  lookbehind: { length: MAX_LEAD, body: "A-Za-z0-9-" },
  maxLength: MAX_LEAD + 28,
  start: (match: AnchorMatch): Candidate | undefined => {
    // The whole run of the class before the domain (a longer run, or a name joined by `-`,
    // is something else), but for a string's escape letter before it (the `n` of `\n`).
    let id = match.lead ?? "";
    if (!CLIENT_ID.test(id) && match.leadFirst !== id.charCodeAt(0)) id = id.slice(1);
    return CLIENT_ID.test(id) ? new ClientIdCandidate(id.length) : undefined;
  },
};

keepShape(new ClientIdCandidate(45));
