/**
 * Sensitive assignments: a NAME containing a sensitive keyword, a separator, a value. Only
 * the value is redacted (`DB_PASSWORD=[REDACTED:secret-assignment]`). The grammar:
 *
 * - separators `=`, `:`, `:=`, `::=`, `:::=`, `?=`, `+=`, `.=`, `=>`, `==value` (a value that
 *   starts with `=`; `== ` stays a comparison), XML `<xToken>value`, a quoted key followed by
 *   `,` (`setProperty("X_TOKEN", "…")`) or `]` (`$c['x_password'] .= '…'`), a Go type
 *   between name and `=` (`var xToken string = "…"`), a type after a `:` before the `=`
 *   (`apiToken: string = "…"`, one a secret is declared with), R's ` <-` before a string, a
 *   quoted token-like value after a blank (Gradle's `password "…"`), Ruby's `set :password,
 *   "…"`, Cisco IOS's encryption type before the value (`password 0 …`, `secret 7 …`), and a
 *   flag's space (`--token value`, when the flag name ends with the keyword);
 * - a name/value pair: a name that stands as a value (`- name: DB_PASSWORD`,
 *   `"name": "API_TOKEN",`, `<name>db.password</name>`, `ParameterKey=DBPassword,`) followed
 *   by its sibling key `value` (`value: …`, `"value": "…"`, `<value>…`, `ParameterValue=…`),
 *   whose value is read as an assignment's;
 * - a string's prefix (`r"…"`, `@"…"`) and Python's triple quotes stay around the value;
 * - a value runs to its closing quote when quoted, else to the next whitespace byte (so
 *   `& , ; ) ] }` and quotes inside an unquoted value are redacted with it), except for a
 *   run of `;`, `&` or `,` just before whitespace or the end: in `echo token=x; exit 3` the
 *   `;` ends the shell command, not the value, so it stays (held until the next byte says
 *   which);
 *   and a quote followed by whitespace, the end or code punctuation (`QUOTE_CLOSER`) closes
 *   a string the assignment stood in: `{"env":["TOKEN=x","B=2"]}` keeps `","B=2"]}`; so
 *   does a closing bracket the value did not open, before the same or a quote or backslash:
 *   `connect(password=x)` keeps its `)`; and a quoted value's quote of the other kind
 *   before the same punctuation (`['echo password="x y', 'next']`: its own never came);
 * - the **value test**: the first bytes of the value (at most {@link DECIDE}) are held and
 *   looked at before anything is redacted. Numbers shorter than 8 digits, booleans and null
 *   words, type names, placeholders (`$API_KEY`, `${…}`, `<token>`, `{{ … }}`, `***`, `%X%`),
 *   URLs without userinfo, and code (`strings.Trim(…`, `req.body.password`, `{`) are left
 *   alone; so are names whose next word says they are not the secret (`PASSWORD_MIN_LENGTH`,
 *   `token_url`, `credentialsProvider`, `TOKENIZERS_…`).
 *
 * Plural or longer words (`tokens`, `tokenizer`, `secretary`: the keyword followed by a
 * lowercase letter, or by `s`/`S` and the end of the name) are not sensitive either.
 *
 * In **vendor** mode (`vendor: true`) the anchors are vendor names (`STRIPE_KEY=…`,
 * `"datadog_api": "…"`, a YAML block `stripe:` whose indented child on the next line holds
 * it: `stripe:\n  key: …`, or a JSON object's first member, `"stripe": {"key": …}`, also
 * with escaped line breaks and quotes inside a string): no keyword says a secret follows, so the value must look like one
 * (16+ bytes of a token alphabet with a letter and a digit) and no word of the name may say
 * it is an id, a region, a URL….
 *
 * Linear: at most {@link DECIDE} value bytes are held; past them the value is redacted as
 * it arrives, in O(1) memory however long it is.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"api_key": "abc123"} DB_PASSWORD=hunter2 max_tokens=10 PASSWORD_MIN_LENGTH=12');
 * // '{"api_key": "[REDACTED:secret-assignment]"} DB_PASSWORD=[REDACTED:secret-assignment] max_tokens=10 PASSWORD_MIN_LENGTH=12'
 * ```
 */
import { OPENSSL_PASSWORD_ARGUMENT } from "../command-flags.js";
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import {
  ALNUM,
  ALPHA,
  BLANK,
  byteSet,
  CONTROL,
  DIGIT,
  ESCAPED_BLANK,
  HEX_VALUE,
  MAX_BACKSLASHES,
  QUOTE_CLOSER,
  QUOTES,
  withControls,
} from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { keywordSpellings } from "./keyword-spellings.js";
import { GAP_HOLD, GAP_OPEN, ListGap } from "./list-gap.js";
import { withNamePrefix, withNotAfter, withNotBefore, withWordBefore } from "./not-before.js";

const NAME = byteSet("A-Za-z0-9_.-");
/** Words before `key` that say it is public (Algolia's search key, reCAPTCHA's site key). */
export const PUBLIC_KEY_WORDS: ReadonlySet<string> = new Set([
  "public",
  "publishable",
  "search",
  "site",
  "read",
  "readonly",
]);
const SPACE = byteSet(" \t\r\n\v\f");
const TYPE_WORD = byteSet("A-Za-z0-9_.[]*");
const TOKEN_ALPHABET = byteSet("A-Za-z0-9+/=_.~:-");
/** Bytes that start the next field of a colon-separated identifier (an ARN's resource). */
const COLON_FIELD = byteSet("A-Za-z0-9_./-");
/** After a plural name: no `:` or `/`, which ARNs and resource paths hold (`"secrets": "arn:…"`). */
const PLURAL_TOKEN_ALPHABET = byteSet("A-Za-z0-9+=_.~-");
/** A flag's unquoted value: a token's bytes and a password's signs. */
const PASSWORD_ALPHABET = byteSet("A-Za-z0-9+/=_.~:!@#$%*^-");
/** A type with type arguments: a name or a member path, `<`, names, `>`. */
const GENERIC_TYPE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*<[A-Za-z_$][\w$.<>, |[\]]*>$/;
/** A generic type's name and `<` (a member path to a type, or a capitalized type's name). */
const GENERIC_OPEN = /^(?:(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$]\w*|[A-Z][a-z]\w*)<[A-Za-z_$[{(]/;
/** Bytes that end a sentence or a list after a word given after a space. */
const SENTENCE_END = byteSet(".,;");
/** A quoted value's bytes where it must be one word: anything but blanks and line ends. */
const NOT_BLANK = SPACE.map((b) => 1 - b);
/**
 * Bytes after a backslash that make an escape ending an unquoted value inside a string
 * (`"log":"TOKEN=x\nnext"`: the value is `x`, not `x\nnext`).
 */
const ESCAPE_LETTER = byteSet("ntrbfu\"'/");
/**
 * After backslashes in a quoted value, a line break that ends it: raw (a line's
 * continuation) after any quote, and escaped (`\n`, `\r`) after `'` and a backtick, which
 * stand inside a string's double quotes whose line break it is (`"msg": "token: '…\n…"`);
 * in a double-quoted value it is the value's own.
 */
const RAW_BREAK = byteSet("\r\n");
const ESCAPED_BREAK = byteSet("nr\r\n");
/** Bytes that close code, not start a value. */
const CLOSING = byteSet(",);]}");
/**
 * Characters outside ASCII that end an unquoted value as a blank or a line's end does: the
 * no-break space, Unicode's line and paragraph separators, and CJK text's ideographic space
 * and punctuation (`、`, `。`, `，`, `；`), after which a sentence goes on with no blank
 * (`令牌: X。下一步`). As UTF-8 bytes, two or three each.
 */
const SEPARATORS: readonly Buffer[] = [
  "\u00a0",
  "\u2028",
  "\u2029",
  "\u3000",
  "\u3001",
  "\u3002",
  "\uff0c",
  "\uff1b",
].map((c) => Buffer.from(c));
/** {@link SEPARATORS}' proper prefixes and whole sequences, each as `length << 24 | bytes`. */
const SEPARATOR_PREFIX = new Set<number>();
const SEPARATOR_WHOLE = new Set<number>();
for (const separator of SEPARATORS) {
  let key = 0;
  separator.forEach((byte, i) => {
    key = (key << 8) | byte;
    (i + 1 === separator.length ? SEPARATOR_WHOLE : SEPARATOR_PREFIX).add(((i + 1) << 24) | key);
  });
}

/**
 * Bytes an unquoted value's fast path runs over: all but whitespace, `;`, `&`, `,`, `|`,
 * `<`, `\`, quotes, brackets and the first bytes of {@link SEPARATORS}.
 */
const VALUE_RUN = (() => {
  const run = new Uint8Array(256).fill(1);
  for (const byte of Buffer.from(" \t\n\v\f\r;&,|<\\\"'`()[]{}", "latin1")) run[byte] = 0;
  for (let byte = 0; byte < 256; byte++) if (CONTROL[byte] === 1) run[byte] = 0;
  // The first bytes of the separators that end a value as a blank does (`next` reads them).
  for (const separator of SEPARATORS) run[separator[0]!] = 0;
  return run;
})();
/** Brackets that open (`(`, `[`, `{`) and close (`)`, `]`, `}`) code around a value. */
const OPENING = byteSet("([{");
const CLOSING_BRACKET = byteSet(")]}");
/**
 * After a closing bracket, what shows it closed code: what closes a string, a quote, a
 * backslash, a subscript (`f(token=tok)[0]`).
 */
const BRACKET_CLOSER = byteSet(" \t\r\n\v\f,;:)]}>&|+.\"'`\\[");
/** After a `<` in an unquoted value, what shows a tag began (`pw=x</td>`): a closing tag's `/`. */
const TAG_CLOSER = byteSet("/");
/** `amp` read as a key after `&`: `&amp;` is an HTML-escaped `&`, and a key may follow. */
const AMP = (0x61 << 16) | (0x6d << 8) | 0x70;
/** Bytes that may not stand before a boundary anchor (letters, digits, base64's `+/`). */
const NOT_BEFORE = byteSet("A-Za-z0-9+/");
const MAX_NAME = 64;
/** Bytes whose run may end an unquoted value (`x;Key=`, `x&key=`, `x,key=`, `x|key=`, `x; `). */
const SEPARATOR = byteSet(";&,|");
/** First bytes of such a key: a letter, or a flag's `-` (`--password=x,--user=y`). */
const KEY_START = byteSet("A-Za-z-");
/** Bytes of a connection string's or query string's key (`Trusted_Connection`, `X-Amz-Date`). */
const CONNECTION_KEY = byteSet("A-Za-z0-9_.-");
const Semicolon = { No: 0, Undecided: 1, Ends: 2 } as const;
const MAX_BLANKS = 16;
/** Most dashes of a dash separator (`password ---- …`). */
const MAX_DASHES = 4;
/** What `var_dump` writes before a string's length and value. */
const DUMPED_STRING = Buffer.from("string(", "latin1");
/** Most blanks between a name and a value after a space (a table's column, padded). */
const MAX_COLUMN_PADDING = 64;
/** Most bytes between a name that stood as a value and its sibling's value (indentation included). */
const MAX_SIBLING = 48;

/** Marks an escape's letter (`n` of `\n`) where a value's end is told as a byte (see `elementEnded`). */
const ESCAPED = 0x100;

/** Bytes after a YAML block scalar's `|` or `>` on its line: chomping, an indentation digit, blanks. */
const BLOCK_HEADER = byteSet("+1-9 \t\r-");
/** Bytes that may stand between such a name and its sibling key (besides one line break and tags). */
const SIBLING_GAP = byteSet(" \t\r\"'`,;&{");
const MAX_TAIL = 24;
const MAX_TYPE = 24;
/**
 * What may follow a vendor's name and its `:`: a blank or a quote (`aws:iam::…` is a name),
 * a quote escaped inside a string, an object (`"stripe": {"key": …}`).
 */
const VENDOR_VALUE_START = byteSet(" \t\"'`\\{");
/**
 * Prefixes of a string literal: Python's `r b f u` (either case), C#'s and Objective-C's `@`,
 * SQL's national and escape strings (`N'…'`, `E'…'`), C's wide string (`L"…"`), the shell's
 * ANSI-C quoting (`$'…'`; `$` before a single quote only).
 */
const STRING_PREFIX = byteSet("rbfuRBFU@NnEeL$");
/** A port and its protocol (`464/tcp`). */
const PORT = /^\d{1,5}\/(?:tcp|udp|sctp)$/;
/** What ends a quoted value besides its quote: a line's end, a control byte (`CONTROL`). */
const SPACE_END = withControls(byteSet("\r\n"));
/** Rust's `Option` around a value, as `{:?}` prints it. */
const SOME = "Some(";
/** Markdown's marks around a name: emphasis, a code span. */
const MARKS = byteSet("*`");
/** A member path (`req.body.password`, `extra._meta?.progressToken`). */
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;
/** A path through objects and arrays to a field (`users[0].password`, `users.*.apiKey`). */
const FIELD_PATH =
  /^[A-Za-z_$][\w$]*(?:\[(?:\d+|\*)\])*(?:\??\.(?:[A-Za-z_$][\w$]*|\*)(?:\[(?:\d+|\*)\])*)+$/;
/** A member's access that markup parts, as a highlighter prints code in HTML. */
const MARKED_UP_MEMBER = /^[A-Za-z_$][\w$]*\.<[a-z]/;
/** A constant's name of four or more words in capitals (`_SEND_INITIAL_METADATA_…`). */
const LONG_CONSTANT = /^_?[A-Z]+(?:_[A-Z]+){3}/;
/** A variable's snake_case words (see `reference`). */
const SNAKE_CASE = /^[a-z]+(?:_[a-z]+)+$/;
/** Closure Compiler's mangled name of a module's member: words joined by `$`, four or more. */
const CLOSURE_NAME = /^[a-z]\w*(?:\$[a-z]\w*){3}/;
/** First bytes of a suffix appended to a name's value (`+= "-tags"`). */
const SUFFIX_START = byteSet("_./:@#-");
/** A reference after `*`: YAML's alias, a pointer's dereference (unquoted). */
const STAR_REFERENCE = /^\*[A-Za-z_](?:[\w.-]|->)*$/;
/** Two-byte string prefixes, lowercase, as `first * 256 + second`: Python's, C's `u8`. */
const PREFIX_PAIRS = new Set(
  ["rb", "br", "rf", "fr", "u8"].map((p) => p.charCodeAt(0) * 256 + p.charCodeAt(1)),
);
/** `<`: the first byte of R's `<-` (in `pending`). */
const LEFT_ARROW = 0x3c;
/** Cisco IOS's encryption types whose value is the password or its reversible encoding. */
const CISCO_TYPE = byteSet("07");
/** The registry's string types, as `reg query` prints them before a value. */
const REGISTRY_STRINGS = new Set(["REG_SZ", "REG_EXPAND_SZ"]);

/** `word` (bytes) is a registry string type's name. */
function isRegistryString(word: readonly number[]): boolean {
  return word.length >= 6 && word[0] === 0x52 && REGISTRY_STRINGS.has(String.fromCharCode(...word));
}
/** Bytes of a word in code (`return`, `if-else`, `sys.path`): not enough for a compared literal. */
const WORD_LETTER = byteSet("A-Za-z._-");
/** Separator bytes that may come twice before their `=` (`||=`, `??=`). */
const DOUBLED = byteSet("|?");
/** Most digits of a C array's size after a name (`password[64]`). */
const MAX_SUBSCRIPT = 4;
/** Most bytes between `password for` and its `is`. */
const MAX_PHRASE = 48;
/** Shortest word after a keyword and a space that is its value even with more words after it. */
const SPACED_WORD = 16;
/** Shortest value after a dotted name that is read as a key's (see `dottedKey`). */
const DOTTED_VALUE = 8;
/** Value bytes held and looked at before deciding. */
export const DECIDE = 48;
/**
 * Most bytes held (from `from`) while a connection string's key may follow a `;` or `,`
 * (the key's bytes among them): within the rule's hold (`maxLength`, {@link DECIDE} + 16).
 */
const KEY_HOLD = DECIDE + 15;

/** First words after a keyword that say the value is not the secret. */
const NOT_SECRET_WORDS = new Set(
  (
    "izer izers ization ize ized izing less min max length len count url uri urls endpoint path file " +
    "files dir type types provider providers name names header field fields policy ttl expiry expires " +
    "expiration expire expired timeout size limit limits enabled enable disabled required regex pattern " +
    "prompt hint label placeholder reset rotation strategy source format kind mode version validator " +
    "validation manager ref refs usage prefix suffix location lifetime duration interval complexity " +
    // How it is stored (PostgreSQL's `password_encryption = scram-sha-256`).
    "encryption " +
    "strength history changed age generator encoding algorithm algo scope scopes audience issuer " +
    "env var vars template store stores rule rules assignment regexp re in options opts mgr with error " +
    "errors err exception handler start end index idx pos offset id ids variable created " +
    "updated issued modified status state message messages msg description desc title tooltip " +
    "arg args argument arguments attr attrs attribute attributes result results class classes cls " +
    "filename filenames filepath dirname pathname namespace namespaces stream streams " +
    // What a key's holder publishes (`SigningKeyCertificateChain`, `SIGNING_KEY_FINGERPRINT`).
    "certificate certificates cert certs chain fingerprint thumbprint " +
    // A table of them, by its path (Postfix's `smtp_sasl_password_maps = hash:/etc/…`).
    "map maps " +
    // A language model's tokens: what is computed per token (`per_token_loss`, `token_logps`).
    "loss losses logps logprobs logits probs mask masks budget embedding embeddings weights entropy"
  ).split(" "),
);
/**
 * First words after a keyword that say the value is not the secret when more follow: when it
 * was last used or changed (`password_last_used`, `access_key_1_last_rotated`; not
 * `password_last`).
 */
const NOT_SECRET_FIRST_WORDS = new Set(["last"]);
/** Words of a vendor-context name that say it is not a credential. */
const NOT_VENDOR_SECRET_WORDS = new Set([
  ...NOT_SECRET_WORDS,
  ..."id ids sha commit region host hostname port user username account org organization project release domain zone bucket cluster queue topic channel level app site team email region tag".split(
    " ",
  ),
]);
/**
 * A regular expression's start (a named group's `(?P<secret>.+?)` too), or a literal of
 * words in alternation (see `credible`).
 */
const PATTERN =
  /^\.[*+]\??|^\/\^|^\/\[|^\^?\[[^\]]*\](?:[+*?{]|\\[wdsWDS])|^\(\?[=!:<]|^qr[/{]|^\/[\w-]+(?:\|[\w-]+)+\/[dgimsuy]*[;,)]*$/;
/** A value that may be a name (`_core_token`, `Storage.deleteTokenParameters`), not a token. */
const NAMING_VALUE = /^[A-Za-z_*][A-Za-z*_.:/[\]-]*$/;
/** A build's filter token, a name between `@`s (`@projectversion@`, `@db.password@`). */
const FILTER_TOKEN = /^@[A-Za-z_][\w.-]*@$/;
/**
 * A format string's replacement field naming a variable (`{password}`, `{0}`, `{user.pw}`),
 * or starting with a slice, an item or a call of one (Python's `f"{token[:3]}****"`,
 * `f"{result['error']}"`, `f"{base64.b64encode(secret)}"`).
 */
const FORMAT_FIELD = /^\{ *[A-Za-z0-9_.]* *\}[;,)"'`]*$|^\{[A-Za-z_][\w.]*[[(]/;
/** A format string's positional field anywhere in a value (`{}`, `{0}`). */
const POSITIONAL_FIELD = /\{\d{0,2}\}/;
/** CloudFormation's YAML short forms of its intrinsic functions, before their argument. */
const INTRINSIC =
  /^!(?:Ref|Sub|GetAtt|ImportValue|FindInMap|Join|Select|Split|If|Base64|Cidr|GetAZs|Transform|Equals|Not|And|Or|Condition)\b/;
/**
 * Words of letters, maybe joined by `_` or `.` (a `.` first too): a name or a member's path
 * (`.qualifier`), 20 letters a word at most.
 */
const LETTERS_PATH = /^\.?[A-Za-z]{1,20}(?:[_.][A-Za-z]{0,20})*$/;
/**
 * A name of three or more capitalized words, maybe a member's path of them, however long
 * (`"output_token": "CloudFrontOriginAccessIdentityList.NextMarker"`): each capital starts
 * a word of small letters, which random letters seldom do.
 */
const PASCAL_NAME = /^[A-Z][a-z]+(?:[A-Z][a-z]+){2,}(?:\.[A-Z][a-z]+(?:[A-Z][a-z]+)*)*$/;
/** Small words joined by `-`, as prose compounds them (`per-channel`, `two-stage`). */
const COMPOUND_WORD = /^[a-z]+(?:-[a-z]+)+$/;
/** An id's code: capitals, then a number (`T1003`, `TA0006`, `T1134.001`, `CVE-2024-3094`). */
const ID_CODE = /^[A-Z]{1,4}-?[0-9]+(?:[.-][0-9]+)*$/;
/** A code's name of lower-case words that names a credential (see `namesCredential`). */
const CREDENTIAL_NAME = /^_*[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+$/;
/** The bytes {@link CREDENTIAL_NAME} takes. */
const CODE_NAME_BYTE = byteSet("a-z0-9_.-");
const CREDENTIAL_WORD = /token|secret|passw|passphrase|key|cred|auth|psk/;
/** An AWS resource's ARN, or a name scoped by `::` (CloudFormation's, C++'s, Rust's). */
const NAMED_PLACE = /^arn:aws[a-z-]*:[a-z0-9-]*:|^[A-Za-z]\w*::[A-Za-z]/;
/** A date and time as ISO 8601 writes it. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
/** Keywords that also name other things, and the shortest word of letters after them that is a password. */
const SHORT_PASS = new Set(["pass", "pw"]);
/** Short keywords of a password, whole words (see `shortNameGoesOn`). */
const SHORT_PASSWORDS = new Set(["pass", "pw", "pwd", "psk"]);
/** Words after a short password's keyword that keep the name a password's. */
const PASSWORD_QUALIFIERS = new Set(
  (
    "dev development prod production staging stage stg test testing qa uat local live main " +
    "primary secondary backup old new current next prev previous root admin user users db " +
    "database app api server client default master replica ro rw read write hash hashed enc " +
    "encrypted encoded plain plaintext raw phrase word words key secret value val b64 base64"
  ).split(" "),
);
const MIN_WORD_PASS = 6;
/** Words of letters and digits joined by `_` or `-`, the first starting with a letter. */
const SNAKE_NAME = /^[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+$/;
/** A domain's path in lower case (`helm.sh/release.v1`, `ghcr.io/acme/api`). */
const DOMAIN_PATH = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[a-z0-9._/-]+$/;
/** An OpenPGP fingerprint (40 hexadecimal capitals) or long key id (16), not a number. */
const FINGERPRINT = /^(?:0x)?(?=[0-9]*[A-F])(?:[0-9A-F]{16}|[0-9A-F]{40})$/;
/**
 * A metavariable: words of capitals joined by `_` or `-` (a digit only at a word's end:
 * `OAUTH2_CLIENT_SECRET`, not a key's groups `K3Y7-AB9D`), or one word of up to 12 capitals
 * (`PASSWORD`, `KEY`), maybe cut by a manual's hyphen `‐`.
 */
const METAVARIABLE = /^(?:[A-Z]+[0-9]*(?:[_-][A-Z]+[0-9]*)+|[A-Z]{1,12})(?:\xe2\x80\x90)?$/;
/** Three or more lower-case segments of a path (see `resourceName`). */
const RESOURCE_NAME = /^[a-z][a-z0-9._-]*(?:\/[a-z0-9._-]+){2,}\/?$/;
/** A colour as CSS writes it in hexadecimal. */
const COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** A name's tail that ends a source or document file's name (not `.key`, `.pem`: a key's). */
const SOURCE_FILE =
  /\.(?:c|h|cc|cpp|hpp|py|js|mjs|ts|go|rb|rs|java|kt|swift|php|pl|sh|md|rst|txt|html)$/;
/** A name's tail that is a member of a class or enum the keyword names (`Token.String.Escape`). */
const CLASS_MEMBER = /^\.(?!Equals)[A-Z][a-z]/;
/** Keywords as the value test compares them, by anchor (see `keyword()`). */
const KEYWORDS = new Map<string, string>();
/**
 * A quoted "value" that is the code between two strings: a concatenation's operator first
 * and a call or a subscript opened last (`"+new Buffer("`, PHP's `'.$p['`).
 */
function joinsCode(v: readonly number[]): boolean {
  const first = v[0]!;
  if (first !== 0x2b && first !== 0x2e && first !== 0x26) return false;
  let last = v.length - 1;
  while (last > 0 && QUOTES[v[last]!] === 1) last--;
  return v[last] === 0x28 || v[last] === 0x5b;
}

/** A credential's words, each a placeholder or a variable as a whole value (see `namesKeyword`). */
const CREDENTIAL_WORDS = new Set(
  "password passwd passphrase pass pwd pw secret secrets token tokens apikey key credential credentials creds".split(
    " ",
  ),
);
/** Whether an anchor's keyword names a generated credential (see `generated`). */
const GENERATED = new Map<string, boolean>();
/** First bytes of a regular expression written as a value (`/^…`, `/[…`, `^[…`, `[…]+`, `.+?`). */
const REGEX_START = byteSet("/^[(q.");
/**
 * Code that negates: a bracket, or a number or a member path ending the value or before an
 * operator or a call (`!0`, `!a.b`, `!e||x`, `!f(x)`, `!(…`).
 */
const NEGATION =
  /^!+(?:\(|(?:[0-9]+|[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)(?:[-(;,)|&?:=<>!+*/^%\s]|$))/;
/**
 * A C integer literal, as a constant's or an enum member's value (`0x00000004UL`, `-1u`,
 * `1<<3`): hexadecimal up to 64 bits, or decimal with a suffix or a shift (a run of digits
 * alone may be a PIN), then the `,` or `;` that ends it.
 */
const C_INTEGER =
  /^-?(?:0[xX][0-9a-fA-F]{1,16}[uUlL]{0,3}|[0-9]+[uUlL]{1,3}|[0-9]+<<[0-9]+)[,;)]?$/;

/**
 * Keywords whose value may be a phrase (`password = "correct horse battery staple"`, Flask's
 * `secret_key = "super secret key"`).
 */
const PASS_WORDS = new Set(["password", "passwd", "passphrase", "pass", "pwd", "pw", "secret"]);

/** First bytes of {@link NOT_SECRET_SHAPE}'s values. */
const RANGE_START = byteSet("^~<>=?0-9");
/**
 * Shapes no secret has: a package's version range (`"@esfx/canceltoken": "^1.0.0"` in a
 * `package.json`), ABNF's repetition (`token = 1*tchar`, RFC 7230's grammar quoted in
 * comments), a tokenizer's state name (`lastSignificantToken = "?NoLineTerminatorHere"`).
 */
const NOT_SECRET_SHAPE =
  /^(?:\^|~|[<>]=?|=)v?[0-9]+(?:\.(?:[0-9]+|x|\*))*(?:-[0-9A-Za-z.]+)?[,;)]?$|^[0-9]*\*[0-9]*(?:<|[A-Za-z]+$)|^\?[A-Za-z]{3,}$/;
/**
 * A version number: dotted numbers, the last maybe with a letter (`1.302199`, `v3.43`,
 * `2.0.1b`), or a package's as Debian and semver write it (`1:4.13+dfsg1-1+deb12u1` in
 * `dpkg -l`'s row of `passwd`, `2.0.0-rc.1`).
 */
const VERSION =
  /^v?[0-9]+(?:\.[0-9]+)+[a-z]?[,;)]?$|^(?:[0-9]+:)?[0-9]+(?:\.[0-9]+)+(?:[+~][0-9A-Za-z.+~]*)?(?:-[0-9A-Za-z.+~]+)?$/;

/** A file's name of words and a file type's extension (`creds = path-to-account-key.json`). */
const FILE_NAME =
  /^[A-Za-z][A-Za-z_-]*\.(?:json|ya?ml|pem|key|p12|pfx|crt|cer|der|jks|txt|env|ini|conf|cfg|toml|properties|xml|gpg|asc)$/;

/** A format string's field that names a variable or calls a function (`{token}`, `{f(x)}`). */
const FIELD_START = /\{[A-Za-z_]/;
/** A module's dotted name, `:` and an object's (`pkg.mod:Class`, `pkg.cli:main`). */
const ENTRY_POINT = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+:[A-Za-z_][\w.]*[;,)"'`]*$/;
/** `v` starts with `word` in any case (a vendor's name: `Cohere2Model` after `cohere`). */
function startsWithWord(v: readonly number[], word: string): boolean {
  if (v.length <= word.length) return false;
  for (let k = 0; k < word.length; k++)
    if ((v[k]! | 0x20) !== (word.charCodeAt(k) | 0x20)) return false;
  return true;
}

/** A host's name: labels of small letters, digits and `-`, and a common top-level domain. */
const HOST_NAME =
  /^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|cloud|app|ai|co|edu|gov|internal|local)[;,)"'`]*$/;
/** Small words and numbers joined by `-` or `.`, a word first (`text-embedding-3-small`). */
const WORDS_AND_NUMBERS = /^[a-z]{2,}(?:[-.](?:[a-z]+|[0-9]+))+[;,)"'`]*$/;
/** A word in brackets, `_`, `-` or blanks between its letters (`[PAD]`, `[your-api-key]`). */
const BRACKETED_WORD = /^\[[A-Za-z][A-Za-z_ -]{0,30}\][;,)"'`]*$|^\[[A-Z]+\[$/;

/** A Python module's relative name (`".signing_secret"`, `"..models.token"`: a lazy import's map). */
const RELATIVE_MODULE = /^\.{1,2}[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*$/;

/** An absolute, home or relative file path of two or more lower-case segments. */
const FILE_PATH = /^(?:~|\.{1,2})?\/[a-z0-9._-]+(?:\/[a-z0-9._-]+)+\/?$/;

/** An unquoted value that is a C integer literal (see {@link C_INTEGER}): a number, no secret. */
function cConstant(v: readonly number[]): boolean {
  return (
    v.length <= 24 &&
    (v[0] === 0x2d || DIGIT[v[0]!] === 1) &&
    C_INTEGER.test(String.fromCharCode(...v))
  );
}

/** The rest of a name after its keyword that keeps it a secret's (`secret_key`, `secretKey`). */
const KEY_TAIL = /^[_.-]?(?:key|KEY|Key)$/;

/** A phase's answer that the byte is read again in the phase it moved to. */
const REREAD = -1;

/** The method a name ends with when it compares the secret with a literal (`.equals(`). */
const EQUALS_CALL = /^\.(?:e|E)quals(?:IgnoreCase)?$/;
/** A connection string's value in ODBC's braces, its `;` after them (see `codeNotValue`). */
const BRACED_VALUE = /^\{[^{}\s]+\};?$/;
/** A logical operator in a value (see `codeNotValue`). */
const LOGICAL = /\|\||\?\?|&&/;
/** A variable or a member path (dotted, optional, or a quoted subscript), then a logical operator. */
const LOGICAL_AFTER_NAME =
  /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[["'][\w.-]+["']\])*(?:\|\||\?\?|&&)/;
/** A getter's return type and body up to the literal it returns (see `getterBody`). */
const GETTER_RETURN = /^(?:\s*(?:->|:)?\s*[A-Za-z_][\w.]*(?:<[\w.]+>|\[\])?)?\s*[{:]\s*return\s+$/;
/** Bytes of a getter's return type and body before its literal (a backslash: an escape). */
const GETTER_BODY = byteSet("A-Za-z0-9_.:{}<>[] \t\r\n\\-");
/** C#'s property accessors (`{ get; set; }`, `{ get; private init; }`). */
const ACCESSORS =
  /^\{\s*(?:(?:(?:public|private|protected|internal)\s+)?(?:get|set|init)\s*;\s*)+\}$/;
/** Most bytes of a getter's return type and body before its literal. */
const MAX_GETTER_BODY = 40;
/** A value with one of these may end a statement early (`tokenStart=0;for(`). */
const STATEMENT_END = /[;,)\]]/;
/** Whole values that are words, not secrets. */
const NOT_SECRET_VALUES = new Set(
  (
    "true false yes no on off null nullptr nil none undefined string number boolean bool int str bytes any " +
    "unknown object await new this self typeof function async return required optional default readonly " +
    // Authorization schemes (`default_token='Bearer'`).
    "bearer basic undef value lambda " +
    // A usage line's lowercase metavariables (`-P, --passwd=file  Use file as …`).
    "file path " +
    // Not applicable (`access_key_1_last_used = "N/A"`), metasyntactic words (a test's
    // `aws_secret_access_key='bar'`).
    "n/a foo bar baz qux quux foobar " +
    // Rust's primitive types (`const WILL_PASS: u32 = 0;`).
    "u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 char"
  ).split(" "),
);
/** Types a secret is declared with (`token: &str = …`, `apiKey: String? = …`), lowercase. */
const SECRET_TYPES = new Set(
  "string str bytes text char any object secretstr secretstring securestring charsequence final".split(
    " ",
  ),
);

/**
 * True when `value` is a type a secret is declared with, in its usual wrappings (`&str`,
 * `String?`, `char[]`, `Optional[str]`, `Option<String>`, `Secret<String>`).
 */
function isTypeAnnotation(value: readonly number[]): boolean {
  if (value.length > MAX_TYPE) return false;
  const type = String.fromCharCode(...value)
    .toLowerCase()
    .replace(/^&/, "")
    .replace(/^(?:(?:optional|final|classvar)\[(.*)\]|(?:option|secret)<(.*)>)$/, "$1$2")
    .replace(/^&/, "")
    .replace(/(?:\?|\[\])$/, "");
  return SECRET_TYPES.has(type);
}
/** A Rust reference's lifetime before its type (`&'static`, `&'a`). */
function isLifetime(value: readonly number[]): boolean {
  return (
    value.length > 2 &&
    value.length <= MAX_TYPE &&
    /^&'[a-z_]+$/.test(String.fromCharCode(...value))
  );
}
/** `itemLine` of a plain scalar on the line after the name (see `startsPlainLine`). */
const PLAIN_LINE = 4;
const LONGEST_NOT_SECRET_VALUE = Math.max(...[...NOT_SECRET_VALUES].map((w) => w.length));

const Phase = {
  First: 0,
  Plural: 1,
  Name: 2,
  AfterName: 3,
  AfterEquals: 4,
  AfterColon: 5,
  TypeWord: 6,
  ValueStart: 7,
  Held: 8,
  Quoted: 9,
  Unquoted: 10,
  Compound: 11,
  /** Vendor mode: `vendor:` ended its line; the indentation of the next one. */
  Block: 12,
  /** Vendor mode: the child's name in a YAML block (`stripe:\n  key: …`). */
  BlockName: 13,
  /**
   * XML: the element's text ended at whitespace; it is the value only if the closing tag
   * follows (`<xToken>\n  value\n</xToken>`), not text after a closing tag.
   */
  XmlTail: 14,
  /**
   * The name stood as a value (`- name: DB_PASSWORD`, `"name": "API_TOKEN",`,
   * `<name>db.password</name>`, `ParameterKey=DBPassword,`): the bytes up to its sibling key
   * named `value`, whose value is the secret (see `sibling`).
   */
  Sibling: 15,
  /** YAML: `password: |` (or `>-`, `|2`): the header's rest, its line break, the indentation. */
  BlockScalar: 16,
  /** Prose between the keyword and its `is` (`password for user "postgres" is …`). */
  ForPhrase: 17,
  /** An element's other attributes after the one naming the secret, to its `>`. */
  Attributes: 18,
  /** After `==` or `!=`: a third `=`, then a quoted literal compared with the secret. */
  Comparison: 19,
  /** A C array's size after the name (`char password[64] = "…"`), to its `]`. */
  Subscript: 20,
  /** After a quoted argument that is no token (`password "…"`): the `;` that ends its statement. */
  Statement: 21,
  /** A table's cell: the value ended at a blank; the cell's closing `|` or `│` must follow. */
  CellTail: 22,
  /**
   * A quoted literal after the quoted name and a `,` (`put("password", "…")`) ended: a `:`
   * right after its quote makes it a mapping's next key (`"a": "token",\n  "auth_uri": …`),
   * a `,` the next item of a list of names (`'x_private_key',\n 'x_checkpurpose',`), not
   * the value.
   */
  PairTail: 23,
  /**
   * A list's element was redacted: the bytes to the next element (`", "` in JSON, the line
   * break, indentation and `- ` of a YAML list's next item), judged as the first was.
   */
  ListNext: 24,
} as const;

interface Mode {
  readonly vendor: boolean;
  readonly boundary: boolean;
  readonly wholeWord: boolean;
  /**
   * The name says little (`SHODAN_KEY`, any word before `key`): the value must also be
   * random, its letters and digits switching {@link RANDOM_SWITCHES}+ times. @default false
   */
  readonly random?: boolean;
}

/**
 * Bytes without a blank after a quote of the other kind and code punctuation inside a
 * quoted value that make them the value's (a generated secret's characters): well within
 * the rule's hold, so that a long value is decided, not failed closed.
 */
const OTHER_QUOTE_RUN = 12;

/**
 * A value that starts as a placeholder with `%`: a printf conversion (`%s`, `%-8.2f`),
 * Python's `%(pw)s`, `%{pw}`, or a Windows variable (`%DB_PASSWORD%`); `%mUZ…` is a value.
 */
const PERCENT_PLACEHOLDER = /^%(?:[-+ #0]*\d*(?:\.\d+)?[sdifxXoucegGqrva%]|[({]|[A-Za-z_]\w*%)/;

/** Switches between letters and digits a value named only by `<word> key` needs. */
const RANDOM_SWITCHES = 4;

/** One assignment candidate (a class: one allocation per anchor occurrence). */
class AssignmentCandidate implements Candidate {
  readonly anchorLength: number;
  readonly mode: Mode;
  /** The keyword as the anchor matched it. */
  readonly anchor: string;
  /** The keyword as written ends in a lowercase letter (`Secret`, `apiKey`). */
  readonly lowerEnd: boolean;
  /** The keyword follows a `-` (`--api-key X`): a flag's value may follow one space. */
  flag: boolean;
  /** The name starts right after a `/` (`https://x-access-token:…@`, a URL's user name) or `\/`. */
  readonly afterSlash: boolean;
  /** The byte before the name (through an escape), or -1. */
  readonly nameBefore: number;
  /** The name follows `::` (see `AnchorMatch.scoped`). */
  readonly scoped: boolean;
  /** A letter stands right before the keyword (`StoreSecrets`: it ends a longer name). */
  readonly afterLetter: boolean;
  /** The keyword came after a `_` (`get_api_key`). */
  readonly afterUnderscore: boolean;
  /** The value follows `//name:`, a URL's user name: an `@` ends it. */
  urlUser = false;
  /**
   * The name follows `?` or `&`: after its `=`, a URL query's `&` or its fragment's `#` ends
   * the value.
   */
  readonly query: boolean;
  /**
   * Bytes of a {@link SEPARATORS} sequence read so far inside an unquoted value (as `length
   * << 24 | bytes`), and where it began.
   */
  separator = 0;
  separatorAt = 0;
  /** A full stop held in a word given after a space, being redacted: a blank after it ends the sentence. */
  dot = -1;
  phase: number = Phase.First;
  /** Bytes seen after the anchor. */
  offset = 0;
  /** First byte (offset from the anchor) this candidate may redact. */
  from: number;
  count = 0;
  keyQuoted = false;
  quote = 0;
  escaped = false;
  /** The name after the anchor (its first bytes), for the next-word test. */
  tail = "";
  /** A separator byte waiting for its `=` (`?`, `+`, `.`) or the `:` count of `::=`. */
  pending = 0;
  /** The separator takes only a quoted value (R's `<-`, a comparison). */
  quotedOnly = false;
  /** The pending separator byte came twice (`||=`, `??=`). */
  doubled = false;
  /** A letter that may prefix a string literal (`r"…"`, `@"…"`), held until the next byte. */
  stringPrefix = 0;
  /** A string prefix's second byte (`rb"…"`, `u8"…"`), 0 when none was read. */
  stringPrefix2 = 0;
  /** Bytes of `Some(` read before the value (Rust's `Option` as `{:?}` prints it). */
  some = 0;
  /** The separator appends (`+=`, PHP's `.=`). */
  appends = false;
  /** The value is a Python f-string's (`f"…"`): its `{name}` fields are code. */
  formatted = false;
  /** Quotes read right after the opening one (Python's triple quotes). */
  triple = 0;
  /** The value follows prose's `is` (`the password is …`). */
  prose = false;
  /**
   * The value must be random: it follows a tool's report that it made it (`Token created:
   * X`), or a fallback operator (`process.env.API_KEY ?? "…"`; `token || "abc123"` stays).
   */
  random = false;
  /** The value was quoted after the name and a blank (`password "…"`). */
  blankQuoted = false;
  /** The name is the keyword's plural (`credentials`): the value must look like a token. */
  plural = false;
  /** The words after the keyword are verbs before `to` (`password was set to …`), not `for … is`. */
  verbs = false;
  /** The name is a camelCase plural (`accessTokens`): only an object of tokens is its value. */
  objectOnly = false;
  /** The name is a `SecretID`: only a UUID is its value. */
  uuidOnly = false;
  /** The value is a literal compared with the secret (`password == "…"`). */
  compared = false;
  /** The word being read between `password for` and `is`. */
  phrase = "";
  /** XmlTail phase: a `<` was read; only a closing tag's `/` may follow. */
  xmlOpen = false;
  /** The quote of an attribute's value being skipped (see `attributes`), while it is open. */
  attributeQuote = 0;
  /** Value bytes held undecided. */
  value: number[] = [];
  /** The value follows a flag and a space: it must look like a token. */
  strict = false;
  /** The separator was a plain `:`. */
  colon = false;
  /** The name is `PASS` alone, as a test harness prints a result (see `narrowed`). */
  readonly result: boolean;
  /** The value is a list's first element (`"passwords": ["…"]`, `params: [ "…" ]`). */
  list = false;
  /** Where a `[` after the separator was read (the next byte says if a list opened), or -1. */
  listAt = -1;
  /** The byte at `listAt`: `[`, or `(` for a tuple. */
  listOpener = 0;
  /** ListNext phase: the bytes to the next element. */
  gap: ListGap | null = null;
  /**
   * Backslashes just read in a quoted value (not an escaped quote's), and where the run
   * began: the byte after them says whether they escape a line break, which ends the value.
   */
  run = 0;
  runAt = 0;
  /** The value is a list's element after the first, which was a secret. */
  listed = false;
  /** Blanks before a YAML list's first item's `-`. */
  itemIndent = 0;
  /** The value is the text of the element named after the keyword, after its attributes. */
  elementText = false;
  /** Vendor mode: a YAML block was entered (at most one level). */
  block = false;
  /** Vendor mode: the block is a JSON object (`"stripe": {"key": …}`). */
  braced = false;
  /** The quote around an object member's name, while it is open. */
  childQuote = 0;
  /**
   * Offset of a `;`, `&`, `,` or `|` run that ends an unquoted value if whitespace or the
   * end follows, of a quote that ends it if a `QUOTE_CLOSER` or the end follows, of a
   * closing bracket (the value opened none) that ends it if a `BRACKET_CLOSER` or the end
   * follows (`connect(password=x)`), of a `<` that ends it if `/` follows, or -1.
   */
  semi = -1;
  /** The byte at `semi` is a quote, a closing bracket or a `<`. */
  semiQuote = false;
  /**
   * A quoted value: the quote of the other kind at `semi` was followed by code punctuation;
   * held until the value's own quote (the other one was the value's) or the line's end
   * (it closed the string the value stood in) says which.
   */
  otherClosed = false;
  /** Bytes read since `otherClosed` was set. */
  otherCount = 0;
  /** A `-name` and one blank: a flag's value follows, or a spaced `=` (a kebab-case key). */
  flagSpace = false;
  /** What, after the quote, bracket or `<` at `semi`, shows the value ended there. */
  semiCloser: Uint8Array = QUOTE_CLOSER;
  /** The run at `semi` started at a closing bracket (an unquoted value ended by `)`, `]`, `}`). */
  semiBracket = false;
  /** The last byte of the `;` run at `semi` is `&` (then `amp;` continues the run). */
  semiAmp = false;
  /** The first three bytes of the key after a `;` run (see `semicolonKey`), one a byte. */
  keyWord = 0;
  /** The unquoted value holds an opening bracket: its closing brackets are its own. */
  opened = false;
  /** Bytes of a possible connection-string key after a `;` (see `semicolonKey`), or -1. */
  key = -1;
  /** Offset of the first blank inside that key (`;Initial Catalog=`), or -1. */
  keySpace = -1;
  /** That key's last byte is a blank. */
  keyBlank = false;
  /** Offset of a backslash in an unquoted value that ends it if an escape letter follows, or -1. */
  backslash = -1;
  /** Blanks stood before the `=` (`token = x`: code or an INI file, not a shell). */
  spacedEquals = false;
  /**
   * The value's line broke after a spaced `=` (`const apiToken =\n  "…";`, as Prettier and
   * Java's formatters wrap a long literal): only a quoted value may follow.
   */
  wrapped = false;
  /** That break was a `\r`: one `\n` may follow it. */
  wrapCr = false;
  /** The separator was a plain `=` (not `.=`, `+=`, `?=`, `:`). */
  equals = false;
  /** A word after the name and a space may be the value (`password X`). */
  spaced = false;
  /** The value is that word (read from `Phase.TypeWord`): a blank after it ends it only when random. */
  spacedWord = false;
  /** A vendor's name was followed by the word `key` and a space (`Datadog key X`). */
  keyLabel = false;
  /** Visual Basic's `As` came after the name: a type follows. */
  asType = false;
  /**
   * A getter ends the name (`getPassword()`): 1 after its `(`, 2 after its `)`, when only
   * a comparison may follow (`getPassword().equals("…")`, `user.getToken() == "…"`).
   */
  getter = 0;
  /** A getter's definition after its `()`: the return type and body read so far (see `getterBody`). */
  body = "";
  /**
   * A table's row (`| password | … |`, `│ token │ … │`): 1 once the name's cell closed, and
   * for `│` (three bytes) the bytes of it read, as 2 and 3.
   */
  cell = 0;
  /** Vendor mode: a word between the name and `key` was read (`Algolia admin key`). */
  qualified = false;
  /** The value's quote came escaped (`\"` inside a string): a backslash ends the value. */
  escapedQuote = false;
  /** The previous byte was a backslash before a key's or value's quote. */
  quoteEscape = false;
  /** Backslashes read after the first of a run (see `next`). */
  backslashes = 0;
  /**
   * Hex digits of a `\uXXXX` escape after the name read so far (-1 outside one), and their
   * value: Gson and other HTML-safe JSON writers escape the `=` (`token\u003dx`).
   */
  unicodeDigits = -1;
  unicode = 0;
  /** A quoted name was followed by `,`: the quoted word after it may be a `"value"` key. */
  pairComma = false;
  /** After such a pair's value, its `,` and the blanks after it were read (1 + blanks), or 0. */
  pairArgs = 0;
  /**
   * A YAML list's item after a line break (see `startsItemLine`): 1 its line, 2 its `-`, 3
   * read; or {@link PLAIN_LINE}, a plain scalar on that line.
   */
  itemLine = 0;
  /** A quoted name in brackets (`["password"]`, PHP's arrays); the separator was `=>`. */
  bracketed = false;
  arrow = false;
  /** Bytes of `var_dump`'s `string(N)` read on the item's line, or -1 for a YAML item's. */
  dumped = -1;
  /**
   * A subscript closed on a bare name, a Ruby symbol's (`opts[:password]`) or PHP's
   * `print_r`'s (`[password]`): only blanks and `=` may follow.
   */
  symbolKey = false;
  /**
   * Markdown's marks read after the name that close those before it (`**API key**: …`,
   * `**Password:** …`, `` `API_KEY`: … ``): at most two, read as a quote's.
   */
  marks = 0;
  /** Sibling phase: the last word read (lowercase), and whether the next name byte starts another. */
  word = "";
  wordEnded = false;
  /** Sibling phase: the word was opened by `</` (a closing tag) or `<` (an opening one), else 0. */
  tag = 0;
  /** Sibling phase: line breaks passed. */
  breaks = 0;
  /** A dash separator after the name (see `dashAllowed`): 1 in its dashes, 2 in the blanks after them. */
  dash = 0;

  constructor(match: AnchorMatch, mode: Mode) {
    this.anchor = match.anchor;
    const last = match.anchor.charCodeAt(match.anchor.length - 1);
    this.lowerEnd = last >= 0x61 && last <= 0x7a;
    this.anchorLength = match.length;
    this.from = match.length;
    this.mode = mode;
    this.flag = match.before === 0x2d;
    // `\/` (PHP's JSON) reads as a backslash before the name.
    const nameBefore = match.nameBefore ?? match.before;
    this.nameBefore = nameBefore;
    this.afterLetter = match.before >= 0 && ALPHA[match.before] === 1;
    this.afterUnderscore = match.before === 0x5f;
    this.afterSlash = nameBefore === 0x2f || nameBefore === 0x5c;
    this.query = nameBefore === 0x3f || nameBefore === 0x26;
    this.result = match.anchor === "PASS" && !(match.before >= 0 && NAME[match.before] === 1);
    this.scoped = match.scoped === true;
  }

  get to(): number | undefined {
    return this.semi >= 0 ? this.semi : undefined;
  }

  // Over 80 lines on purpose: the per-byte grammar in the redactor's hot loop, kept as one
  // switch over `phase` so that a byte costs one call, whatever state it moves through.
  next(byte: number): Verdict {
    this.offset++;
    const here = this.anchorLength + this.offset - 1; // this byte's offset from the anchor's start
    // A run of backslashes before a quote reads as one (see `MAX_BACKSLASHES`).
    if (byte === 0x5c && this.quoteEscape)
      return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
    this.backslashes = 0;
    if (
      (byte >= 0x80 || this.separator !== 0) &&
      this.quote === 0 &&
      this.semi < 0 &&
      (this.phase === Phase.Held || this.phase === Phase.Unquoted)
    ) {
      const step = separatorStep(this, byte, here);
      if (step === SEPARATOR_ENDED) return this.separatorEnded(here);
      if (step === SEPARATOR_HELD) {
        if (this.phase === Phase.Held) this.value.push(byte);
        return Verdict.Hold;
      }
    }
    for (;;) {
      switch (this.phase) {
        case Phase.First:
          if (this.mode.wholeWord && ALNUM[byte] === 1) return Verdict.Reject;
          // A lowercase letter goes on a longer word (`secretary`), but for a plural's `s`
          // and `key` after `secret` (`secretkey`: a name of its own, as `secret_key`).
          if (
            byte >= 0x61 &&
            byte <= 0x7a &&
            (byte !== 0x73 || this.mode.vendor) &&
            (byte !== 0x6b || this.anchor !== "secret" || this.mode.vendor)
          )
            return Verdict.Reject;
          // `tokens`, `SECRETS`; after a lowercase keyword a capital starts the next camelCase
          // word (`mySecretString`), not a plural.
          this.phase =
            (byte === 0x73 || (byte === 0x53 && !this.lowerEnd)) && !this.mode.vendor
              ? Phase.Plural
              : Phase.Name;
          if (this.phase === Phase.Plural) {
            this.tail += String.fromCharCode(byte);
            this.from = here + 1;
            return Verdict.Hold;
          }
          continue;
        case Phase.Plural:
          if (byte >= 0x61 && byte <= 0x7a) return Verdict.Reject;
          if (byte === 0x2e || byte === 0x2d) return Verdict.Reject;
          if (NAME[byte] !== 1) {
            // A plural name (`"credentials": …`, `API_KEYS=…`): its value must look like a
            // token, as after a vendor's name (`tokens: 4096`, `"credentials": "include"`,
            // `secrets: inherit` are settings); one that ends a camelCase name names a place
            // or a resource (`keyVaultToStoreSecrets: cmp2-qat-12083`).
            // In JSON it may still name an object of tokens (`"accessTokens": {…}`, below).
            if (this.afterLetter) {
              if (this.nameBefore !== 0x22) return Verdict.Reject;
              this.objectOnly = true;
            }
            this.plural = true;
            this.strict = true;
            this.phase = Phase.AfterName;
            this.count = 0;
          } else this.phase = Phase.Name;
          continue;
        case Phase.Name:
          if (NAME[byte] === 1) {
            if (++this.count > MAX_NAME) return Verdict.Reject;
            if (this.tail.length < MAX_TAIL) this.tail += String.fromCharCode(byte);
            this.from = here + 1;
            return Verdict.Hold;
          }
          if (this.namesNoSecret()) {
            // HashiCorp's tokens are `SecretID`s (Consul, Nomad; Vault AppRole's `secret_id`),
            // UUIDs; any other value named so is a name (AWS's `SecretId: prod/db`).
            if (!SECRET_ID.test(this.tail) || this.keyword() !== "secret") return Verdict.Reject;
            this.uuidOnly = true;
          }
          this.phase = Phase.AfterName;
          this.count = 0;
          continue;
        case Phase.AfterName:
          this.from = here + 1;
          if (this.closesMarks(byte)) return Verdict.Hold;
          if (this.symbolKey) {
            if (byte === 0x3d) this.symbolKey = false;
            else if (BLANK[byte] !== 1) return Verdict.Reject;
          }
          if (this.unicodeDigits >= 0) return this.unicodeSeparator(byte);
          if (this.dash > 0) {
            const verdict = this.dashSeparator(byte);
            if (verdict !== REREAD) return verdict;
            continue;
          }
          // Java's and C#'s `password.equals("…")`: the literal the secret is compared with.
          if (byte === 0x28 && this.count === 0 && EQUALS_CALL.test(this.tail)) {
            this.phase = Phase.Comparison;
            this.doubled = true;
            return Verdict.Hold;
          }
          if (
            this.getter > 0 ||
            (byte === 0x28 && (this.afterLetter || this.afterUnderscore) && this.tail === "") ||
            (byte === 0x7b && this.count > 0 && this.tail === "" && !this.keyQuoted)
          ) {
            const verdict = this.getterByte(byte);
            if (verdict !== REREAD) return verdict;
            continue;
          }
          if (this.pending === LEFT_ARROW) {
            // R's `<-` and `<<-`: the value must be a string (`x <- getLine` is code).
            if (byte === 0x3c && !this.quotedOnly) {
              this.quotedOnly = true;
              return Verdict.Hold;
            }
            if (byte !== 0x2d) return Verdict.Reject;
            this.pending = 0;
            this.quotedOnly = true;
            this.phase = Phase.ValueStart;
            return Verdict.Hold;
          }
          if (this.cell > 1 || (this.pending === 0x7c && BLANK[byte] === 1 && !this.doubled))
            return this.cellSeparator(byte);
          if (this.pending !== 0) {
            // `||=` and `??=` (Ruby, JavaScript, C#, PHP); a lone `|` or `||` is no assignment.
            if (byte === this.pending && DOUBLED[byte] === 1 && !this.doubled) {
              this.doubled = true;
              return Verdict.Hold;
            }
            if (this.fallbackOperator(byte)) {
              // A default after `||`, `??` or `?:` (`process.env.API_KEY ?? "…"`): a quoted
              // random token, read as after a spaced `=` (it may wrap onto the next line).
              this.pending = 0;
              this.quotedOnly = true;
              this.strict = true;
              this.random = true;
              this.equals = true;
              this.spacedEquals = true;
              this.phase = Phase.ValueStart;
              if (BLANK[byte] !== 1 && byte !== 0x3a) continue;
              return Verdict.Hold;
            }
            if (byte !== 0x3d || (this.pending === 0x7c && !this.doubled)) return Verdict.Reject;
            this.phase = this.pending === 0x21 ? Phase.Comparison : Phase.ValueStart;
            this.appends = this.pending === 0x2b || this.pending === 0x2e;
            this.pending = 0;
            return Verdict.Hold;
          }
          if (this.quoteEscape) {
            // `\"x_token\": …` inside a string: the key's closing quote, escaped.
            this.quoteEscape = false;
            if (byte === 0x6e || byte === 0x72) return this.siblingAfter(byte, true);
            if (byte === 0x75 && !this.keyQuoted) {
              this.unicodeDigits = 0;
              this.unicode = 0;
              return Verdict.Hold;
            }
            if ((byte !== 0x22 && byte !== 0x27) || this.keyQuoted || this.scoped)
              return Verdict.Reject;
            if (this.quotedAfterBlank()) {
              this.quote = byte;
              this.escapedQuote = true;
              return Verdict.Hold;
            }
            this.keyQuoted = true;
            return Verdict.Hold;
          }
          if ((byte === 0x22 || byte === 0x27) && !this.keyQuoted) {
            if (this.quotedAfterBlank()) {
              this.quote = byte;
              return Verdict.Hold;
            }
            // A quoted path is no name (a route's `'/forgot-password' => …`, a docs site's
            // redirect map `"/en/…/creating-a-strong-password": "/en/…"`), nor a quoted type's
            // (CloudFormation's `"AWS::IAM::AccessKey": …`; unquoted, `Config::API_KEY = …` is).
            if (this.afterSlash || this.scoped) return Verdict.Reject;
            this.keyQuoted = true;
            return Verdict.Hold;
          }
          // A backslash: the name's closing quote escaped inside a string, or after it a
          // line break before a sibling `value` key (`name = \"X\"\nvalue = …`).
          if (byte === 0x5c) {
            this.quoteEscape = true;
            return Verdict.Hold;
          }
          if (byte === 0x2d && this.count > 0 && this.dashAllowed()) {
            this.dash = 1;
            this.count = 1;
            return Verdict.Hold;
          }
          if (BLANK[byte] === 1) {
            // A table's column padding after the name (PowerShell's `Get-ChildItem Env:`
            // pads names to the longest one's width).
            if (++this.count > MAX_COLUMN_PADDING) return Verdict.Reject;
            if (this.flag && this.count === 1 && this.tail === "" && !this.keyQuoted) {
              // `--token value`: the flag's value after one space (unless a spaced `=`
              // follows: a kebab-case key, TOML's `api-token = "…"`).
              this.strict = true;
              this.phase = Phase.ValueStart;
              this.count = 0;
              this.flagSpace = true;
            }
            return Verdict.Hold;
          }
          if (byte === 0x3d) {
            this.phase = Phase.AfterEquals;
            this.spacedEquals = this.count > 0;
            this.equals = true;
          } else if (byte === 0x3a) this.phase = Phase.AfterColon;
          else if (BOX_VERTICAL[0]![byte] === 1 && this.count > 0 && !this.mode.vendor) {
            this.cell = 2;
            return Verdict.Hold;
          } else if (
            byte === 0x3f ||
            byte === 0x2b ||
            byte === 0x2e ||
            byte === 0x7c ||
            byte === 0x21 ||
            // R's `<-` after a blank (a `<` right after the name closes an XML element's text).
            (byte === LEFT_ARROW && this.count > 0)
          ) {
            this.pending = byte;
            this.spacedEquals = this.count > 0;
            return Verdict.Hold;
          } else if (byte === 0x5b && this.count === 0 && !this.keyQuoted) {
            // `char password[] = "…"`: the array's size, then the value, quoted.
            this.phase = Phase.Subscript;
            return Verdict.Hold;
          } else if (
            byte === 0x3e &&
            (this.count === 0 || this.tagBlanks()) &&
            !(this.keyQuoted && this.afterSlash)
          ) {
            // XML: <xToken>value</xToken>; after an attribute naming it (`<entry
            // key="db.password">value</entry>`) the text must look like a token. A tag may
            // hold blanks before its `>` (`<xToken >`, `name="db.password" >`).
            this.phase = Phase.ValueStart;
            this.quote = 0x3c;
            this.strict = this.keyQuoted;
            return Verdict.Hold;
          } else if (
            (this.keyQuoted ||
              this.nameBefore === 0x3a ||
              // PHP's `print_r`: `[password] => …`, the name alone in brackets.
              (this.nameBefore === 0x5b && byte === 0x5d)) &&
            (byte === 0x2c || byte === 0x5d) &&
            // A path is no name (`readFile('/etc/passwd', 'utf8')`).
            !(this.afterSlash && byte === 0x2c)
          ) {
            // setProperty("X_TOKEN", "…") / $c['x_password'] .= '…', Ruby's `set
            // :password, "…"` and `opts[:password] = "…"`; or a name/value pair (`"name":
            // "API_TOKEN", "value": "…"`, see `Held`).
            this.symbolKey = byte === 0x5d && !this.keyQuoted;
            this.bracketed = byte === 0x5d && this.keyQuoted;
            this.keyQuoted = false;
            // A quoted key in brackets (`headers["X-API-Key"] = …`) is no `-flag value`.
            if (byte === 0x5d) this.flag = false;
            this.pairComma = byte === 0x2c;
            this.phase = byte === 0x2c ? Phase.ValueStart : Phase.AfterName;
            this.strict = byte === 0x2c;
            this.count = 0;
            return Verdict.Hold;
          } else if (
            this.count > 0 &&
            (this.keyQuoted
              ? byte === 0x76 // `key="xPassword" value="…"`
              : ALNUM[byte] === 1 || byte === 0x5b || byte === 0x2a)
          ) {
            // A file's name in a path, then a word (dpkg's `/etc/pam.d/passwd <md5sum>`); the
            // verb (`Pass v4l2_pix_fmts to …`).
            if (this.afterSlash || this.passVerb()) return Verdict.Reject;
            // A value after a space only where the keyword ends the name (`password X`), or
            // `key` does after `secret` (`secret_key X`, `SECRETKEY X`): a vendor's name or a
            // longer name followed by a word is prose or an id.
            this.spaced =
              (this.keywordEndsName() && !this.mode.vendor && !this.keyQuoted) ||
              this.keyLabel ||
              this.uuidOnly;
            // A Go type (`var xToken string = "…"`), or the value itself after a space
            // (netrc `password X`, `api_token X`): the word is held until it says which.
            this.phase = Phase.TypeWord;
            this.count = 1;
            this.from = here;
            this.value = [byte];
            return Verdict.Hold;
          } else if (this.keyQuoted && this.count > 0 && ALPHA[byte] === 1 && !this.mode.vendor) {
            // `<setting name="ApiKey" serializeAs="String">\n  <value>…</value>` (.NET's
            // settings): the element's other attributes, then its `value` child.
            this.phase = Phase.Attributes;
            this.count = 1;
            return Verdict.Hold;
          } else return this.siblingAfter(byte, false);
          this.count = 0;
          return Verdict.Hold;
        case Phase.TypeWord:
          if (this.count > 0) {
            if (TYPE_WORD[byte] === 1 && this.count < MAX_TYPE) {
              this.count++;
              this.value.push(byte);
              return Verdict.Hold;
            }
            // Prose that gives the value: `Your password is: X` (read as after a `:`), `the
            // admin password is X` (the value must look like a token, as after a space), and
            // a tool's report of a credential it made, `New token created: X`, `API key
            // generated: X` (a token too).
            const made = byte === 0x3a && isMadeWord(this.value);
            if (
              this.spaced &&
              (byte === 0x3a || BLANK[byte] === 1) &&
              (made || isIsWord(this.value))
            ) {
              this.value = [];
              this.count = 0;
              this.from = here + 1;
              this.strict = byte !== 0x3a || made;
              this.random = made;
              this.prose = true;
              this.phase = byte === 0x3a ? Phase.AfterColon : Phase.ValueStart;
              return Verdict.Hold;
            }
            // `the password for user "postgres" is "admin"`: a few words, then `is`; `root
            // password set to X`, `password was changed to: X`: verbs, then `to`.
            if (this.spaced && BLANK[byte] === 1 && !this.mode.vendor) {
              const verb = isVerbWord(this.value);
              if (verb || isForWord(this.value)) {
                this.verbs = verb;
                this.count = 0;
                this.phrase = "";
                this.phase = Phase.ForPhrase;
                return Verdict.Hold;
              }
            }
            // Cisco IOS's `password 0 X`, `secret 7 X`: the encryption type before the value
            // (0 the password itself, 7 its reversible encoding), which must look like a
            // token (`password 0 attempts left` is prose).
            if (
              this.spaced &&
              BLANK[byte] === 1 &&
              this.count === 1 &&
              CISCO_TYPE[this.value[0]!] === 1
            ) {
              this.value = [];
              this.count = 0;
              this.from = here + 1;
              this.strict = true;
              this.phase = Phase.ValueStart;
              return Verdict.Hold;
            }
            // `reg query`'s row (`    DefaultPassword    REG_SZ    …`): the value's type, its
            // padding, then the value (any word, as after `=`).
            if (this.spaced && BLANK[byte] === 1 && isRegistryString(this.value)) {
              this.value = [];
              this.count = 0;
              this.from = here + 1;
              this.phase = Phase.ValueStart;
              return Verdict.Hold;
            }
            // A vendor's name or a keyword, a space and `key` (`Mailjet key: …`, `Secret key:
            // …`): the word goes on the name.
            if (
              (this.mode.vendor || this.spaced) &&
              (byte === 0x3a || byte === 0x3d) &&
              isKeyWord(this.value)
            ) {
              this.value = [];
              this.phase = byte === 0x3a ? Phase.AfterColon : Phase.AfterEquals;
              this.from = here + 1;
              return Verdict.Hold;
            }
            // Not a type: the word after the name is the value, if it looks like a token; a
            // blank after it ends it when it is long and random enough for no type or name to
            // be that: 16+ characters switching between letters and digits 4+ times
            // (`password Xk9mP2qL8vR4tW6y expired`; `password sha256WithRSAEncryption is` stays).
            if (
              (BLANK[byte] !== 1 && byte !== 0x3d) ||
              (BLANK[byte] === 1 && this.spaced && randomWord(this.value))
            ) {
              if (!this.spaced) return Verdict.Reject;
              this.strict = true;
              this.spacedWord = true;
              this.phase = Phase.Held;
              continue;
            }
          }
          this.from = here + 1;
          if (BLANK[byte] === 1) {
            if ((this.mode.vendor || this.spaced) && this.count > 0 && isKeyWord(this.value)) {
              // `Datadog key <value>`, `secret key <value>`: the word after `key` may be the
              // value, as after a keyword.
              this.keyLabel = true;
              this.phase = Phase.AfterName;
              this.count = 1;
              this.value = [];
              return Verdict.Hold;
            }
            if (!this.asType && this.count === 2 && spells(this.value, "as")) {
              // Visual Basic's declaration (`Dim password As String = "…"`): the type next.
              this.asType = true;
              this.phase = Phase.AfterName;
              this.count = 1;
              this.value = [];
              return Verdict.Hold;
            }
            if (
              this.mode.vendor &&
              this.count > 0 &&
              !this.keyLabel &&
              !this.qualified &&
              isQualifierWord(this.value)
            ) {
              // One word may qualify the key (`Algolia admin key: …`, `Datadog application
              // key …`), never one that says it is public or no secret (`search`, `id`).
              this.qualified = true;
              this.phase = Phase.AfterName;
              this.count = 1;
              this.value = [];
              return Verdict.Hold;
            }
            this.count = 0; // now the blanks before `=`
            this.value = [];
            return Verdict.Hold;
          }
          if (byte === 0x3d && this.count === 0) {
            // A declaration (`var xToken string = …`, `Type P = …`): code, spacing its `=`.
            this.phase = Phase.AfterEquals;
            this.spacedEquals = true;
            return Verdict.Hold;
          }
          // An XML attribute pair: `<add key="ClearTextPassword" value="…" />`, or the
          // element named after the keyword (`<password value="…"/>`).
          if (
            byte === 0x3d &&
            (this.keyQuoted || this.nameBefore === 0x3c) &&
            spells(this.value, "value")
          ) {
            this.value = [];
            this.phase = Phase.ValueStart;
            return Verdict.Hold;
          }
          // The element named after the keyword has other attributes (`<Pass
          // encoding="base64">…</Pass>`, FileZilla's): its text, after them.
          if (byte === 0x3d && this.nameBefore === 0x3c && !this.keyQuoted && !this.mode.vendor) {
            this.elementText = true;
            this.phase = Phase.Attributes;
            this.count = 1;
            return Verdict.Hold;
          }
          return Verdict.Reject;
        case Phase.AfterEquals:
          // After a getter only `==` compares (`getPassword() = …` is no statement).
          if (this.getter > 0 && byte !== 0x3d) return Verdict.Reject;
          // A flag's `=` and a blank: it has no value (`--passphrase= can be empty`).
          if (this.flag && !this.spacedEquals && BLANK[byte] === 1) return Verdict.Reject;
          this.phase = Phase.ValueStart;
          if (byte === 0x3d) {
            // "== x" is a comparison; "==x" a value starting with "=".
            this.phase = Phase.Compound;
            this.from = here;
            return Verdict.Hold;
          }
          if (byte === 0x3e) {
            this.from = here + 1;
            this.arrow = true;
            return Verdict.Hold;
          }
          continue;
        case Phase.Compound:
          if (BLANK[byte] === 1 || byte === 0x3d || QUOTES[byte] === 1) {
            this.phase = Phase.Comparison;
            continue;
          }
          if (SPACE[byte] === 1) return Verdict.Reject;
          this.phase = Phase.Held;
          this.value.push(0x3d);
          continue;
        case Phase.Comparison:
          // `password == "…"`, `!== "…"`: the literal a secret is compared with is the
          // secret; it must be quoted (`!= null`, `== other` are code), and is judged as
          // after prose's `is` (a vendor's name still needs a token).
          this.from = here + 1;
          this.phase = Phase.ValueStart;
          this.quotedOnly = true;
          this.compared = !this.mode.vendor;
          if (byte === 0x3d && !this.doubled) {
            this.doubled = true;
            return Verdict.Hold;
          }
          continue;
        case Phase.Subscript:
          this.from = here + 1;
          if (byte === 0x5d) {
            this.phase = Phase.AfterName;
            this.count = 0;
            this.quotedOnly = true;
            this.prose = !this.mode.vendor;
            return Verdict.Hold;
          }
          return DIGIT[byte] === 1 && ++this.count <= MAX_SUBSCRIPT ? Verdict.Hold : Verdict.Reject;
        case Phase.AfterColon: {
          if (this.pending === 0 && this.closesMarks(byte)) {
            this.from = here + 1;
            return Verdict.Hold;
          }
          // `…:123456789012:secret:prod/db-AbCd` (an ARN's, a URN's fields): a name between
          // two colons with the next field right after is no assignment.
          if (this.nameBefore === 0x3a && this.pending === 0 && COLON_FIELD[byte] === 1)
            return Verdict.Reject;
          if (this.mode.vendor && this.pending === 0 && (byte === 0x0a || byte === 0x0d)) {
            // `stripe:` alone on its line: the value is a child's, on the next line.
            if (this.block) return Verdict.Reject;
            this.block = true;
            this.phase = Phase.Block;
            this.count = 0;
            this.pending = byte; // a "\r" may take one "\n" after it
            this.from = here + 1;
            return Verdict.Hold;
          }
          // `aws:iam::…` is a name, not an assignment (see `VENDOR_VALUE_START`); a key's
          // random value may follow its `:` right away (`softlayer_key:<token>`).
          if (
            this.mode.vendor &&
            this.mode.random !== true &&
            VENDOR_VALUE_START[byte] !== 1 &&
            byte !== 0x3d && // `:=`, Go's and Make's
            byte !== 0x3a // `::=`
          )
            return Verdict.Reject;
          // "::" is a scope operator unless `::=` / `:::=`; ":=" an assignment.
          if (byte === 0x3a) {
            if (++this.pending > 2) return Verdict.Reject;
            this.from = here + 1;
            return Verdict.Hold;
          }
          if (this.pending > 0 && byte !== 0x3d) return Verdict.Reject;
          // A shell parameter's default, `${PASSWORD:-…}`, is read as `:=` is; its error
          // message and its alternate value (`${TOKEN:?must be set}`, `${TOKEN:+--token $TOKEN}`)
          // are no value.
          if (this.nameBefore === 0x7b && (byte === 0x3f || byte === 0x2b)) return Verdict.Reject;
          const shellDefault = this.nameBefore === 0x7b && byte === 0x2d;
          // `scheme://name:value@host`: a URL's user name and password; the value ends at
          // the `@` (it would run on over the host and path).
          this.urlUser = this.afterSlash && BLANK[byte] !== 1 && QUOTES[byte] !== 1;
          this.pending = 0;
          this.phase = Phase.ValueStart;
          if (byte === 0x3d || shellDefault) {
            this.from = here + 1;
            return Verdict.Hold;
          }
          this.colon = true;
          continue;
        }
        case Phase.Block:
          this.from = here + 1;
          if (byte === 0x0a && this.pending === 0x0d) {
            this.pending = 0; // "\r\n"
            return Verdict.Hold;
          }
          this.pending = 0;
          if (this.quoteEscape) return this.blockEscape(byte);
          if (byte === 0x5c) {
            this.quoteEscape = true;
            return Verdict.Hold;
          }
          if (this.braced && (SPACE[byte] === 1 || (QUOTES[byte] === 1 && this.childQuote === 0))) {
            // An object's first member: its name's opening quote, after blanks and line breaks.
            if (QUOTES[byte] === 1) this.childQuote = byte;
            return ++this.count > MAX_SIBLING ? Verdict.Reject : Verdict.Hold;
          }
          if (BLANK[byte] === 1) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          if (this.count === 0 || NAME[byte] !== 1) return Verdict.Reject; // not indented: not a child
          this.phase = Phase.BlockName;
          this.tail = "";
          this.count = 0;
          continue;
        case Phase.BlockName:
          this.from = here + 1;
          if (NAME[byte] === 1) {
            if (++this.count > MAX_NAME) return Verdict.Reject;
            if (this.tail.length < MAX_TAIL) this.tail += String.fromCharCode(byte);
            return Verdict.Hold;
          }
          // An object member's name closes its quote before the `:`.
          if (this.childQuote !== 0 && (byte === this.childQuote || byte === 0x5c)) {
            if (byte === this.childQuote) this.childQuote = 0;
            return Verdict.Hold;
          }
          // After a keyword, a quoted member's name is anything (a host, a URL): the keyword
          // named the object, the value must look like a token.
          if (this.childQuote !== 0 && !this.mode.vendor && URL_NAME[byte] === 1)
            return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
          // The child's name must not say it is an id, a region, a URL… (`stripe:\n  id: …`).
          if (byte !== 0x3a || this.childQuote !== 0) return Verdict.Reject;
          if (this.mode.vendor && this.namesNoSecret()) return Verdict.Reject;
          this.phase = Phase.AfterColon;
          this.count = 0;
          return Verdict.Hold;
        case Phase.Sibling:
          this.from = here + 1;
          return this.sibling(byte);
        case Phase.ForPhrase:
          this.from = here + 1;
          return this.forPhrase(byte);
        case Phase.Attributes:
          this.from = here + 1;
          return this.attributes(byte);
        case Phase.ValueStart: {
          this.from = here + 1;
          if (this.itemLine > 0 && this.itemLine < 3) {
            const verdict = this.itemLineByte(byte);
            // A plain scalar on the indented next line: this byte starts the value.
            if (this.itemLine !== PLAIN_LINE) return verdict;
          }
          if (this.flagSpace && BLANK[byte] !== 1) {
            this.flagSpace = false;
            if (byte === 0x3d) {
              this.flag = false;
              this.strict = false;
              this.phase = Phase.AfterEquals;
              this.spacedEquals = true;
              this.equals = true;
              return Verdict.Hold;
            }
            // `IBM-API-KEY : "…"`: a kebab-case key and a spaced `:`, no flag either.
            if (byte === 0x3a) {
              this.flag = false;
              this.strict = false;
              this.phase = Phase.AfterColon;
              return Verdict.Hold;
            }
          }
          if (this.stringPrefix !== 0) {
            // `r"…"`, `b'…'`, `@"…"`, SQL's `N'…'` and `E'…'`, C's `L"…"`, the shell's
            // `$'…'`: the byte was a string's prefix, the quote opens it; before anything else
            // it was the value's first byte (`$"…"` is C#'s interpolation: a template).
            const prefix = this.stringPrefix;
            const second = this.stringPrefix2;
            if (second === 0 && PREFIX_PAIRS.has((prefix | 0x20) * 256 + (byte | 0x20))) {
              // Python's `rb"…"`, `fr'…'`, C's `u8"…"`.
              this.stringPrefix2 = byte;
              this.from = here - 1; // both held: they may be the value's first bytes
              return Verdict.Hold;
            }
            this.stringPrefix = 0;
            this.stringPrefix2 = 0;
            if (QUOTES[byte] === 1 && (prefix !== 0x24 || byte === 0x27)) {
              this.quote = byte;
              this.formatted = (prefix | 0x20) === 0x66 || (second | 0x20) === 0x66;
              return Verdict.Hold;
            }
            // `r\"…\"` inside a string.
            if (byte === 0x5c) {
              this.quoteEscape = true;
              return Verdict.Hold;
            }
            // After a quoted name and a `,` only a literal is a value (below).
            if (this.quotedOnly || this.pairComma) return Verdict.Reject;
            this.value = second === 0 ? [prefix] : [prefix, second];
            this.phase = Phase.Held;
            continue;
          }
          if (this.quoteEscape) {
            this.quoteEscape = false;
            // Pretty-printed JSON inside a string: `\n` and indentation before the pair's value.
            if ((this.pairComma || this.list) && this.quote === 0 && ESCAPED_BLANK[byte] === 1)
              return ++this.count > MAX_SIBLING ? Verdict.Reject : Verdict.Hold;
            if ((byte === 0x6e || byte === 0x72) && this.wrapsLine(byte)) return Verdict.Hold;
            if ((byte === 0x6e || byte === 0x72) && this.startsItemLine()) return Verdict.Hold;
            // A vendor's YAML block inside a string (`stripe:\n  key: …`).
            if (
              this.mode.vendor &&
              this.colon &&
              !this.block &&
              this.quote === 0 &&
              (byte === 0x6e || byte === 0x72)
            ) {
              this.block = true;
              this.colon = false;
              this.phase = Phase.Block;
              this.count = 0;
              this.breaks = byte === 0x6e ? 1 : 0;
              return Verdict.Hold;
            }
            if (byte !== 0x22 && byte !== 0x27) return Verdict.Reject;
            if (this.escapedQuote) {
              // `\"\"`: a triple quote's next quote, escaped, or an empty element of a list.
              if (byte !== this.quote) return Verdict.Reject;
              if (this.listed) return this.emptyElement();
              this.triple++;
              return Verdict.Hold;
            }
            this.quote = byte;
            this.escapedQuote = true;
            this.pairLiteral();
            return Verdict.Hold;
          }
          // XML: the element's text may start on the next line (`<xToken>\n  value`), also
          // inside a string (`\n`).
          if (this.quote === 0x3c && this.backslash >= 0) {
            // A run of backslashes reads as one (`\\n` in JSON inside a JSON string).
            if (byte === 0x5c) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
            this.backslash = -1;
            if (ESCAPED_BLANK[byte] !== 1) return Verdict.Reject;
            return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          }
          if (this.quote === 0x3c && byte === 0x5c) {
            this.backslash = here;
            return Verdict.Hold;
          }
          // XML: the element holds its value in a child (`<AdministratorPassword><Value>…`,
          // Windows' unattend files), read as a sibling's `<value>`.
          if (this.quote === 0x3c && byte === 0x3c && !this.mode.vendor) {
            this.enterSibling(1, 0);
            return Verdict.Hold;
          }
          // Prose quoting code (`pw=" read 2.2"`): a quoted secret never starts with a blank.
          if (BLANK[byte] === 1 && this.quote !== 0 && this.quote !== 0x3c) return Verdict.Reject;
          // A list after the separator, or a Python tuple: its first element is the value,
          // if it looks like a token (code lists names: `currentToken = ['at-word', …]`).
          // Only a quote, a blank or an escape after the `[` opens one (after a `(`, no blank:
          // `( x + y )` is an expression); anything else makes the bracket the value's
          // first byte, as before (`PASSWORD=[x…`).
          if (this.listAt === here - 1) {
            this.listAt = -1;
            const opener = this.listOpener;
            if (QUOTES[byte] !== 1 && byte !== 0x5c && (opener === 0x28 || SPACE[byte] !== 1)) {
              this.value = [opener];
              this.phase = Phase.Held;
              continue;
            }
            this.list = true;
            this.strict = true;
          } else if (
            (byte === 0x5b || (byte === 0x28 && this.equals)) &&
            this.quote === 0 &&
            !this.list &&
            (this.colon || this.equals)
          ) {
            this.listAt = here;
            this.listOpener = byte;
            return Verdict.Hold;
          }
          if ((byte === 0x0a || byte === 0x0d) && this.wrapsLine(byte)) return Verdict.Hold;
          if ((byte === 0x0a || byte === 0x0d) && this.startsItemLine()) return Verdict.Hold;
          // `"name": "API_TOKEN",\n  "value": …` (pretty-printed JSON): line breaks too.
          const lines = this.pairComma || this.list;
          if (
            BLANK[byte] === 1 ||
            (this.quote === 0x3c && SPACE[byte] === 1) ||
            (lines && this.quote === 0 && (byte === 0x0a || byte === 0x0d))
          )
            return ++this.count > (lines || this.wrapped ? MAX_SIBLING : MAX_BLANKS)
              ? Verdict.Reject
              : Verdict.Hold;
          if (QUOTES[byte] === 1 && this.quote === 0) {
            this.quote = byte;
            this.pairLiteral();
            return Verdict.Hold;
          }
          // (Escaped inside a string, Python's triple quotes are `\"\"\"`.)
          if (byte === 0x5c && (this.quote === 0 || (this.escapedQuote && this.triple < 2))) {
            this.quoteEscape = true;
            return Verdict.Hold;
          }
          // An empty element after the first of a list (`["…", "", "…"]`): the next one follows.
          if (this.listed && byte === this.quote && !this.escapedQuote) return this.emptyElement();
          // Python's `"""…"""` and `'''…'''`: two more quotes open the string; after two, an
          // empty one ended.
          if (byte === this.quote && QUOTES[byte] === 1 && !this.escapedQuote && this.triple < 2) {
            this.triple++;
            return Verdict.Hold;
          }
          if (this.triple === 1) return Verdict.Reject;
          if (SPACE[byte] === 1 || byte === this.quote) return Verdict.Reject;
          if (this.colon && this.quote === 0 && (byte === 0x7c || byte === 0x3e)) {
            // A YAML block scalar: the value is the next line's text, indented.
            this.phase = Phase.BlockScalar;
            this.count = 0;
            this.breaks = 0;
            return Verdict.Hold;
          }
          if (
            ((this.colon && (this.mode.vendor || this.keyQuoted)) ||
              (this.equals && this.plural)) &&
            this.quote === 0 &&
            byte === 0x7b &&
            !this.block
          ) {
            // `"stripe": {"key": "…"}`: the value is the object's first member's; after a
            // keyword's quoted name (`"accessTokens": {"https://api.pulumi.com": "…"}`, Pulumi's
            // credentials) the member's name may be a host's or a URL, its value a token; after
            // a plural's `=`, a dictionary's (`API_KEYS = {"prod": "…", "dev": "…"}`).
            if (!this.mode.vendor) this.strict = true;
            this.objectOnly = false;
            this.block = true;
            this.braced = true;
            this.colon = false;
            this.phase = Phase.Block;
            this.count = 1;
            return Verdict.Hold;
          }
          if (this.quote === 0 && this.value.length === 0 && this.some > 0) {
            // Rust's `Some("…")` (an `Option` printed by `{:?}`): the literal inside is the
            // value; anything else after the held bytes makes them its first.
            if (this.some < SOME.length && byte === SOME.charCodeAt(this.some)) {
              this.some++;
              this.from = here - this.some + 1;
              return Verdict.Hold;
            }
            if (this.some === SOME.length && QUOTES[byte] === 1) {
              this.quote = byte;
              return Verdict.Hold;
            }
            this.from = here - this.some;
            this.value = Array.from(SOME.slice(0, this.some), (c) => c.charCodeAt(0));
            this.phase = Phase.Held;
            continue;
          }
          if (this.quote === 0 && this.value.length === 0 && byte === 0x53 && !this.quotedOnly) {
            this.some = 1;
            this.from = here;
            return Verdict.Hold;
          }
          if (this.quote === 0 && this.value.length === 0 && STRING_PREFIX[byte] === 1) {
            this.stringPrefix = byte;
            this.from = here; // held: it may be the value's first byte
            return Verdict.Hold;
          }
          // After a quoted name and a `,` only a literal is a value (`x(code='pass',
          // exitcode=0)`, `setProperty("X_TOKEN", token)` pass on names).
          if ((this.quotedOnly || this.pairComma) && this.quote === 0) return Verdict.Reject;
          this.phase = Phase.Held;
          this.from = here;
          continue;
        }
        case Phase.BlockScalar:
          this.from = here + 1;
          if (++this.count > MAX_SIBLING) return Verdict.Reject;
          if (this.breaks === 0) {
            // The header: a chomping sign, an indentation digit, blanks, `\r`, then `\n` (also
            // escaped, inside a string).
            const escaped = this.quoteEscape;
            this.quoteEscape = false;
            if (byte === 0x0a || (escaped && byte === 0x6e)) {
              this.breaks = 1;
              this.count = 0;
              return Verdict.Hold;
            }
            if (escaped) return byte === 0x72 ? Verdict.Hold : Verdict.Reject;
            this.quoteEscape = byte === 0x5c;
            return BLOCK_HEADER[byte] === 1 || byte === 0x5c ? Verdict.Hold : Verdict.Reject;
          }
          if (BLANK[byte] === 1) return Verdict.Hold;
          // The first line must be indented and hold something.
          if (this.count === 1 || SPACE[byte] === 1) return Verdict.Reject;
          this.phase = Phase.Held;
          this.from = here;
          continue;
        case Phase.Held: {
          if (this.value.length === 0 || this.from > here) this.from = here - this.value.length;
          if (this.escapedQuote && this.backslash >= 0 && byte !== 0x5c) {
            // Backslashes inside a string (`\"…\"`): an escape's letter after them ends
            // the value there (`\"`, `\n`); anything else makes them its own (`\\`).
            const at = this.backslash;
            this.backslash = -1;
            if (ESCAPE_LETTER[byte] === 1) {
              this.value.length -= here - at;
              const verdict = this.valueEnded(0x5c, at, ESCAPED | byte);
              if (verdict === Verdict.Close && this.semi < 0) this.semi = at;
              if (verdict !== Verdict.Hold || this.phase === Phase.Held) return verdict;
              if (this.phase === Phase.ListNext) return verdict; // this byte closed the element
              continue; // the next part reads this byte
            }
          }
          if (this.quote === 0x3c && this.semiQuote && this.semi === here - 1) {
            // An element's text counts only with its closing tag: a string it stood in
            // closed at the quote (`"<password>end"}`).
            if (QUOTE_CLOSER[byte] === 1) return Verdict.Reject;
            this.semi = -1;
            this.semiQuote = false;
          }
          if (this.endsAtBackslash(byte)) {
            this.value.length = this.semi - (here - this.value.length);
            this.dropSentenceEnd(this.semi);
            if (!this.credible(true)) return Verdict.Reject;
            if (this.quote === 0x3c) return this.xmlTail(false);
            return this.elementEnded(ESCAPED | byte, this.semi, Verdict.Close);
          }
          const key = this.closesQuote(byte) ? Semicolon.Ends : this.semicolonKey(byte);
          if (key === Semicolon.Ends) {
            const at = this.semi - (here - this.value.length);
            // A cell ends at a blank, or where the string its row stands in closes
            // (`{"log":"api_key | …"}`, `{'log': '…'}`).
            if (this.cell === 1 && QUOTES[this.value[at]!] !== 1) return Verdict.Reject;
            this.value.length = at;
            if (this.cell === 1 && !isCellValue(this.value)) return Verdict.Reject;
            return this.credible(true) ? Verdict.Close : Verdict.Reject;
          }
          if (key === Semicolon.Undecided) {
            this.value.push(byte);
            return Verdict.Hold;
          }
          if (BLANK[byte] === 1 && spells(this.value, "bearer")) {
            // RFC 6750's scheme before the token (`token: bearer …`, `"auth": "Bearer …"`).
            this.value = [];
            this.strict = true;
            return Verdict.Hold;
          }
          if (this.run > 0 && byte !== 0x5c) {
            // An escaped line break ends a quoted value unterminated, as a line break does
            // (inside a string, `'…\n`; `\\n` inside one inside another): the value ends
            // before the backslashes.
            const run = this.run;
            this.run = 0;
            if (this.breakAfterBackslashes(byte)) {
              this.escaped = false;
              this.value.length -= run;
              const verdict = this.valueEnded(0x0a, this.runAt, -1);
              if (verdict === Verdict.Close && this.semi < 0) this.semi = this.runAt;
              return verdict;
            }
          }
          if (byte === 0x5c && this.rawQuoted() && this.run++ === 0) this.runAt = here;
          const ends = this.endsValue(byte);
          if (!ends) {
            if (
              (this.quote === 0 || this.quote === 0x3c || this.escapedQuote) &&
              byte === 0x5c &&
              this.backslash < 0
            )
              this.backslash = here;
            this.noteSemicolon(byte, here);
            if (this.quote !== 0 && this.quote !== 0x3c && this.escaped) {
              this.escaped = false;
            } else if (this.quote !== 0 && this.quote !== 0x3c && byte === 0x5c)
              this.escaped = true;
            this.value.push(byte);
            if (this.value.length < DECIDE || this.otherClosed) return Verdict.Hold;
            // Not decided on an escape's backslash: its letter may end the value (inside a
            // string, `…\n` after an unquoted value too: the value is judged without it).
            if (
              this.backslash >= 0 &&
              (this.escapedQuote || here - this.backslash < MAX_BACKSLASHES)
            )
              return Verdict.Hold;
            // Nor on a quote just read that may close the string it stood in (`…"}`, or
            // after a `;` run, `…;"}`): the next byte says, and the value is judged without it.
            if (this.semi >= 0 && this.semiQuote) return Verdict.Hold;
            if (!this.credible(false)) return Verdict.Reject;
            this.phase = this.quote === 0 || this.quote === 0x3c ? Phase.Unquoted : Phase.Quoted;
            // A `;` run being read is decided by the bytes after it, as in the rest of the value.
            return this.semi >= 0 ? Verdict.Hold : Verdict.Redact;
          }
          return this.valueEnded(byte, here);
        }
        case Phase.Statement:
          // The closing quote (escaped, `\"`, inside a string), then the statement's `;`.
          if (this.escapedQuote && this.count++ === 0) {
            this.quoteEscape = false;
            return byte === this.quote ? Verdict.Hold : Verdict.Reject;
          }
          return byte === 0x3b ? Verdict.Close : Verdict.Reject;
        case Phase.ListNext:
          return this.listNext(byte, here);
        case Phase.PairTail:
          // Inside a string the value ended at its closing quote's backslash: the quote.
          if (this.escapedQuote && this.count++ === 0)
            return byte === this.quote ? Verdict.Hold : Verdict.Close;
          // A `:` made the pair a JSON member's key and value; a `,` a list of names
          // (`["password", "confirm", …]`), unless the value is random and an argument no
          // string follows on the line: then it is a call's (`setenv("API_KEY", "…", 1)`).
          if (this.pairArgs > 0) {
            if (BLANK[byte] === 1)
              return ++this.pairArgs > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
            return QUOTES[byte] === 1 || SPACE[byte] === 1 || byte === 0x5c
              ? Verdict.Reject
              : Verdict.Close;
          }
          if (byte === 0x2c && digitSwitches(this.value) >= RANDOM_SWITCHES) {
            this.pairArgs = 1;
            return Verdict.Hold;
          }
          return byte === 0x3a || byte === 0x2c ? Verdict.Reject : Verdict.Close;
        case Phase.CellTail:
          if (BLANK[byte] === 1) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          if (byte === 0x7c) return Verdict.Close;
          // `│`, a byte at a time.
          if (BOX_VERTICAL[this.count < 0 ? -this.count : 0]![byte] !== 1) return Verdict.Reject;
          this.count = this.count < 0 ? this.count - 1 : -1;
          return this.count === -3 ? Verdict.Close : Verdict.Hold;
        case Phase.XmlTail:
          if (this.backslash >= 0) {
            this.backslash = -1;
            if (ESCAPED_BLANK[byte] !== 1) return Verdict.Reject;
            return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          }
          // Only a closing tag ends the element (`#include <stop_token>\n#include <…>` stays).
          if (this.xmlOpen) return byte === 0x2f ? Verdict.Close : Verdict.Reject;
          if (byte === 0x3c) {
            this.xmlOpen = true;
            return Verdict.Hold;
          }
          if (byte === 0x5c) {
            this.backslash = here;
            return Verdict.Hold;
          }
          if (SPACE[byte] !== 1) return Verdict.Reject;
          return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
        case Phase.Quoted:
          if (this.closesQuote(byte)) return Verdict.Close;
          if (this.escapedQuote && (byte === 0x5c || this.backslash >= 0)) {
            const ended = this.escapedEnd(byte, here);
            if (ended === Verdict.Close) return this.elementEnded(ESCAPED | byte, this.semi, ended);
            if (ended !== undefined) return ended;
          }
          if (byte === 0x5c) {
            // Held: the byte after the backslashes says what they escape.
            if (this.run++ === 0) this.runAt = here;
            this.escaped = !this.escaped;
            return Verdict.Hold;
          }
          if (this.run > 0) {
            this.run = 0;
            // An escaped line break ends the value unterminated, as a line break does (inside
            // a string, `'…\n`): the value ends before the backslashes.
            if (this.breakAfterBackslashes(byte)) {
              this.escaped = false;
              this.semi = this.runAt;
              return Verdict.Close;
            }
            if (this.escaped) {
              this.escaped = false;
              return Verdict.Redact;
            }
          }
          // Close, not Reject: a held quote of the other kind before it is the value's.
          if (this.endsValue(byte))
            return this.semi < 0 ? this.elementEnded(byte, here, Verdict.Close) : Verdict.Close;
          this.noteSemicolon(byte, here);
          return this.semi >= 0 ? Verdict.Hold : Verdict.Redact;
        case Phase.Unquoted: {
          if (this.dot >= 0) {
            // `the password is X. Next`: a full stop before a blank ended the sentence.
            const at = this.dot;
            this.dot = -1;
            if (SPACE[byte] === 1) {
              this.semi = at;
              return Verdict.Close;
            }
          }
          if (this.endsAtBackslash(byte))
            return this.elementEnded(ESCAPED | byte, this.semi, Verdict.Close);
          if (this.closesQuote(byte)) return Verdict.Close;
          const holding = this.semi >= 0;
          const key = this.semicolonKey(byte);
          if (key === Semicolon.Ends) return Verdict.Close;
          if (key === Semicolon.Undecided) return Verdict.Hold;
          if (this.endsValue(byte))
            return holding ? Verdict.Close : this.elementEnded(byte, here, Verdict.Reject);
          if ((this.quote === 0 || this.quote === 0x3c) && byte === 0x5c) {
            if (this.backslash < 0) this.backslash = here; // what follows says if it escapes
            return Verdict.Hold;
          }
          if (byte === 0x2e && this.strict && this.quote === 0 && this.semi < 0) {
            this.dot = here;
            return Verdict.Hold;
          }
          this.noteSemicolon(byte, here);
          return this.semi >= 0 ? Verdict.Hold : Verdict.Redact;
        }
      }
    }
  }

  /**
   * A backslash of a value quoted inside a string (`\"…\"`), or the byte after a run of
   * them: held until an escape's letter ends the value at the run (`\"`, `\n`: redacted up
   * to it) or another byte makes the run the value's; `undefined` for a byte of the value.
   */
  escapedEnd(byte: number, here: number): Verdict | undefined {
    if (byte === 0x5c) {
      if (this.backslash < 0) this.backslash = here;
      return Verdict.Hold;
    }
    const at = this.backslash;
    this.backslash = -1;
    if (ESCAPE_LETTER[byte] !== 1) return undefined;
    this.semi = at;
    return Verdict.Close;
  }

  /**
   * A separator's last byte (`here`) ended an unquoted value at its first (`separatorAt`), as
   * a line's end would: the separator stays.
   */
  separatorEnded(here: number): Verdict {
    const at = this.separatorAt;
    if (this.phase === Phase.Unquoted) {
      this.semi = at;
      return Verdict.Close;
    }
    this.value.length -= here - at;
    const verdict = this.valueEnded(0x0a, at, -1);
    if (verdict === Verdict.Close && this.semi < 0) this.semi = at;
    return verdict;
  }

  /**
   * The value being held ended at `byte` (at `here`, not the value's): what it was (a
   * sibling's key, a type, a word of prose…) and what comes next.
   */
  valueEnded(byte: number, here: number, ended = byte): Verdict {
    if (this.itemLine === PLAIN_LINE && this.itemIndent === 0 && BLANK[byte] === 1)
      return Verdict.Reject;
    const pairKey = this.pairComma && this.quote !== 0 ? pairKeyOf(this.value) : undefined;
    if (pairKey !== undefined) {
      // `"name": "API_TOKEN", "value": "…"`: the quoted word after the name was the
      // key of its sibling; its `:` follows.
      this.enterSibling(0, 0);
      this.word = pairKey;
      this.wordEnded = true;
      return Verdict.Hold;
    }
    if (this.colon && this.quote === 0 && BLANK[byte] === 1 && isLifetime(this.value)) {
      // Rust's `token: &'static str = …`: the type's word follows its lifetime.
      this.value = [];
      return Verdict.Hold;
    }
    if (this.colon && this.quote === 0 && BLANK[byte] === 1 && isTypeAnnotation(this.value)) {
      // `password: string = "…"` (TypeScript, Kotlin, Swift, Rust, Python's hints): the
      // word after the colon was the type; the value follows its `=`, quoted (`X: Final =
      // -2147417819` is a constant).
      this.colon = false;
      this.quotedOnly = true;
      this.equals = true;
      this.spacedEquals = true;
      return this.typeRead(here, Phase.TypeWord);
    }
    if (this.arrow && this.quote === 0 && BLANK[byte] === 1 && spells(this.value, "string")) {
      // Xdebug's `var_dump`: `'password' => string '…' (length=12)`: the quoted word next.
      this.arrow = false;
      this.quotedOnly = true;
      return this.typeRead(here, Phase.ValueStart);
    }
    this.dropSentenceEnd(here);
    if (!this.credible(true))
      return this.listed
        ? this.elementEnded(ended, here, Verdict.Reject, false)
        : this.statementArgument(here);
    // The word after `password ` with more words after it: only a random one is the
    // value (`password Xk9mP2qL8vR4tW6y expired`; `secret PKCS-9 keys` is prose).
    if (this.spacedWord && BLANK[byte] === 1 && !randomWord(this.value)) return Verdict.Reject;
    if (this.cell === 1) {
      // The row's last cell ends at the line's end (psql's tables draw no closing `|`).
      if (!isCellValue(this.value)) return Verdict.Reject;
      if (byte === 0x0a || byte === 0x0d || CONTROL[byte] === 1) return Verdict.Close;
      if (BLANK[byte] !== 1) return Verdict.Reject;
      this.semi = here;
      this.count = 0;
      this.phase = Phase.CellTail;
      return Verdict.Hold;
    }
    if (this.quote === 0x3c && byte !== 0x3c) {
      this.semi = here;
      return this.xmlTail(true);
    }
    if (this.pairComma && this.quote !== 0) {
      this.semi = here;
      this.count = 0;
      this.phase = Phase.PairTail;
      return Verdict.Hold;
    }
    return this.semi < 0 ? this.elementEnded(ended, here, Verdict.Close) : Verdict.Close;
  }

  /**
   * A list's element that is a secret ended at `ended` (a byte, or {@link ESCAPED} and an
   * escape's letter), at `end`: its own closing quote in a JSON list, the line's end in a
   * YAML list. It is redacted up to `end` and the next element is read and judged as it
   * was (`"api_keys": ["…", "…"]`, `api_keys:\n  - …\n  - …`); one after the first that
   * is no secret (`redact` false) is kept, and the next is read. Otherwise `otherwise`.
   */
  private elementEnded(ended: number, end: number, otherwise: Verdict, redact = true): Verdict {
    // A plural's object (`"api_keys": {"prod": "…", "staging": "…"}`, a YAML map) is a list
    // of members.
    const members = this.block && this.plural;
    if (!(this.list || members) || ended < 0 || this.quote === 0x3c) return otherwise;
    if (this.gap === null) {
      // A YAML item's quote is its own (read anew for each); a JSON list's elements share one.
      const yaml = this.itemLine === 3;
      this.gap = new ListGap(yaml, yaml ? 0 : this.quote, !yaml && this.escapedQuote, members);
      this.gap.itemIndent = this.itemIndent;
    }
    if (!this.gap.ended(ended & 0xff, (ended & ESCAPED) !== 0)) return otherwise;
    this.semiQuote = false;
    this.phase = Phase.ListNext;
    this.count = 0;
    if (!redact) {
      this.from = end;
      return Verdict.Hold;
    }
    this.semi = end;
    return Verdict.Redact;
  }

  /** An empty element (`""`) after the first of a list: the next one follows. */
  private emptyElement(): Verdict {
    this.gap!.reset(0, true);
    this.phase = Phase.ListNext;
    return Verdict.Hold;
  }

  /** ListNext phase: a byte between a list's elements (see `ListGap`). */
  private listNext(byte: number, here: number): Verdict {
    this.semi = -1;
    this.from = here + 1;
    const read = this.gap!.read(byte);
    if (read === GAP_HOLD) return Verdict.Hold;
    return read === GAP_OPEN ? this.openElement() : Verdict.Reject;
  }

  /** The next element's value starts after this byte, judged as the first (its quote anew in YAML). */
  private openElement(): Verdict {
    if (this.itemLine === 3) {
      this.quote = 0;
      this.escapedQuote = false;
    }
    this.phase = Phase.ValueStart;
    this.listed = true;
    this.count = 0;
    this.value = [];
    this.backslash = -1;
    this.escaped = false;
    this.otherClosed = false;
    this.dot = -1;
    this.triple = 0;
    return Verdict.Hold;
  }

  /**
   * A digit of a `\uXXXX` escape right after the name: `\u003d` (`=` as Gson and other
   * HTML-safe JSON writers escape it) separates as `=` does; any other character does not.
   */
  unicodeSeparator(byte: number): Verdict {
    const digit = HEX_VALUE[byte]!;
    if (digit < 0) return Verdict.Reject;
    this.unicode = this.unicode * 16 + digit;
    if (++this.unicodeDigits < 4) return Verdict.Hold;
    this.unicodeDigits = -1;
    if (this.unicode !== 0x3d) return Verdict.Reject;
    this.phase = Phase.AfterEquals;
    this.spacedEquals = this.count > 0;
    this.equals = true;
    return Verdict.Hold;
  }

  /**
   * A byte after a camelCase name's keyword that may make it a getter's call
   * (`getPassword()`): its `(` and `)`, then blanks, `==`/`!=` or `.equals(` (read as the
   * name's tail: {@link REREAD}). A call with arguments, or anything else after it, is no
   * comparison.
   */
  getterByte(byte: number): Verdict | typeof REREAD {
    if (byte === 0x7b && this.getter === 0) this.getter = 5;
    if (this.getter === 5) return this.accessorByte(byte);
    if (this.getter === 0) {
      if (this.count > 0 || this.keyQuoted || this.mode.vendor) return Verdict.Reject;
      this.getter = 1;
      return Verdict.Hold;
    }
    if (this.getter === 1) {
      // Python's `(self)` and `(cls)` define a getter too.
      if (ALPHA[byte] === 1 && this.body.length < 4) {
        this.body += String.fromCharCode(byte);
        return Verdict.Hold;
      }
      if (byte !== 0x29 || !(this.body === "" || this.body === "self" || this.body === "cls"))
        return Verdict.Reject;
      this.getter = 2;
      this.body = "";
      return Verdict.Hold;
    }
    if (byte === 0x2e && this.getter === 2 && this.count === 0 && this.tail === "") {
      // `.equals(` after the `()`: read as the name's tail, as after `password`.
      this.phase = Phase.Name;
      return REREAD;
    }
    if (BLANK[byte] === 1 && this.getter === 2)
      return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
    if (byte === 0x3d && this.getter === 2) {
      this.phase = Phase.AfterEquals;
      this.spacedEquals = this.count > 0;
      this.equals = true;
      return Verdict.Hold;
    }
    if (byte === 0x21 && this.getter === 2) {
      this.getter = 3;
      return Verdict.Hold;
    }
    if (this.getter === 2 && (byte === 0x7b || byte === 0x3a || byte === 0x2d || ALPHA[byte] === 1))
      this.getter = 4;
    if (this.getter === 4) return this.getterBody(byte);
    if (byte !== 0x3d || this.getter !== 3) return Verdict.Reject;
    this.phase = Phase.Comparison;
    return Verdict.Hold;
  }

  /**
   * A byte of C#'s property accessors after the name (`ApiKey { get; set; } = "…"`): the
   * name's `=` may follow them, as after the name itself.
   */
  private accessorByte(byte: number): Verdict {
    if (GETTER_BODY[byte] !== 1 && byte !== 0x3b) return Verdict.Reject;
    this.body += String.fromCharCode(byte);
    if (byte !== 0x7d) return this.body.length > MAX_GETTER_BODY ? Verdict.Reject : Verdict.Hold;
    if (!ACCESSORS.test(this.body)) return Verdict.Reject;
    this.getter = 0;
    this.body = "";
    return Verdict.Hold;
  }

  /**
   * `byte` ends a fallback operator after the name: `||` or `??` and a blank, a line break, a
   * quote or an escape's backslash, or `?:` (Kotlin's, Groovy's and PHP's Elvis).
   */
  private fallbackOperator(byte: number): boolean {
    if (this.pending === 0x3f && !this.doubled) return byte === 0x3a;
    if ((this.pending !== 0x7c && this.pending !== 0x3f) || !this.doubled) return false;
    return SPACE[byte] === 1 || QUOTES[byte] === 1 || byte === 0x5c;
  }

  /**
   * A byte of a getter's definition after its `()`: a return type, the body's `{` (or
   * Python's `:`) and `return`, then the literal it returns, the value, judged as after
   * `=` (`getApiKey() string { return "…" }`, `String getToken() { return "…"; }`,
   * `def get_api_key(): return "…"`).
   */
  private getterBody(byte: number): Verdict | typeof REREAD {
    // Inside a string the body's line breaks and the literal's quotes come escaped.
    if (this.body.endsWith("\\")) {
      if (byte === 0x5c) return Verdict.Hold;
      if (ESCAPED_BLANK[byte] !== 1) return Verdict.Reject;
      this.body = `${this.body.slice(0, -1)} `;
      return Verdict.Hold;
    }
    if ((QUOTES[byte] === 1 || byte === 0x5c) && GETTER_RETURN.test(this.body)) {
      this.getter = 0;
      this.quotedOnly = true;
      this.count = 0;
      this.phase = Phase.ValueStart;
      return REREAD;
    }
    if (GETTER_BODY[byte] !== 1 || this.body.length >= MAX_GETTER_BODY) return Verdict.Reject;
    this.body += String.fromCharCode(byte);
    return Verdict.Hold;
  }

  /**
   * After a name that stood as a value, the byte that may lead to its sibling key `value`
   * (`Phase.Sibling`): a line break after `name: DB_PASSWORD` or `name = "DB_PASSWORD"`
   * (`escaped`: a `\n` inside a string), a `,`, `;` or `&` after `Key=DBPassword`, a `<`
   * after `<name>db.password`.
   */
  siblingAfter(byte: number, escaped: boolean): Verdict {
    if (this.mode.vendor) return Verdict.Reject;
    const before = this.nameBefore;
    let enters: boolean;
    if (escaped || byte === 0x0a || byte === 0x0d)
      enters = this.keyQuoted ? QUOTES[before] === 1 : BLANK[before] === 1;
    else if (this.count > 0 || this.keyQuoted) enters = false;
    else if (byte === 0x3c) enters = true;
    else enters = before === 0x3d && (byte === 0x2c || byte === 0x3b || byte === 0x26);
    if (!enters) return Verdict.Reject;
    // A line break is `\n` (after `\r`, counted then), as a byte or escaped.
    this.enterSibling(byte === 0x3c ? 1 : 0, byte === 0x0a || byte === 0x6e ? 1 : 0);
    return Verdict.Hold;
  }

  enterSibling(tag: number, breaks: number): void {
    this.phase = Phase.Sibling;
    this.word = "";
    this.wordEnded = false;
    this.tag = tag;
    this.breaks = breaks;
    this.count = 0;
    this.quote = 0;
    this.escapedQuote = false;
    this.quoteEscape = false;
    this.keyQuoted = false;
    this.pairComma = false;
    this.value = [];
  }

  /**
   * A byte between a name that stood as a value and its sibling key: quotes, blanks, one
   * line break, `,`, `;`, `&`, `{` and a closing tag (`</name>`) may come before it; the
   * first word after them must be the key (`value`, `Value`, `env[0].value`,
   * `ParameterValue`), and a `:` or `=` after it, or the end of its opening tag (`<value>`),
   * starts the value, read as an assignment's.
   */
  sibling(byte: number): Verdict {
    if (++this.count > MAX_SIBLING) return Verdict.Reject;
    if (this.quoteEscape) {
      // An escape inside a string: `\n` is the line break, `\"` a quote.
      this.quoteEscape = false;
      if (byte === 0x6e && ++this.breaks > 1) return Verdict.Reject;
      if (byte !== 0x6e && byte !== 0x72 && byte !== 0x74 && QUOTES[byte] !== 1)
        return Verdict.Reject;
      this.wordEnded = true;
      return Verdict.Hold;
    }
    if (NAME[byte] === 1 || byte === 0x5b || byte === 0x5d) {
      if (this.wordEnded) {
        // Only one word: the key (a closing tag's name aside).
        if (this.word !== "" && this.tag !== -1) return Verdict.Reject;
        this.word = "";
        this.wordEnded = false;
        if (this.tag === -1) this.tag = 0;
      }
      if (this.word.length >= MAX_TAIL) return Verdict.Reject;
      this.word += String.fromCharCode(byte | 0x20);
      return Verdict.Hold;
    }
    this.wordEnded = true;
    if (byte === 0x3a || byte === 0x3d) {
      if (this.tag !== 0 || !isSiblingKey(this.word)) return Verdict.Reject;
      this.count = 0;
      this.strict = false;
      this.equals = byte === 0x3d;
      this.phase = byte === 0x3a ? Phase.AfterColon : Phase.AfterEquals;
      return Verdict.Hold;
    }
    if (byte === 0x3e) {
      if (this.tag === 2) {
        this.tag = -1; // a closing tag ended: the next word starts afresh
        return Verdict.Hold;
      }
      if (this.tag !== 1 || !isSiblingKey(this.word)) return Verdict.Reject;
      this.count = 0;
      this.strict = false;
      this.quote = 0x3c;
      this.phase = Phase.ValueStart;
      return Verdict.Hold;
    }
    if (byte === 0x3c || (byte === 0x2f && this.tag === 1 && this.word === "")) {
      if (byte === 0x3c && this.tag > 0) return Verdict.Reject;
      this.tag = byte === 0x3c ? 1 : 2;
      this.word = "";
      return Verdict.Hold;
    }
    if (byte === 0x0a) return ++this.breaks > 1 ? Verdict.Reject : Verdict.Hold;
    if (byte === 0x5c) this.quoteEscape = true;
    else if (SIBLING_GAP[byte] !== 1) return Verdict.Reject;
    return Verdict.Hold;
  }

  /**
   * Track a run of `;`, `&` or `,` in an unquoted value: it ends the value if whitespace (a
   * shell's `;`, `&&`) or the next key (`;Key=`, a query string's `&key=`) follows.
   */
  noteSemicolon(byte: number, here: number): void {
    if (this.quote === 0x3c) {
      // An element's text inside a string: a quote and code punctuation close that string
      // (`"<secret>…", "next"`), as they close one an unquoted value stood in.
      if (QUOTES[byte] === 1) {
        this.semi = here;
        this.semiQuote = true;
        this.semiCloser = QUOTE_CLOSER;
      }
      return;
    }
    if (this.quote !== 0) {
      // A quote of the other kind followed by code punctuation closed the string the value
      // stood in, its own quote never coming (`['echo password="x y', 'next']`).
      if (byte === otherQuote(this.quote) && !this.escaped && !this.otherClosed) {
        this.semi = here;
        this.semiQuote = true;
        this.semiCloser = QUOTE_CLOSER;
      }
      return;
    }
    if (OPENING[byte] === 1) this.opened = true;
    const bracket = CLOSING_BRACKET[byte] === 1 && !this.opened;
    if (QUOTES[byte] === 1 || bracket || byte === 0x3c) {
      // After a `;` run (`Password=x;"`), a quote that closes the string ends the value at
      // the run, as the run alone would have.
      if (this.semi < 0 || this.semiQuote) {
        this.semi = here;
        this.semiBracket = bracket;
      }
      this.semiQuote = true;
      this.semiCloser = bracket ? BRACKET_CLOSER : byte === 0x3c ? TAG_CLOSER : QUOTE_CLOSER;
    } else if (SEPARATOR[byte] !== 1 || (byte === 0x26 && this.colon && this.value.length === 0))
      // (`token: &str = …`: a `&` that starts the value after a `:` is a reference's.)
      this.semi = -1;
    else {
      if (this.semi < 0 || this.semiQuote) {
        this.semi = here;
        this.semiQuote = false;
        this.semiBracket = false;
      }
      this.semiAmp = byte === 0x26;
    }
    this.key = -1;
  }

  /**
   * After a quote in an unquoted value: true when `byte` shows it closed a string the
   * assignment stood in (the value ends at the quote, `to`); else the quote is the value's.
   */
  closesQuote(byte: number): boolean {
    if (this.semi < 0 || !this.semiQuote) return false;
    if (this.otherClosed) return this.closedBefore(byte);
    if (this.semiCloser[byte] === 1 && this.quote !== 0 && this.quote !== 0x3c) {
      this.otherClosed = true;
      this.otherCount = 0;
      return false;
    }
    this.semiQuote = false;
    if (this.semiCloser[byte] === 1) return true;
    this.semi = -1;
    return false;
  }

  /**
   * After a quote of the other kind and code punctuation in a quoted value: true at a blank
   * or the line's end (the string the value stood in closed at `semi`: `', 'next']`); at
   * the value's own quote, or after {@link OTHER_QUOTE_RUN} more bytes without a blank, the
   * other one was the value's (`secret: "Qm4'}/z…"`), and the value goes on.
   */
  closedBefore(byte: number): boolean {
    if (SPACE[byte] === 1) return true;
    // Inside a string (`\"…\"`) the value's own quote starts with its backslash.
    const own = this.escapedQuote ? 0x5c : this.quote;
    if ((byte === own && !this.escaped) || ++this.otherCount > OTHER_QUOTE_RUN) {
      this.otherClosed = false;
      this.semiQuote = false;
      this.semi = -1;
    }
    return false;
  }

  /**
   * After a `;`, `&` or `,` in an unquoted value, a key and `=` end the value there: the next
   * key of a connection string (`Password=x;Trusted_Connection=no`) or a query string
   * (`?password=x&user=y`), whose values hold no bare `;` or `&`. Returns `Semicolon.Ends`, `Undecided` while the bytes may still be a key (they are
   * held), or `No`.
   */
  semicolonKey(byte: number): number {
    if (this.semi < 0 || this.quote !== 0 || this.semiQuote) return Semicolon.No;
    if (this.key < 0) {
      if (KEY_START[byte] !== 1) return Semicolon.No;
      this.key = 1;
      this.keyWord = byte;
      this.keySpace = -1;
      this.keyBlank = false;
      return Semicolon.Undecided;
    }
    if (byte === 0x3d) return Semicolon.Ends;
    // The key is read within the rule's hold: at its end no key came, and the value ended at
    // the run (what is held is decided in time, and never fails closed over what follows).
    if (this.anchorLength + this.offset - this.from >= KEY_HOLD) {
      this.key = -1;
      return Semicolon.Ends;
    }
    // ADO.NET's keys hold single spaces (`;Initial Catalog=`, `;Persist Security Info=`);
    // without the `=` the value ended at the first of them, as at any blank.
    if (byte === 0x20 && !this.keyBlank) {
      if (this.keySpace < 0) this.keySpace = this.anchorLength + this.offset - 1;
      this.keyBlank = true;
      if (++this.key <= MAX_NAME) return Semicolon.Undecided;
    }
    this.keyBlank = false;
    if (byte === 0x3b && this.semiAmp && this.key === 3 && this.keyWord === AMP) {
      this.key = -1; // `&amp;`: the run goes on, a key may follow
      return Semicolon.Undecided;
    }
    if (CONNECTION_KEY[byte] === 1 && ++this.key <= MAX_NAME) {
      if (this.key <= 3) this.keyWord = (this.keyWord << 8) | byte;
      return Semicolon.Undecided;
    }
    this.key = -1;
    if (this.keySpace >= 0) {
      this.semi = this.keySpace;
      return Semicolon.Ends;
    }
    this.semi = -1;
    return Semicolon.No;
  }

  /**
   * A word given after a space (`password is hunter2.`, `bearer X;`) ended before `here`: a
   * full stop, comma or semicolon ending it closes the sentence or the list, not the value
   * (the value ends before it, `to`).
   */
  dropSentenceEnd(here: number): void {
    const v = this.value;
    if (!this.strict || this.quote !== 0 || v.length < 2 || SENTENCE_END[v[v.length - 1]!] !== 1)
      return;
    v.pop();
    this.semi = here - 1;
    this.semiQuote = false;
  }

  /** The word held (ending before `here`) was the value's type: read on in `phase`. */
  private typeRead(here: number, phase: number): Verdict {
    this.value = [];
    this.count = 0;
    this.from = here + 1;
    this.phase = phase;
    return Verdict.Hold;
  }

  /**
   * The blanks read after the name stand inside a tag, before its `>`: the name is an
   * element's (`<xToken >`) or a quoted attribute's value (`name="db.password" >`), not a
   * comparison's operand (`password > 8`).
   */
  tagBlanks(): boolean {
    return this.keyQuoted || this.nameBefore === 0x3c;
  }

  /**
   * A dash between blanks may stand for the separator after the name (`okta token -
   * '…'`, `Ldap password  ----  …`, as notes and test data write a label and its value):
   * where the keyword ends the name, unquoted, and no flag or vendor's name is read.
   */
  dashAllowed(): boolean {
    return (
      this.keywordEndsName() &&
      !this.keyQuoted &&
      !this.flag &&
      !this.mode.vendor &&
      this.pending === 0 &&
      this.cell === 0
    );
  }

  /**
   * The dash separator's bytes (see `dashAllowed`): up to {@link MAX_DASHES} dashes, then
   * blanks, then the value, which must look like a token (`token - the one you made` is
   * prose); REREAD at the value's first byte.
   */
  dashSeparator(byte: number): Verdict | typeof REREAD {
    if (this.dash === 1) {
      if (byte === 0x2d) return ++this.count > MAX_DASHES ? Verdict.Reject : Verdict.Hold;
      if (BLANK[byte] !== 1) return Verdict.Reject;
      this.dash = 2;
      this.count = 1;
      return Verdict.Hold;
    }
    if (BLANK[byte] === 1) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
    this.dash = 0;
    this.count = 0;
    this.strict = true;
    this.phase = Phase.ValueStart;
    return REREAD;
  }

  /** The keyword ends the name (`password`, `DB_PASSWORD`), or `key` does after `secret` (`SECRET_KEY`, `secretKey`). */
  keywordEndsName(): boolean {
    return this.tail === "" || (KEY_TAIL.test(this.tail) && this.keyword() === "secret");
  }

  /**
   * The name's cell closing in a table's row, after a blank: `|` (in `pending`) or the bytes
   * of `│` (`cell` counting them), then a blank; the value is the next cell's, a token-like
   * word that a blank and the cell's own `|` or `│` must end (see `isCellValue`).
   */
  cellSeparator(byte: number): Verdict {
    if (this.cell > 1 && this.cell < 4) {
      if (BOX_VERTICAL[this.cell - 1]![byte] !== 1) return Verdict.Reject;
      this.cell++;
      return Verdict.Hold;
    }
    // The cell is the name's alone, the keyword ending it (a union type's `| …Params |` is code).
    if (BLANK[byte] !== 1 || this.keyQuoted || !this.keywordEndsName()) return Verdict.Reject;
    this.cell = 1;
    this.pending = 0;
    this.strict = true;
    this.phase = Phase.ValueStart;
    return Verdict.Hold;
  }

  /** The XML value ended at whitespace (`space`) or an escape: wait for its closing tag. */
  xmlTail(space: boolean): Verdict {
    this.phase = Phase.XmlTail;
    this.count = space ? 1 : 0;
    return Verdict.Hold;
  }

  /**
   * After a backslash in an unquoted value: true when `byte` makes it an escape (`\n`),
   * which ends the value at the backslash (`to`).
   */
  endsAtBackslash(byte: number): boolean {
    const at = this.backslash;
    // A run of backslashes (`\\n`, an escape escaped again): its letter follows the last.
    if (at < 0 || byte === 0x5c) return false;
    this.backslash = -1;
    if (ESCAPE_LETTER[byte] !== 1) return false;
    this.semi = at;
    this.semiQuote = false;
    return true;
  }

  /** `byte`, after backslashes in the quoted value, is a line break that ends it (see `ESCAPED_BREAK`). */
  breakAfterBackslashes(byte: number): boolean {
    return (this.quote === 0x22 ? RAW_BREAK : ESCAPED_BREAK)[byte] === 1;
  }

  /**
   * `byte` closes Markdown's emphasis or code span opened right before the name, or emphasis
   * opened before a label's first word (`**Client secret:** …`; see `marks`).
   */
  closesMarks(byte: number): boolean {
    const opened = byte === this.nameBefore || (byte === 0x2a && BLANK[this.nameBefore] === 1);
    return opened && MARKS[byte] === 1 && this.count === 0 && ++this.marks <= 2;
  }

  /** The value is quoted by a quote that came as itself (not `<`, not escaped: `\"`). */
  rawQuoted(): boolean {
    return this.quote !== 0 && this.quote !== 0x3c && !this.escapedQuote;
  }

  /** True when `byte` ends the value (not part of it). */
  endsValue(byte: number): boolean {
    if (this.quote === 0)
      return (
        SPACE[byte] === 1 ||
        CONTROL[byte] === 1 ||
        (byte === 0x40 && this.urlUser) ||
        (this.query && this.equals && (byte === 0x26 || byte === 0x23))
      );
    if (this.quote === 0x3c) return byte === 0x3c || SPACE[byte] === 1;
    // Escaped quotes: the value ends at its own `\"` or, unterminated, where the string it
    // stood in closes (a quote no backslash escapes).
    if (this.escapedQuote) return byte === this.quote || SPACE_END[byte] === 1;
    if (this.escaped) return false;
    return byte === this.quote || SPACE_END[byte] === 1;
  }

  /** The name after the keyword says the value is something else (`_MIN_LENGTH`, `Url`). */
  namesNoSecret(): boolean {
    const tail = this.tail;
    if (tail === "") return false;
    // An enum's or a class's member (`Token.Keyword: "bold"`), not `txtPassword.Text`.
    if (!this.afterLetter && CLASS_MEMBER.test(tail)) return true;
    // A key named only by the word before it is one when its name ends there (`issuerKeyHash`).
    if (this.mode.random === true) return true;
    // Names repeat (a log prints the same variables again and again): remember the verdicts.
    const seen = this.mode.vendor ? VENDOR_TAIL_VERDICTS : TAIL_VERDICTS;
    let verdict = seen.get(tail);
    if (verdict === undefined) {
      const words = splitWords(tail);
      if (this.mode.vendor) verdict = words.some((w) => NOT_VENDOR_SECRET_WORDS.has(w));
      else {
        // The first word after the keyword (`token_url`) or the last, which says what the
        // whole names (`TokenOperationType`, `passwordResetTemplate`).
        // A source file's name (`git-credential-gnome-keyring.c: …` in a change log).
        const first = words[0] === "s" ? words[1] : words[0];
        const last = words[words.length - 1];
        verdict =
          (first !== undefined &&
            (NOT_SECRET_WORDS.has(first) ||
              (NOT_SECRET_FIRST_WORDS.has(first) && first !== last))) ||
          (last !== undefined && NOT_SECRET_WORDS.has(last)) ||
          SOURCE_FILE.test(tail);
      }
      if (seen.size >= MAX_TAIL_VERDICTS) seen.clear();
      seen.set(tail, verdict);
    }
    // The keyword's own test, not remembered with the tail's (`pass_dict`, not `token_dict`).
    return verdict || (!this.mode.vendor && this.shortNameGoesOn(tail));
  }

  /**
   * A short password's keyword (`pass`, `pw`, `pwd`, `psk`) that a word of another kind
   * follows names something else (`pass_dict`, `pass_zero`, `pw_node`, `_PW_MAGMOM`,
   * `backward_pass_autocast`); a qualifier of where or whose it is keeps it a password's
   * (`DB_PASS_PROD`, `PWD_ROOT`, `PASS_HASH`), and so does a number (`PASS_2`).
   */
  shortNameGoesOn(tail: string): boolean {
    if (this.anchor.length > 4 || !SHORT_PASSWORDS.has(this.keyword())) return false;
    const first = /^[_.-]?([A-Z][A-Z0-9]*(?![a-z])|[A-Za-z][a-z0-9]*)/.exec(tail)?.[1];
    return first !== undefined && !PASSWORD_QUALIFIERS.has(first.toLowerCase());
  }

  /** The keyword, lowercase without separators (`api_key` → apikey); only a value test needs it. */
  keyword(): string {
    let keyword = KEYWORDS.get(this.anchor);
    if (keyword === undefined) {
      keyword = this.anchor.toLowerCase().replace(/[_-]/g, "");
      KEYWORDS.set(this.anchor, keyword);
    }
    return keyword;
  }

  /**
   * A dotted name going on after the keyword (`jwt.secret.key=…`, `api.key: …`) names a
   * key of a properties or YAML file, not a property of an object named after it (`token.prev
   * = prev`), when the value is a literal token: `n` letters, digits, `_` and `-` with a
   * letter and a digit, at least {@link DOTTED_VALUE} of them, after `:` or an `=` with no
   * blank before it (code spaces its `=`; minified code assigns names, not such literals).
   */
  dottedKey(n: number): boolean {
    return (
      !this.mode.vendor && n >= DOTTED_VALUE && (this.colon || (this.equals && !this.spacedEquals))
    );
  }

  /**
   * A value that names another: a member path (TypeScript's non-null `!` after it in code,
   * `process.env.DB_PASSWORD!`; one longer than what is held, on the bytes held), a bind
   * parameter, a variable or a symbol (SQL's `:password` and `@password`, Ruby's `@password`
   * and `:password`; words alone: `@dm1n42` may be a password), Closure Compiler's name, a
   * long constant's name after a spaced `=`, a variable passed as a call's argument.
   */
  private reference(text: string, bare: string, first: number, complete: boolean): boolean {
    // Closure Compiler's names of a module's members (`module$contents$google3$…`), and a
    // member's access that highlighted code's markup parts (`alice.<span class="…">`).
    if (CLOSURE_NAME.test(bare) || MARKED_UP_MEMBER.test(bare)) return true;
    // Held up to `DECIDE` bytes and not complete, a member path is judged on those, and after
    // a spaced `=` a constant's name (`token = _SEND_INITIAL_METADATA_AND_SEND_STATUS_…`).
    if (!complete)
      return namesMember(bare, MEMBER_PATH) || (this.spacedEquals && LONG_CONSTANT.test(bare));
    // A variable passed as a call's argument (`f(password=ssh_pass, b)`, `password=ssh_pwd)`):
    // its snake_case words before a `,` or a closing bracket (`PASSWORD=correct_horse_battery`
    // ends no call).
    const closed = this.semi >= 0 && this.semiBracket;
    if (SNAKE_CASE.test(bare) && (closed || /[,)]$/.test(text))) return true;
    const path = bare.endsWith("!") && (this.spacedEquals || this.colon) ? bare.slice(0, -1) : bare;
    if (namesMember(path, MEMBER_PATH)) return true;
    return (first === 0x3a || first === 0x40) && /^[:@][A-Za-z_]+$/.test(bare);
  }

  /** An unquoted value that is code: a call, a member path, an object or array literal. */
  codeNotValue(text: string, bare: string, first: number, complete: boolean): boolean {
    // ODBC's braces around a connection string's value (`PWD={…};`) quote it.
    if (first === 0x7b && this.connectionValue() && BRACED_VALUE.test(text)) return false;
    if (first === 0x7b || first === 0x5b || first === 0x28 || first === 0x26) return true;
    // A function's definition (`jsTokens_1 = function*(input, …`).
    if (first === 0x66 && /^function\b/.test(text)) return true;
    // A negation (`!0`, `!flag`, `!this.isValid()`, `!(a&&b)`); a sign past a name is a
    // password's (`!l#48c9jN6!S#e`).
    if (first === 0x21) return NEGATION.test(text);
    // A call or an index, on a member path (`foo.bar(x)`, `x?.(y)`) or a C++, Rust or PHP
    // scope's (`std::move(other)`, `Foo::new()`), a Rust macro's (`env!("TOKEN")`), and C++'s
    // casts (`static_cast<char *>(p)`).
    const call = text.includes("(") || text.includes("[");
    if (call && CALL.test(text)) return true;
    if (text.includes("!") && MACRO.test(text)) return true;
    // A CSS pseudo-class and its block (`.gist-secret:before{content:…}`), a property first
    // in it (a password may hold braces: `ab{c}d…`).
    if (text.includes("{") && /^[a-z][a-z-]*\{[a-z-]+:/.test(text)) return true;
    if (text.includes("_cast<") && CAST.test(text)) return true;
    // A scoped name in code (`= FSDiscriminatorPass::Pass1`, `Token::Bearer;`): an enum's or
    // a constant's (`PASSWORD=ab::cd12` in an env file may be a password).
    if (
      complete &&
      bare.includes("::") &&
      (this.spacedEquals || STATEMENT_END.test(text)) &&
      SCOPED_NAME.test(bare)
    )
      return true;
    // A generic type (`token_methods: z.ZodOptional<z.ZodArray<z.ZodString>>;` in a `.d.ts`).
    if (complete && bare.endsWith(">") && GENERIC_TYPE.test(bare)) return true;
    // …or its first word (`progressToken: z.ZodUnion<readonly [z.ZodString, …]>`).
    if (text.includes("<") && GENERIC_OPEN.test(text)) return true;
    if (this.reference(text, bare, first, complete)) return true;
    // A variable or a member path before a logical operator (`process.env.GITHUB_TOKEN||"…"`,
    // minified): code; a fallback literal is the later name's (read after its `||`).
    if (LOGICAL.test(text) && LOGICAL_AFTER_NAME.test(text)) return true;
    // Minified code: a number or a literal word ending a statement (`tokenStart=0;for(`).
    const head = STATEMENT_END.test(text) ? /^([^;,)\]]*)[;,)\]]/.exec(text)?.[1] : undefined;
    if (head !== undefined && (/^[0-9._:-]{1,7}$/.test(head) || NOT_SECRET_VALUES.has(head)))
      return true;
    // …or a minified variable: one or two letters (`y.srcToken=l)`), or up to three before
    // more code (`r.addToken=wn,Ge(e)`), an object's next member too (`{token:p,inTag:null,…}`).
    if (complete && /^[A-Za-z_$]{1,2}[);,]?$/.test(text)) return true;
    if (/^[A-Za-z_$][\w$]{0,2}[,;]\S*[(=.]/.test(text)) return true;
    if (/^[A-Za-z_$]{1,3}[,;][A-Za-z_$][\w$]*:/.test(text)) return true;
    // A property of an object named after the keyword (`token.prev = prev`), or an
    // identifier ending a statement (`token = next;`: code spaces its `=`, a shell cannot).
    if (this.tail.startsWith(".")) return true;
    if (
      complete &&
      this.spacedEquals &&
      text.endsWith(";") &&
      /^[A-Za-z_$][\w$]*$/.test(bare) &&
      // …unless it is random: no variable is named `ce3f9f0362bb…` (`appSecret = ce3f…;`).
      digitSwitches(this.value) < RANDOM_SWITCHES
    )
      return true;
    // `token = nextchar`, `self.password = password`: a spaced `=` before a word of
    // letters alone assigns a variable (a password in an INI file has a digit or a sign),
    // and before a PowerShell cmdlet (`$password = Read-Host`, `ConvertTo-SecureString`).
    if (
      complete &&
      this.spacedEquals &&
      /^[A-Za-z_]+(?:-[A-Z][A-Za-z]+)?$/.test(bare) &&
      !randomLetters(bare)
    )
      return true;
    // After `:` a bare word is a type or a variable (`secret: string`, `{ token: t }`, a
    // docstring's `:param token: REQUIRED.`); after `=` it may be a password (`PASSWORD=hunter`).
    if (complete && this.colon && /^[A-Za-z_]+\.?$/.test(bare) && !randomLetters(bare)) return true;
    return CODE_REFERENCE.test(text);
  }

  /**
   * A value that is no secret whatever its letters and digits: a doc comment's description
   * (`@FOO_SECRET: Non-zero …`, kernel-doc and JSDoc tags), a phrase that names the keyword
   * (`"token": "Unexpected token."`), one or two bytes (HTML's `accesskey="n"`), a version
   * (`'Test2::Event::Pass' => '1.302199'`), a C integer literal (`0x00000004UL`), a word in a
   * JavaScript template literal (`token:\`linkified\``), a file's path (`token =
   * "/dev/urandom"`, `~/.ssh/id_rsa`: lower-case segments, as a random key's are not; any
   * directory for the shell's `PWD`), a name or a path that names the keyword (`IETFToken =
   * "ietf-token"`, `'*.*.password'`), or a macro's other name that does (`#define
   * set_private_key nettle_set_private_key`).
   */
  neverSecret(
    v: readonly number[],
    complete: boolean,
    unquoted: boolean,
    digit: boolean,
    sign: boolean,
  ): boolean {
    if (this.colon && this.nameBefore === 0x40) return true;
    // Blanks and dots are signs: most values (tokens of letters and digits) skip these tests.
    const blank = sign && v.some((b) => BLANK[b] === 1);
    if (blank && !unquoted && this.namingPhrase(v, complete)) return true;
    // A token is ASCII: text in another script after a token's name is a message
    // (`"Unexpected_token": "Neočekávaný token"`); a password may be in any script, and
    // typographic quotes around a token are no part of it (`token: “…”`).
    if (sign && !PASS_WORDS.has(this.keyword()) && innerNonAscii(v)) return true;
    // A name of letters that names the keyword, however long (`Storage.deleteTokenParameters`).
    if (!digit && !complete && !blank && v.length >= DECIDE && this.namesKeyword(bareOf(v)))
      return true;
    // A member's path, however long (`service_account.Credentials.from_service_account_file(`,
    // the call past the hold): code's names joined by dots, none a token's part.
    if (!complete && !blank && sign && v.length >= DECIDE && memberPath(bareOf(v))) return true;
    // A long option (`KEY : --disk-encryp‐` in a usage line's alternatives).
    if (v[0] === 0x2d && v[1] === 0x2d && ALPHA[v[2]!] === 1) return true;
    // A cloud resource's name, however long (`--secret=projects/p/secrets/db/versions/2`).
    if (sign && v[0]! >= 0x61 && v[0]! <= 0x7a && v.includes(0x2f) && resourceName(bareOf(v)))
      return true;
    if (!complete) return false;
    if ((sign || this.mode.vendor) && this.namesInCode(v, sign)) return true;
    // A list's first element is a token only when long (code lists names and flags).
    if (this.list && v.length < LIST_TOKEN) return true;
    const first = v[0]!;
    if (
      v.length <= 2 ||
      (sign && (DIGIT[first] === 1 || first === 0x76) && VERSION.test(String.fromCharCode(...v))) ||
      (sign && RANGE_START[first] === 1 && NOT_SECRET_SHAPE.test(String.fromCharCode(...v)))
    )
      return true;
    if (unquoted && cConstant(v)) return true;
    const pathLike = first === 0x2f || first === 0x7e || first === 0x2e;
    // A usage line's metavariable (`--encryption-key=ENCRYPTION_KEY`, `--oauth2-client-
    // secret=OAUTH2_CLIENT_SECRET`, `--password=PASS‐` broken by a manual's hyphen).
    if (first >= 0x41 && first <= 0x5a && mayBeMetavariable(v) && METAVARIABLE.test(bareOf(v)))
      return true;
    // The common case, a token of letters and digits, builds no string.
    if (!blank && digit && !pathLike && !this.spaced) return false;
    // After a blank, letters and digits alone (`aws key AKIA…`): only a fingerprint says no.
    if (!sign && digit && !pathLike && this.quote !== 0x60 && plainAlnum(v)) return false;
    const text = String.fromCharCode(...v).replace(/[;,)"'`]+$/, "");
    // A code span in backticks: a name or a call (`` `get_token()` ``).
    if (this.quote === 0x60 && (/^[A-Za-z_-]+$/.test(text) || CALL.test(text))) return true;
    // An OpenPGP key's fingerprint or long id after a blank (`Add new upstream signing key
    // 19882D92…BE03`): public, written in capitals.
    if (this.spaced && FINGERPRINT.test(text) && !/pass|pw|secret|private/.test(this.keyword()))
      return true;
    // A path; or another setting's name, as systemd's manuals list them (`LoadCredential=/
    // SetCredential=`).
    if (
      pathLike &&
      (FILE_PATH.test(text) ||
        (first === 0x2e && RELATIVE_MODULE.test(text)) ||
        (first === 0x2f && (this.keyword() === "pwd" || /^\/(?:[A-Z][a-z]+){2,}=$/.test(text))))
    )
      return true;
    // A CSS selector's id or class names the keyword too (`"#add-password"`). In a connection
    // string or a URL's query (`…;Password=mypassword;`) a word that holds the keyword is the
    // value (no code names there), and so is a password's that is another credential's word
    // (`;Pwd=secret`); the keyword itself (`;Password=password`, a syntax's placeholder) and
    // a token's credential word (`?token=secret`) are still placeholders.
    if (!digit)
      return (
        FILE_NAME.test(text) ||
        (this.connectionValue()
          ? this.placeholderWord(text.toLowerCase())
          : this.namesKeyword(text.replace(/^[#.]/, "")))
      );
    // A name after the keyword and a blank (`creds creds-name-1:`).
    return this.spaced && /^[A-Za-z_][\w-]*[_-][\w-]*:?$/.test(text) && this.holdsKeyword(text);
  }

  /** A connection value that is a credential's word (`lower`) standing for the value (see `neverSecret`). */
  placeholderWord(lower: string): boolean {
    if (!CREDENTIAL_WORDS.has(lower)) return false;
    const keyword = this.keyword();
    return lower === keyword || !PASS_WORDS.has(keyword);
  }

  /**
   * The value of a connection string's key after its `;` (`User ID=sa;Password=…`,
   * `;Password="…"`) or of a URL query's after `?` or `&` (`?user=me&password=…`).
   */
  connectionValue(): boolean {
    return (this.nameBefore === 0x3b || this.query) && this.equals;
  }

  /**
   * The keyword is `pass` or `Pass`, which a blank after it makes the verb (`Pass "X=0" to
   * …`); FTP's command is `PASS`, and FileZilla's element `<Pass encoding="base64">`.
   */
  passVerb(): boolean {
    return (this.anchor === "pass" || this.anchor === "Pass") && this.nameBefore !== 0x3c;
  }

  /** `text`, all bytes of a name (`NAMING_VALUE`), holds the keyword (see `holdsKeyword`). */
  namesKeyword(text: string): boolean {
    if (!NAMING_VALUE.test(text)) return false;
    // A credential's word alone is a placeholder or a variable (`?token=secret`, `pwd=password`).
    return CREDENTIAL_WORDS.has(text.toLowerCase()) || this.holdsKeyword(text);
  }

  /** `text` holds the keyword in any case, `_` and `-` aside (`ENCRYPTION_KEY`, `encryptionkey`). */
  holdsKeyword(text: string): boolean {
    const lower = text.toLowerCase().replace(/[_-]/g, "");
    const keyword = this.keyword();
    return lower.includes(keyword);
  }

  /**
   * Words that hold no token: two of them after a token's or a key's name (the whole value
   * seen), four so far, seven after a password's; or a sentence or four words that name the
   * keyword after a password's name (`Unexpected token.`, `Token inesperado.`; `Token
   * 9944b09199c6…`, Django REST framework's scheme and key, and `super secret key`, a
   * passphrase, are secrets).
   */
  namingPhrase(v: readonly number[], complete: boolean): boolean {
    let word: number[] = [];
    let words = 0;
    for (let i = 0; i <= v.length; i++) {
      const b = i < v.length ? v[i]! : 0x20;
      if (BLANK[b] !== 1) {
        word.push(b);
        continue;
      }
      if (word.length >= SPACED_WORD || digitSwitches(word) >= 3) return false;
      word = [];
      words++;
    }
    // Words none of which is a token are no token or key (a password may be a phrase:
    // `correct horse battery staple`, but not of seven words); a sentence or four words that
    // name the keyword are prose.
    const keyword = this.keyword();
    const pass = PASS_WORDS.has(keyword);
    if ((words >= 4 || (complete && words >= 2)) && !pass) return true;
    if (words >= 7) return true;
    const text = String.fromCharCode(...v);
    if (words < 4 && !/[.?!:]\s*$/.test(text)) return false;
    return text
      .toLowerCase()
      .replace(/[\s_-]+/g, "")
      .includes(keyword);
  }

  /**
   * The bytes a value that must look like a token may hold: a flag's may hold a password's
   * signs (`--password "P@ssw0rd!"`, `--token MQ~!cjXo61`), quoted any byte but a blank.
   */
  tokenAlphabet(unquoted: boolean): Uint8Array {
    if (this.plural) return PLURAL_TOKEN_ALPHABET;
    if (this.mode.vendor) return TOKEN_ALPHABET;
    // A password after its keyword and a blank (netrc's `password P@ss`, a router's
    // `password 0 …`) may hold a password's signs too.
    if (!this.flag)
      return unquoted && PASSWORD_WORDS.has(this.keyword()) ? PASSWORD_ALPHABET : TOKEN_ALPHABET;
    return unquoted ? PASSWORD_ALPHABET : NOT_BLANK;
  }

  /**
   * A complete value that names something rather than holds a secret: letters alone after
   * a generated credential's name (a token is generated: `"input_token": "Marker"`,
   * `private_key=key`, `credential=creds`, unless they look random; a password or a secret
   * may be a word), an id's code, a variable named for a credential, a time, a build's
   * filter token (`@version@`), a format string's field (`"{password}"`: Python's
   * `str.format`, .NET's, Rust's); and, complete or not, an ARN or a name scoped by `::`
   * (`AWS::S3::Accelerate`).
   */
  namesNotHolds(
    text: string,
    bare: string,
    complete: boolean,
    digit: boolean,
    unquoted: boolean,
  ): boolean {
    // An ARN or a scoped name, judged on its start (it may run on past the hold).
    if (NAMED_PLACE.test(text)) return true;
    if (!complete) return false;
    if (
      !digit &&
      this.generated() &&
      ((LETTERS_PATH.test(bare) && !randomLetters(bare)) || PASCAL_NAME.test(bare))
    )
      return true;
    // A flag named `pass` or `pw` may name other things (a compiler's pass: `--pass=late`),
    // and so may `pass` after a word and a blank (`# Forward pass: per-channel scaling`).
    const short = bare.length < MIN_WORD_PASS && /^[A-Za-z]+$/.test(bare);
    if (short && this.flag && SHORT_PASS.has(this.keyword())) return true;
    if (this.nameBefore === 0x20 && this.keyword() === "pass" && COMPOUND_WORD.test(bare))
      return true;
    if (ID_CODE.test(bare) || (unquoted && namesCredential(bare))) return true;
    if (bare.includes(":") && TIMESTAMP.test(bare)) return true;
    // A domain's path: a Kubernetes type, an image, a module (`helm.sh/release.v1`).
    if (bare.includes("/") && DOMAIN_PATH.test(bare)) return true;
    // Ant's and Maven's filter tokens (`<token>@version@</token>`, `@db.password@`).
    if (text.charCodeAt(0) === 0x40 && FILTER_TOKEN.test(bare)) return true;
    // CloudFormation's intrinsic functions (`"!Ref 'MasterUserPassword'"`, `!Sub …`).
    if (text.charCodeAt(0) === 0x21 && INTRINSIC.test(text)) return true;
    // A format string with a field inside (`"prefix_{}".format(…)`, `"user_{0}"`).
    if (text.includes("{") && POSITIONAL_FIELD.test(text)) return true;
    if (text.charCodeAt(0) !== 0x7b || !FORMAT_FIELD.test(text)) return false;
    // In a connection string a random word in braces is ODBC's quoted value (`PWD={…};`).
    return !this.connectionValue() || digitSwitches(this.value) < RANDOM_SWITCHES;
  }

  /**
   * A type's or a variable's name that ends in the keyword as a word of its own (`token:
   * JiraOauth2Token`, a field's annotation; `"v2Token"`): a small letter or a digit before the
   * keyword's capital, and few
   * letter-digit changes before it (a token has more).
   */
  typeNamed(v: readonly number[]): boolean {
    const keyword = this.keyword();
    const at = v.length - keyword.length;
    const c = v[at]!;
    if (at < 2 || c < 0x41 || c > 0x5a) return false;
    for (let k = 0; k < keyword.length; k++)
      if ((v[at + k]! | 0x20) !== keyword.charCodeAt(k)) return false;
    const name = v.slice(0, at);
    return (
      /^[A-Za-z][A-Za-z0-9]*[a-z0-9]$/.test(String.fromCharCode(...name)) &&
      digitSwitches(name) <= NAME_SWITCHES
    );
  }

  /** The keyword names a generated credential (a token, a key), not a password or a secret. */
  generated(): boolean {
    let generated = GENERATED.get(this.anchor);
    if (generated === undefined) {
      generated = !/pass|secret|pw/.test(this.keyword());
      GENERATED.set(this.anchor, generated);
    }
    return generated;
  }

  /**
   * A complete value of letters and digits (`_`, `-` aside) that no generated credential
   * is: an id's code after a token's or a key's name (`OS_CREDENTIAL_DUMPING: T1003`, MITRE
   * ATT&CK's), a variable named for a credential (`encryption_key_sha256`), a name that
   * holds the keyword (`subject_token_0`) or, after a plural, any credential's word
   * (`Tokens: default-token-x7k2p`), or, as an object's first member, a type's name
   * (`"nextToken": {"shape": "String2048"}`): a token there switches between letters and
   * digits more often.
   */
  notGenerated(v: readonly number[], joined: boolean): boolean {
    const first = v[0]!;
    // A primitive type's name (Rust's `const WILL_PASS: u32 = 0;`).
    if (v.length <= 5 && NOT_SECRET_VALUES.has(String.fromCharCode(...v))) return true;
    const capital = first >= 0x41 && first <= 0x5a;
    if (capital && v.length <= 12 && this.generated() && ID_CODE.test(String.fromCharCode(...v)))
      return true;
    // …or a private name there (`{"shape": "__stringMin1Max64PatternS"}`).
    if (this.braced && (digitSwitches(v) < 3 || (first === 0x5f && v[1] === 0x5f))) return true;
    if (this.generated() && this.typeNamed(v)) return true;
    // The tests below need a `_` or a `-` and few letter-digit changes: a token has more
    // (a generated name's short suffix aside: Kubernetes' `-x7k2p`).
    if (!joined) return false;
    let cut = v.length;
    for (let i = v.length - 1; i > 0 && i >= v.length - 6; i--) {
      if (v[i] !== 0x2d) continue;
      cut = i;
      break;
    }
    const switches = digitSwitches(v, cut);
    if (switches > NAME_SWITCHES) return false;
    // (Only a code's name of small letters may name a credential: most tokens build no string.)
    const named = this.quote === 0 && v.every((b) => CODE_NAME_BYTE[b] === 1);
    if (!named && switches > 2) return false;
    const text = String.fromCharCode(...v);
    if (named && namesCredential(text)) return true;
    if (switches > 2 || !SNAKE_NAME.test(text)) return false;
    // A name that holds the keyword, numbered (`"subject_token": "subject_token_0"`), or,
    // after a plural, a list's item that names one (`Tokens: default-token-abc12`, as
    // `kubectl describe serviceaccount` prints it).
    if (this.plural) return CREDENTIAL_WORD.test(text.toLowerCase());
    return this.generated() && this.holdsKeyword(text);
  }

  /** The name allows one shape of value only, and the value is not it (`SecretID`, `accessTokens`). */
  narrowed(complete: boolean): boolean {
    // A test's result (`PASS: tests/t0001.sh`, Automake's and lit's): FTP's `PASS` takes a blank.
    if (this.objectOnly || (this.result && this.colon)) return true;
    return this.uuidOnly && (!complete || !UUID.test(String.fromCharCode(...this.value)));
  }

  /** The value test, on the held bytes (`complete`: the value ended there). */
  credible(complete: boolean): boolean {
    const v = this.value;
    const n = v.length;
    if (n === 0) return false;
    const unquoted = this.quote === 0 || this.quote === 0x3c;
    // The common case first, without building a string: a run of letters, digits, `_` and
    // `-` (`joined`) holding a letter and a digit passes the tests below but a name's.
    let digit = false;
    let letter = false;
    let sign = false;
    let joined = false;
    for (let i = 0; i < n; i++) {
      const b = v[i]!;
      if (b >= 0x30 && b <= 0x39) digit = true;
      else if ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) letter = true;
      else if (b !== 0x5f && b !== 0x2d) sign = true;
      else joined = true;
    }
    if ((this.mode.random === true || this.random) && digitSwitches(v) < RANDOM_SWITCHES)
      return false;
    if (this.narrowed(complete) || this.neverSecret(v, complete, unquoted, digit, sign))
      return false;
    if (!sign && digit && letter) {
      if (unquoted && this.tail.startsWith(".") && !this.dottedKey(n)) return false;
      if (complete && this.notGenerated(v, joined)) return false;
      return (
        !complete ||
        n >= (this.mode.vendor || this.plural ? 16 : this.strict ? 6 : this.compared ? 4 : 1)
      );
    }
    const text = String.fromCharCode(...v);
    const first = v[0]!;
    // The tests below only say no, so their order is free: the commonest first (`null`,
    // `true`), and each regular expression only where its first byte or sign is present.
    const bare = complete ? text.replace(/[;,):{}\]"'`]+$/, "") : text;
    if (complete && plainNotSecret(bare, first, this)) return false;
    if (this.namesNotHolds(text, bare, complete, digit, unquoted)) return false;
    // OpenSSL's password argument after `-pass`: `pass:X` is the openssl-pass rule's (its
    // prefix stays), the others only say where the password is.
    if (this.flag && OPENSSL_PASSWORD_ARGUMENT.test(text)) return false;
    if (this.placeholder(v, text, bare, complete, unquoted)) return false;
    if (this.closesString(v, unquoted)) return false;
    // A regular expression: a literal (`= /^[!#$%&'*+-]+$/`) or a character class in a string.
    // A group that only a pattern opens (`(?=…`, `(?:…`) and a class before a quantifier or
    // an escape's class (`[^\W\d]\w*`, Python's raw strings).
    if (REGEX_START[first] === 1 && PATTERN.test(text)) return false;
    if (!/[A-Za-z0-9]/.test(text)) return false;
    if (unquoted && this.codeNotValue(text, bare, first, complete)) return false;
    // A literal compared with the secret: as after prose's `is`, and with a digit or a
    // sign too, since a lexer compares its `token` with keywords (`token == "return"`).
    if (this.compared)
      return (
        !(complete && n < 4) &&
        !v.some((b) => BLANK[b] === 1) &&
        v.some((b) => WORD_LETTER[b] !== 1)
      );
    // A quoted word after prose's `is` (`The default password is "marmalade"`): a literal,
    // of letters alone too; not a phrase (`is "too short"`).
    if (this.prose && this.quote !== 0 && this.quote !== 0x3c)
      return !(complete && n < 4) && !v.some((b) => BLANK[b] === 1);
    if (this.strict || this.mode.vendor) {
      if (complete && n < (this.mode.vendor || this.plural ? 16 : 6)) return false;
      const alphabet = this.tokenAlphabet(unquoted);
      if (!v.every((b) => alphabet[b] === 1)) return this.plural && tokenList(text, complete);
      if (!/[A-Za-z]/.test(text) || !(/[0-9]/.test(text) || randomLetters(text))) return false;
    }
    return true;
  }

  /**
   * A placeholder, a template or a reference, not a literal: `$X`, `<X>` (also HTML-escaped,
   * `&lt;X&gt;`), `{{ X }}`, Ruby's and CoffeeScript's `#{x}`, a shell variable between the
   * quotes of the strings it joins (`"'$DB_PASSWORD'"`), `%s`, a marker, an ellipsis, one byte
   * repeated, stars, a path to a credential's field (`'users[1].password'`), a masked value
   * (`gho_****…`), a suffix appended (`+= "-tags"`), a URL without a password; unquoted after
   * `*` YAML's alias (`password: *db_password`: a plain scalar never starts with `*`) or a
   * pointer's dereference (`password = *ptr;`); between backticks with a blank, the shell's
   * command substitution (`` TOKEN=`gh auth token` ``) or a template's text.
   */
  private placeholder(
    v: readonly number[],
    text: string,
    bare: string,
    complete: boolean,
    unquoted: boolean,
  ): boolean {
    const first = v[0]!;
    if (first === 0x24 || first === 0x3c || text.startsWith("{{") || text.startsWith("#{"))
      return true;
    if (text.startsWith("&lt;") || (QUOTES[first] === 1 && v[1] === 0x24)) return true;
    if (joinsCode(v)) return true;
    if (first === 0x25 && PERCENT_PLACEHOLDER.test(text)) return true;
    if (text.startsWith("[REDACTED") || text.includes("...") || text.includes("\u2026"))
      return true;
    if (complete && v.length >= 2 && v.every((b) => b === first)) return true;
    if (first === 0x2a && (/^\*+$/.test(text) || (unquoted && STAR_REFERENCE.test(bare))))
      return true;
    // A path to a credential's field (a redaction library's `'users[1].password'`,
    // `'users.*.profile.apiKey'`): its last part names one.
    if (
      complete &&
      namesMember(bare, FIELD_PATH) &&
      CREDENTIAL_WORD.test(bare.slice(bare.lastIndexOf(".") + 1).toLowerCase())
    )
      return true;
    // A masked value, as a tool prints a credential it hides (`gh auth status`: `gho_****…`).
    if (text.includes("****")) return true;
    // A suffix appended to the value (`share_token += "-tags"`, `$token .= '_v2'`).
    if (this.appends && SUFFIX_START[first] === 1) return true;
    if (first === 0x68 && /^https?:\/\/[^@]*$/.test(text)) return true;
    return this.quote === 0x60 && v.some((b) => BLANK[b] === 1);
  }

  /**
   * A complete value with a sign, or after a vendor's name, that code's names write: a URN,
   * a host's name, a Python entry point's object reference (`"IPython.core.magics.osm:OSMagics"`), an
   * f-string that interpolates a variable (`f"groupby-barrier-{token}"`), a bracketed word
   * (a tokenizer's special token or a placeholder: `"[PAD]"`); after a vendor's name, words
   * and numbers joined by `-` or `.` (a model's or an index's name:
   * `("openai", "text-embedding-3-small")`, `twitter-2015.01.02`) or a name that starts
   * with the vendor's (`"Cohere2VisionConfig"`).
   */
  private namesInCode(v: readonly number[], sign: boolean): boolean {
    const vendor = this.mode.vendor;
    if (vendor && startsWithWord(v, this.anchor)) return true;
    if (!sign && !(vendor && LOWER[v[0]!] === 1)) return false;
    // One string for the tests below (most values never get here: no sign, no vendor).
    const text = String.fromCharCode(...v);
    if (LOWER[v[0]!] === 1) {
      // A host's name (`'sql-component.googleapis.com'`, a service's), and after a vendor's
      // name words and numbers (`text-embedding-3-small`).
      if (sign && HOST_NAME.test(text)) return true;
      if (vendor && WORDS_AND_NUMBERS.test(text)) return true;
    }
    if (!sign) return false;
    // A URN (`"urn:ietf:params:oauth:grant-type:jwt-bearer"`, OAuth's grant types).
    if (startsWithWord(v, "urn:")) return true;
    if (v[0] === 0x5b) return BRACKETED_WORD.test(text);
    if (this.formatted && FIELD_START.test(text)) return true;
    return v.includes(0x3a) && ENTRY_POINT.test(text);
  }

  /**
   * A quoted value that opens with code punctuation closes a string the keyword stood in
   * (`prompt='Password: ', stream=None)`), as does one that opens with a label's `:` and a
   * blank (`'Unexpected Pass:   ': self.count`) and text after a closing tag's `>` that
   * opens with a quote (`</xToken>","next":…`).
   */
  private closesString(v: readonly number[], unquoted: boolean): boolean {
    const first = v[0]!;
    const xml = this.quote === 0x3c;
    if ((!unquoted || xml) && (CLOSING[first] === 1 || (xml && QUOTES[first] === 1))) return true;
    return !unquoted && first === 0x3a && BLANK[v[1]!] === 1;
  }

  /**
   * The byte after a backslash in a vendor's block inside a string: `\n` (after `\r`) is
   * the line break before a YAML child's indentation, or any escaped blank before an
   * object's member, whose name's quote may be escaped too.
   */
  private blockEscape(byte: number): Verdict {
    this.quoteEscape = false;
    if (this.braced) {
      if (QUOTES[byte] === 1 && this.childQuote === 0) this.childQuote = byte;
      else if (ESCAPED_BLANK[byte] !== 1) return Verdict.Reject;
      return ++this.count > MAX_SIBLING ? Verdict.Reject : Verdict.Hold;
    }
    if (byte === 0x72 && this.breaks === 0) return Verdict.Hold;
    if (byte !== 0x6e || this.breaks > 0) return Verdict.Reject;
    this.breaks = 1;
    this.count = 0;
    return Verdict.Hold;
  }

  /**
   * A byte of the words between `password for` and `is` (at most {@link MAX_PHRASE} bytes on
   * one line, quoted or not): after `is` and a blank, the value, read as after `the
   * password is`.
   */
  private forPhrase(byte: number): Verdict {
    if (++this.count > MAX_PHRASE || (SPACE[byte] === 1 && BLANK[byte] !== 1))
      return Verdict.Reject;
    if (BLANK[byte] !== 1) {
      if (this.phrase.length < MAX_VERB) this.phrase += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    // `password for the elastic user: X`: a word's `:` ends the phrase too, the value then
    // random (`Password for bob: changed` is prose).
    const labelled = !this.verbs && this.phrase.length > 1 && this.phrase.endsWith(":");
    if (
      labelled ||
      (this.verbs ? this.phrase === "to" || this.phrase === "to:" : this.phrase === "is")
    ) {
      this.count = 0;
      this.strict = true;
      this.prose = true;
      this.random ||= labelled;
      this.phase = Phase.ValueStart;
    } else if (this.verbs && !VERBS.has(this.phrase)) return Verdict.Reject;
    this.phrase = "";
    return Verdict.Hold;
  }

  /**
   * A byte of an element's other attributes (`serializeAs="String"`, their quotes escaped
   * inside a string too): at the element's `>`, its `value` child may follow.
   */
  private attributes(byte: number): Verdict {
    if (++this.count > MAX_SIBLING) return Verdict.Reject;
    if (this.attributeQuote !== 0) {
      if (byte === this.attributeQuote) this.attributeQuote = 0;
      return byte === 0x0a ? Verdict.Reject : Verdict.Hold;
    }
    if (QUOTES[byte] === 1) {
      this.attributeQuote = byte;
      return Verdict.Hold;
    }
    if (byte === 0x3e && this.elementText) {
      this.phase = Phase.ValueStart;
      this.quote = 0x3c;
      this.count = 0;
      this.value = [];
      return Verdict.Hold;
    }
    if (byte === 0x3e) {
      this.enterSibling(0, 0);
      return Verdict.Hold;
    }
    return NAME[byte] === 1 || byte === 0x3d || byte === 0x5c || BLANK[byte] === 1
      ? Verdict.Hold
      : Verdict.Reject;
  }

  /**
   * A quoted literal after the quoted name and a `,` (`setProperty("X_TOKEN", "…")`,
   * `put("password", "…")`) is judged as one compared with the secret: a password with a
   * digit or a sign, not only a token; a word (`["password", "confirmation"]`) stays.
   */
  private pairLiteral(): void {
    if (!this.pairComma || this.mode.vendor) return;
    this.strict = false;
    this.compared = true;
  }

  /**
   * The quoted value after the name and a blank (`password "…"`) ended at `here` and is no
   * token: it is still the value when a `;` ends the statement right after its quote
   * (`private_key "…";`), judged as after prose's `is` (4+ bytes without a blank).
   */
  private statementArgument(here: number): Verdict {
    if (!this.blankQuoted || this.quote === 0 || this.quote === 0x3c) return Verdict.Reject;
    this.strict = false;
    this.prose = true;
    if (!this.credible(true)) return Verdict.Reject;
    this.semi = here;
    this.count = 0;
    this.phase = Phase.Statement;
    // The value ended at the backslash of its escaped closing quote: more may follow it.
    this.quoteEscape = this.escapedQuote;
    return Verdict.Hold;
  }

  /**
   * A line break (or its escape, inside a string) right after a spaced `=`: the value may be
   * the next line's quoted literal (see `wrapped`); a `\r` may take one `\n` after it.
   */
  private wrapsLine(byte: number): boolean {
    if (!this.equals || !this.spacedEquals || this.flag || this.quote !== 0) return false;
    const cr = byte === 0x0d || byte === 0x72;
    if (this.wrapped) {
      // `\r\n`: the `\n` right after the `\r`.
      if (!this.wrapCr || this.count > 0 || cr) return false;
      this.wrapCr = false;
      return true;
    }
    this.wrapped = true;
    this.wrapCr = cr;
    this.quotedOnly = true;
    this.count = 0;
    return true;
  }

  /**
   * A line break (or its escape) right after a keyword's `:`: the value may be a YAML list's
   * first item on the next line (`api_keys:\n  - …`), read as a list's first element.
   */
  private startsItemLine(): boolean {
    // PHP's `var_dump`: `["password"]=>` and the value's type and length on the next line.
    const dump = this.bracketed && this.equals && !this.colon;
    if ((!this.colon && !dump) || this.quote !== 0 || this.list || this.pairComma) return false;
    if (this.itemLine !== 0 || this.mode.vendor || this.value.length > 0) return false;
    this.itemLine = 1;
    this.dumped = dump ? 0 : -1;
    this.count = 0;
    return true;
  }

  /**
   * The item's line: its line end's rest and indentation, then `-` (`itemLine` 2) and a
   * blank, or `var_dump`'s `string(N) ` (`dumped` counting its bytes) before a quoted value.
   */
  private itemLineByte(byte: number): Verdict {
    if (++this.count > MAX_SIBLING) return Verdict.Reject;
    if (this.dumped > 0) return this.dumpedType(byte);
    if (this.itemLine === 2) {
      if (BLANK[byte] !== 1) return Verdict.Reject;
      this.itemLine = 3;
      this.list = true;
      this.strict = true;
      return Verdict.Hold;
    }
    const escaped = this.quoteEscape;
    this.quoteEscape = false;
    if (escaped) {
      this.itemIndent = 0;
      return byte === 0x6e ? Verdict.Hold : Verdict.Reject;
    }
    if (byte === 0x5c) {
      this.quoteEscape = true;
      return Verdict.Hold;
    }
    if (byte === 0x0a) this.itemIndent = 0;
    else if (byte === 0x20) this.itemIndent++;
    if (BLANK[byte] === 1 || byte === 0x0a) return Verdict.Hold;
    if (this.dumped === 0) return this.dumpedType(byte);
    if (byte !== 0x2d) return this.plural ? this.startsMap(byte) : this.startsPlainLine();
    this.itemLine = 2;
    return Verdict.Hold;
  }

  /**
   * YAML's plain scalar on the next line, indented (`password:\n  Xk9…`): the value, when
   * it is random (a nested map's `key: value`, prose, stay); unindented, as a tool prints a
   * label and the value under it (`API key:\n0fff…`), only when it fills its line.
   */
  private startsPlainLine(): Verdict {
    if (this.dumped >= 0) return Verdict.Reject;
    this.itemLine = PLAIN_LINE;
    this.random = true;
    this.strict = true;
    return Verdict.Hold;
  }

  /**
   * A plural's YAML map on the lines after its name (`api_keys:\n  prod: …\n  staging: …`):
   * `byte` starts its first member's name; each member's value is judged as a list's element.
   */
  private startsMap(byte: number): Verdict {
    if (!this.plural || this.itemIndent === 0 || NAME[byte] !== 1) return Verdict.Reject;
    this.itemLine = 3;
    this.block = true;
    this.phase = Phase.BlockName;
    this.tail = String.fromCharCode(byte);
    this.count = 1;
    return Verdict.Hold;
  }

  /** `var_dump`'s `string(N) ` before the value: then a quoted value, as after `=>`. */
  private dumpedType(byte: number): Verdict {
    const at = this.dumped++;
    if (at < DUMPED_STRING.length)
      return byte === DUMPED_STRING[at] ? Verdict.Hold : Verdict.Reject;
    if (byte >= 0x30 && byte <= 0x39 && at < DUMPED_STRING.length + 8) return Verdict.Hold;
    if (byte === 0x29 && at > DUMPED_STRING.length) {
      this.itemLine = 3;
      this.dumped = -1;
      this.quotedOnly = true;
      return Verdict.Hold;
    }
    return Verdict.Reject;
  }

  /**
   * A quote after the name and a blank opens the value (`password "…"`, Gradle's and
   * Groovy's DSL, prose; `password \"…\"` inside a string), which must look like a token
   * (and be random after a vendor's name): true, and the value's phase entered, when this is
   * one.
   */
  private quotedAfterBlank(): boolean {
    if (this.count === 0 || this.tail !== "" || this.passVerb()) return false;
    // After a vendor's name (`mailgun '…'`, `kraken "…"`, as a test's fixture or a DSL's call
    // without parentheses writes it) the value must also be random.
    if (this.mode.vendor) this.random = true;
    this.strict = true;
    this.blankQuoted = true;
    this.count = 0;
    this.phase = Phase.ValueStart;
    return true;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    let i = start;
    if (this.phase === Phase.Unquoted && this.quote === 0) {
      // The next byte decides what a held `;`, backslash or separator's first bytes are.
      if (this.semi >= 0 || this.backslash >= 0 || this.separator !== 0 || this.dot >= 0)
        return start;
      // A URL's password ends at the `@`, a query's value at the fragment's `#`, a word given
      // after a space may end a sentence at a `.` (`next` reads them).
      const stop = this.urlUser ? 0x40 : this.query ? 0x23 : this.strict ? 0x2e : -1;
      while (i < end && VALUE_RUN[input[i]!] === 1 && input[i] !== stop) i++;
    } else if (this.phase === Phase.Quoted && (this.semi >= 0 || this.backslash >= 0)) {
      return start;
    } else if (this.phase === Phase.Quoted && this.escapedQuote) {
      const quote = this.quote;
      const other = otherQuote(quote);
      while (i < end) {
        const byte = input[i]!;
        if (byte === 0x5c || byte === quote || byte === other || SPACE_END[byte] === 1) break;
        i++;
      }
    } else if (this.phase === Phase.Quoted) {
      // Backslashes and the byte after them go through `next` (an escaped line break ends
      // the value).
      if (this.run > 0) return start;
      const other = otherQuote(this.quote);
      for (; i < end; i++) {
        const byte = input[i]!;
        if (byte === this.quote || byte === other || SPACE_END[byte] === 1) break;
        if (byte === 0x5c) break;
      }
    } else if (this.phase === Phase.Held) {
      // Letters and digits of a value being judged: each is only held, until the byte that
      // makes `DECIDE` (it decides, through `next`). A pending `;`, backslash or escape
      // makes the next byte decide something: then `next` reads it.
      if (
        this.value.length === 0 ||
        this.semi >= 0 ||
        this.backslash >= 0 ||
        this.escaped ||
        this.run > 0
      )
        return start;
      const value = this.value;
      const stop = Math.min(end, start + (DECIDE - 1 - value.length));
      while (i < stop && ALNUM[input[i]!] === 1) value.push(input[i++]!);
      if (i > start && this.quote === 0) this.key = -1;
    } else if (this.phase === Phase.TypeWord && this.count > 0) {
      // The word after the name and a blank (a type, `key`, or the value itself): each
      // byte is only held and kept, up to the one that says which (through `next`).
      const value = this.value;
      const stop = Math.min(end, start + (MAX_TYPE - this.count));
      while (i < stop && TYPE_WORD[input[i]!] === 1) value.push(input[i++]!);
      this.count += i - start;
    } else if (this.phase === Phase.Name) {
      // The rest of the name: each byte is only held (and kept for the next-word test).
      const stop = Math.min(end, start + (MAX_NAME - this.count));
      while (i < stop && NAME[input[i]!] === 1) i++;
      const kept = Math.min(i, start + MAX_TAIL - this.tail.length);
      for (let p = start; p < kept; p++) this.tail += String.fromCharCode(input[p]!);
      this.count += i - start;
      this.from = this.anchorLength + this.offset + (i - start);
    }
    this.offset += i - start;
    return i;
  }

  stateKey(): number | undefined {
    if (this.quoteEscape) return undefined;
    if (this.phase === Phase.Unquoted)
      return this.semi >= 0 ? undefined : 1 + this.quote + (this.opened ? 1024 : 0);
    if (this.phase === Phase.Quoted)
      return this.semi >= 0 || this.backslash >= 0
        ? undefined
        : 256 + this.quote * 4 + (this.escaped ? 1 : 0) + (this.escapedQuote ? 2 : 0);
    return undefined;
  }

  end(): Verdict {
    // A `;` run followed by what may still have been a key (`pw=ab;cd12` and the end): no
    // key came, so those bytes are the value's.
    const keyOpen = this.semi >= 0 && this.key >= 0 && !this.semiQuote;
    if (keyOpen) this.semi = this.keySpace;
    // A held letter that might have prefixed a string was the value (`password=r`).
    if (this.phase === Phase.ValueStart && this.stringPrefix !== 0) {
      this.value =
        this.stringPrefix2 === 0 ? [this.stringPrefix] : [this.stringPrefix, this.stringPrefix2];
      this.phase = Phase.Held;
    }
    if (this.phase === Phase.TypeWord && this.count > 0 && this.spaced) {
      this.strict = true;
      this.phase = Phase.Held;
    }
    // An XML element's text is a value only once its closing tag is seen.
    if (this.phase === Phase.Held && this.quote !== 0x3c) {
      // A `;` run or a closing quote last (`…X;`, `…X"`): the value ended before it.
      let end = this.anchorLength + this.offset;
      const start = end - this.value.length;
      if (this.semi > start && !keyOpen) {
        this.value.length -= end - this.semi;
        end = this.semi;
      }
      this.dropSentenceEnd(end);
      this.from = Math.min(this.from, start);
      return this.credible(true) ? Verdict.Close : Verdict.Reject;
    }
    if (this.phase === Phase.Unquoted && (this.semi >= 0 || keyOpen)) return Verdict.Close;
    return this.phase === Phase.PairTail ? Verdict.Close : Verdict.Reject;
  }
}

/**
 * {@link AssignmentCandidate.namesNoSecret}'s verdicts by tail (at most {@link MAX_TAIL}
 * bytes), for keyword and vendor names; emptied when full, so memory stays bounded.
 */
const TAIL_VERDICTS = new Map<string, boolean>();
const VENDOR_TAIL_VERDICTS = new Map<string, boolean>();
const MAX_TAIL_VERDICTS = 4096;

/** Keywords that name a password, whose value after a blank may hold signs. */
const PASSWORD_WORDS = new Set(["password", "passwd", "passphrase", "bindpw", "rootpw"]);

/** Fewest bytes of a list's first element read as a token (`["…"]`). */
const LIST_TOKEN = 16;

/** `'` for a value quoted with `"` and `"` for one quoted with `'` or a backtick; -1 for others. */
function otherQuote(quote: number): number {
  // A backtick's value stands inside a string's double quotes as a single quote's does.
  return quote === 0x22 ? 0x27 : quote === 0x27 || quote === 0x60 ? 0x22 : -1;
}

/** `for` (`password for user X is …`). */
function isForWord(word: readonly number[]): boolean {
  return word.length === 3 && word[0] === 0x66 && word[1] === 0x6f && word[2] === 0x72;
}

/**
 * Words with which a tool reports a credential it made, before a `:` and the value (`Token
 * created: X`), lowercase.
 */
const MADE = new Set("created generated issued regenerated rotated".split(" "));

/** True when `word` is one of {@link MADE}, in any case. */
function isMadeWord(word: readonly number[]): boolean {
  return (
    word.length >= 6 && word.length <= 11 && MADE.has(String.fromCharCode(...word).toLowerCase())
  );
}

/** Verbs between a keyword and the `to` before its value (`password was changed to X`). */
const VERBS = new Set("was has been is set changed reset updated".split(" "));
/** Bytes of a phrase's word kept: the longest of `VERBS`. */
const MAX_VERB = 7;

/** The word starts a phrase of `VERBS` (`set`, `was`, `has`, `changed`…). */
function isVerbWord(word: readonly number[]): boolean {
  return word.length <= MAX_VERB && word.length >= 3 && VERBS.has(String.fromCharCode(...word));
}

/** {@link separatorStep}: a byte of no separator; of one not complete yet; a separator's last. */
const SEPARATOR_NONE = 0;
const SEPARATOR_HELD = 1;
const SEPARATOR_ENDED = 2;

/** `byte` (at `here`) in the {@link SEPARATORS} sequence `c` may be reading. */
function separatorStep(c: AssignmentCandidate, byte: number, here: number): number {
  const length = (c.separator >>> 24) + 1;
  const key = (length << 24) | (((c.separator & 0xffffff) << 8) & 0xffffff) | byte;
  c.separator = 0;
  if (SEPARATOR_WHOLE.has(key)) return SEPARATOR_ENDED;
  if (SEPARATOR_PREFIX.has(key)) {
    if (length === 1) c.separatorAt = here;
    c.separator = key;
    return SEPARATOR_HELD;
  }
  // Not one after all: the byte may start another.
  if (length > 1 && SEPARATOR_PREFIX.has((1 << 24) | byte)) {
    c.separatorAt = here;
    c.separator = (1 << 24) | byte;
    return SEPARATOR_HELD;
  }
  return SEPARATOR_NONE;
}

/** True when `word` is `is` (`password is: X`). */
function isIsWord(word: readonly number[]): boolean {
  return word.length === 2 && word[0] === 0x69 && word[1] === 0x73;
}

/**
 * The key of a name's sibling that holds its value, lowercased (`[` reads as `{`): `value`,
 * `env[0].value`, CloudFormation's `ParameterValue` and `OutputValue`.
 */
function isSiblingKey(word: string): boolean {
  return (
    word === "value" ||
    word.endsWith(".value") ||
    word === "parametervalue" ||
    word === "outputvalue" ||
    word === "params"
  );
}

/** Bytes of a host's name or a URL, beyond a name's (`https://api.pulumi.com`). */
const URL_NAME = byteSet(":/.@%?=&~+-");

/**
 * The column rules of box-drawn tables in UTF-8, by byte: `│` (U+2502, `npm token list`'s),
 * `┃` (U+2503, heavy) and `║` (U+2551, double).
 */
const BOX_VERTICAL = [byteSet("\xe2"), byteSet("\x94\x95"), byteSet("\x82\x83\x91")];

/**
 * A table's cell holds a secret's value only when it looks random (a shell pipeline's next
 * command, `| sha256sum |`, is a word too): letters and digits switching 3+ times, or small
 * letters, capitals and digits together, not as a type's name.
 */
function isCellValue(value: readonly number[]): boolean {
  if (digitSwitches(value) >= 3) return true;
  let lower = false;
  let upper = false;
  let digit = false;
  for (const b of value) {
    if (b >= 0x61 && b <= 0x7a) lower = true;
    else if (b >= 0x41 && b <= 0x5a) upper = true;
    else if (b >= 0x30 && b <= 0x39) digit = true;
  }
  return lower && upper && digit && !PASCAL_CASE.test(String.fromCharCode(...value));
}

/** A type's name of words and numbers (`Uint8Array`, `Sha256Hash`, in `Token | Uint8Array |`). */
const PASCAL_CASE = /^(?:[A-Z][a-z]+|[0-9]+)+$/;

const SECRET_ID = /^[_-]?(?:id|Id|ID)$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A constant passed on (`default_token_placement=AUTH_HEADER,`), a member of `self`, `this`
 * or `cls`, a reST cross-reference (`:py:data:\`bytes\``, `:meth:\`peek\``): code.
 */
const CODE_REFERENCE =
  /^(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+[,)]|(?:self|this|cls)\.[A-Za-z_]|:?[a-z]+(?::[a-z]+)*:`)/;

/** A call or an index on a member or scope path (see `codeNotValue`). */
const CALL = /^-?[A-Za-z_$][\w$]*(?:(?:!?\??\.|::|->)[A-Za-z_$][\w$]*)*(?:\?\.)?[[(]/;
/** A Rust macro's invocation (`env!("TOKEN")`, `vec![…]`): its name is lowercase. */
const MACRO = /^[a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)*![[({]/;
const CAST = /^(?:static|dynamic|reinterpret|const)_cast</;
const SCOPED_NAME = /^[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+$/;

/**
 * Letters alone (16+ of them in a run, `_` or `-` around it) that are random, not a name:
 * capitals and small letters mixed so that 2+ capitals stand together and 2+ small letters
 * stand alone between capitals (`QmXvTzKpLwNrBjHsYdGfCeAu`) or a fifth or fewer are vowels
 * (`pbRNQJNEZAgrtwllkDMpjExl`); a camelCase or PascalCase name's words are two letters or
 * more and spoken (`getUserPasswordFromEnv`, `XMLHttpRequestEventTarget`).
 */
/**
 * A plural's value of two or more tokens joined by commas (`API_KEYS=…,…`, a rotation's
 * keys), each of {@link LIST_TOKEN}+ bytes that would pass after a plural (the last one's
 * bytes so far, when the value is not `complete`).
 */
function tokenList(text: string, complete: boolean): boolean {
  const parts = text.split(",");
  return (
    parts.length >= 2 &&
    parts.every((part, i) => {
      if (![...part].every((c) => PLURAL_TOKEN_ALPHABET[c.charCodeAt(0)] === 1)) return false;
      if (!complete && i === parts.length - 1) return part.length > 0;
      return (
        part.length >= LIST_TOKEN &&
        /[A-Za-z]/.test(part) &&
        (/[0-9]/.test(part) || randomLetters(part))
      );
    })
  );
}

function randomLetters(value: string): boolean {
  if (value.length < SPACED_WORD || !/^[A-Za-z_-]+$/.test(value)) return false;
  // The longest run of letters (a vendor's prefix aside: `dub_pbRNQJNEZAgrtwllkDMpjExl`).
  const text = value.split(/[_-]/).reduce((a, b) => (b.length > a.length ? b : a));
  if (text.length < SPACED_WORD) return false;
  const caps = text.match(/[A-Z]{2}/g)?.length ?? 0;
  if (caps < 2) return false;
  const lone = text.match(/(?<=[A-Z])[a-z](?=[A-Z])/g)?.length ?? 0;
  if (lone >= 2) return true;
  const vowels = text.match(/[aeiouAEIOU]/g)?.length ?? 0;
  return /[a-z]{2}/.test(text) && vowels * 5 <= text.length;
}

/** A word long and random enough for no type or name to be it (16+ bytes, 4+ letter-digit switches). */
function randomWord(word: readonly number[]): boolean {
  return word.length >= SPACED_WORD && digitSwitches(word) >= 4;
}

/**
 * How often `word` (its bytes before `end`) switches between a digit and a letter (`a1b2` 3
 * times, `sha256With` twice).
 */
function digitSwitches(word: readonly number[], end = word.length): number {
  let switches = 0;
  let wasDigit = -1;
  for (let i = 0; i < end; i++) {
    const byte = word[i]!;
    const digit = byte >= 0x30 && byte <= 0x39 ? 1 : ALNUM[byte] === 1 ? 0 : -1;
    if (digit < 0) continue;
    if (wasDigit >= 0 && digit !== wasDigit) switches++;
    wasDigit = digit;
  }
  return switches;
}

/** Three or more code names joined by dots, none a token's part (the last maybe cut short). */
function memberPath(text: string): boolean {
  const parts = text.split(".");
  if (parts.length < 3) return false;
  return parts.every(
    (part, i) =>
      (i === parts.length - 1 ? /^[\w$]*$/ : /^[A-Za-z_$][\w$]*$/).test(part) && !isTokenPart(part),
  );
}

/**
 * A part of a dotted value that is no member's name but a token's (`hvs.CAESIJ9a8b7c6d…`,
 * `O8E1k2d4I.nq`): 8+ letters and digits switching between them 4+ times (`sha256Digest`,
 * `utf8Bytes`, `base64UrlEncode2`, `md5Hash` switch fewer).
 */
function isTokenPart(part: string): boolean {
  if (part.length < 8) return false;
  const bytes = Array.from(part, (c) => c.charCodeAt(0));
  return digitSwitches(bytes) >= 4;
}

/**
 * The quoted word, lowercased, when it may be a name/value pair's key (`value`,
 * CloudFormation's `ParameterValue` and `OutputValue`, `env[0].value`, or a JSON-RPC call's
 * parameters after its method, `"method": "auth.login_with_api_key"`), else `undefined`.
 */
function pairKeyOf(word: readonly number[]): string | undefined {
  if (word.length > MAX_TAIL) return undefined;
  const key = String.fromCharCode(...word).toLowerCase();
  return isSiblingKey(key) ? key : undefined;
}

/**
 * A whole value (its closing punctuation dropped) that is a word no secret is (`null`,
 * `default`), a short number, or a colour (`Token: '#ffffff'`, a syntax highlighter's style;
 * after a password's name it may be the password).
 */
function plainNotSecret(bare: string, first: number, candidate: AssignmentCandidate): boolean {
  if (bare.length > LONGEST_NOT_SECRET_VALUE) return false;
  if (NOT_SECRET_VALUES.has(bare.toLowerCase()) || /^[0-9._:-]{1,7}$/.test(bare)) return true;
  // A port and its protocol (`/etc/services`' `kpasswd  464/tcp`, Docker's `8080/tcp`).
  if (PORT.test(bare)) return true;
  return first === 0x23 && COLOUR.test(bare) && !PASS_WORDS.has(candidate.keyword());
}

/**
 * A cloud resource's name (`projects/p/secrets/db/versions/2`): three or more lower-case
 * segments, two of them words (a password with slashes, `s3cr3t/abc/def`, has fewer).
 */
function resourceName(text: string): boolean {
  return (
    RESOURCE_NAME.test(text) && text.split("/").filter((s) => /^[a-z]{4,}$/.test(s)).length >= 2
  );
}

/**
 * Text outside ASCII in the value beyond a pair of typographic quotes: more than 6 such
 * bytes, or one between its first and last ASCII letters or digits.
 */
function innerNonAscii(v: readonly number[]): boolean {
  let first = -1;
  let last = -1;
  let outside = 0;
  for (let i = 0; i < v.length; i++) {
    const b = v[i]!;
    if (b >= 0x80) outside++;
    if (ALNUM[b] !== 1) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (outside > 6) return true;
  for (let i = first + 1; i < last; i++) if (v[i]! >= 0x80) return true;
  return false;
}

/**
 * Letters and digits alone, and some byte no {@link FINGERPRINT} holds (a small letter
 * other than its `0x` prefix's `x`, a capital after `F`): tested without building a string.
 */
function plainAlnum(v: readonly number[]): boolean {
  let notHex = false;
  for (let i = 0; i < v.length; i++) {
    const b = v[i]!;
    if (ALNUM[b] !== 1) return false;
    if (b > 0x46 && b !== 0x78) notHex = true;
  }
  return notHex;
}

/**
 * No small letter and no capital right after a digit: what {@link METAVARIABLE} needs of
 * the bytes, tested without building a string (a key's id such as `AKIA…` fails here).
 */
function mayBeMetavariable(v: readonly number[]): boolean {
  for (let i = 0; i < v.length; i++) {
    const b = v[i]!;
    if (b >= 0x61 && b <= 0x7a) return false;
    if (b >= 0x41 && b <= 0x5a && i > 0 && DIGIT[v[i - 1]!] === 1) return false;
  }
  return true;
}

/**
 * A code's name of two or more lower-case words, one naming a credential, its digits few
 * (`encryption_key_sha256`, `args.oauth2_client_secret`, `enable_k8s_tokens_via_dns`): a
 * variable passed on, not its value.
 */
function namesCredential(text: string): boolean {
  if (!CREDENTIAL_NAME.test(text) || !CREDENTIAL_WORD.test(text)) return false;
  return digitSwitches(Array.from(text, (c) => c.charCodeAt(0))) <= NAME_SWITCHES;
}

/** Most letter-digit changes in a code's name (`enable_k8s_tokens`: 2; `oauth2_v1`: 3). */
const NAME_SWITCHES = 3;

/** The value as text, its closing punctuation dropped. */
function bareOf(v: readonly number[]): string {
  return String.fromCharCode(...v).replace(/[;,)\]"'`]+$/, "");
}

/** The bytes spell `lower` (a lowercase word) in any case. */
function spells(bytes: readonly number[], lower: string): boolean {
  return bytes.length === lower.length && String.fromCharCode(...bytes).toLowerCase() === lower;
}

/** Words that may stand between a vendor's name and `key`: letters, none that says public. */
function isQualifierWord(word: readonly number[]): boolean {
  if (word.length < 3 || word.length > 12 || !word.every((b) => ALPHA[b] === 1)) return false;
  const lower = String.fromCharCode(...word).toLowerCase();
  return !NOT_VENDOR_SECRET_WORDS.has(lower) && !PUBLIC_KEY_WORDS.has(lower);
}

/** The bytes spell `key`, `Key` or `KEY`. */
function isKeyWord(word: readonly number[]): boolean {
  return (
    word.length === 3 &&
    (word[0]! | 0x20) === 0x6b &&
    (word[1]! | 0x20) === 0x65 &&
    (word[2]! | 0x20) === 0x79
  );
}

/**
 * Last words of a name before TOKEN that make it no credential: a page's cursor (AWS's
 * `NextToken`, `ContinuationToken`, Google's `nextPageToken`, `syncToken`, MongoDB's
 * `resumeToken`), an idempotency or concurrency token (`ClientRequestToken`,
 * `IdempotencyToken`, EFS's `CreationToken`, WAF's `ChangeToken`, Auto Scaling's
 * `LifecycleActionToken`), .NET's `CancellationToken`.
 */
const NOT_SECRET_TOKEN_WORDS = new Set(
  "next page continuation pagination sync resume idempotency creation change cancellation".split(
    " ",
  ),
);
const NOT_SECRET_TOKEN_PAIRS = new Set(["client request", "lifecycle action"]);

/** The anchor is TOKEN's (any case, after `_` or `-`). */
function isTokenAnchor(anchor: string): boolean {
  return /^[_-]?token$/i.test(anchor);
}

/** The name's bytes before TOKEN end in words that say it is no credential (see above). */
function namesNoSecretToken(prefix: string): boolean {
  if (prefix === "") return false;
  const words = splitWords(prefix);
  const n = words.length;
  if (n === 0) return false;
  return (
    NOT_SECRET_TOKEN_WORDS.has(words[n - 1]!) ||
    (n > 1 && NOT_SECRET_TOKEN_PAIRS.has(`${words[n - 2]} ${words[n - 1]}`))
  );
}

/**
 * `text` is a path of names that `pattern` reads (a member's, a field's): dotted, none of its
 * parts a token's (`hvs.Zq8vR3mK2pLx9Wq7` is a token).
 */
function namesMember(text: string, pattern: RegExp): boolean {
  return text.includes(".") && pattern.test(text) && !text.split(".").some(isTokenPart);
}

/** Lowercase words of a name's tail: `_MIN_LENGTH` → min, length; `sProvider` → s, provider. */
function splitWords(tail: string): string[] {
  const words: string[] = [];
  let word = "";
  let lowerBefore = false;
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    const upper = c >= 0x41 && c <= 0x5a;
    const lower = c >= 0x61 && c <= 0x7a;
    // A word ends at a byte that is not a letter, and before a capital after a small letter.
    if (!(upper || lower) || (upper && lowerBefore)) {
      if (word !== "") words.push(word);
      word = "";
    }
    if (upper || lower) word += String.fromCharCode(c | 0x20);
    lowerBefore = lower;
  }
  if (word !== "") words.push(word);
  return words;
}

export interface AssignmentRuleOptions {
  /** Anchors are vendor names, not keywords: the value must look like a token. @default false */
  readonly vendor?: boolean;
  /** Require a non-alphanumeric byte (or the start) before the anchor. @default false */
  readonly boundary?: boolean;
  /** The keyword is a whole word: no letter or digit may follow it either. @default false */
  readonly wholeWord?: boolean;
  /** The keyword says little: the value must be a random token (see `Mode.random`). @default false */
  readonly random?: boolean;
  /**
   * The keyword ends a camelCase name (`dbPass`, `rootPwd`): only its capitalized spelling,
   * after a lowercase letter, and as a whole word; `"acronym"`: spelled in capitals
   * (`githubPAT`). @default false
   */
  readonly camelCase?: boolean | "acronym";
  /**
   * The keyword ends a name glued to a word of its own case (`dbpass`, `ADMINPWD`): lowercase
   * after a small letter, capitals after a capital, and as a whole word. @default false
   */
  readonly glued?: boolean;
  /**
   * The keyword is a name's last word after `_` or `-` (`SHODAN_API=…`): anchored with the
   * separator, lowercase or capitals, after a letter or a digit, and as a whole word.
   * @default false
   */
  readonly suffix?: boolean;
}

/**
 * An assignment rule for names containing one of `keywords`, each a list of words spelled
 * every usual way (see `keyword-spellings.ts`).
 */
export function assignmentRule(
  name: string,
  keywords: readonly (readonly string[])[],
  options: AssignmentRuleOptions = {},
): MatcherRule {
  const camelCase = options.camelCase ?? false;
  const suffix = options.suffix ?? false;
  const glued = options.glued ?? false;
  // The bytes that must stand before a camelCase, suffix or glued anchor (the name's start).
  const after = camelCase ? LOWER : suffix ? ALNUM : glued ? ALPHA : undefined;
  const mode: Mode = {
    vendor: options.vendor ?? false,
    boundary: after === undefined && ((options.boundary ?? false) || (options.wholeWord ?? false)),
    wholeWord: after !== undefined || (options.wholeWord ?? false),
    random: options.random ?? false,
  };
  const anchors = camelCase
    ? keywords.map((words) =>
        camelCase === "acronym"
          ? words.join("").toUpperCase()
          : words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(""),
      )
    : glued
      ? keywords.flatMap((words) => [words.join(""), words.join("").toUpperCase()])
      : suffix
        ? keywords.flatMap((words) => {
            const word = words.join("_");
            return ["_", "-"].flatMap((sep) => [sep + word, sep + word.toUpperCase()]);
          })
        : keywords.flatMap(keywordSpellings);
  const rule: MatcherRule = {
    kind: "matcher",
    name,
    anchors: [...new Set(anchors)],
    maxLength: DECIDE + 16,
    start(match): Candidate | undefined {
      if (mode.boundary && match.before >= 0 && NOT_BEFORE[match.before] === 1) return undefined;
      if (match.namePrefix !== undefined && namesNoSecretToken(match.namePrefix)) return undefined;
      if (after !== undefined && after[match.before] !== 1) return undefined;
      // Glued: the word before is of the anchor's case (`dbpass`, `DBPASS`; `dbPASS` is none),
      // and with it no English word (`bypass`, `compass`).
      if (
        glued &&
        (match.anchor.charCodeAt(0) < 0x61 !== match.before < 0x61 ||
          ENGLISH_PASS.has(match.wordBefore?.toLowerCase() ?? ""))
      )
        return undefined;
      return new AssignmentCandidate(match, mode);
    },
  };
  withNamePrefix(rule, isTokenAnchor);
  // What `Phase.First` rejects: a lowercase letter (a longer word; `s` may be a plural and
  // `k` the `key` of `secretkey`, read on), and for a whole word any letter or digit.
  withNotAfter(rule, byteSet(mode.wholeWord ? "A-Za-z0-9" : mode.vendor ? "a-z" : "a-jl-rt-z"));
  if (glued) return withWordBefore(withNotBefore(rule, NOT_ALPHA));
  if (after !== undefined) return withNotBefore(rule, after === LOWER ? NOT_LOWER : NOT_ALNUM);
  return mode.boundary ? withNotBefore(rule, NOT_BEFORE) : rule;
}

const LOWER = byteSet("a-z");
const NOT_LOWER = byteSet("\x00-`{-\xff");
const NOT_ALNUM = byteSet("\x00-/:-@[-`{-\xff");
const NOT_ALPHA = byteSet("\x00-@[-`{-\xff");
/** Words that make `pass` an English word's end (`bypass`, `compass`, `overpass`). */
const ENGLISH_PASS = new Set("by com encom sur tres over under".split(" "));

/**
 * A candidate read as after a vendor's name (the value must look like a token, and no word
 * of the name after the anchor may say it is an id, a URL, a file…), for rules that decide
 * at the anchor whether the name is sensitive (see `qualified-key.ts`); `random`: the value
 * must also be random (after a word no list knows); `anchorEnds`: see {@link AnchorEnds}.
 */
export function tokenValueCandidate(
  match: AnchorMatch,
  random = false,
  anchorEnds: AnchorEnds = "in-name",
): Candidate {
  const candidate = new AssignmentCandidate(match, random ? RANDOM_MODE : VENDOR_MODE);
  // The anchor ended with the name's `:` (`License key:`) or `=` (`acme KEY=`): the value
  // comes next; or it is the whole name (`--key`): a separator comes next.
  if (anchorEnds === "name") candidate.phase = Phase.AfterName;
  else if (anchorEnds === "colon") candidate.phase = Phase.AfterColon;
  else if (anchorEnds === "equals") {
    candidate.phase = Phase.AfterEquals;
    candidate.equals = true;
    candidate.spacedEquals = match.anchor.endsWith(" =");
  }
  return candidate;
}

/**
 * Where a {@link tokenValueCandidate}'s anchor ends: inside the name (more of it may
 * follow), at the name's end (a separator follows), or with its `:` or `=`.
 */
export type AnchorEnds = "in-name" | "name" | "colon" | "equals";

const VENDOR_MODE: Mode = { vendor: true, boundary: false, wholeWord: false };
const RANDOM_MODE: Mode = { ...VENDOR_MODE, random: true };

keepShape(
  new AssignmentCandidate(
    { anchor: "password", length: 8, before: -1 },
    { vendor: false, boundary: false, wholeWord: false },
  ),
);
