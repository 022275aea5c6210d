/**
 * The password of a data source name as Go's MySQL driver (go-sql-driver/mysql) documents it,
 * `user:password@tcp(host:3306)/db` (also `tcp6`, `unix`), which has no scheme for the URL
 * rule to start at: the anchor is `@tcp(`, and the user and password are read behind it
 * (`MatcherRule.lookbehind`: the last bytes without a blank, at most {@link MAX_LOGIN}),
 * from after the last quote, `=`, `(`, `,`, `//` or escape (`dsn := "…"`, `DB_DSN=…`,
 * `sql.Open("mysql", "…")`). The password is what follows the user's first `:`, up to the anchor's `@`
 * (the driver reads the DSN's last `@` as the split, so a password may hold one); the
 * address in the parentheses and the `/` after them must follow. An empty password and a
 * placeholder (`$DB_PASS`, `${…}`, `%s`, `<password>`) are no secret.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('dsn := "app:Vq7p2Lm9x@tcp(db:3306)/shop"');
 * // 'dsn := "app:[REDACTED:dsn-password]@tcp(db:3306)/shop"'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of `user:password` read behind the anchor. */
const MAX_LOGIN = 72;
/** Most bytes of the address inside the parentheses. */
const MAX_ADDRESS = 255;
/**
 * Bytes after which the login starts: what the DSN stands after, a scheme's `//` (the URL
 * rule's then, which redacts the user with it), a string's escape (`\n`).
 */
const LOGIN_START = /^.*(?:["'`=(,]|\/\/|\\[a-z])/s;
/** A user's name: no `:` in it, as the driver splits at the first. */
const USER = /^[A-Za-z0-9_.$-]*$/;
/** First bytes of a placeholder. */
const PLACEHOLDER_START = byteSet("$%<{");
const CLOSE = 0x29;
const SLASH = 0x2f;

export const GO_MYSQL_DSN_RULE: MatcherRule = {
  kind: "matcher",
  name: "dsn-password",
  anchors: ["@tcp(", "@tcp6(", "@unix("],
  lookbehind: { length: MAX_LOGIN, body: "!-~" },
  maxLength: MAX_LOGIN + MAX_ADDRESS + 8,
  start: (match: AnchorMatch): Candidate | undefined => {
    const password = passwordLength(match.lead ?? "");
    return password > 0 ? new DsnCandidate(password) : undefined;
  },
};

/** Bytes of the password at the end of `lead` (the login before the anchor), or 0. */
function passwordLength(lead: string): number {
  const login = lead.replace(LOGIN_START, "");
  const colon = login.indexOf(":");
  if (colon <= 0 || !USER.test(login.slice(0, colon))) return 0;
  const password = login.length - colon - 1;
  return password > 0 && PLACEHOLDER_START[login.charCodeAt(colon + 1)] !== 1 ? password : 0;
}

/** One DSN from its password: held until the address and the `/` after it are read. */
class DsnCandidate implements Candidate {
  readonly from: number;
  readonly to = 0;
  /** Address bytes read, -1 once its `)` is. */
  address = 0;

  constructor(password: number) {
    this.from = -password;
  }

  next(byte: number): Verdict {
    if (this.address < 0) return byte === SLASH ? Verdict.Close : Verdict.Reject;
    if (byte === CLOSE) {
      this.address = -1;
      return Verdict.Hold;
    }
    if (BLANK[byte] === 1 || ++this.address > MAX_ADDRESS) return Verdict.Reject;
    return Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new DsnCandidate(4));
