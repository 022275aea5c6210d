/**
 * `Authorization:` (and `Proxy-Authorization:`; spelled authorization, AUTHORIZATION or
 * Authorization) values, in HTTP dumps, curl `-v` output,
 * JSON (also inside a JSON string, `\"Authorization\": \"Bearer …\"`) and assignments.
 * With a known scheme (`Bearer`, `Basic`, `Token`, …) the scheme stays and the credential
 * is redacted; otherwise the whole value is. A token scheme's credential, and a value
 * without a scheme, is one token: it ends at whitespace, a quote, a backslash or a
 * delimiter (`, ; ) } ] < >`), so a header inside one-line JSON keeps everything after its
 * token. A multi-word scheme's credential (`Digest …`, `AWS4-HMAC-SHA256 …`) runs to its
 * closing quote when quoted, else to the end of its parameters (see `AuthParams`), and
 * never past {@link MAX_CREDENTIAL} bytes. Only the scheme word is ever held (at most 32 bytes).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("> Authorization: Basic dXNlcjpwYXNz\n");
 * // "> Authorization: Basic [REDACTED:authorization-header]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, BLANK, byteSet, MAX_BACKSLASHES, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { keywordSpellings } from "./keyword-spellings.js";
import { withNotBefore } from "./not-before.js";

/** Schemes whose credential is a single token (RFC 7235's token68, or a password). */
const SINGLE_TOKEN_SCHEMES = new Set([
  "bearer",
  "basic",
  "token",
  "bot",
  "apikey",
  "key",
  "dpop",
  "negotiate",
  "ntlm",
]);
/**
 * Bytes that end a token scheme's credential: whitespace, quotes, escapes, delimiters, and
 * a query string's or a shell's `&` and `|` (none is in RFC 7235's token68).
 */
const TOKEN_END = withControls(byteSet(" \t\r\n\v\f\"'`\\,;)}]<>&|"));
/**
 * Bytes that start a placeholder, not a credential (`${x}`, `<x>`, `{{x}}`, `%s`, `[token]`,
 * `...`, `…`, and a marker this redactor wrote: `[REDACTED:…]` stays as it is).
 */
const PLACEHOLDER = byteSet("${<%[.\x80-\xff");
/** RFC 7235's token68: what a token after a word that is no scheme may hold. */
const TOKEN68 = byteSet("A-Za-z0-9._~+/=-");
/** Fewest bytes of a token after a word that is no scheme when joined to it by `.` or `_`. */
const MIN_TOKEN = 8;
/** Most bytes of a credential that is not one token run (`Digest …`, a value without a scheme). */
export const MAX_CREDENTIAL = 4096;

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
  "oauth",
]);
const NAME = byteSet("A-Za-z0-9_-");
/** What may follow the keyword in a name that still holds the header's value. */
const HEADER_TAILS = new Set(["", "header", "value", "token"]);
const WORD = byteSet("A-Za-z0-9-");
const MAX_WORD = 32;
const MAX_NAME = 32;
/** Most blanks between an unknown scheme (or a first token) and the token after it. */
const MAX_GAP = 4;
/** Most bytes from the line's end before a YAML list's `- ` (its indentation). */
const MAX_INDENT = 40;
/** Bytes of the token after such a gap that decide it is one (see {@link tokenSoFar}). */
const TOKEN_DECIDED = 16;

const Phase = {
  Name: 0,
  AfterName: 1,
  ValueStart: 2,
  QuotedFirst: 3,
  Word: 4,
  CredentialStart: 5,
  Credential: 6,
} as const;

export const AUTHORIZATION_HEADER_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "authorization-header",
    anchors: keywordSpellings(["authorization"]),
    // The first word, a gap and the token after it, until that token is decided.
    maxLength: MAX_WORD + 2 + MAX_GAP + TOKEN_DECIDED,
    // After a letter or a digit the name is another one (`binaryAuthorization`, a
    // `dnsAuthorization` resource); `Proxy-Authorization` and CGI's `HTTP_AUTHORIZATION` hold it.
    start: (match) =>
      match.before >= 0 && ALNUM[match.before] === 1
        ? undefined
        : new AuthorizationCandidate(match.length),
  },
  ALNUM,
);

/**
 * One `Authorization` candidate. A class, not a closure per occurrence: a literal with a
 * getter and five closures cost a fifth of the CPU on `authorization="` repeated.
 */
class AuthorizationCandidate implements Candidate {
  phase: number = Phase.Name;
  here: number;
  from: number;
  count = 0;
  keyQuoted = false;
  quote = 0;
  escaped = false;
  word = "";
  /** The quote came escaped (`\"` inside a string): a backslash ends the value. */
  escapedQuote = false;
  /** The previous byte was a backslash before a quote. */
  quoteEscape = false;
  /** Backslashes read after the first of a run. */
  backslashes = 0;
  /** The credential is one token (a token scheme's). */
  single = false;
  /** Credential bytes seen. */
  length = 0;
  /** The name after the keyword, lowercase without `_` and `-`. */
  tail = "";
  /** The separator was `=` (not a header's `:`). */
  equals = false;
  /** The separator was a `,` after a quoted name: only a quoted value follows. */
  comma = false;
  /** Blanks followed the unquoted name. */
  spaced = false;
  /** The quoted name stood in a subscript (`headers['Authorization']`): `=` follows. */
  subscript = false;
  /**
   * The value is a list's first element (Go's `http.Header`: `"Authorization": ["…"]` as
   * JSON, `map[Authorization:[…]]` printed).
   */
  listed = false;
  /** Bytes read since the line ended before a YAML list's item (see `nextLine`), or 0. */
  lineBreak = 0;
  /** That item's `-` was read. */
  dash = false;
  /**
   * Blank gaps the credential may still cross: 1 after a first word that is no known
   * scheme (`SSWS <token>`, `Splunk <token>`: the word may be a scheme or the credential,
   * so both go), else 0.
   */
  gaps = 0;
  /** Inside such a gap (blanks read, the next token not yet). */
  inGap = false;
  /** Where the gap began (offset from the anchor): a value that ends in it ends there. */
  gapFrom = 0;
  /** Blanks of the gap read. */
  gapBlanks = 0;
  /**
   * The first word, no token by itself (`Authorization: headers on a redirect`, `SSWS`), is
   * held, not redacted: it goes only with a token after it.
   */
  heldWord = false;
  /** Bytes of the token after the gap held so far (0: none yet, -1: decided, redacted). */
  after = 0;
  /** That token's bytes so far have a digit, a lowercase letter, a capital. */
  afterKinds = 0;
  /**
   * The held first word goes on after a `.` or `_`: what follows is a token only with a
   * digit (a member's path, `vendor_settings.BinaryAuthorization`, is none).
   */
  joined = false;
  /** Where the redaction ends when it ends before the byte that decides (see `to`). */
  closeAt: number | undefined = undefined;
  /**
   * A token scheme's credential may be an auth-param (see `paramByte`): 1 reading its name,
   * 2 after its `=`, 3 in backslashes after it (`=\"` inside a string), 4 after its quote;
   * 0 not (any more). Where what follows the `=` began.
   */
  param = 0;
  paramAt = 0;
  /** An unquoted multi-word scheme's credential, read as RFC 7235's parameters, or null. */
  params: AuthParams | null = null;

  constructor(length: number) {
    this.here = length - 1;
    this.from = length;
  }

  get to(): number | undefined {
    return this.closeAt;
  }

  endsValue(byte: number): boolean {
    if (this.escapedQuote) return byte === 0x5c || byte === 0x0a || byte === 0x0d;
    return byte === this.quote || byte === 0x0a || byte === 0x0d;
  }

  /** True when `byte` ends the credential (it is not part of it). */
  endsCredential(byte: number): boolean {
    if (this.single) return TOKEN_END[byte] === 1;
    if (this.endsValue(byte)) return true;
    // Unquoted inside a string, an escape (`\n`) ends the line.
    return byte === 0x5c && this.quote === 0;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    // A run of backslashes before a quote reads as one (see `MAX_BACKSLASHES`).
    if (byte === 0x5c && this.quoteEscape)
      return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
    this.backslashes = 0;
    for (;;) {
      switch (this.phase) {
        case Phase.Name:
          this.from = here + 1;
          if (NAME[byte] === 1) {
            if (byte !== 0x5f && byte !== 0x2d) this.tail += String.fromCharCode(byte | 0x20);
            return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
          }
          // `authorizationServerUrl`, `AUTHORIZATION_CODE`: a name that goes on names something else.
          if (!HEADER_TAILS.has(this.tail)) return Verdict.Reject;
          this.phase = Phase.AfterName;
          continue;
        case Phase.AfterName:
          this.from = here + 1;
          return this.afterName(byte);
        case Phase.ValueStart:
          this.from = here + 1;
          if (this.lineBreak > 0 || ((byte === 0x0a || byte === 0x0d) && this.mayBreak()))
            return this.nextLine(byte);
          if (this.quoteEscape) {
            this.quoteEscape = false;
            // An escaped line end: the list on the next line, inside a string.
            if ((byte === 0x6e || byte === 0x72) && this.mayBreak()) return this.nextLine(0x0a);
            if (byte !== 0x22 && byte !== 0x27) return Verdict.Reject;
            this.quote = byte;
            this.escapedQuote = true;
            this.phase = Phase.QuotedFirst;
            return Verdict.Hold;
          }
          if (byte === 0x5c) {
            this.quoteEscape = true;
            return Verdict.Hold;
          }
          if (BLANK[byte] === 1) return Verdict.Hold;
          if (byte === 0x5b && !this.listed && !this.equals && !this.comma) {
            this.listed = true;
            return Verdict.Hold;
          }
          // A template literal too (`\`Bearer …\``; one with `${…}` is a placeholder).
          if (byte === 0x22 || byte === 0x27 || byte === 0x60) {
            this.quote = byte;
            this.phase = Phase.QuotedFirst;
            return Verdict.Hold;
          }
          if (this.comma) return Verdict.Reject;
          this.phase = Phase.Word;
          continue;
        case Phase.QuotedFirst:
          // A quoted header value starts with its scheme or credential, never a blank.
          if (this.endsValue(byte) || BLANK[byte] === 1) return Verdict.Reject;
          this.phase = Phase.Word;
          continue;
        case Phase.Word:
          return this.wordByte(byte, here);
        case Phase.CredentialStart:
          this.from = here + 1;
          if (BLANK[byte] === 1) return Verdict.Hold;
          // A placeholder (`Bearer ${token}`, `Bearer <token>`, `Bearer {{token}}`) is code or
          // documentation, not a credential.
          if (this.endsValue(byte) || PLACEHOLDER[byte] === 1) return Verdict.Reject;
          this.from = here;
          this.phase = Phase.Credential;
          // Unquoted, a multi-word scheme's credential ends where its parameters do.
          if (!this.single && this.quote === 0) this.params = new AuthParams();
          continue;
        default:
          return this.credentialByte(byte);
      }
    }
  }

  /** A line may end before the value: after a header's `:`, nothing of the value read yet. */
  mayBreak(): boolean {
    return this.lineBreak === 0 && !this.equals && !this.comma && !this.listed;
  }

  /**
   * The value as a YAML list's item on the next line (a VCR cassette's `Authorization:\n
   * - Basic …`): the line end (escaped too), its indentation, `-` and a blank.
   */
  nextLine(byte: number): Verdict {
    if (++this.lineBreak > MAX_INDENT) return Verdict.Reject;
    if (this.dash) {
      if (BLANK[byte] !== 1) return Verdict.Reject;
      this.lineBreak = 0;
      this.dash = false;
      this.listed = true;
      return Verdict.Hold;
    }
    if (byte === 0x5c) {
      this.quoteEscape = true;
      return Verdict.Hold;
    }
    const escaped = this.quoteEscape;
    this.quoteEscape = false;
    if (
      escaped ? byte === 0x6e || byte === 0x72 : byte === 0x0a || byte === 0x0d || BLANK[byte] === 1
    )
      return Verdict.Hold;
    if (escaped || byte !== 0x2d) return Verdict.Reject;
    this.dash = true;
    return Verdict.Hold;
  }

  /** After the name: its closing quote, blanks, then the separator. */
  afterName(byte: number): Verdict {
    if (this.quoteEscape) {
      this.quoteEscape = false;
      if ((byte !== 0x22 && byte !== 0x27) || this.keyQuoted) return Verdict.Reject;
      if (this.spaced) {
        // The directive inside a string (`"proxy_set_header Authorization \"Basic …\";"`).
        this.comma = true;
        this.quote = byte;
        this.escapedQuote = true;
        this.phase = Phase.QuotedFirst;
        return Verdict.Hold;
      }
      this.keyQuoted = true;
      return Verdict.Hold;
    }
    if (byte === 0x5c && !this.keyQuoted) {
      this.quoteEscape = true;
      return Verdict.Hold;
    }
    // A directive's name and value apart by blanks alone (nginx's `proxy_set_header
    // Authorization "Basic …";`, Apache's `RequestHeader set Authorization "…"`): read as
    // after a `,`, quoted and a scheme first (unquoted, prose: `Authorization token expired`).
    if (this.spaced && (byte === 0x22 || byte === 0x27)) {
      this.comma = true;
      this.quote = byte;
      this.phase = Phase.QuotedFirst;
      return Verdict.Hold;
    }
    if ((byte === 0x22 || byte === 0x27) && !this.keyQuoted) {
      this.keyQuoted = true;
      return Verdict.Hold;
    }
    if (BLANK[byte] === 1) {
      if (!this.keyQuoted) this.spaced = true;
      return Verdict.Hold;
    }
    // A quoted name in a subscript, then `=` (`headers['Authorization'] = '…'`).
    if (byte === 0x5d && this.keyQuoted && !this.subscript) {
      this.subscript = true;
      return Verdict.Hold;
    }
    // A quoted name and a `,`: the header's name and value as two arguments
    // (`setRequestProperty("Authorization", "Bearer …")`); the value must be quoted.
    this.comma = byte === 0x2c && this.keyQuoted && !this.subscript;
    if (byte !== 0x3d && (this.subscript || (byte !== 0x3a && !this.comma))) return Verdict.Reject;
    this.equals = byte === 0x3d;
    this.phase = Phase.ValueStart;
    return Verdict.Hold;
  }

  /** A byte of the first word of the value: a scheme, or the credential itself. */
  wordByte(byte: number, here: number): Verdict {
    const word = this.word;
    if (word === "") {
      if (PLACEHOLDER[byte] === 1) return Verdict.Reject;
      this.from = here;
    }
    if (WORD[byte] === 1 && word.length < MAX_WORD) {
      this.word += String.fromCharCode(byte | 0x20);
      return Verdict.Hold;
    }
    // A marker this redactor wrote, in a list (`[[REDACTED:…]]`), stays as it is.
    if (this.listed && word.startsWith("redacted")) return Verdict.Reject;
    const scheme = BLANK[byte] === 1 && SCHEMES.has(word);
    // `authorization = authorization.split()`: after an unquoted `=`, only a scheme says
    // a header value follows; code assigns variables there.
    // So after a `,`: a header set by name and value has a scheme (`"Bearer …"`), an
    // error's arguments do not (`Error("Authorization", "failed")`); and in a subscript
    // (`h["Authorization"] = "GoogleLogin Auth=" + auth` builds one).
    if (((this.equals && this.quote === 0) || this.comma || this.subscript) && !scheme)
      return Verdict.Reject;
    // A word alone that is no token: a name (`mode eq 'proxy' ? 'Proxy-Authorization' :
    // 'Authorization'`), a word of prose.
    if (this.endsValue(byte) && word !== "")
      return wordIsToken(word) ? Verdict.Close : Verdict.Reject;
    if (scheme) {
      this.single = SINGLE_TOKEN_SCHEMES.has(word);
      this.param = this.single ? 1 : 0;
      this.phase = Phase.CredentialStart;
      this.from = here + 1;
      return Verdict.Hold;
    }
    if (this.endsValue(byte)) return Verdict.Reject;
    // Not a known scheme: the word is the credential, one token, or a scheme of its own
    // (`SSWS`, `Splunk`, `GenieKey`) with the token after it: the word and a token after a
    // blank go, never more. A word that is no token by itself (no digit, or short) goes only
    // with a token after it, a token only when it is one (see `tokenSoFar`).
    this.single = true;
    this.gaps = 1;
    this.phase = Phase.Credential;
    if (!wordIsToken(word) && (BLANK[byte] === 1 || TOKEN_END[byte] === 1)) {
      if (BLANK[byte] !== 1) return Verdict.Reject;
      this.heldWord = true;
      this.gaps = 0;
      this.openGap();
      return Verdict.Hold;
    }
    // A generic type or a call (`authorization: Optional[str] = None`, a field's annotation).
    if (!wordIsToken(word) && (byte === 0x5b || byte === 0x28)) return Verdict.Reject;
    if (!wordIsToken(word) && (byte === 0x2e || byte === 0x5f)) {
      // A word joined on by `.` or `_` (`v2.local.…`, `self._authorization(args)`,
      // `auth_token}`, `Required. Immutable.`): held with what follows until that is a
      // token (code's names and prose are not).
      this.heldWord = true;
      this.joined = true;
      this.gaps = 0;
      this.after = 0;
      this.afterKinds = 0;
      return this.afterByte(byte);
    }
    return this.credentialByte(byte);
  }

  openGap(): void {
    this.inGap = true;
    this.gapFrom = this.here;
    this.gapBlanks = 1;
  }

  /** A byte of the credential: redacted up to its end, at most {@link MAX_CREDENTIAL} bytes. */
  credentialByte(byte: number): Verdict {
    if (this.param > 0) return this.paramByte(byte);
    if (!this.single && ++this.length > MAX_CREDENTIAL) return Verdict.Close;
    if (this.params !== null) {
      const read = this.params.next(byte, this.here);
      if (read === PARAM_BYTE) return Verdict.Redact;
      if (read === PARAM_HELD) return Verdict.Hold;
      this.closeAt = read;
      return Verdict.Close;
    }
    if (this.escaped) {
      this.escaped = false;
      return Verdict.Redact;
    }
    if (this.inGap) {
      // Held, not redacted: if no token follows, the blanks stay.
      if (BLANK[byte] === 1) return ++this.gapBlanks > MAX_GAP ? this.noToken() : Verdict.Hold;
      this.inGap = false;
      // Nothing after the blanks: the word alone was the credential (or no token at all).
      if (this.endsCredential(byte) || PLACEHOLDER[byte] === 1) return this.noToken();
      this.after = 0;
      this.afterKinds = 0;
      return this.afterByte(byte);
    }
    if (this.after > 0) return this.afterByte(byte);
    if (this.endsCredential(byte)) {
      if (this.gaps === 0 || BLANK[byte] !== 1) return Verdict.Close;
      this.gaps--;
      this.openGap();
      return Verdict.Hold;
    }
    this.escaped = this.quote === 0x22 && !this.escapedQuote && !this.single && byte === 0x5c;
    return Verdict.Redact;
  }

  /**
   * A byte of the token after the gap, held until it is one (then it and all before it go)
   * or ends without being one (then it stays, with the gap and a held first word).
   */
  afterByte(byte: number): Verdict {
    if (this.endsCredential(byte) || TOKEN68[byte] !== 1) return this.noToken();
    this.after++;
    this.afterKinds |= byte >= 0x30 && byte <= 0x39 ? 1 : byte >= 0x61 && byte <= 0x7a ? 2 : 4;
    const kinds = this.afterKinds;
    const token = this.joined
      ? this.after >= MIN_TOKEN && (kinds & 1) !== 0
      : tokenSoFar(this.after, kinds);
    // Decided within the hold (never cut, never failed closed over what follows): a run
    // of one kind, or a joined name without a digit, is no token.
    if (!token) return this.after >= TOKEN_DECIDED ? this.noToken() : Verdict.Hold;
    this.after = -1;
    this.heldWord = false;
    return Verdict.Redact;
  }

  /**
   * A byte of a token scheme's credential while it may be an auth-param (RFC 7235: Rails'
   * `Token token="…", email="…"`): its name, `=` and quote are held, and the value after
   * them is the credential; else the bytes held are the token's own (`abc==`, and `abc=`
   * before a closing quote or an escape, where it ends).
   */
  paramByte(byte: number): Verdict {
    const param = this.param;
    if (param === 1 && NAME[byte] === 1 && ++this.length <= MAX_WORD) return Verdict.Hold;
    if (param === 1 && byte === 0x3d && this.length > 0) {
      this.param = 2;
      return Verdict.Hold;
    }
    // A quote after the `=`, escaped inside a string (a run of backslashes reads as one).
    if ((param === 2 || param === 3) && (byte === 0x5c || byte === 0x22)) {
      if (param === 2) this.paramAt = this.here;
      this.param = byte === 0x22 ? 4 : 3;
      return Verdict.Hold;
    }
    this.param = 0;
    if ((param === 2 || param === 4) && byte !== 0x3d && TOKEN68[byte] === 1) {
      this.from = this.here; // the param's value
      return Verdict.Redact;
    }
    if (param < 3) return this.credentialByte(byte); // the bytes held were the token's
    this.closeAt = this.paramAt;
    return Verdict.Close;
  }

  /** The gap led to no token: a held first word stays, else the credential ended at the gap. */
  noToken(): Verdict {
    if (this.heldWord) return Verdict.Reject;
    this.closeAt = this.gapFrom;
    return Verdict.Close;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    let i = start;
    // A gap's bytes and the token after it go through `next` (a blank may end the
    // credential or be crossed; that token is judged as it is read).
    if (this.param === 1 && this.phase === Phase.Credential) {
      // An auth-param's name, held (see `paramByte`): its `=` or any other byte goes through `next`.
      const stop = Math.min(end, start + (MAX_WORD - this.length));
      while (i < stop && NAME[input[i]!] === 1) i++;
      this.length += i - start;
      this.here += i - start;
      return i;
    }
    if (this.inGap || this.after > 0 || this.param > 0 || this.params !== null) return start;
    if (this.phase === Phase.Credential) {
      const stop = this.single ? end : Math.min(end, start + (MAX_CREDENTIAL - this.length));
      for (; i < stop; i++) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        const byte = input[i]!;
        if (this.endsCredential(byte)) break;
        this.escaped = this.quote === 0x22 && !this.escapedQuote && !this.single && byte === 0x5c;
      }
      this.length += i - start;
    } else if (this.phase === Phase.Name) {
      const stop = Math.min(end, start + (MAX_NAME - this.count));
      for (; i < stop && NAME[input[i]!] === 1; i++)
        if (input[i] !== 0x5f && input[i] !== 0x2d)
          this.tail += String.fromCharCode(input[i]! | 0x20);
      this.count += i - start;
      this.from = this.here + (i - start) + 1;
    }
    this.here += i - start;
    return i;
  }

  stateKey(): number | undefined {
    // One token ends at the same byte whatever came before it; a multi-word credential's
    // length cap makes its future its own.
    return this.phase === Phase.Credential &&
      this.single &&
      !this.heldWord &&
      this.after <= 0 &&
      this.param === 0
      ? this.gaps * 2 + (this.inGap ? 1 : 0)
      : undefined;
  }

  end(): Verdict {
    if (this.phase === Phase.Word) return wordIsToken(this.word) ? Verdict.Close : Verdict.Reject;
    // A token held while it might be an auth-param's name: it ends here (or at its `=`'s quote).
    if (this.param > 0) {
      if (this.param >= 3) this.closeAt = this.paramAt;
      return Verdict.Close;
    }
    return this.inGap || this.after > 0 ? this.noToken() : Verdict.Reject;
  }
}

/** {@link AuthParams.next}: the byte is the credential's. */
const PARAM_BYTE = -1;
/** {@link AuthParams.next}: the byte is held (a blank or a backslash; what follows decides). */
const PARAM_HELD = -2;
/** Bytes of a parameter's name or unquoted value, or of a token68 (no quote, no blank, no `,`). */
const PARAM_CHAR = byteSet("A-Za-z0-9!#$%&*+./:;=^_|~-");
/** Where {@link AuthParams} stands: before a parameter, in one, right after its `=`, after blanks. */
const Param = { Start: 0, Token: 1, Value: 2, Quoted: 3, After: 4 } as const;

/**
 * A multi-word scheme's credential written unquoted (a header line, `curl -H '…'`, a
 * string's text): RFC 7235's token68 or parameters, `name=value` or `name="…"` (the quotes
 * may come escaped inside a string, `\"`, `\\\"`) apart by `,` and blanks (`Digest
 * username="u", response="…"`, `AWS4-HMAC-SHA256 Credential=…, Signature=…`, OAuth 1.0's).
 * The credential ends at the first byte that continues none: a quote closing the string
 * the header stands in (`-H 'Authorization: Digest …' https://…`), a blank not followed by
 * `,`, a `,` not followed by a parameter (`…", see below`), an escape (`\n`). Before, it
 * ran to the line's end.
 */
class AuthParams {
  private state: number = Param.Start;
  /** The quoted value's quote came escaped (`\"`). */
  private escapedQuote = false;
  /** Where a run of backslashes just read began, or -1 (the byte after it decides). */
  private backslashAt = -1;
  /** Where blanks after a parameter began, or -1. */
  private blanksAt = -1;
  /**
   * Where the last `,` stood, or -1; the parameter after it has its `=` (only then is it one:
   * until then it is held, and without one the credential ended at the `,`).
   */
  private commaAt = -1;
  private named = false;

  /** {@link PARAM_BYTE}, {@link PARAM_HELD}, or where the credential ended (before `here`). */
  next(byte: number, here: number): number {
    if (byte === 0x5c) {
      if (this.backslashAt < 0) this.backslashAt = here;
      return this.state === Param.Quoted ? PARAM_BYTE : PARAM_HELD;
    }
    const escaped = this.backslashAt >= 0;
    const backslashAt = this.backslashAt;
    this.backslashAt = -1;
    if (this.state === Param.Quoted) {
      // The value's own quote closes it: escaped as it opened, or not.
      if (byte === 0x22 && escaped === this.escapedQuote) this.state = Param.Token;
      else if (byte === 0x0a || byte === 0x0d) return here;
      return PARAM_BYTE;
    }
    if (byte === 0x22 && this.state === Param.Value) {
      this.state = Param.Quoted;
      this.escapedQuote = escaped;
      return PARAM_BYTE;
    }
    // Any other escape ends the credential (`\n`: the string's line end).
    if (escaped) return this.ended(backslashAt);
    if (byte === 0x20 || byte === 0x09) {
      if (this.state === Param.Start) return PARAM_HELD;
      if (this.blanksAt < 0) this.blanksAt = here;
      this.state = Param.After;
      return PARAM_HELD;
    }
    if (byte === 0x2c && this.state !== Param.Start) {
      this.state = Param.Start;
      this.blanksAt = -1;
      this.commaAt = here;
      this.named = false;
      return PARAM_HELD;
    }
    if (PARAM_CHAR[byte] === 1 && this.state !== Param.After) {
      this.state = byte === 0x3d ? Param.Value : Param.Token;
      if (byte === 0x3d) this.named = true;
      return this.commaAt < 0 || this.named ? PARAM_BYTE : PARAM_HELD;
    }
    return this.ended(this.blanksAt >= 0 ? this.blanksAt : here);
  }

  /** The credential ended at `at`, or at the last `,` when no parameter followed it. */
  private ended(at: number): number {
    return this.commaAt >= 0 && !this.named ? this.commaAt : at;
  }
}

/**
 * A first word (lowercase) that is a credential by itself: a digit among 8+ bytes, or 20+
 * bytes; else it may be a scheme of its own, or prose (`Authorization: headers on …`).
 */
function wordIsToken(word: string): boolean {
  return word.length >= 20 || (word.length >= 8 && /[0-9]/.test(word) && /[a-z]/.test(word));
}

/**
 * The token after a gap, `length` bytes so far with `kinds` (1 a digit, 2 a lowercase
 * letter, 4 anything else), is one: 8 bytes with a digit and a letter, or
 * {@link TOKEN_DECIDED} bytes of two kinds.
 */
function tokenSoFar(length: number, kinds: number): boolean {
  if (length >= 8 && (kinds & 1) !== 0 && (kinds & 6) !== 0) return true;
  return length >= TOKEN_DECIDED && kinds !== 1 && kinds !== 2 && kinds !== 4;
}

keepShape(new AuthorizationCandidate(13));
