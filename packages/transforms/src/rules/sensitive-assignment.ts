/**
 * Built-in assignment rules: AWS secret access keys by their variable name, any assignment
 * whose name contains a sensitive keyword (TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
 * API_KEY, PRIVATE_KEY, CREDENTIAL, ACCESS_KEY, SUBSCRIPTION_KEY, ENCRYPTION_KEY, SIGNING_KEY,
 * MASTER_KEY, HMAC_KEY, SECURE_STRING, SSHPASS, BW_SESSION, OAUTH2_BEARER, BINDPW, ROOTPW,
 * and PW / PWD / PASS / CREDS / PSK / npm's `_auth` as whole words or ending a camelCase name
 * (PWD and PASS also glued to a word of their case, with a random value), in the spellings of
 * `keyword-spellings.ts`), assignments named after a vendor whose keys have no prefix
 * (`HEROKU_API=…`, `"datadog_key": "…"`), and names that say less, read only with a random
 * value (`ADO_PAT=…`, `SHODAN_API=…`).
 * See `assignment-rule.ts` for the grammar and the value test.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
 * // "aws_secret_access_key = [REDACTED:aws-secret-access-key]"
 * ```
 */
import { CONTEXT_PROVIDERS } from "../provider-catalogue.js";
import type { MatcherRule } from "../rule.js";
import { assignmentRule } from "./assignment-rule.js";
import { NOT_SECRET_KEY_WORDS, qualifiedKeyRules, SECRET_KEY_QUALIFIERS } from "./qualified-key.js";

export const AWS_SECRET_ASSIGNMENT_RULE: MatcherRule = assignmentRule("aws-secret-access-key", [
  ["secret", "access", "key"],
]);

export const SENSITIVE_ASSIGNMENT_RULE: MatcherRule = assignmentRule("secret-assignment", [
  ["token"],
  ["secret"],
  ["password"],
  ["passwd"],
  ["passphrase"],
  ["api", "key"],
  ["private", "key"],
  ["credential"],
  ["access", "key"],
  // Azure API Management's header (`Ocp-Apim-Subscription-Key: …`).
  ["subscription", "key"],
  // Keys named for what they do (`ENCRYPTION_KEY=`, `signingKey:`). Other words before
  // `key` (`LICENSE_KEY`, whose `lice` would stop the scan at every `slice`) are read from
  // the anchor `key` back (`qualified-key.ts`).
  ["encryption", "key"],
  ["signing", "key"],
  ["master", "key"],
  ["hmac", "key"],
  // AWS Systems Manager's encrypted parameter type: its `Value` beside it is the secret
  // (`"Type": "SecureString", "Value": "…"`, a name/value pair).
  ["secure", "string"],
  // Redis's passwords (`requirepass …` in redis.conf, `redis-server --requirepass …`).
  ["requirepass"],
  ["masterauth"],
  // sshpass's password in its environment (`SSHPASS=… sshpass -e ssh …`), and the Bitwarden
  // CLI's session key, which `bw unlock` prints to be exported (`export BW_SESSION="…"`).
  ["sshpass"],
  ["bw", "session"],
  // LDAP's bind and root passwords (`bindpw …` in ldap.conf and nslcd.conf, `rootpw …` in
  // slapd.conf).
  ["bindpw"],
  ["rootpw"],
  // curl's bearer token (`curl --oauth2-bearer …`).
  ["oauth2", "bearer"],
]);

/**
 * `_pw=`, `PWD:`, `creds =`, `DB_PASS=`: short keywords, so only as whole words; npm's
 * `_auth=` (an `.npmrc`'s base64 `user:password`); and a Wi-Fi network's pre-shared key
 * (`psk="…"` in `wpa_supplicant.conf`, `psk=…` in a NetworkManager connection).
 */
export const SHORT_KEYWORD_ASSIGNMENT_RULE: MatcherRule = assignmentRule(
  "secret-assignment",
  [["pw"], ["pwd"], ["pass"], ["creds"], ["_auth"], ["psk"]],
  { wholeWord: true },
);

/**
 * The short keywords ending a camelCase name: `dbPass = "…"`, `RootPass: …` (MinIO's
 * banner), `adminPwd`, `awsCreds`. The capital after a lowercase letter is the name's
 * word boundary (`bypass`, `compass` stay); the value is judged as after any keyword.
 */
export const CAMEL_SHORT_KEYWORD_RULE: MatcherRule = assignmentRule(
  "secret-assignment",
  [["pw"], ["pwd"], ["pass"], ["creds"]],
  { camelCase: true },
);

/**
 * The short keywords ending a name glued to a word of their case, `dbpass=…`, `ADMINPWD=…`,
 * when the value is random (letters and digits switching 4+ times: `bypass=1`,
 * `compass=north1`, `OLDPWD=/home/me` stay). Not `pw`: two letters stand inside every
 * random id (`…Hspm1yWbpwKJ…`), and the scan would stop there.
 */
export const GLUED_SHORT_KEYWORD_RULE: MatcherRule = assignmentRule(
  "secret-assignment",
  [["pwd"], ["pass"]],
  { glued: true, vendor: true, random: true },
);

/**
 * A name ending in `_API` (`SHODAN_API=…`, `alphavantage-api: …`): a vendor's key named for
 * its API, when the value is a random token (`REST_API=enabled`, `USE_API=v2` stay), marked
 * as a key after any word is (`qualified-key.ts`). The separator is in the anchor, so a web
 * log's `/api/` is no stop.
 */
export const API_SUFFIX_RULE: MatcherRule = assignmentRule("key-assignment", [["api"]], {
  suffix: true,
  vendor: true,
  random: true,
});

/**
 * SonarQube's `sonar.login` (`-Dsonar.login=…`; `SONAR_LOGIN` the vendors' rule reads too),
 * which its scanners read as the analysis token before `sonar.token`, when the value is random:
 * older servers took a user's name there (`-Dsonar.login=admin -Dsonar.password=…`), which
 * stays.
 */
export const SONAR_LOGIN_RULE: MatcherRule = assignmentRule(
  "vendor-credential",
  [["sonar", "login"]],
  { random: true },
);

/**
 * Code Climate's test reporter id (`CC_TEST_REPORTER_ID`), which its documentation asks to
 * keep secret although its name says id, when the value is random.
 */
export const CC_TEST_REPORTER_RULE: MatcherRule = assignmentRule(
  "vendor-credential",
  [["cc", "test", "reporter", "id"]],
  { random: true },
);

/**
 * Names that say little alone: a personal access token by its acronym (`ADO_PAT=…`,
 * `"pat": "…"`) and `auth` as a whole word (`SHODAN_AUTH=…`, `"auth": "…"`). The value must
 * be a random token (`pat = re.compile(…)`, `pat: "%Y-%m"`, `auth: basic`, `"auth": true`
 * stay).
 */
export const PAT_ASSIGNMENT_RULE: MatcherRule = assignmentRule(
  "secret-assignment",
  [["pat"], ["auth"], ["oauth"]],
  { vendor: true, wholeWord: true, random: true },
);

/**
 * The acronym in capitals ending a camelCase name, `githubPAT = "…"`, `AzureDevOpsPAT`, when
 * the value is a random token (`usePAT = true`, `PATH` and `isPATCH` stay).
 */
export const CAMEL_PAT_RULE: MatcherRule = assignmentRule("secret-assignment", [["pat"]], {
  camelCase: "acronym",
  vendor: true,
  random: true,
});

/**
 * `LICENSE_KEY=`, `sessionKey:`, `"jwt-key":` (see `qualified-key.ts`): a
 * name of their own, so that a vendor's name before the key (`Algolia admin key:`) names
 * the span as a vendor's credential.
 */
export const QUALIFIED_KEY_ASSIGNMENT_RULES: readonly MatcherRule[] = qualifiedKeyRules(
  "key-assignment",
  SECRET_KEY_QUALIFIERS,
  NOT_SECRET_KEY_WORDS,
);

/** Names of vendors whose credentials have no prefix, as context (`Mailjet key: …` too). */
export const VENDOR_ASSIGNMENT_RULE: MatcherRule = assignmentRule(
  "vendor-credential",
  CONTEXT_PROVIDERS.flatMap((p) => p.names.map((n) => n.split("_").filter((w) => w !== ""))),
  { vendor: true, boundary: true },
);
