/**
 * The provider catalogue: vendor credential formats as data, one line each. Every entry
 * becomes a prefix anchor in the redactor's one automaton (see `rules/vendor-tokens.ts`),
 * so a hundred formats cost no more per byte than one; only bytes after a prefix are looked
 * at. The facts (prefix, alphabet, length) are those the vendors document and public
 * scanners' rule tests use; the `shape` of an entry describes a well-formed token for the
 * labelled corpus (`spool bench redact --corpus`) and the tests.
 *
 * Adding a provider: one {@link ProviderFormat} line here, and a case in
 * `test/catalogue.test.ts` (the corpus picks it up by itself).
 *
 * Formats without a distinctive prefix (a bare UUID, 32 hex digits) cannot be told from
 * ordinary text; they are listed in {@link CONTEXT_PROVIDERS} and caught only next to the
 * vendor's name in an assignment (`HEROKU_API_KEY=…`, `"datadog_key": "…"`).
 *
 * @example
 * ```ts
 * import { PROVIDER_FORMATS } from "@spool/transforms";
 * PROVIDER_FORMATS.find((p) => p.prefixes.includes("hf_"))?.family; // "huggingface"
 * ```
 */

/**
 * One vendor token format of the built-in catalogue ({@link PROVIDER_FORMATS}).
 *
 * @category redaction
 * @example
 * ```ts
 * import { PROVIDER_FORMATS, type ProviderFormat } from "@spool/transforms";
 * const github: ProviderFormat | undefined = PROVIDER_FORMATS.find((p) => p.family === "github");
 * github?.prefixes; // e.g. ["ghp_", "gho_", …]
 * ```
 */
export interface ProviderFormat {
  /** Vendor family, for reports (`gitlab`, `slack`, …). */
  readonly family: string;
  /** Rule name shown in the marker `[REDACTED:<rule>]`. */
  readonly rule: string;
  /** Literal prefixes; each is an anchor. */
  readonly prefixes: readonly string[];
  /** Alphabet of the bytes after the prefix, as a character-class body. */
  readonly body: string;
  /** Body bytes needed before it counts (below the real length, so a cut token is caught). */
  readonly minBody: number;
  /**
   * A well-formed token: literal text with `{n:class}` or `{n-m:class}` runs (`%` stands for
   * each prefix in turn). @default the prefix, then minBody + 8 body bytes
   */
  readonly shape?: string;
  /**
   * Require a digit or capital in the body (the prefix also starts ordinary words);
   * `"digit"` or `"capital"` to require that one. @default false
   */
  readonly mixed?: boolean | "digit" | "capital";
  /** Require one of these bytes in the body (a character-class body), instead of `mixed`. @default none */
  readonly needs?: string;
  /** `=` stands inside the token, not only as base64 padding at its end. @default false */
  readonly innerEquals?: boolean;
  /** The body holds `%` as written; an escape of text (`%0A`) makes a run no token (see `TokenRuleOptions.formText`). @default false */
  readonly formText?: boolean;
  /**
   * Most body bytes a token of this format has: a longer run is not this token and is kept
   * (a line of 100,000 letters that starts like one is text). @default 1024
   */
  readonly maxBody?: number;
  /** Keep the prefix readable: it names a place, not a secret (`AccountKey=`). @default false */
  readonly keepPrefix?: boolean;
  /** The last 6 body characters are a checksum of the rest. @default undefined */
  readonly checksum?: "crc32-base62";
  /** Require a non-alphanumeric byte (or the start) before the prefix. @default true */
  readonly boundary?: boolean;
  /** Extra bytes that may not stand before the prefix. @default "" */
  readonly notAfter?: string;
  /**
   * The token starts this many `A-Za-z0-9` bytes before its prefix (the prefix is in the
   * middle); they are held back and redacted with it. @default undefined
   */
  readonly lead?: number;
  /** The alphabet of the `lead` bytes, as a character-class body. @default "A-Za-z0-9" */
  readonly leadBody?: string;
  /** The prefix stands in a URL's host: the token starts at its scheme or host, at most `lead` bytes before (see `TokenRuleOptions.leadHost`). @default false */
  readonly leadHost?: boolean;
}

/**
 * A format caught only next to one of its vendor's names (no distinctive prefix), as in
 * {@link CONTEXT_PROVIDERS}.
 *
 * @category redaction
 * @example
 * ```ts
 * import { CONTEXT_PROVIDERS, type ContextProvider } from "@spool/transforms";
 * const heroku: ContextProvider | undefined = CONTEXT_PROVIDERS.find((p) => p.family === "heroku");
 * heroku?.names; // ["heroku"]
 * ```
 */
export interface ContextProvider {
  readonly family: string;
  /** Names that give the context, spelled every usual way (`heroku` → HEROKU, Heroku). */
  readonly names: readonly string[];
  /** A well-formed value, as in {@link ProviderFormat.shape}. */
  readonly shape: string;
}

const B62 = "A-Za-z0-9";
const URLSAFE = "A-Za-z0-9_-";
const HEX = "a-f0-9";
const B64 = "A-Za-z0-9+/=";
/** A UUID's shape (lower-case hex), as several vendors issue their keys. */
const UUID = "{8:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{12:a-f0-9}";

/** Formats with a prefix, in tie-break order (a span claimed by two is named after the first). */
// biome-ignore format: one provider per line
/**
 * The vendor token formats with a prefix, in tie-break order (a span claimed by two is
 * named after the first). Each becomes one built-in token rule.
 *
 * @category redaction
 * @example
 * ```ts
 * import { PROVIDER_FORMATS } from "@spool/transforms";
 * PROVIDER_FORMATS.find((p) => p.prefixes.includes("hf_"))?.family; // "huggingface"
 * ```
 */
export const PROVIDER_FORMATS: readonly ProviderFormat[] = [
  // The rules spool shipped first keep their names and order.
  { family: "aws", rule: "aws-access-key-id", prefixes: ["AKIA", "ASIA", "ABIA", "ACCA"], body: "A-Z0-9", minBody: 16, shape: "%{16:A-Z2-7}" },
  // The oldest key ids: `A3T`, a capital or digit, then 16 more (20 in all, as the others).
  { family: "aws", rule: "aws-access-key-id", prefixes: ["A3T"], body: "A-Z0-9", minBody: 17, maxBody: 17, shape: "A3TA{16:A-Z2-7}" },
  { family: "github", rule: "github-token", prefixes: ["ghp_", "gho_", "ghu_", "ghr_"], body: B62, minBody: 30, shape: "%{36:A-Za-z0-9}", checksum: "crc32-base62" },
  { family: "github", rule: "github-token", prefixes: ["ghs_"], body: "A-Za-z0-9_.-", minBody: 30, shape: "%{36:A-Za-z0-9}", checksum: "crc32-base62" },
  // A fine-grained token's prefix is long enough to need no boundary (`ourgithub_pat_…`).
  { family: "github", rule: "github-token", prefixes: ["github_pat_"], boundary: false, body: "A-Za-z0-9_", minBody: 40, shape: "github_pat_11{20:A-Z0-9}_{59:A-Za-z0-9}" },
  { family: "gitlab", rule: "gitlab-token", prefixes: [ "glpat-", "glrt-", "glcbt-", "gldt-", "glft-", "glimt-", "glsoat-", "glffct-", "GR1348941", ], body: "A-Za-z0-9_.-", minBody: 20, shape: "%{20:A-Za-z0-9_-}" },
  { family: "gitlab", rule: "gitlab-token", prefixes: ["glpat-"], body: "A-Za-z0-9_.-", minBody: 20, shape: "glpat-{27:A-Za-z0-9_-}.01.{9:a-z0-9}" },
  { family: "gitlab", rule: "gitlab-token", prefixes: ["glptt-"], body: "A-Za-z0-9_.-", minBody: 20, shape: "glptt-{40:a-f0-9}" },
  { family: "gitlab", rule: "gitlab-token", prefixes: ["glagent-", "gloas-"], body: "A-Za-z0-9_.-", minBody: 20, shape: "%{50:A-Za-z0-9_-}" },
  { family: "slack", rule: "slack-token", prefixes: ["xoxa-", "xoxb-", "xoxe-", "xoxo-", "xoxp-", "xoxr-", "xoxs-", "xoxc-", "xoxd-"], body: "A-Za-z0-9-", minBody: 10, mixed: "digit", shape: "%{12:0-9}-{12:0-9}-{24:A-Za-z0-9}" },
  { family: "slack", rule: "slack-token", prefixes: ["xapp-"], body: "A-Za-z0-9-", minBody: 10, shape: "xapp-1-A{10:A-Z0-9}-{13:0-9}-{64:a-f0-9}" },
  { family: "slack", rule: "slack-token", prefixes: ["xoxe.xoxp-", "xoxe.xoxb-"], body: "A-Za-z0-9-", minBody: 10, shape: "%1-{150:A-Za-z0-9}" },
  { family: "slack", rule: "slack-webhook", boundary: false, prefixes: [ "hooks.slack.com/services/", "hooks.slack.com/workflows/", "hooks.slack.com/triggers/", ], body: "A-Za-z0-9/", minBody: 16, maxBody: 256, shape: "https://%T{10:A-Z0-9}/B{10:A-Z0-9}/{24:A-Za-z0-9}" },
  // The whole webhook URL is the credential: from the `://` on, so no piece of it stays.
  { family: "slack", rule: "slack-webhook", boundary: false, prefixes: [ "://hooks.slack.com/services/", "://hooks.slack.com/workflows/", "://hooks.slack.com/triggers/", ], body: "A-Za-z0-9/", minBody: 16, maxBody: 256, shape: "https%T{10:A-Z0-9}/B{10:A-Z0-9}/{24:A-Za-z0-9}" },
  { family: "stripe", rule: "stripe-key", prefixes: ["sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk_prod_", "rk_prod_", "whsec_"], body: B62, minBody: 16, shape: "%51{22:A-Za-z0-9}{72:A-Za-z0-9}" },
  { family: "npm", rule: "npm-token", prefixes: ["npm_"], body: B62, minBody: 36, shape: "%{36:A-Za-z0-9}", checksum: "crc32-base62" },
  { family: "openrouter", rule: "openrouter-key", prefixes: ["sk-or-v1-"], body: HEX, minBody: 48, shape: "sk-or-v1-{64:a-f0-9}" },
  // Listed before the OpenAI rule so an "sk-ant-" key is named for Anthropic.
  { family: "anthropic", rule: "anthropic-api-key", prefixes: ["sk-ant-"], body: URLSAFE, minBody: 20, notAfter: "_-", shape: "sk-ant-api03-{93:A-Za-z0-9_-}AA" },
  // Langfuse secret keys (`sk-lf-` and a UUID), named for Langfuse rather than OpenAI.
  { family: "langfuse", rule: "langfuse-secret-key", prefixes: ["sk-lf-"], body: "a-f0-9-", minBody: 32, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // OpenAI's project, service account and admin keys (a cut one too: 20 body bytes).
  { family: "openai", rule: "openai-api-key", prefixes: ["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"], body: URLSAFE, minBody: 20, notAfter: "_-", mixed: true, shape: "sk-proj-{74:A-Za-z0-9_-}T3BlbkFJ{74:A-Za-z0-9_-}" },
  // "sk-" alone also starts ordinary kebab-case words: a digit or capital as keys have, and
  // 32 bytes (keys have 48 and more; OpenSSH's security-key algorithms in `ssh -G`,
  // `sk-ecdsa-sha2-nistp256-cert-v01@openssh.com`, have fewer).
  { family: "openai", rule: "openai-api-key", prefixes: ["sk-"], body: URLSAFE, minBody: 32, notAfter: "_-", mixed: true, shape: "sk-{48:A-Za-z0-9}" },
  // The Realtime API's ephemeral client secrets (`client_secret.value`): `ek_` and 32 hex.
  { family: "openai", rule: "openai-api-key", prefixes: ["ek_"], body: "a-f0-9", minBody: 32, maxBody: 32, mixed: "digit", shape: "ek_{32:a-f0-9}" },
  { family: "google", rule: "google-api-key", prefixes: ["AIza"], body: URLSAFE, minBody: 30, maxBody: 35, shape: "AIza{35:A-Za-z0-9_-}" },
  // Added with the catalogue (names: the vendor's, as scanners spell them).
  { family: "google", rule: "google-oauth", prefixes: ["ya29."], body: URLSAFE, minBody: 20, shape: "ya29.{120:A-Za-z0-9_-}" },
  { family: "google", rule: "google-oauth", prefixes: ["1//0"], body: URLSAFE, minBody: 30, shape: "1//0{60:A-Za-z0-9_-}" },
  { family: "google", rule: "google-oauth", prefixes: ["GOCSPX-"], body: URLSAFE, minBody: 24, shape: "GOCSPX-{28:A-Za-z0-9_-}" },
  { family: "huggingface", rule: "huggingface-token", prefixes: ["hf_", "api_org_"], body: B62, minBody: 30, maxBody: 40, mixed: true, shape: "%{34:A-Za-z}" },
  { family: "azure", rule: "azure-client-secret", boundary: false, lead: 3, leadBody: "A-Za-z0-9_~.-", prefixes: ["0Q~", "1Q~", "2Q~", "3Q~", "4Q~", "5Q~", "6Q~", "7Q~", "8Q~", "9Q~"], body: "A-Za-z0-9_~.-", minBody: 28, maxBody: 40, shape: "{3:A-Za-z0-9}%" + "{34:A-Za-z0-9_~.-}" },
  { family: "azure", rule: "azure-storage-key", prefixes: ["AccountKey=", "SharedAccessKey=", "AccessKey="], body: B64, minBody: 32, keepPrefix: true, shape: "DefaultEndpointsProtocol=https;AccountName=acct;%" + "{86:A-Za-z0-9+/}==;EndpointSuffix=core.windows.net" },
  { family: "hashicorp", rule: "vault-token", prefixes: ["hvs.", "hvb.", "hvr."], body: URLSAFE, minBody: 24, shape: "%{90:A-Za-z0-9_-}" },
  { family: "hashicorp", rule: "terraform-token", prefixes: [".atlasv1."], lead: 14, body: "A-Za-z0-9_=-", minBody: 60, shape: "{14:A-Za-z0-9}%{67:A-Za-z0-9_=-}" },
  { family: "shopify", rule: "shopify-token", prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"], body: B62, minBody: 32, maxBody: 64, shape: "%{32:a-f0-9}" },
  { family: "grafana", rule: "grafana-token", prefixes: ["glsa_"], body: "A-Za-z0-9_", minBody: 32, shape: "glsa_{32:A-Za-z0-9}_{8:a-f0-9}" },
  { family: "grafana", rule: "grafana-token", prefixes: ["glc_"], body: B64, minBody: 32, shape: "glc_{80:A-Za-z0-9}==" },
  { family: "grafana", rule: "grafana-token", prefixes: ["eyJrIjoi"], body: B64, minBody: 40, shape: "eyJrIjoi{70:A-Za-z0-9}" },
  { family: "sendgrid", rule: "sendgrid-key", prefixes: ["SG."], body: "A-Za-z0-9_.=-", minBody: 40, shape: "SG.{22:A-Za-z0-9_-}.{43:A-Za-z0-9_-}" },
  { family: "brevo", rule: "brevo-key", prefixes: ["xkeysib-", "xsmtpsib-"], body: "A-Za-z0-9-", minBody: 40, shape: "%{64:a-f0-9}-{16:A-Za-z0-9}" },
  { family: "databricks", rule: "databricks-token", prefixes: ["dapi", "dose"], body: "a-fA-F0-9-", minBody: 32, maxBody: 40, shape: "%{32:a-f0-9}" },
  { family: "digitalocean", rule: "digitalocean-token", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], body: HEX, minBody: 40, shape: "%{64:a-f0-9}" },
  // "SK" and its first hex digit: a two-byte anchor would stop the scan at every "SK" of text.
  { family: "twilio", rule: "twilio-key", prefixes: ["SK0", "SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7", "SK8", "SK9", "SKa", "SKb", "SKc", "SKd", "SKe", "SKf", "SKA", "SKB", "SKC", "SKD", "SKE", "SKF"], body: "a-fA-F0-9", minBody: 31, maxBody: 31, mixed: true, shape: "%{31:a-f0-9}" },
  { family: "pypi", rule: "pypi-token", prefixes: ["pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"], body: URLSAFE, minBody: 32, shape: "%{120:A-Za-z0-9_-}" },
  { family: "age", rule: "age-secret-key", prefixes: ["AGE-SECRET-KEY-1"], body: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", minBody: 40, shape: "%{58:QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L}" },
  // age's post-quantum (hybrid ML-KEM) identities, since age 1.3.
  { family: "age", rule: "age-secret-key", prefixes: ["AGE-SECRET-KEY-PQ-1"], body: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", minBody: 40, shape: "%{58:QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L}" },
  { family: "aws", rule: "aws-bedrock", prefixes: ["ABSK"], body: B64, minBody: 60, shape: "ABSK{132:A-Za-z0-9+/}" },
  // AWS STS session tokens (`aws sts get-session-token`, `assume-role`, an instance's
  // credentials): base64 of a binary blob whose first bytes spell its kind, `IQoJb3JpZ2lu`
  // (`…origin…`) now, `FwoGZXIvYXdz` (`…zer/aws…`) before; hundreds of characters.
  { family: "aws", rule: "aws-session-token", prefixes: ["IQoJb3JpZ2lu", "FwoGZXIvYXdz"], body: B64, minBody: 100, maxBody: 3000, shape: "%{300:A-Za-z0-9+/}" },
  { family: "alibaba", rule: "alibaba-access-key", prefixes: ["LTAI"], body: B62, minBody: 16, shape: "LTAI{20:A-Za-z0-9}" },
  // Alibaba Cloud STS security tokens: base64 starting `CAIS`, hundreds of characters.
  { family: "alibaba", rule: "alibaba-sts-token", prefixes: ["CAIS"], body: B64, minBody: 40, maxBody: 3000, mixed: true, shape: "%{300:A-Za-z0-9+/}" },
  // Aikido's CI tokens and API client secrets.
  { family: "aikido", rule: "aikido-token", prefixes: ["AIK_CI_", "AIK_SECRET_"], body: B62, minBody: 24, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "adafruit", rule: "adafruit-key", prefixes: ["aio_"], body: B62, minBody: 24, mixed: true, shape: "aio_{28:A-Za-z0-9}" },
  // Alphabets with `=` inside (not base64 padding) are capped near their length: a token may
  // start after `=`, so a repeated `X=` holds up to maxBody / prefix candidates.
  { family: "atlassian", rule: "atlassian-token", prefixes: ["ATATT3", "ATCTT3", "ATOAT"], body: "A-Za-z0-9_=-", minBody: 60, maxBody: 256, shape: "%{180:A-Za-z0-9_-}=" },
  { family: "bitbucket", rule: "bitbucket-token", prefixes: ["ATBB"], body: B62, minBody: 28, shape: "ATBB{32:A-Za-z0-9}" },
  // Bitbucket Data Center's HTTP access tokens: `BBDC-` and 44 characters of base64.
  { family: "bitbucket", rule: "bitbucket-token", prefixes: ["BBDC-"], body: "A-Za-z0-9+/@_-", minBody: 40, maxBody: 48, mixed: true, shape: "BBDC-{44:A-Za-z0-9+/}" },
  { family: "buildkite", rule: "buildkite-token", prefixes: ["bkua_"], body: HEX, minBody: 36, shape: "bkua_{40:a-f0-9}" },
  { family: "clojars", rule: "clojars-token", prefixes: ["CLOJARS_"], body: "a-z0-9", minBody: 48, shape: "CLOJARS_{60:a-z0-9}" },
  { family: "contentful", rule: "contentful-token", prefixes: ["CFPAT-"], body: URLSAFE, minBody: 36, shape: "CFPAT-{43:A-Za-z0-9_-}" },
  { family: "defined", rule: "defined-networking-key", prefixes: ["dnkey-"], body: "A-Za-z0-9_=-", minBody: 40, maxBody: 128, shape: "dnkey-{26:a-z0-9}-{52:a-z0-9}" },
  { family: "docker", rule: "docker-token", prefixes: ["dckr_pat_", "dckr_oat_"], body: URLSAFE, minBody: 24, shape: "%{27:A-Za-z0-9_-}" },
  { family: "doppler", rule: "doppler-token", prefixes: ["dp.pt.", "dp.st.", "dp.sa.", "dp.said.", "dp.ct.", "dp.scim.", "dp.audit."], body: "A-Za-z0-9._-", minBody: 40, maxBody: 84, shape: "%{43:A-Za-z0-9}" },
  { family: "duffel", rule: "duffel-token", prefixes: ["duffel_test_", "duffel_live_"], body: "A-Za-z0-9_=-", minBody: 40, maxBody: 96, shape: "%{43:A-Za-z0-9_-}" },
  { family: "dynatrace", rule: "dynatrace-token", prefixes: ["dt0c01.", "dt0s01.", "dt0s16."], body: "A-Za-z0-9.", minBody: 60, shape: "%{24:A-Z0-9}.{64:A-Z0-9}" },
  { family: "easypost", rule: "easypost-key", prefixes: ["EZAK", "EZTK"], body: "a-zA-Z0-9", minBody: 48, shape: "%{54:a-z0-9}" },
  { family: "figma", rule: "figma-token", prefixes: ["figd_", "figu_"], body: URLSAFE, minBody: 36, shape: "%{40:A-Za-z0-9_-}" },
  { family: "flutterwave", rule: "flutterwave-key", prefixes: ["FLWSECK_TEST-", "FLWSECK-", "FLWPUBK_TEST-", "FLWPUBK-"], body: "a-hA-H0-9X-", minBody: 12, shape: "%{32:a-h0-9}-X" },
  { family: "frameio", rule: "frameio-token", prefixes: ["fio-u-"], body: "A-Za-z0-9_=-", minBody: 56, maxBody: 128, shape: "fio-u-{64:A-Za-z0-9_-}" },
  { family: "flyio", rule: "flyio-token", prefixes: ["fo1_", "fm1r_", "fm1a_", "fm2_"], body: `${B64}_-`, minBody: 40, shape: "%{43:A-Za-z0-9_-}" },
  { family: "gocardless", rule: "gocardless-token", prefixes: ["live_"], body: "A-Za-z0-9_=-", minBody: 40, maxBody: 96, mixed: true, shape: "live_{40:A-Za-z0-9}" },
  { family: "groq", rule: "groq-key", prefixes: ["gsk_"], body: B62, minBody: 48, shape: "gsk_{52:A-Za-z0-9}" },
  { family: "harness", rule: "harness-token", prefixes: ["pat.", "sat."], body: `.${URLSAFE}`, minBody: 60, mixed: true, shape: "%{22:A-Za-z0-9_-}.{24:a-f0-9}.{20:A-Za-z0-9}" },
  { family: "heroku", rule: "heroku-key", prefixes: ["HRKU-"], body: URLSAFE, minBody: 48, shape: "HRKU-AA{58:A-Za-z0-9_-}" },
  { family: "infracost", rule: "infracost-key", prefixes: ["ico-"], body: B62, minBody: 32, mixed: "capital", shape: "ico-{32:A-Za-z0-9}" },
  { family: "jfrog", rule: "jfrog-token", prefixes: ["AKCp", "cmVmdGtu"], body: B62, minBody: 56, shape: "%{69:A-Za-z0-9}" },
  { family: "langchain", rule: "langsmith-key", prefixes: ["lsv2_pt_", "lsv2_sk_"], body: "a-f0-9_", minBody: 32, shape: "%{32:a-f0-9}_{10:a-f0-9}" },
  // LangSmith's keys before `lsv2_`: 32 hex digits.
  { family: "langchain", rule: "langsmith-key", prefixes: ["ls__"], body: "a-f0-9", minBody: 32, maxBody: 32, shape: "%{32:a-f0-9}" },
  { family: "linear", rule: "linear-key", prefixes: ["lin_api_", "lin_oauth_"], body: B62, minBody: 36, shape: "%{40:A-Za-z0-9}" },
  { family: "mapbox", rule: "mapbox-token", prefixes: ["sk.eyJ", "tk.eyJ"], body: `.${URLSAFE}`, minBody: 60, shape: "%{60:A-Za-z0-9_-}.{22:A-Za-z0-9_-}" },
  // The whole URL from its scheme: the tenant's host before the prefix is held back and
  // redacted with it (at most 72 bytes of a scheme and host).
  { family: "microsoft", rule: "teams-webhook", boundary: false, prefixes: [".webhook.office.com/webhookb2/"], lead: 72, leadHost: true, leadBody: "a-z0-9.:/-", body: "A-Za-z0-9@%/_-", minBody: 40, shape: "acme%" + "{8:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{12:a-f0-9}@{8:a-f0-9}/IncomingWebhook/{32:a-f0-9}/{8:a-f0-9}/V2{43:A-Za-z0-9_-}" },
  // Office 365 connector webhooks before `webhook.office.com`: the same ids and secret (the
  // `@` between them also percent-encoded, `%40`, or twice, `%2540`).
  { family: "microsoft", rule: "teams-webhook", prefixes: ["outlook.office.com/webhook/", "outlook.office365.com/webhook/"], body: "A-Za-z0-9@%/_-", minBody: 40, keepPrefix: true, shape: "https://%" + "{8:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{12:a-f0-9}@{8:a-f0-9}/IncomingWebhook/{32:a-f0-9}/{8:a-f0-9}" },
  // As Slack's: after a scheme, the whole URL from its `://` (no piece of a URL labelled whole stays).
  { family: "microsoft", rule: "teams-webhook", boundary: false, prefixes: ["://outlook.office.com/webhook/", "://outlook.office365.com/webhook/"], body: "A-Za-z0-9@%/_-", minBody: 40, shape: "https%" + "{8:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{4:a-f0-9}-{12:a-f0-9}@{8:a-f0-9}/IncomingWebhook/{32:a-f0-9}/{8:a-f0-9}" },
  // IFTTT Maker (Webhooks service) keys, in its trigger URLs and its settings page's URL.
  { family: "ifttt", rule: "ifttt-webhook", boundary: false, prefixes: ["/with/key/"], body: URLSAFE, minBody: 16, maxBody: 64, keepPrefix: true, mixed: true, shape: "https://maker.ifttt.com/trigger/deploy%{22:A-Za-z0-9_-}" },
  { family: "ifttt", rule: "ifttt-webhook", prefixes: ["maker.ifttt.com/use/"], body: URLSAFE, minBody: 16, maxBody: 64, keepPrefix: true, mixed: true, shape: "https://%{22:A-Za-z0-9_-}" },
  { family: "discord", rule: "discord-webhook", prefixes: ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"], body: `/${URLSAFE}`, minBody: 40, keepPrefix: true, shape: "https://%{18:0-9}/{68:A-Za-z0-9_-}" },
  { family: "discord", rule: "discord-webhook", boundary: false, prefixes: ["://discord.com/api/webhooks/", "://discordapp.com/api/webhooks/"], body: `/${URLSAFE}`, minBody: 40, shape: "https%{18:0-9}/{68:A-Za-z0-9_-}" },
  // Insert keys (`NRII-`) may hold `-` and `_`.
  { family: "newrelic", rule: "newrelic-key", prefixes: ["NRAK-", "NRII-", "NRRA-", "NRJS-", "NRAA-"], body: URLSAFE, minBody: 19, shape: "%{27:A-Z0-9}" },
  // License keys: 36 lowercase letters and digits (a region, then hex) ending in `NRAL`.
  { family: "newrelic", rule: "newrelic-key", prefixes: ["NRAL"], lead: 36, leadBody: "a-z0-9", body: B62, minBody: 0, maxBody: 0, shape: "{36:a-f0-9}%" },
  // Insights query keys: `NRIQ-` and 32 characters, `-` and `_` among them.
  { family: "newrelic", rule: "newrelic-key", prefixes: ["NRIQ-"], body: URLSAFE, minBody: 28, maxBody: 40, mixed: true, shape: "%{32:A-Za-z0-9_-}" },
  { family: "nuget", rule: "nuget-key", prefixes: ["oy2"], body: "a-z0-9", minBody: 40, shape: "oy2{43:a-z0-9}" },
  { family: "octopus", rule: "octopus-key", prefixes: ["API-"], body: "A-Z0-9", minBody: 26, mixed: true, shape: "API-{26:A-Z0-9}" },
  { family: "onepassword", rule: "onepassword-token", prefixes: ["ops_eyJ"], body: `${B64}_-`, minBody: 100, shape: "ops_eyJ{250:A-Za-z0-9+/}" },
  { family: "onepassword", rule: "onepassword-secret-key", prefixes: ["A3-"], body: "A-Z0-9-", minBody: 30, mixed: true, shape: "A3-{6:A-Z0-9}-{11:A-Z0-9}-{5:A-Z0-9}-{5:A-Z0-9}-{5:A-Z0-9}" },
  { family: "openshift", rule: "openshift-token", prefixes: ["sha256~"], body: URLSAFE, minBody: 40, shape: "sha256~{43:A-Za-z0-9_-}" },
  { family: "perplexity", rule: "perplexity-key", prefixes: ["pplx-"], body: B62, minBody: 40, shape: "pplx-{48:A-Za-z0-9}" },
  { family: "planetscale", rule: "planetscale-token", prefixes: ["pscale_tkn_", "pscale_oauth_", "pscale_pw_"], body: "A-Za-z0-9_.=-", minBody: 32, maxBody: 96, shape: "%{43:A-Za-z0-9_-}" },
  { family: "postman", rule: "postman-key", prefixes: ["PMAK-"], body: "a-fA-F0-9-", minBody: 40, shape: "PMAK-{24:a-f0-9}-{34:a-f0-9}" },
  { family: "prefect", rule: "prefect-key", prefixes: ["pnu_"], body: B62, minBody: 32, shape: "pnu_{36:A-Za-z0-9}" },
  { family: "pulumi", rule: "pulumi-token", prefixes: ["pul-"], body: HEX, minBody: 36, shape: "pul-{40:a-f0-9}" },
  { family: "readme", rule: "readme-key", prefixes: ["rdme_"], body: "a-z0-9", minBody: 60, shape: "rdme_{70:a-z0-9}" },
  { family: "render", rule: "render-key", prefixes: ["rnd_"], body: B62, minBody: 28, mixed: true, shape: "rnd_{32:A-Za-z0-9}" },
  { family: "replicate", rule: "replicate-token", prefixes: ["r8_"], body: B62, minBody: 32, mixed: true, shape: "r8_{37:A-Za-z0-9}" },
  { family: "rubygems", rule: "gem-api-key", prefixes: ["rubygems_"], body: HEX, minBody: 40, shape: "rubygems_{48:a-f0-9}" },
  { family: "scalingo", rule: "scalingo-token", prefixes: ["tk-us-"], body: URLSAFE, minBody: 40, shape: "tk-us-{48:A-Za-z0-9_-}" },
  { family: "sentry", rule: "sentry-token", innerEquals: true, prefixes: ["sntrys_eyJ", "sntryu_"], body: `${B64}_`, minBody: 60, shape: "%{64:a-f0-9}" },
  { family: "settlemint", rule: "settlemint-token", prefixes: ["sm_pat_", "sm_aat_", "sm_sat_"], body: B62, minBody: 16, shape: "%{16:a-zA-Z0-9}" },
  { family: "shippo", rule: "shippo-token", prefixes: ["shippo_live_", "shippo_test_"], body: HEX, minBody: 36, shape: "%{40:a-f0-9}" },
  { family: "sourcegraph", rule: "sourcegraph-token", prefixes: ["sgp_", "sgp_local_"], body: "a-fA-F0-9_", minBody: 36, shape: "sgp_{16:a-f0-9}_{40:a-f0-9}" },
  // After `+` or `/` an `EAA…` run is base64's (a search index's, a certificate's line), not a
  // token. Square's access tokens are URL-safe; `+` and `=` inside one, as other scanners
  // allow, go with it rather than leave its tail on disk.
  { family: "square", rule: "square-token", prefixes: ["sq0atp-", "sq0csp-", "EAAA"], body: "A-Za-z0-9_+=-", minBody: 22, mixed: true, innerEquals: true, notAfter: "+/", shape: "%{43:A-Za-z0-9_-}" },
  { family: "supabase", rule: "supabase-key", prefixes: ["sbp_"], body: URLSAFE, minBody: 32, shape: "%{40:a-f0-9}" },
  // Supabase's secret API keys (`sb_secret_…`; the docs give no length: a shorter body than
  // the access tokens' is read as one).
  { family: "supabase", rule: "supabase-key", prefixes: ["sb_secret_"], body: URLSAFE, minBody: 24, maxBody: 128, mixed: true, shape: "%{22:A-Za-z0-9_-}_{8:A-Za-z0-9_-}" },
  { family: "tailscale", rule: "tailscale-key", prefixes: ["tskey-"], body: "A-Za-z0-9-", minBody: 30, maxBody: 128, shape: "%{16:A-Za-z0-9}-{33:A-Za-z0-9}" },
  { family: "typeform", rule: "typeform-token", prefixes: ["tfp_"], body: "A-Za-z0-9_.=-", minBody: 48, maxBody: 128, shape: "tfp_{59:A-Za-z0-9_-}" },
  { family: "vercel", rule: "vercel-token", prefixes: ["vcp_", "vci_", "vca_", "vcr_", "vck_"], body: B62, minBody: 24, mixed: true, shape: "%{56:A-Za-z0-9}" },
  { family: "xai", rule: "xai-key", prefixes: ["xai-"], body: B62, minBody: 64, shape: "xai-{80:A-Za-z0-9}" },
  { family: "yandex", rule: "yandex-key", prefixes: ["AQVN", "y0_AgAAAA", "t1.9euelZ"], body: `.${URLSAFE}`, minBody: 30, shape: "%{40:A-Za-z0-9_-}" },
  { family: "vault", rule: "vault-token", prefixes: ["b.AAAAAQ"], body: URLSAFE, minBody: 60, shape: "%{120:A-Za-z0-9_-}" },
  { family: "notion", rule: "notion-token", prefixes: ["ntn_"], body: B62, minBody: 40, shape: "ntn_{46:A-Za-z0-9}" },
  // Notion's integration tokens before `ntn_`: `secret_` and 43 characters (mixed: the
  // prefix also starts names in code, `secret_key_base`, which are short runs anyway).
  { family: "notion", rule: "notion-token", prefixes: ["secret_"], body: B62, minBody: 40, maxBody: 50, mixed: true, shape: "secret_{43:A-Za-z0-9}" },
  // Exactly 38 after the prefix: a hex digest or commit id that starts with 4b1d is 36 or 60.
  { family: "clickhouse", rule: "clickhouse-key", prefixes: ["4b1d"], body: B62, minBody: 38, maxBody: 38, mixed: true, shape: "4b1d{38:A-Za-z0-9}" },
  { family: "cloudflare", rule: "cloudflare-origin-ca-key", prefixes: ["v1.0-"], body: "a-f0-9-", minBody: 100, shape: "v1.0-{24:a-f0-9}-{146:a-f0-9}" },
  { family: "circleci", rule: "circleci-token", prefixes: ["CCIPAT_", "CCIPRJ_"], body: "A-Za-z0-9_", minBody: 30, shape: "%{22:A-Za-z0-9}_{40:a-f0-9}" },
  // Mailchimp: 32 hex digits, then the data centre `-us<N>`; anchored on `-us`, the 32
  // characters before it claimed with it.
  { family: "mailchimp", rule: "mailchimp-key", prefixes: ["-us"], lead: 32, body: "0-9", minBody: 1, maxBody: 2, shape: "{32:a-f0-9}%{2:1-9}" },
  // Mailgun's documented keys are 32 lowercase letters and digits (`key-3ax6…`), not only hex.
  { family: "mailgun", rule: "mailgun-key", prefixes: ["key-", "pubkey-"], body: "a-z0-9", minBody: 32, maxBody: 40, mixed: "digit", shape: "key-{32:a-z0-9}" },
  { family: "resend", rule: "resend-key", prefixes: ["re_"], body: "A-Za-z0-9_", minBody: 30, mixed: true, shape: "re_{8:A-Za-z0-9}_{24:A-Za-z0-9}" },
  { family: "authress", rule: "authress-key", prefixes: ["authress_", "scauth_"], body: "A-Za-z0-9_.-", minBody: 40, mixed: true, shape: "%{12:a-z0-9}.{4:a-z0-9}.acc_{16:a-z0-9}.{40:A-Za-z0-9}" },
  { family: "fastly", rule: "fastly-token", prefixes: ["fa-"], body: URLSAFE, minBody: 32, mixed: true, shape: "fa-{32:A-Za-z0-9_-}" },
  { family: "aws", rule: "aws-bedrock", prefixes: ["bedrock-api-key-"], body: B64, minBody: 24, maxBody: 2400, shape: "bedrock-api-key-{120:A-Za-z0-9+/}=" },
  { family: "adobe", rule: "adobe-client-secret", prefixes: ["p8e-"], body: "A-Za-z0-9-", minBody: 32, maxBody: 40, mixed: true, shape: "p8e-{32:a-f0-9}" },
  // AWS AppSync API keys: `da2-` and 26 small letters and digits.
  { family: "aws", rule: "aws-appsync-key", prefixes: ["da2-"], body: "a-z0-9", minBody: 26, maxBody: 26, mixed: "digit", shape: "%{26:a-z0-9}" },
  // The secret key Django's `startproject` writes (`SECRET_KEY = 'django-insecure-…'`): 50
  // characters of its own alphabet after the prefix.
  { family: "django", rule: "django-secret-key", prefixes: ["django-insecure-"], body: "a-z0-9!@#$%^&*(=+)_-", minBody: 40, maxBody: 60, innerEquals: true, shape: "%{20:a-z0-9}_-{28:a-z0-9}" },
  { family: "facebook", rule: "facebook-token", prefixes: ["EAA"], body: B62, minBody: 80, mixed: true, notAfter: "+/", shape: "EAA{4:A-Z}{150:A-Za-z0-9}" },
  { family: "gitlab", rule: "gitlab-session", boundary: false, prefixes: ["_gitlab_session="], body: B62, minBody: 32, maxBody: 64, shape: "_gitlab_session={32:a-f0-9}" },
  { family: "intra42", rule: "intra42-secret", prefixes: ["s-s4t2ud-", "s-s4t2af-"], body: HEX, minBody: 64, maxBody: 64, shape: "%{64:a-f0-9}" },
  { family: "lob", rule: "lob-key", prefixes: ["test_pub_", "live_pub_"], body: HEX, minBody: 31, maxBody: 40, shape: "%{31:a-f0-9}" },
  { family: "mapbox", rule: "mapbox-token", prefixes: ["pk."], body: `.${URLSAFE}`, minBody: 60, maxBody: 256, mixed: true, shape: "pk.{60:a-z0-9}.{22:a-z0-9}" },
  { family: "plaid", rule: "plaid-token", prefixes: ["access-development-", "access-sandbox-", "access-production-"], body: "a-f0-9-", minBody: 36, maxBody: 36, shape: `%${UUID}` },
  { family: "sonarqube", rule: "sonar-token", prefixes: ["squ_", "sqp_", "sqa_"], body: B62, minBody: 40, maxBody: 44, shape: "%{40:a-f0-9}" },
  { family: "cloudflare", rule: "cloudflare-token", prefixes: ["cfat_", "cfut_", "cfk_"], body: B62, minBody: 40, maxBody: 64, shape: "%{40:A-Za-z0-9}{8:a-f0-9}" },
  { family: "telegram", rule: "telegram-bot-token", boundary: false, prefixes: ["api.telegram.org/bot"], body: "A-Za-z0-9:_-", minBody: 40, maxBody: 64, keepPrefix: true, shape: "https://%{10:0-9}:AA{33:A-Za-z0-9_-}" },
  // A bot token alone, as Telegram documents it: the bot's id (8 to 10 digits, the lead), `:`
  // and 35 characters, of which the first two are `AA` in every token issued (30 after them
  // count, so a token cut short is caught).
  ...[8, 9, 10].map((lead) => ({ family: "telegram", rule: "telegram-bot-token", prefixes: [":AA"], lead, leadBody: "0-9", body: URLSAFE, minBody: 30, maxBody: 33, shape: `{${lead}:0-9}%{33:A-Za-z0-9_-}` })),
  // Password hashes (crypt(3) and PHC strings): a hash of a password is as good as one to
  // an offline attack. Prefixes are the schemes' identifiers.
  { family: "crypt", rule: "password-hash", prefixes: ["$2a$", "$2b$", "$2y$"], body: "./A-Za-z0-9$", minBody: 50, maxBody: 60, shape: "%12$" + "{53:./A-Za-z0-9}" },
  { family: "crypt", rule: "password-hash", innerEquals: true, prefixes: ["$1$", "$5$", "$6$", "$y$", "$7$", "$apr1$", "$8$", "$9$"], body: "./A-Za-z0-9$=", minBody: 20, maxBody: 256, shape: "%{8:./A-Za-z0-9}$" + "{86:./A-Za-z0-9}" },
  // phpass (WordPress's `$P$`, phpBB's `$H$`: a count, 8 of salt, 22 of hash) and Drupal 7's `$S$`.
  { family: "crypt", rule: "password-hash", prefixes: ["$P$", "$H$"], body: "./A-Za-z0-9", minBody: 31, maxBody: 31, shape: "%B{30:./A-Za-z0-9}" },
  { family: "crypt", rule: "password-hash", prefixes: ["$S$"], body: "./A-Za-z0-9", minBody: 52, maxBody: 52, shape: "%D{51:./A-Za-z0-9}" },
  { family: "crypt", rule: "password-hash", innerEquals: true, prefixes: ["$argon2id$", "$argon2i$", "$argon2d$", "$scrypt$", "$pbkdf2-sha256$", "$pbkdf2-sha512$"], body: "A-Za-z0-9+/=,.$-", minBody: 30, maxBody: 512, shape: "%v=19$m=65536,t=3,p=4$" + "{22:A-Za-z0-9+/}$" + "{43:A-Za-z0-9+/}" },
  // OpenSSL's `-passin pass:X` / `-passout pass:X`: the password itself on the command line,
  // to a blank, a quote or a backslash (a string's escape: `\n` inside a JSON string ends it).
  { family: "openssl", rule: "openssl-pass", boundary: false, prefixes: ["-passin pass:", "-passout pass:", "-pass pass:", "-passin 'pass:", "-passout 'pass:"], body: "!#-&(-[]-~", minBody: 4, maxBody: 256, keepPrefix: true, shape: "openssl rsa -in key.pem %{12:A-Za-z0-9}" },
  // Developer tools and AI APIs (their documented prefixes and lengths).
  { family: "crates", rule: "crates-io-token", prefixes: ["cio"], body: B62, minBody: 32, maxBody: 36, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "dependency-track", rule: "dependency-track-key", prefixes: ["odt_"], body: "A-Za-z0-9_", minBody: 32, maxBody: 64, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "firecrawl", rule: "firecrawl-key", prefixes: ["fc-"], body: HEX, minBody: 32, maxBody: 32, mixed: "digit", shape: "%{32:a-f0-9}" },
  { family: "jina", rule: "jina-key", prefixes: ["jina_"], body: B62, minBody: 40, maxBody: 100, mixed: true, shape: "%{60:A-Za-z0-9}" },
  { family: "tavily", rule: "tavily-key", prefixes: ["tvly-"], body: "A-Za-z0-9-", minBody: 32, maxBody: 48, mixed: true, shape: "%dev-{32:A-Za-z0-9}" },
  { family: "stackhawk", rule: "stackhawk-key", prefixes: ["hawk."], body: "A-Za-z0-9.", minBody: 41, maxBody: 44, mixed: true, shape: "%{20:A-Za-z0-9}.{20:A-Za-z0-9}" },
  // Twitch's chat (IRC) password: `oauth:` and the 30-character access token (`PASS oauth:…`).
  { family: "twitch", rule: "twitch-token", prefixes: ["oauth:"], body: "a-z0-9", minBody: 30, maxBody: 30, mixed: "digit", keepPrefix: true, shape: "%{30:a-z0-9}" },
  // Formats first listed as context-only whose own prefix is distinctive enough alone.
  // Twitter's app-only bearer token: 21 `A`s, then letters, digits and percent escapes; a
  // run of capitals alone after them, or one after `+` or `/`, is base64 of zeros (a font's,
  // an image's, a search index's data).
  { family: "twitter", rule: "twitter-bearer-token", prefixes: ["AAAAAAAAAAAAAAAAAAAAA"], body: "A-Za-z0-9%", minBody: 40, maxBody: 200, needs: "a-z0-9%", notAfter: "+/", shape: "%{80:A-Za-z0-9}" },
  { family: "dropbox", rule: "dropbox-token", prefixes: ["sl."], body: URLSAFE, minBody: 100, mixed: true, shape: "%{135:A-Za-z0-9_-}" },
  { family: "airtable", rule: "airtable-token", prefixes: ["pat"], body: "A-Za-z0-9.", minBody: 70, mixed: true, shape: "%{14:A-Za-z0-9}.{64:a-f0-9}" },
  { family: "intercom", rule: "intercom-token", prefixes: ["dG9rOj"], body: B64, minBody: 40, shape: "%{54:A-Za-z0-9}=" },
  { family: "netlify", rule: "netlify-token", prefixes: ["nfp_"], body: B62, minBody: 32, shape: "%{36:A-Za-z0-9}" },
  { family: "lob", rule: "lob-key", prefixes: ["live_", "test_"], notAfter: "_", body: HEX, minBody: 32, shape: "%{35:a-f0-9}" },
  // Legacy Vault tokens: exactly 24 characters after `s.` (so `s.getElementsByTagName…` in
  // minified JavaScript, a longer run, is kept); batch tokens `b.AAAAAQ…`.
  { family: "vault", rule: "vault-token", prefixes: ["s."], body: B62, minBody: 24, maxBody: 24, mixed: "digit", shape: "%{24:A-Za-z0-9}" },
  // A Docker registry config in base64 ({"auths": / {"auth":"), as in k8s `.dockerconfigjson`.
  { family: "docker", rule: "docker-config", prefixes: ["eyJhdXRocyI6", "eyJhdXRoIjoi"], body: B64, minBody: 16, shape: "%{120:A-Za-z0-9+/}==" },
  // WooCommerce REST API keys: consumer key `ck_` and secret `cs_`, each 40 hex digits.
  { family: "woocommerce", rule: "woocommerce-key", prefixes: ["ck_", "cs_"], body: HEX, minBody: 32, maxBody: 64, mixed: "digit", shape: "%{40:a-f0-9}" },
  // Honeycomb ingest keys: the key id (`hc<letter>ik_`, the letter set at creation) and the
  // secret concatenated, 58 characters after the prefix.
  { family: "honeycomb", rule: "honeycomb-ingest-key", prefixes: [..."abcdefghijklmnopqrstuvwxyz"].map((x) => `hc${x}ik_`), body: B62, minBody: 50, maxBody: 64, mixed: "digit", shape: "%{58:a-z0-9}" },
  // Private Packagist authentication tokens: `packagist_`, the token type (`ort`, `out`,
  // `uut`, …) and `_`, 60 hex digits and an 8-digit CRC32.
  { family: "packagist", rule: "packagist-token", prefixes: ["packagist_"], body: "a-z0-9_", minBody: 64, maxBody: 80, mixed: "digit", shape: "%out_{68:a-f0-9}" },
  // Paddle Billing API keys: `pdl_live_apikey_` or `pdl_sdbx_apikey_`, a 26-character id,
  // `_` and the secret.
  { family: "paddle", rule: "paddle-api-key", prefixes: ["pdl_live_apikey_", "pdl_sdbx_apikey_"], body: URLSAFE, minBody: 40, maxBody: 96, mixed: "digit", shape: "%01{24:a-z0-9}_{27:A-Za-z0-9}" },
  // ClickUp personal API tokens: `pk_`, the user's number, `_` and 32 capitals and digits
  // (Stripe's publishable `pk_live_…` keys, small letters, are not this).
  { family: "clickup", rule: "clickup-token", prefixes: ["pk_"], body: "A-Z0-9_", minBody: 36, maxBody: 48, mixed: "digit", shape: "%{7:0-9}_{32:A-Z0-9}" },
  // Tencent Cloud's SecretId: `AKID` and 32 characters (its SecretKey has no prefix).
  { family: "tencent", rule: "tencent-secret-id", prefixes: ["AKID"], body: B62, minBody: 32, maxBody: 40, mixed: "digit", shape: "%{32:A-Za-z0-9}" },
  // A Zapier "Catch Hook" URL: whoever has it can trigger the Zap (the account and hook ids).
  { family: "zapier", rule: "zapier-webhook", boundary: false, prefixes: ["hooks.zapier.com/hooks/catch/"], body: "A-Za-z0-9/", minBody: 12, maxBody: 64, keepPrefix: true, shape: "https://%{7:0-9}/{7:a-z0-9}/" },
  // LaunchDarkly server-side SDK keys and API access tokens: `sdk-` or `api-` and a UUID
  // (mobile keys, `mob-`, are public).
  { family: "launchdarkly", rule: "launchdarkly-sdk-key", prefixes: ["sdk-"], body: "a-f0-9-", minBody: 36, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  { family: "launchdarkly", rule: "launchdarkly-access-token", prefixes: ["api-"], body: "a-f0-9-", minBody: 36, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // Keys as these vendors' dashboards issue them: Arcjet (`ajkey_`), Browserbase
  // (`bb_live_`, `bb_test_`), Cal.com (`cal_live_`, `cal_test_`), Cartesia (`sk_car_`).
  { family: "arcjet", rule: "arcjet-key", prefixes: ["ajkey_"], body: "a-z0-9", minBody: 24, maxBody: 40, mixed: "digit", shape: "%{26:a-z0-9}" },
  { family: "browserbase", rule: "browserbase-key", prefixes: ["bb_live_", "bb_test_"], body: URLSAFE, minBody: 24, maxBody: 48, mixed: true, shape: "%{27:A-Za-z0-9_-}" },
  { family: "calcom", rule: "calcom-key", prefixes: ["cal_live_", "cal_test_"], body: B62, minBody: 28, maxBody: 48, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "cartesia", rule: "cartesia-key", prefixes: ["sk_car_"], body: "A-Za-z0-9_", minBody: 20, maxBody: 64, mixed: true, shape: "%{22:A-Za-z0-9}" },
  // Apify API tokens: `apify_api_` and 36 letters and digits.
  { family: "apify", rule: "apify-token", prefixes: ["apify_api_"], body: B62, minBody: 30, maxBody: 40, mixed: true, shape: "%{36:A-Za-z0-9}" },
  // Mercado Pago's production access tokens: `APP_USR-`, the application's 16 digits, 6
  // digits, 32 hex digits and the user's 9 digits, joined by `-` (test tokens start `TEST-`,
  // a prefix ordinary text uses: not read).
  { family: "mercadopago", rule: "mercadopago-access-token", prefixes: ["APP_USR-"], body: "a-f0-9-", minBody: 60, maxBody: 70, mixed: "digit", shape: "%{16:0-9}-{6:0-9}-{32:a-f0-9}-{9:0-9}" },
  // PostHog personal API keys `phx_` (project keys, `phc_`, are public by design).
  { family: "posthog", rule: "posthog-personal-key", prefixes: ["phx_"], body: B62, minBody: 30, maxBody: 64, mixed: true, shape: "%{43:A-Za-z0-9}" },
  // PostHog's project secret keys `phs_` and its OAuth access and refresh tokens.
  { family: "posthog", rule: "posthog-secret-key", prefixes: ["phs_", "pha_", "phr_"], body: B62, minBody: 30, maxBody: 64, mixed: true, shape: "%{43:A-Za-z0-9}" },
  // ElevenLabs API keys: `sk_` and 48 hex digits.
  { family: "elevenlabs", rule: "elevenlabs-key", prefixes: ["sk_"], body: "a-f0-9", minBody: 48, maxBody: 48, shape: "%{48:a-f0-9}" },
  // Liveblocks secret keys.
  { family: "liveblocks", rule: "liveblocks-key", prefixes: ["sk_dev_", "sk_prod_"], body: URLSAFE, minBody: 40, maxBody: 128, mixed: true, shape: "%{64:A-Za-z0-9_-}" },
  // MongoDB Atlas service accounts' client secrets (the client id, `mdb_sa_id_`, is not secret).
  { family: "mongodb", rule: "mongodb-atlas-secret", prefixes: ["mdb_sa_sk_"], body: URLSAFE, minBody: 32, maxBody: 64, shape: "%{40:A-Za-z0-9_-}" },
  // PubNub publish keys, a UUID (its secret keys, `sec-c-`, below).
  { family: "pubnub", rule: "pubnub-publish-key", prefixes: ["pub-c-"], body: "a-f0-9-", minBody: 36, maxBody: 36, shape: `%${UUID}` },
  // MailerSend API tokens.
  { family: "mailersend", rule: "mailersend-token", prefixes: ["mlsn."], body: B62, minBody: 40, maxBody: 80, mixed: "digit", shape: "%{64:a-f0-9}" },
  // Midtrans server keys (sandbox and production; client keys, `…Mid-client-`, are public).
  { family: "midtrans", rule: "midtrans-key", prefixes: ["SB-Mid-server-", "Mid-server-"], body: URLSAFE, minBody: 16, maxBody: 64, shape: "%{24:A-Za-z0-9_-}" },
  // E2B API keys: `e2b_` and 40 hex digits.
  { family: "e2b", rule: "e2b-key", prefixes: ["e2b_"], body: "a-f0-9", minBody: 40, maxBody: 40, shape: "%{40:a-f0-9}" },
  // Elastic Cloud Serverless API keys: `essu_` and base64.
  { family: "elastic", rule: "elastic-api-key", prefixes: ["essu_"], body: B64, minBody: 40, maxBody: 256, mixed: true, shape: "%{88:A-Za-z0-9+/}==" },
  // Docker Swarm join tokens and unlock keys.
  { family: "docker", rule: "docker-swarm-token", prefixes: ["SWMTKN-1-"], body: "a-z0-9-", minBody: 60, maxBody: 80, shape: "%{50:a-z0-9}-{25:a-z0-9}" },
  { family: "docker", rule: "docker-swarm-token", prefixes: ["SWMKEY-1-"], body: "A-Za-z0-9+/", minBody: 40, maxBody: 64, mixed: true, shape: "%{43:A-Za-z0-9+/}" },
  // Infura project ids (the API key) in an endpoint's path.
  { family: "infura", rule: "infura-key", prefixes: ["infura.io/v3/", "infura.io/ws/v3/"], body: "a-f0-9", minBody: 32, maxBody: 32, keepPrefix: true, shape: "https://mainnet.%{32:a-f0-9}" },
  // Segment's public API tokens (Sourcegraph's `sgp_` tokens are hex, above).
  { family: "segment", rule: "segment-token", prefixes: ["sgp_"], body: B62, minBody: 60, maxBody: 72, mixed: true, shape: "%{64:A-Za-z0-9}" },
  // Voyage AI API keys.
  { family: "voyage", rule: "voyage-key", prefixes: ["pa-"], body: URLSAFE, minBody: 40, maxBody: 48, mixed: true, shape: "%{43:A-Za-z0-9_-}" },
  // SaladCloud, Samsara and Unkey API keys; Zuplo's (`zpka_`, 32 hex digits, `_`, 8 more).
  { family: "salad", rule: "saladcloud-key", prefixes: ["salad_cloud_user_"], body: B62, minBody: 40, maxBody: 64, mixed: true, shape: "%{49:A-Za-z0-9}" },
  { family: "samsara", rule: "samsara-token", prefixes: ["samsara_api_"], body: B62, minBody: 26, maxBody: 64, mixed: true, shape: "%{30:A-Za-z0-9}" },
  { family: "unkey", rule: "unkey-key", prefixes: ["unkey_"], body: B62, minBody: 20, maxBody: 64, mixed: true, shape: "%{24:A-Za-z0-9}" },
  { family: "zuplo", rule: "zuplo-key", prefixes: ["zpka_"], body: "a-f0-9_", minBody: 36, maxBody: 48, shape: "%{32:a-f0-9}_{8:a-f0-9}" },
  // Ubidots API tokens.
  { family: "ubidots", rule: "ubidots-token", prefixes: ["BBUS-", "BBFF-"], body: B62, minBody: 30, maxBody: 40, mixed: true, shape: "%{30:A-Za-z0-9}" },
  // ThingsBoard device access tokens, the path segment before a device API's endpoint
  // (`/api/v1/<token>/telemetry`): 20 letters and digits, the endpoint kept.
  { family: "thingsboard", rule: "thingsboard-token", prefixes: ["/telemetry", "/attributes"], lead: 20, body: B62, minBody: 0, maxBody: 0, keepPrefix: true, shape: "https://thingsboard.cloud/api/v1/{20:a-z0-9}%" },
  // More vendors' prefixed API keys and tokens: Lichess, Mem0, Mintlify, Open VSX, Polar's
  // access and refresh tokens, RunPod, Robinhood's crypto API (a UUID), Rootly, Voiceflow,
  // Xata, Xendit's secret keys, CockroachDB Cloud, Builder.io's private keys.
  { family: "lichess", rule: "lichess-token", prefixes: ["lip_"], body: "A-Za-z0-9_", minBody: 16, maxBody: 40, mixed: true, shape: "%{20:A-Za-z0-9}" },
  { family: "mem0", rule: "mem0-key", prefixes: ["m0-"], body: B62, minBody: 24, maxBody: 48, mixed: "digit", shape: "%{40:A-Za-z0-9}" },
  // Onfido (Entrust Identity Verification) API tokens: `api_live.` or `api_sandbox.`, with
  // the region in the prefix outside the EU (`api_live_us.`, `api_live_ca.`), then the token's
  // id, `.` and its secret.
  { family: "onfido", rule: "onfido-api-token", prefixes: ["api_live", "api_sandbox"].flatMap((p) => [`${p}.`, `${p}_us.`, `${p}_ca.`]), body: "A-Za-z0-9_.-", minBody: 32, maxBody: 96, mixed: true, shape: "%{11:A-Za-z0-9_-}.{32:A-Za-z0-9_-}" },
  // Kolide K2 API keys: `k2sk_v1_` and the key.
  { family: "kolide", rule: "kolide-api-key", prefixes: ["k2sk_v1_"], body: B62, minBody: 20, maxBody: 64, mixed: true, shape: "%{24:A-Za-z0-9}" },
  { family: "mintlify", rule: "mintlify-key", prefixes: ["mint_", "mint_dsc_"], body: B62, minBody: 20, maxBody: 48, mixed: "digit", shape: "%{24:A-Za-z0-9}" },
  { family: "openvsx", rule: "openvsx-token", prefixes: ["ovsxat_", "ovsxp_"], body: URLSAFE, minBody: 20, maxBody: 80, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "polar", rule: "polar-token", prefixes: ["polar_at_", "polar_oat_", "polar_rt_", "polar_pat_"], body: URLSAFE, minBody: 20, maxBody: 100, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "runpod", rule: "runpod-key", prefixes: ["rpa_"], body: B62, minBody: 28, maxBody: 48, mixed: true, shape: "%{30:A-Za-z0-9}" },
  { family: "robinhood", rule: "robinhood-key", prefixes: ["rh-api-"], body: "a-f0-9-", minBody: 36, maxBody: 36, shape: `%${UUID}` },
  { family: "rootly", rule: "rootly-key", prefixes: ["rootly_"], body: "a-f0-9", minBody: 64, maxBody: 64, shape: "%{64:a-f0-9}" },
  { family: "voiceflow", rule: "voiceflow-key", prefixes: ["VF.DM."], body: "A-Za-z0-9.", minBody: 36, maxBody: 48, shape: "%{24:a-f0-9}.{16:A-Za-z0-9}" },
  { family: "xata", rule: "xata-key", prefixes: ["xau_"], body: B62, minBody: 28, maxBody: 48, mixed: true, shape: "%{33:A-Za-z0-9}" },
  { family: "xendit", rule: "xendit-key", prefixes: ["xnd_production_", "xnd_development_"], body: URLSAFE, minBody: 30, maxBody: 64, shape: "%{48:A-Za-z0-9}" },
  { family: "cockroach", rule: "cockroachdb-key", prefixes: ["CCDB1_"], body: "A-Za-z0-9_", minBody: 50, maxBody: 80, mixed: true, shape: "%{22:A-Za-z0-9}_{40:A-Za-z0-9}" },
  { family: "builderio", rule: "builderio-private-key", prefixes: ["bpk-"], body: "a-f0-9", minBody: 32, maxBody: 32, shape: "%{32:a-f0-9}" },
  // BestTime's private API keys (its `pub_` keys are public).
  { family: "besttime", rule: "besttime-key", prefixes: ["pri_"], body: "a-f0-9", minBody: 32, maxBody: 32, shape: "%{32:a-f0-9}" },
  // Fireworks AI, Friendli, Fleetbase, Ionic, Dub, DryRun Security; Devin's API keys (base64
  // after `apk_` / `apk_user_`) and its `cog_` tokens (base32).
  { family: "fireworks", rule: "fireworks-key", prefixes: ["fw_"], body: B62, minBody: 20, maxBody: 48, mixed: true, shape: "%{24:A-Za-z0-9}" },
  { family: "friendli", rule: "friendli-token", prefixes: ["flp_"], body: B62, minBody: 40, maxBody: 64, mixed: true, shape: "%{46:A-Za-z0-9}" },
  { family: "fleetbase", rule: "fleetbase-key", prefixes: ["flb_live_", "flb_test_"], body: B62, minBody: 20, maxBody: 64, mixed: true, shape: "%{20:A-Za-z0-9}" },
  { family: "ionic", rule: "ionic-token", prefixes: ["ion_"], body: B62, minBody: 40, maxBody: 48, mixed: true, shape: "%{42:A-Za-z0-9}" },
  { family: "dub", rule: "dub-key", prefixes: ["dub_"], body: B62, minBody: 24, maxBody: 48, mixed: "digit", shape: "%{24:A-Za-z0-9}" },
  { family: "dryrun", rule: "dryrun-security-key", prefixes: ["dryrunsec_"], body: B62, minBody: 30, maxBody: 64, mixed: true, shape: "%{32:A-Za-z0-9}" },
  { family: "devin", rule: "devin-key", prefixes: ["apk_user_", "apk_"], body: B64, minBody: 80, maxBody: 256, mixed: true, shape: "%{92:A-Za-z0-9}" },
  { family: "devin", rule: "devin-key", prefixes: ["cog_"], body: "a-z2-7", minBody: 50, maxBody: 56, mixed: "digit", shape: "%{52:a-z2-7}" },
  // Kerberos AS-REP and TGS-REP hashes as roasting tools print them (hashcat's formats).
  { family: "kerberos", rule: "kerberos-hash", prefixes: ["$krb5asrep$", "$krb5tgs$"], body: "A-Za-z0-9$@.:_/*-", minBody: 64, maxBody: 4096, mixed: "digit", shape: "%23$user@example.com:{32:a-f0-9}${200:a-f0-9}" },
  // DeepL's free API keys (a UUID then `:fx`) and MaxMind's license keys (40 characters
  // ending in `_mmk`): tokens that end at their anchor, all their bytes held before it.
  { family: "deepl", rule: "deepl-key", prefixes: [":fx"], lead: 36, leadBody: "a-f0-9-", body: B62, minBody: 0, maxBody: 0, shape: `${UUID}%` },
  { family: "maxmind", rule: "maxmind-license-key", prefixes: ["_mmk"], lead: 36, leadBody: "A-Za-z0-9_", body: B62, minBody: 0, maxBody: 0, shape: "{6:A-Za-z0-9}_{29:A-Za-z0-9}%" },
  // HubSpot private app access tokens: `pat-`, the account's data centre (`na1`, `eu1`…), a UUID.
  { family: "hubspot", rule: "hubspot-token", prefixes: ["pat-na1-", "pat-na2-", "pat-eu1-", "pat-ap1-"], body: "a-f0-9-", minBody: 32, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // Firebase Cloud Messaging legacy server keys: `AAAA` and 7 characters (the lead), then
  // `:APA91b` and the secret.
  { family: "firebase", rule: "fcm-server-key", prefixes: [":APA91b"], lead: 11, leadBody: "A-Za-z0-9_-", body: URLSAFE, minBody: 100, maxBody: 200, shape: "AAAA{7:A-Za-z0-9_-}%{134:A-Za-z0-9_-}" },
  // Password hashes as web servers and frameworks store them: Django's
  // `pbkdf2_sha256$<iterations>$<salt>$<hash>`, LDAP's and htpasswd's `{SHA}` / `{SSHA}`.
  { family: "crypt", rule: "password-hash", prefixes: ["pbkdf2_sha256$", "pbkdf2_sha1$"], body: "A-Za-z0-9+/=$", minBody: 40, maxBody: 256, mixed: "digit", shape: "%600000$" + "{22:A-Za-z0-9}$" + "{43:A-Za-z0-9+/}=" },
  { family: "crypt", rule: "password-hash", prefixes: ["{SHA}", "{SSHA}", "{SHA256}", "{SSHA256}", "{SHA512}", "{SSHA512}"], body: B64, minBody: 24, maxBody: 256, mixed: true, shape: "%{27:A-Za-z0-9+/}=" },
  // Spring Security's DelegatingPasswordEncoder: `{noop}` marks a password stored as it is.
  { family: "spring", rule: "spring-noop-password", prefixes: ["{noop}"], body: "A-Za-z0-9!#$%&*+./:=?@^_~|-", minBody: 1, needs: "A-Za-z0-9", maxBody: 128, keepPrefix: true, shape: "%{9:A-Za-z0-9}!{4:A-Za-z0-9}" },
  // Azure Container Registry's access keys (passwords): 52 characters with `+ACR` at 43–46,
  // the 42 before it held back and redacted with it.
  { family: "azure", rule: "azure-container-registry-key", prefixes: ["+ACR"], lead: 42, leadBody: "A-Za-z0-9+/", body: B62, minBody: 6, maxBody: 6, mixed: true, shape: "{42:A-Za-z0-9}%{6:A-Za-z0-9}" },
  // Azure DevOps personal access tokens (the format since 2024): 84 characters, the fixed
  // signature `AZDO` at positions 77–80 (Microsoft Purview's definition); the older 52
  // characters of base32 have no signature (caught next to the names only).
  { family: "azure", rule: "azure-devops-token", prefixes: ["AZDO"], lead: 76, body: B62, minBody: 4, maxBody: 4, shape: "{76:A-Za-z0-9}%{4:A-Za-z0-9}" },
  // Microsoft's common annotated security keys (Azure DevOps, Cognitive Services and later
  // services): 84 characters with the fixed `JQQJ` at positions 53–56.
  { family: "azure", rule: "azure-annotated-key", prefixes: ["JQQJ"], lead: 52, body: B62, minBody: 28, maxBody: 28, shape: "{52:A-Za-z0-9}%{28:A-Za-z0-9}" },
  // Azure Storage and Cosmos DB account keys in the identifiable format: 88 characters of
  // base64, the signature `+ASt` / `ACDb` at positions 77–80, then 6 characters and `==`.
  { family: "azure", rule: "azure-access-key", prefixes: ["+ASt", "ACDb"], lead: 76, leadBody: "A-Za-z0-9+/", body: B64, minBody: 6, maxBody: 8, shape: "{76:A-Za-z0-9+/}%{6:A-Za-z0-9}==" },
  // Maven's encrypted master password (`settings-security.xml`), braces and all.
  { family: "maven", rule: "maven-master-password", prefixes: ["<master>"], body: "A-Za-z0-9+/={}", innerEquals: true, needs: "{", minBody: 24, maxBody: 256, keepPrefix: true, shape: "%{1:{}{43:A-Za-z0-9+/}=}</master>" },
  // Laravel's application key, as `php artisan key:generate` writes it to `.env`: 32 random
  // bytes in base64 after `base64:` (the name stays).
  { family: "laravel", rule: "laravel-app-key", prefixes: ["APP_KEY=base64:"], body: B64, minBody: 40, maxBody: 64, keepPrefix: true, shape: "%{43:A-Za-z0-9+/}=" },
  // NVIDIA's personal API keys (NGC, the API catalog): `nvapi-` and 64 URL-safe characters.
  { family: "nvidia", rule: "nvidia-api-key", prefixes: ["nvapi-"], body: URLSAFE, minBody: 40, maxBody: 128, mixed: true, shape: "nvapi-{64:A-Za-z0-9_-}" },
  // Amazon MWS authorization tokens: `amzn.mws.` and a UUID (the MWS developer guide's form).
  { family: "aws", rule: "amazon-mws-token", prefixes: ["amzn.mws."], body: "a-f0-9-", minBody: 32, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // Pinecone API keys (`pcsk_`, a short id, `_`, the secret) and Pinterest's OAuth access
  // and refresh tokens (`pina_`, `pinr_`).
  { family: "pinecone", rule: "pinecone-key", prefixes: ["pcsk_"], body: "A-Za-z0-9_", minBody: 40, maxBody: 96, mixed: "digit", shape: "%{5:A-Za-z0-9}_{63:A-Za-z0-9}" },
  { family: "pinterest", rule: "pinterest-token", prefixes: ["pina_", "pinr_"], body: B62, minBody: 40, maxBody: 256, mixed: "digit", shape: "%{64:A-Za-z0-9}" },
  // Instagram's user access tokens (the Basic Display API's `IGQVJ…`, Instagram Login's
  // `IGAA…`): long URL-safe strings.
  { family: "instagram", rule: "instagram-token", prefixes: ["IGQVJ", "IGAA"], body: URLSAFE, minBody: 100, maxBody: 400, mixed: "digit", shape: "%{160:A-Za-z0-9_-}" },
  // OneSignal's REST API keys (`os_v2_app_`, `os_v2_org_` and lowercase base32).
  { family: "onesignal", rule: "onesignal-key", prefixes: ["os_v2_app_", "os_v2_org_"], body: "a-z2-7", minBody: 60, maxBody: 256, mixed: "digit", shape: "%{113:a-z2-7}" },
  // Scaleway's access keys: `SCW` and 17 capitals and digits (the secret key is a UUID).
  { family: "scaleway", rule: "scaleway-access-key", prefixes: ["SCW"], body: "A-Z0-9", minBody: 17, maxBody: 17, mixed: "digit", shape: "%{17:A-Z0-9}" },
  // Cerebras' and Anyscale's API keys.
  { family: "cerebras", rule: "cerebras-key", prefixes: ["csk-"], body: "a-z0-9", minBody: 40, maxBody: 64, mixed: "digit", shape: "%{48:a-z0-9}" },
  { family: "anyscale", rule: "anyscale-key", prefixes: ["esecret_"], body: "a-z0-9", minBody: 24, maxBody: 64, mixed: "digit", shape: "%{30:a-z0-9}" },
  // PASETO tokens (`v4.local.` encrypted, `v4.public.` signed; the footer after a `.`):
  // bearer tokens as JWTs are.
  { family: "paseto", rule: "paseto-token", prefixes: ["v1.local.", "v2.local.", "v3.local.", "v4.local.", "v1.public.", "v2.public.", "v3.public.", "v4.public."], body: "A-Za-z0-9_.-", minBody: 40, maxBody: 4096, mixed: true, shape: "%{120:A-Za-z0-9_-}" },
  // Akamai EdgeGrid client and access tokens: `akab-`, 16 characters, `-`, 16 characters.
  { family: "akamai", rule: "akamai-token", prefixes: ["akab-"], body: "a-z0-9-", minBody: 33, maxBody: 33, mixed: "digit", shape: "%{16:a-z0-9}-{16:a-z0-9}" },
  // A Cloudflare Tunnel token (`cloudflared tunnel token`): base64 of `{"a":…,"t":…,"s":…}`.
  { family: "cloudflare", rule: "cloudflare-tunnel-token", prefixes: ["eyJhIjoi"], body: B64, minBody: 60, maxBody: 400, shape: "%{150:A-Za-z0-9}=" },
  // Braintree (PayPal) access tokens: `access_token$<environment>$<merchant id>$<32 hex>`.
  { family: "braintree", rule: "braintree-access-token", prefixes: ["access_token$production$", "access_token$sandbox$"], body: "a-z0-9$", minBody: 40, maxBody: 64, mixed: "digit", shape: "%{16:a-z0-9}$" + "{32:a-f0-9}" },
  // Anaconda's channel tokens, in the URL path as conda's documentation writes them
  // (`https://conda.anaconda.org/t/<token>/<channel>`); the host stays.
  // Make's MCP server token, in its URL's path (`https://<zone>.make.com/mcp/api/v1/u/<token>/sse`,
  // as Make's documentation writes it); the host and the path stay.
  { family: "make", rule: "make-mcp-token", boundary: false, prefixes: [".make.com/mcp/api/v1/u/"], body: "a-f0-9-", minBody: 36, maxBody: 36, mixed: "digit", keepPrefix: true, shape: `https://us2%${UUID}/sse` },
  { family: "anaconda", rule: "anaconda-token", prefixes: ["anaconda.org/t/", "anaconda.cloud/t/"], body: URLSAFE, minBody: 16, maxBody: 128, mixed: "digit", keepPrefix: true, shape: "https://conda.%{30:a-z0-9-}/channel" },
  // Jenkins' stored secrets (`credentials.xml`, `config.xml`, `Secret.toString()`): `{`, then
  // base64 of the version byte 1, the IV's length (16) and the data's as 4-byte integers
  // (`AQAAABAA` while the data is under 16 MiB), the IV and the encrypted data, then `}`.
  { family: "jenkins", rule: "jenkins-secret", prefixes: ["{AQAAABAA"], body: B64, minBody: 40, maxBody: 4000, shape: "%AA{2:A-Za-z0-9}{64:A-Za-z0-9+/}" },
  // Salesforce's session ids and OAuth access tokens: the org's id (`00D` and 12 or 15
  // characters), `!`, then the session's part.
  { family: "salesforce", rule: "salesforce-session", prefixes: ["00D"], body: "A-Za-z0-9!._", minBody: 90, maxBody: 160, needs: "!", shape: "00D{12:A-Za-z0-9}!AQ{94:A-Za-z0-9._}" },
  // Riot Games' developer API keys: `RGAPI-` and a UUID.
  { family: "riot", rule: "riot-api-key", prefixes: ["RGAPI-"], body: "a-f0-9-", minBody: 32, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // Scaleway's access key ids: `SCW` and 17 capitals and digits (the secret key is a UUID).
  { family: "scaleway", rule: "scaleway-access-key", prefixes: ["SCW"], body: "A-Z0-9", minBody: 17, maxBody: 17, mixed: "digit", shape: "%{17:A-Z0-9}" },
  // PubNub's secret keys (`sec-c-`; the publish and subscribe keys, `pub-c-`, `sub-c-`, are public).
  { family: "pubnub", rule: "pubnub-secret-key", prefixes: ["sec-c-"], body: B64, minBody: 32, maxBody: 64, mixed: "digit", shape: "%{48:A-Za-z0-9}" },
  // Trigger.dev's secret keys, one per environment (`tr_dev_`, `tr_stg_`, `tr_prod_`), and
  // its personal access tokens (`tr_pat_`).
  { family: "trigger", rule: "trigger-secret-key", prefixes: ["tr_dev_", "tr_stg_", "tr_prod_", "tr_pat_"], body: B62, minBody: 20, maxBody: 64, mixed: true, shape: "%{20:A-Za-z0-9}" },
  // Inngest's signing keys: `signkey-<environment>-` and 64 hex digits.
  { family: "inngest", rule: "inngest-signing-key", prefixes: ["signkey-prod-", "signkey-test-", "signkey-branch-"], body: "a-f0-9", minBody: 32, maxBody: 128, mixed: "digit", shape: "%{64:a-f0-9}" },
  // Axiom's API tokens (`xaat-`) and personal access tokens (`xapt-`): a UUID after each.
  { family: "axiom", rule: "axiom-token", prefixes: ["xaat-", "xapt-"], body: "a-f0-9-", minBody: 32, maxBody: 36, mixed: "digit", shape: `%${UUID}` },
  // Deno Deploy personal (`ddp_`) and organization (`ddo_`) access tokens.
  { family: "deno", rule: "deno-deploy-token", prefixes: ["ddp_", "ddo_"], body: B62, minBody: 30, maxBody: 48, mixed: "digit", shape: "%{36:A-Za-z0-9}" },
  // K3s' cluster tokens, as `k3s token create` and the server's token file give them:
  // `K10`, the cluster CA's SHA-256 in hex, `::`, the user (`server`, `node`), `:`, the password.
  { family: "k3s", rule: "k3s-token", prefixes: ["K10"], body: "A-Za-z0-9:._-", minBody: 70, maxBody: 256, needs: ":", shape: "%{64:a-f0-9}::server:{32:a-f0-9}" },
  // Mattermost's incoming webhooks: `/hooks/` and the hook's key, 26 small letters and digits
  // (a letter among them: GitHub's `/hooks/<id>` is a number).
  { family: "mattermost", rule: "mattermost-webhook", boundary: false, prefixes: ["/hooks/"], body: "a-z0-9", minBody: 26, maxBody: 26, needs: "a-z", keepPrefix: true, shape: "https://chat.example.com%{26:a-z0-9}" },
  // A value a GitHub Actions step asks the runner to mask (`echo "::add-mask::$X"` traced by
  // `set -x`, or run outside a runner): the workflow command names it a secret.
  { family: "github", rule: "github-actions-mask", boundary: false, prefixes: ["::add-mask::"], body: "A-Za-z0-9_.~+/=-", minBody: 8, maxBody: 1024, keepPrefix: true, shape: "%{40:A-Za-z0-9_-}" },
  // A session's id in a URL (whoever holds it is logged in): Java servlets' `;jsessionid=`
  // (URL rewriting, Tomcat's 32 hex digits, Jetty's `node0…`), PHP's `PHPSESSID`, a
  // `sessionid` parameter, and VS Code's connection token (`code serve-web` prints its URL,
  // `…?tkn=<uuid>`).
  { family: "url-query", rule: "url-query-key", boundary: false, prefixes: [";jsessionid=", ";JSESSIONID=", "?PHPSESSID=", "&PHPSESSID=", "?sessionid=", "&sessionid=", "?session_id=", "&session_id=", "?tkn=", "&tkn="], body: "A-Za-z0-9_.-", minBody: 16, maxBody: 128, mixed: "digit", keepPrefix: true, shape: "https://shop.example.com/cart%{32:A-F0-9}" },
  { family: "url-query", rule: "url-query-key", boundary: false, prefixes: ["?key=", "&key=", "?sig=", "&sig=", "?apiKey=", "&apiKey=", "?code=", "&code=", "?X-Amz-Signature=", "&X-Amz-Signature=", "?X-Goog-Signature=", "&X-Goog-Signature=", "?Signature=", "&Signature=", "?signature=", "&signature=", "?auth=", "&auth="], formText: true, body: "A-Za-z0-9_.~%+/=-", minBody: 16, mixed: true, keepPrefix: true, shape: "https://api.example.com/v1?%{39:A-Za-z0-9_-}" },
  // Amazon ECR's registry password (`aws ecr get-login-password`; after `AWS:` in
  // `get-authorization-token`'s token, base64 again): base64 of a JSON document that
  // opens `{"payload":"`, thousands of characters.
  { family: "aws", rule: "aws-ecr-token", prefixes: ["eyJwYXlsb2FkIjoi", "QVdTOmV5SndZWGxzYjJGa0lqb2"], body: B64, minBody: 100, maxBody: 4080, shape: "%{600:A-Za-z0-9+/}" },
  // More password hashes, in their documented forms: PostgreSQL's stored verifiers
  // (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, and `md5` with 32 hex digits
  // before it), Werkzeug's (`pbkdf2:sha256:600000$<salt>$<hex>`, `scrypt:32768:8:1$…`), and a
  // Windows account's NT hash after the empty LM hash in a pwdump line (`user:rid:LM:NT:::`;
  // the LM constant stays).
  { family: "crypt", rule: "password-hash", innerEquals: true, prefixes: ["SCRAM-SHA-256$", "SCRAM-SHA-1$"], body: "A-Za-z0-9+/=:$", minBody: 60, maxBody: 256, needs: ":", shape: "%4096:{24:A-Za-z0-9+/}$" + "{44:A-Za-z0-9+/}:{44:A-Za-z0-9+/}" },
  { family: "crypt", rule: "password-hash", prefixes: ["md5"], body: "a-f0-9", minBody: 32, maxBody: 32, mixed: "digit", shape: "%{32:a-f0-9}" },
  { family: "crypt", rule: "password-hash", prefixes: ["pbkdf2:sha256:", "pbkdf2:sha512:", "scrypt:"], body: "A-Za-z0-9:$", minBody: 60, maxBody: 256, needs: "$", shape: "%600000$" + "{16:A-Za-z0-9}$" + "{64:a-f0-9}" },
  // OpenWeather's key as its API takes it (`…/weather?q=London&appid=<32 hex digits>`).
  { family: "openweather", rule: "url-query-key", boundary: false, prefixes: ["?appid=", "&appid="], body: "a-f0-9", minBody: 32, maxBody: 32, mixed: "digit", keepPrefix: true, shape: "https://api.openweathermap.org/data/2.5/weather?q=London%{32:a-f0-9}" },
  { family: "windows", rule: "ntlm-hash", boundary: false, prefixes: [":aad3b435b51404eeaad3b435b51404ee:", ":AAD3B435B51404EEAAD3B435B51404EE:"], body: "A-Fa-f0-9", minBody: 32, maxBody: 32, keepPrefix: true, shape: "Administrator:500%{32:a-f0-9}:::" },
  // The passwords Aiven's managed databases generate for their users (`avnadmin`), as its
  // console and `avn service user-get` show them (DigitalOcean's managed databases too).
  { family: "aiven", rule: "aiven-password", prefixes: ["AVNS_"], body: URLSAFE, minBody: 8, maxBody: 64, mixed: true, shape: "%{19:A-Za-z0-9_-}" },
  // Azure Data Factory's self-hosted integration runtime keys, as the portal shows them:
  // `IR@`, the runtime's GUID, the factory's name, the region's code and a base64 key,
  // joined by `@`.
  { family: "azure", rule: "azure-data-factory-key", prefixes: ["IR@"], body: "A-Za-z0-9@+/=_.-", needs: "@", minBody: 80, maxBody: 200, shape: `%${UUID}@{12:a-z0-9-}@{2:a-z}@{43:A-Za-z0-9+/}=` },
  // minisign's and signify's secret keys (the line after `untrusted comment: … secret key`):
  // base64 of `Ed`, the key derivation's id (`Sc`, scrypt; none) and the checksum's (`B2`),
  // or signify's `EdBK`; a public key's id follows `Ed` instead.
  { family: "minisign", rule: "minisign-secret-key", prefixes: ["RWRTY0Iy", "RWQAAEIy", "RWRCSw"], body: "A-Za-z0-9+/=", minBody: 100, maxBody: 220, shape: "%{200:A-Za-z0-9+/}" },
  // BIP 32 extended private keys (and SLIP 132's prefixes for other address types): Base58Check
  // of 78 bytes, 111 characters; the `xpub` family is public.
  { family: "bip32", rule: "bip32-private-key", prefixes: ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"], body: "1-9A-HJ-NP-Za-km-z", minBody: 100, maxBody: 108, shape: "%{107:1-9A-HJ-NP-Za-km-z}" },
  // libxcrypt's gost-yescrypt, as `$y$` is read; Django's hashers named before their own
  // format (`bcrypt_sha256$$2b$…`, `argon2$argon2id$…`), as its `pbkdf2_sha256$` is.
  { family: "crypt", rule: "password-hash", innerEquals: true, prefixes: ["$gy$"], body: "./A-Za-z0-9$=", minBody: 20, maxBody: 256, shape: "%j9T$" + "{22:./A-Za-z0-9}$" + "{43:./A-Za-z0-9}" },
  { family: "crypt", rule: "password-hash", innerEquals: true, prefixes: ["bcrypt_sha256$", "bcrypt$", "argon2$"], body: "A-Za-z0-9+/=$.,-", minBody: 40, maxBody: 512, needs: "$", shape: "%$2b$12$" + "{53:./A-Za-z0-9}" },
];

/** Formats told apart only by the vendor's name nearby. */
// biome-ignore format: one provider per line
/**
 * Formats told apart only by the vendor's name nearby (`HEROKU_API_KEY=…`): caught by the
 * sensitive-assignment rules.
 *
 * @category redaction
 * @example
 * ```ts
 * import { CONTEXT_PROVIDERS } from "@spool/transforms";
 * CONTEXT_PROVIDERS.map((p) => p.family); // ["aws", "npm", "heroku", …]
 * ```
 */
export const CONTEXT_PROVIDERS: readonly ContextProvider[] = [
  { family: "aws", names: ["aws"], shape: "{40:A-Za-z0-9+/}" },
  { family: "npm", names: ["npm"], shape: "{8:a-f0-9}-{4:a-f0-9}-4{3:a-f0-9}-a{3:a-f0-9}-{12:a-f0-9}" },
  { family: "heroku", names: ["heroku"], shape: "{8:a-f0-9}-{4:a-f0-9}-4{3:a-f0-9}-b{3:a-f0-9}-{12:a-f0-9}" },
  { family: "datadog", names: ["datadog", "dd_api", "dd_app"], shape: "{40:a-f0-9}" },
  { family: "cloudflare", names: ["cloudflare", "cf_api"], shape: "{40:A-Za-z0-9_-}" },
  { family: "twilio", names: ["twilio"], shape: "{32:a-f0-9}" },
  { family: "mailchimp", names: ["mailchimp"], shape: "{32:a-f0-9}-us{2:1-9}" },
  { family: "okta", names: ["okta"], shape: "00{40:A-Za-z0-9_-}" },
  { family: "algolia", names: ["algolia"], shape: "{32:a-f0-9}" },
  { family: "asana", names: ["asana"], shape: "1/{16:0-9}:{32:a-f0-9}" },
  { family: "azure", names: ["azure", "az_"], shape: "{52:a-z2-7}" },
  { family: "snyk", names: ["snyk"], shape: "{8:a-f0-9}-{4:a-f0-9}-4{3:a-f0-9}-8{3:a-f0-9}-{12:a-f0-9}" },
  { family: "sumologic", names: ["sumo"], shape: "{64:A-Za-z0-9}" },
  { family: "travis", names: ["travis"], shape: "{22:A-Za-z0-9}" },
  { family: "trello", names: ["trello"], shape: "{64:a-f0-9}" },
  { family: "zendesk", names: ["zendesk"], shape: "{40:A-Za-z0-9}" },
  { family: "pagerduty", names: ["pagerduty"], shape: "u+{18:A-Za-z0-9_-}" },
  { family: "segment", names: ["segment"], shape: "{32:A-Za-z0-9}" },
  { family: "intercom", names: ["intercom"], shape: "dG9rOj{54:A-Za-z0-9}=" },
  { family: "discord", names: ["discord"], shape: "M{23:A-Za-z0-9}.{6:A-Za-z0-9_-}.{27:A-Za-z0-9_-}" },
  { family: "telegram", names: ["telegram", "tg_bot"], shape: "{10:0-9}:AA{33:A-Za-z0-9_-}" },
  { family: "twitter", names: ["twitter"], shape: "AAAAAAAAAAAAAAAAAAAAA{80:A-Za-z0-9%}" },
  { family: "facebook", names: ["facebook", "fb_"], shape: "{32:a-f0-9}" },
  { family: "linkedin", names: ["linkedin"], shape: "{16:A-Za-z0-9}" },
  { family: "dropbox", names: ["dropbox"], shape: "sl.{135:A-Za-z0-9_-}" },
  { family: "codecov", names: ["codecov"], shape: "{8:a-f0-9}-{4:a-f0-9}-4{3:a-f0-9}-9{3:a-f0-9}-{12:a-f0-9}" },
  { family: "confluent", names: ["confluent"], shape: "{64:A-Za-z0-9+/}" },
  { family: "sentry", names: ["sentry"], shape: "{64:a-f0-9}" },
  { family: "openai", names: ["openai"], shape: "{48:A-Za-z0-9}" },
  { family: "cohere", names: ["cohere"], shape: "{40:A-Za-z0-9}" },
  { family: "airtable", names: ["airtable"], shape: "pat{14:A-Za-z0-9}.{64:a-f0-9}" },
  { family: "netlify", names: ["netlify"], shape: "nfp_{36:A-Za-z0-9}" },
  { family: "vault", names: ["vault"], shape: "s.{24:A-Za-z0-9}" },
  { family: "hashicorp", names: ["terraform", "atlas"], shape: "{14:a-z0-9}.atlasv1.{67:a-z0-9_=-}" },
  { family: "gitter", names: ["gitter"], shape: "{40:a-f0-9}" },
  { family: "kraken", names: ["kraken"], shape: "{86:A-Za-z0-9+/}==" },
  { family: "finnhub", names: ["finnhub"], shape: "{20:a-z0-9}" },
  { family: "etsy", names: ["etsy"], shape: "{24:a-z0-9}" },
  { family: "freshbooks", names: ["freshbooks"], shape: "{64:a-z0-9}" },
  { family: "lob", names: ["lob_"], shape: "live_{35:a-f0-9}" },
  { family: "mattermost", names: ["mattermost"], shape: "{26:a-z0-9}" },
  { family: "messagebird", names: ["messagebird"], shape: "{25:A-Za-z0-9}" },
  { family: "bittrex", names: ["bittrex"], shape: "{32:a-f0-9}" },
  { family: "beamer", names: ["beamer"], shape: "b_{44:A-Za-z0-9=_-}" },
  { family: "rapidapi", names: ["rapidapi"], shape: "{50:A-Za-z0-9_-}" },
  { family: "zoom", names: ["zoom"], shape: "{32:A-Za-z0-9}" },
  { family: "sonarqube", names: ["sonar"], shape: "{40:a-f0-9}" },
  { family: "hubspot", names: ["hubspot"], shape: UUID },
  { family: "jfrog", names: ["jfrog", "artifactory"], shape: "{64:a-z0-9}" },
  // Sidekiq Enterprise's gem server credentials (`BUNDLE_ENTERPRISE__CONTRIBSYS__COM=…`).
  { family: "sidekiq", names: ["contribsys"], shape: "{8:a-f0-9}:{8:a-f0-9}" },
  // Services whose keys have no prefix of their own (a UUID, hex digits, a random string),
  // as their dashboards and SDK documentation show them: caught next to the name only. Names
  // whose first four bytes start common words (`post`, `push`, `stat`, `logg`, `send`, `roll`)
  // are left out: every such word would stop the scan.
  { family: "mailjet", names: ["mailjet"], shape: "{32:a-f0-9}" },
  { family: "mixpanel", names: ["mixpanel"], shape: "{32:a-f0-9}" },
  { family: "bugsnag", names: ["bugsnag"], shape: "{32:a-f0-9}" },
  { family: "airbrake", names: ["airbrake"], shape: "{32:a-f0-9}" },
  { family: "sparkpost", names: ["sparkpost"], shape: "{40:a-f0-9}" },
  { family: "opsgenie", names: ["opsgenie"], shape: UUID },
  { family: "saucelabs", names: ["saucelabs"], shape: UUID },
  { family: "codeclimate", names: ["codeclimate"], shape: "{64:a-f0-9}" },
  { family: "bitly", names: ["bitly"], shape: "{40:a-f0-9}" },
  { family: "deepl", names: ["deepl"], shape: `${UUID}:fx` },
  { family: "openweather", names: ["openweather", "owm_"], shape: "{32:a-f0-9}" },
  { family: "freshdesk", names: ["freshdesk"], shape: "{20:A-Za-z0-9}" },
  { family: "spotify", names: ["spotify"], shape: "{32:a-f0-9}" },
  { family: "twitch", names: ["twitch"], shape: "{30:a-z0-9}" },
  { family: "giphy", names: ["giphy"], shape: "{32:A-Za-z0-9}" },
  { family: "unsplash", names: ["unsplash"], shape: "{43:A-Za-z0-9_-}" },
  { family: "cloudinary", names: ["cloudinary"], shape: "{27:A-Za-z0-9_-}" },
  { family: "mistral", names: ["mistral"], shape: "{32:A-Za-z0-9}" },
  { family: "deepgram", names: ["deepgram"], shape: "{40:a-f0-9}" },
  { family: "wandb", names: ["wandb"], shape: "{40:a-f0-9}" },
  { family: "elevenlabs", names: ["elevenlabs", "xi_api"], shape: "{32:a-f0-9}" },
  { family: "postmark", names: ["postmark"], shape: UUID },
  { family: "pinecone", names: ["pinecone"], shape: UUID },
  { family: "papertrail", names: ["papertrail"], shape: "{20:A-Za-z0-9}" },
  { family: "mezmo", names: ["logdna", "mezmo"], shape: "{32:a-f0-9}" },
  { family: "splunk", names: ["splunk"], shape: UUID },
  { family: "coralogix", names: ["coralogix"], shape: UUID },
  { family: "newrelic", names: ["newrelic", "relic"], shape: "{36:a-f0-9}NRAL" },
  { family: "bigcommerce", names: ["bigcommerce"], shape: "{31:a-z0-9}" },
  { family: "braintree", names: ["braintree"], shape: "{32:a-f0-9}" },
  { family: "razorpay", names: ["razorpay"], shape: "{24:A-Za-z0-9}" },
  { family: "alpaca", names: ["alpaca"], shape: "{40:A-Za-z0-9}" },
  { family: "auth0", names: ["auth0"], shape: "{64:A-Za-z0-9_-}" },
  { family: "contentful", names: ["contentful"], shape: "{43:A-Za-z0-9_-}" },
  { family: "vonage", names: ["vonage", "nexmo"], shape: "{16:A-Za-z0-9}" },
  { family: "plivo", names: ["plivo"], shape: "{40:A-Za-z0-9}" },
  { family: "sourcegraph", names: ["sourcegraph"], shape: "{40:a-f0-9}" },
];
