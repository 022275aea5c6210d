/**
 * Credentials passed positionally to a documented API: the string literal in the
 * password's (or secret key's) place of a call such as .NET's `new NetworkCredential("user",
 * "…")`, JDBC's `DriverManager.getConnection(url, "user", "…")`, Python's
 * `HTTPBasicAuth("user", "…")` or PHP's `new PDO($dsn, "user", "…")`, and the literal a
 * setter named for its secret takes (`setPassword("…")`). No keyword stands next to the
 * secret; its place in the call says what it is. The table ({@link CREDENTIAL_CALLS}) is
 * data: each entry the calls as written up to `(`, the secret's argument and the API that
 * documents it.
 *
 * The arguments before the secret may be literals or expressions (nested calls, strings
 * with commas, brackets); the secret must be a literal (`"…"`, `'…'`, a template without
 * `${`, or `\"…\"` inside a JSON or C string), possibly in Rust's `Some("…")`. Only its
 * characters are redacted: the quotes and the call stay. An argument that is no literal
 * (`System.getenv("PW")`), an empty literal or a placeholder (`"$PW"`, `"%s"`, `"{pw}"`,
 * `"<password>"`, `"***"`) is left alone, as is a call with too few arguments. A JWT's or an
 * HMAC's signing key given as a literal (`jwt.sign(payload, "…")`, `hmac.new(b"…", …)`) is
 * one too.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('smtp.Credentials = new NetworkCredential("mailer", "tq8Wn2vLs0Pz");');
 * // 'smtp.Credentials = new NetworkCredential("mailer", "[REDACTED:credential-argument]");'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, ESCAPED_BLANK, QUOTES } from "./byte-classes.js";
import { CLOSED, EscapedLiteral, IN_RUN, OPENED, OPENING } from "./escaped-literal.js";
import { keepShape } from "./kept-shapes.js";
import { withWordBefore } from "./not-before.js";

/** A documented call that takes a credential as a positional argument. */
export interface CredentialCall {
  /**
   * The call as written, through its `(`; or, with `words`, its last part (`Credential(`,
   * `Password(`), so that its first four bytes are those of a keyword the scan already
   * stops at, not of a common word (`Network`, `create`, `with`).
   */
  readonly names: readonly string[];
  /** The words that stand before such a name (`Network` for `NetworkCredential(`). */
  readonly words?: readonly string[];
  /** A `.` stands before the name and its `words` (`.password(`, `server.login(`). @default false */
  readonly dotted?: boolean;
  /** The names also end longer ones (`BasicAuth(` in `HTTPBasicAuth(`, `SetBasicAuth(`). @default false */
  readonly suffix?: boolean;
  /** The secret's argument, from 1. */
  readonly argument: number;
  /** The literal may hold a blank (a password may; a setter's message-like literal is no secret). @default true */
  readonly blanks?: boolean;
  /** The signature as its vendor documents it. */
  readonly api: string;
}

export const CREDENTIAL_CALLS: readonly CredentialCall[] = [
  {
    names: ["Credential("],
    words: ["Network"],
    argument: 2,
    api: ".NET System.Net.NetworkCredential(userName, password[, domain])",
  },
  {
    names: ["DirectoryEntry("],
    argument: 3,
    api: ".NET System.DirectoryServices.DirectoryEntry(path, username, password[, authenticationType])",
  },
  {
    names: ["DriverManager.getConnection("],
    argument: 3,
    api: "Java java.sql.DriverManager.getConnection(url, user, password)",
  },
  {
    names: ["Authentication("],
    words: ["Password", "basic"],
    argument: 2,
    api: "Java java.net.PasswordAuthentication(userName, password); Spring RestTemplateBuilder.basicAuthentication(username, password)",
  },
  {
    names: ["Credentials("],
    words: ["UsernamePassword", "BasicAWS", "NewStatic"],
    argument: 2,
    api: "Apache HttpClient UsernamePasswordCredentials(userName, password); AWS SDK for Java BasicAWSCredentials(accessKey, secretKey); AWS SDK for Go credentials.NewStaticCredentials(id, secret, token)",
  },
  {
    names: ["CredentialsProvider("],
    words: ["NewStatic"],
    argument: 2,
    api: "AWS SDK for Go v2 credentials.NewStaticCredentialsProvider(key, secret, session)",
  },
  {
    names: ["Credentials.create("],
    words: ["AwsBasic", "AwsSession"],
    argument: 2,
    api: "AWS SDK for Java 2 AwsBasicCredentials.create(accessKeyId, secretAccessKey), AwsSessionCredentials.create(…)",
  },
  {
    names: ["Credentials.basic("],
    argument: 2,
    api: "OkHttp Credentials.basic(username, password)",
  },
  {
    names: ["Auth("],
    words: [
      "Basic",
      "HTTPBasic",
      "SetBasic",
      "setBasic",
      "withBasic",
      "Digest",
      "HTTPDigest",
      "HTTPProxy",
    ],
    argument: 2,
    api: "Python requests HTTPBasicAuth/HTTPDigestAuth/HTTPProxyAuth(username, password), aiohttp BasicAuth(login, password), Go net/http Request.SetBasicAuth(username, password), Spring HttpHeaders.setBasicAuth(username, password)",
  },
  {
    names: ["auth=(", "auth = ("],
    argument: 2,
    api: "Python requests and httpx: auth=(username, password), the tuple for HTTP Basic",
  },
  {
    names: ["'auth' => [", '"auth" => ['],
    argument: 2,
    api: "PHP Guzzle request option 'auth' => [username, password(, 'digest')]",
  },
  {
    names: ["().basic(", "().digest("],
    argument: 2,
    api: "REST Assured given().auth().basic(userName, password), .auth().preemptive().basic(…), .auth().digest(…)",
  },
  {
    names: ["Auth("],
    words: ["Plain"],
    argument: 3,
    api: "Go net/smtp PlainAuth(identity, username, password, host)",
  },
  {
    names: ["_auth("],
    words: ["basic"],
    argument: 2,
    api: "Rust reqwest RequestBuilder.basic_auth(username, Some(password))",
  },
  // `gin(`: the scan stops at `/login` in every web log, at `gin(` rarely.
  {
    names: ["gin("],
    words: ["lo", "Lo"],
    dotted: true,
    argument: 2,
    api: "Python smtplib.SMTP.login(user, password), imaplib.IMAP4.login(user, password), ftplib.FTP.login(user, passwd)",
  },
  {
    names: ["_connect("],
    words: ["mysqli", "mysql"],
    argument: 3,
    api: "PHP mysqli_connect(hostname, username, password), mysql_connect(…)",
  },
  // `new mysqli(…)` by its `qli(`: `mysq` would stop the scan at every `mysql`.
  {
    names: ["qli("],
    words: ["mys"],
    argument: 3,
    api: "PHP new mysqli(hostname, username, password)",
  },
  {
    names: ["PDO("],
    argument: 3,
    api: "PHP new PDO(dsn, username, password)",
  },
  {
    names: ["DBI->connect(", "DBI.connect("],
    argument: 3,
    api: "Perl DBI->connect($data_source, $username, $password), Ruby DBI.connect(dsn, user, password)",
  },
  {
    names: ["db.connect("],
    words: ["MySQL"],
    argument: 3,
    api: "Python MySQLdb.connect(host, user, passwd)",
  },
  {
    names: ["ftp_login("],
    argument: 3,
    api: "PHP ftp_login(ftp, username, password)",
  },
  {
    names: ["_bind("],
    words: ["ldap"],
    argument: 3,
    api: "PHP ldap_bind(ldap, dn, password)",
  },
  {
    names: ["Password("],
    words: ["User"],
    argument: 2,
    api: "Go net/url UserPassword(username, password)",
  },
  {
    names: ["Twilio.init(", "TwilioRestClient("],
    argument: 2,
    api: "Twilio Java Twilio.init(accountSid, authToken), TwilioRestClient(accountSid, authToken)",
  },
  {
    names: ["Credential("],
    words: ["create", "createPlain"],
    argument: 3,
    api: "MongoDB Java MongoCredential.createCredential(userName, database, password), createPlainCredential(…)",
  },
  {
    names: ["ScramSha256Credential(", "ScramSha1Credential("],
    suffix: true,
    argument: 3,
    api: "MongoDB Java MongoCredential.createScramSha256Credential(userName, source, password)",
  },
  // Setters and builders named for their secret; not a bare `Token`, a lexer's, nor
  // `withSecret(`, which names a secret.
  {
    names: [
      "Password(",
      "Passwd(",
      "Passphrase(",
      "ApiKey(",
      "APIKey(",
      "AccessToken(",
      "AuthToken(",
      "SecretKey(",
      "SecretAccessKey(",
    ],
    words: ["set", "with", "Set", "With"],
    argument: 1,
    blanks: false,
    api: "HikariConfig.setPassword(password), RabbitMQ ConnectionFactory.setPassword(password), SDK builders' withApiKey(key), Go and .NET clients' SetPassword(password)",
  },
  {
    names: ["Secret("],
    words: ["set", "client", "setClient", "withClient", "Set", "SetClient", "WithClient"],
    argument: 1,
    blanks: false,
    api: "GitHub Actions core.setSecret(secret), OAuth clients' setClientSecret(secret), builders' .clientSecret(secret)",
  },
  {
    names: ["password(", "passwd(", "apiKey(", "secretKey(", "accessToken("],
    dotted: true,
    argument: 1,
    blanks: false,
    api: "Spring Security User.withUsername(name).password(password), builders' .apiKey(key)",
  },
  {
    names: ["set_password("],
    dotted: true,
    argument: 3,
    api: "Python keyring.set_password(service_name, username, password)",
  },
  {
    names: ["jwt.sign(", "jwt.verify(", "jwt.encode(", "jwt.decode("],
    argument: 2,
    api: "Node jsonwebtoken jwt.sign(payload, secretOrPrivateKey[, options]), jwt.verify(token, secretOrPublicKey); PyJWT jwt.encode(payload, key, algorithm), jwt.decode(jwt, key, algorithms)",
  },
  {
    names: ["Algorithm.HMAC256(", "Algorithm.HMAC384(", "Algorithm.HMAC512("],
    argument: 1,
    api: "Auth0 java-jwt Algorithm.HMAC256(secret), HMAC384(secret), HMAC512(secret)",
  },
  {
    names: ["hmac.new("],
    argument: 1,
    api: 'Python hmac.new(key, msg=None, digestmod), the key a bytes literal (b"…")',
  },
  {
    names: ["Hmac("],
    words: ["create"],
    dotted: true,
    argument: 2,
    api: "Node crypto.createHmac(algorithm, key[, options])",
  },
  {
    names: ["Sequelize("],
    argument: 3,
    api: "Node Sequelize new Sequelize(database, username, password[, options])",
  },
];

/** Most bytes of a call read before its secret closes (arguments before it included). */
const MAX_CALL = 512;
/** Most bytes of the secret literal. */
const MAX_SECRET = 256;
const BACKSLASH = 0x5c;
const BLANKS = byteSet(" \t\r\n");
const OPEN = byteSet("([{");
const CLOSE = byteSet(")]}");
/** First bytes of a placeholder, not a secret (`$PW`, `%s`, `{pw}`, `<password>`, `***`). */
const PLACEHOLDER = byteSet("$%{<*");
/** Bytes a word-start name may not follow (a longer name: `MyDirectoryEntry(`). */
const WORD = byteSet("A-Za-z0-9_");
/** Rust's `Some(` around the secret literal. */
const WRAPPER = "Some(";

const State = {
  /** Before an argument: blanks, then a literal (the secret's) or an expression. */
  ArgStart: 0,
  /** A backslash before the secret's argument: a quote after it opens an escaped literal. */
  ArgEscape: 1,
  /** Inside the secret's literal. */
  Literal: 2,
  /** An argument before the secret's, to its `,` at depth 0 (strings and brackets skipped). */
  Expression: 3,
  /** Reading `Some(` before the secret. */
  Wrapper: 4,
} as const;

/** A string inside an expression argument: none, quoted, or quoted with escaped quotes (`\"…\"`). */
const InString = { None: 0, Raw: 1, Escaped: 2 } as const;
/** {@link SkippedArgument.next}: a `,` at depth 0 ended the argument. */
const ARGUMENT_END = -1;

/** An argument before the secret's, read to its `,` at depth 0 (strings and brackets skipped). */
class SkippedArgument {
  private depth = 0;
  private inString: number = InString.None;
  private quote = 0;
  /** The byte before was a backslash. */
  private escaped = false;

  /** `Verdict.Hold`, `Verdict.Reject` (the call or statement ended first) or {@link ARGUMENT_END}. */
  next(byte: number): Verdict | typeof ARGUMENT_END {
    if (this.escaped) {
      this.escaped = false;
      // `\"` opens or closes an escaped string; any other escape is a byte of the argument.
      if (this.inString === InString.None && QUOTES[byte] === 1) {
        this.quote = byte;
        this.inString = InString.Escaped;
      } else if (this.inString === InString.Escaped && byte === this.quote)
        this.inString = InString.None;
      return Verdict.Hold;
    }
    if (byte === BACKSLASH) this.escaped = true;
    else if (byte === 0x0a) return Verdict.Reject;
    else if (this.inString !== InString.None) {
      if (this.inString === InString.Raw && byte === this.quote) this.inString = InString.None;
    } else if (QUOTES[byte] === 1) {
      this.quote = byte;
      this.inString = InString.Raw;
    } else if (OPEN[byte] === 1) this.depth++;
    else if (CLOSE[byte] === 1) {
      if (this.depth === 0) return Verdict.Reject; // the call ended before the secret
      this.depth--;
    } else if (byte === 0x2c && this.depth === 0) return ARGUMENT_END;
    else if (byte === 0x3b) return Verdict.Reject;
    return Verdict.Hold;
  }
}

/** One call's arguments, from the byte after its `(`. */
class CredentialCallCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private state: number = State.ArgStart;
  /** The argument being read, from 1. */
  private argument = 1;
  /** The argument before the secret's being read (one for all of them), the literal's quote. */
  private skipped: SkippedArgument | null = null;
  private quote = 0;
  /** The backslashes before the literal's quote when escaped (a JSON or C string: `\"…\"`). */
  private escapes: EscapedLiteral | null = null;
  /** The byte before was a backslash. */
  private escaped = false;
  /** Bytes of `Some(` read. */
  private wrapper = 0;
  /** Python's `b` before the secret's literal (`hmac.new(b"…", …)`) was read. */
  private bytesPrefix = false;
  /** Bytes of the secret literal, and the one read last. */
  private length = 0;
  private previous = 0;

  constructor(
    anchorLength: number,
    /** The secret's argument, from 1. */
    private readonly secret: number,
    /** The literal may hold a blank. */
    private readonly blanks: boolean,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (here > MAX_CALL) return Verdict.Reject;
    if (this.state === State.Literal) return this.literal(byte, here);
    // Nothing before the secret's literal is held.
    this.from = here + 1;
    switch (this.state) {
      case State.ArgStart:
        return this.argStart(byte);
      case State.ArgEscape: {
        const opened = this.escapes!.opening(byte, QUOTES);
        if (opened === OPENING) return Verdict.Hold;
        if (opened === OPENED) return this.openLiteral(byte);
        // An escaped line break or tab inside a string (`,\n    \"…\"`): a blank.
        if (ESCAPED_BLANK[byte] !== 1) return Verdict.Reject;
        this.escapes = null;
        this.state = State.ArgStart;
        return Verdict.Hold;
      }
      case State.Expression:
        return this.expression(byte);
      default:
        if (byte !== WRAPPER.charCodeAt(this.wrapper)) return Verdict.Reject;
        if (++this.wrapper === WRAPPER.length) this.state = State.ArgStart;
        return Verdict.Hold;
    }
  }

  private argStart(byte: number): Verdict {
    if (BLANKS[byte] === 1) return Verdict.Hold;
    if (this.argument !== this.secret) {
      if (CLOSE[byte] === 1 || byte === 0x2c) return Verdict.Reject;
      this.state = State.Expression;
      return this.expression(byte);
    }
    // Only a literal is a secret; Rust's `Some("…")` holds one, Python's `b"…"` is one.
    if (QUOTES[byte] === 1) return this.openLiteral(byte);
    if (byte === 0x62 && !this.bytesPrefix && this.wrapper === 0) {
      this.bytesPrefix = true;
      return Verdict.Hold;
    }
    this.state = byte === BACKSLASH ? State.ArgEscape : State.Wrapper;
    if (byte === BACKSLASH) {
      this.escapes = new EscapedLiteral();
      this.escapes.opening(byte, QUOTES);
      return Verdict.Hold;
    }
    if (this.wrapper > 0 || byte !== WRAPPER.charCodeAt(0)) return Verdict.Reject;
    this.wrapper = 1;
    return Verdict.Hold;
  }

  private openLiteral(quote: number): Verdict {
    this.quote = quote;
    this.state = State.Literal;
    return Verdict.Hold;
  }

  private expression(byte: number): Verdict {
    this.skipped ??= new SkippedArgument();
    const read = this.skipped.next(byte);
    if (read !== ARGUMENT_END) return read;
    this.argument++;
    this.state = State.ArgStart;
    return Verdict.Hold;
  }

  private literal(byte: number, here: number): Verdict {
    if (this.escapes !== null) return this.escapedLiteral(byte, here);
    if (this.escaped) {
      this.escaped = false;
      return this.count(byte); // an escape is the secret's
    }
    if (byte === BACKSLASH) {
      this.escaped = true;
      return Verdict.Hold;
    }
    if (byte === this.quote) return this.close(here);
    return this.literalByte(byte);
  }

  /** A byte of a literal opened by an escaped quote (see `EscapedLiteral`). */
  private escapedLiteral(byte: number, here: number): Verdict {
    const read = this.escapes!.read(byte, here, this.quote);
    if (read === IN_RUN)
      return this.length + this.escapes!.run > MAX_SECRET ? Verdict.Reject : Verdict.Hold;
    if (read === CLOSED) return this.close(this.escapes!.runAt);
    if (read === 0) return this.literalByte(byte);
    this.length += read - 1; // an escape's backslashes beyond one
    return this.count(byte);
  }

  private literalByte(byte: number): Verdict {
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    // A template's `${…}`, Ruby's `#{…}`: a placeholder.
    if (byte === 0x7b && (this.previous === 0x24 || this.previous === 0x23)) return Verdict.Reject;
    return this.count(byte);
  }

  private count(byte: number): Verdict {
    if (this.length === 0 && PLACEHOLDER[byte] === 1) return Verdict.Reject;
    if (!this.blanks && (byte === 0x20 || byte === 0x09)) return Verdict.Reject;
    this.previous = byte;
    return ++this.length > MAX_SECRET ? Verdict.Reject : Verdict.Hold;
  }

  /** The literal closes at `quoteAt` (from the anchor's start): redacted up to there, excluded. */
  private close(quoteAt: number): Verdict {
    if (this.length === 0) return Verdict.Reject;
    this.to = quoteAt;
    return Verdict.Close;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

/** The calls by name (a name with `words` may stand for several). */
const CALLS_OF = new Map<string, CredentialCall[]>();
for (const call of CREDENTIAL_CALLS)
  for (const name of call.names) CALLS_OF.set(name, [...(CALLS_OF.get(name) ?? []), call]);

/** The call `match` is of, when the bytes before its name say it is one. */
function callOf(match: AnchorMatch): CredentialCall | undefined {
  for (const call of CALLS_OF.get(match.anchor)!) {
    // The byte before the whole name (`server.login(`: the `.` before `lo`); without words,
    // right before the name (`.password(`, never keyring's `.get_password(service, user)`).
    const before = call.words === undefined ? match.before : match.nameBefore;
    if (call.dotted && before !== 0x2e) continue;
    if (call.words !== undefined) {
      if (call.words.includes(match.wordBefore ?? "")) return call;
    } else if (
      call.dotted ||
      call.suffix ||
      WORD[match.anchor.charCodeAt(0)] !== 1 ||
      WORD[match.before] !== 1
    )
      // A name that starts a word ends none (`MyDirectoryEntry(` is another call).
      return call;
  }
  return undefined;
}

export const CREDENTIAL_CALL_RULE: MatcherRule = withWordBefore({
  kind: "matcher",
  name: "credential-argument",
  anchors: [...CALLS_OF.keys()],
  maxLength: MAX_CALL + 1,
  start(match): Candidate | undefined {
    const call = callOf(match);
    if (call === undefined) return undefined;
    return new CredentialCallCandidate(match.length, call.argument, call.blanks ?? true);
  },
});

keepShape(new CredentialCallCandidate(5, 2, true));
