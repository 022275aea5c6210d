/**
 * The built-in credential rules, in tie-break order (a span claimed by two rules from the
 * same byte is named after the one listed first). Each has a name, a bounded hold
 * (`maxLength`) and its own tests in `test/builtin-rules.test.ts`.
 *
 * @example
 * ```ts
 * import { BUILTIN_RULES } from "@spool/transforms";
 * BUILTIN_RULES.map((rule) => rule.name); // ["pem-private-key", "jwt", "aws-access-key-id", …]
 * ```
 */
import type { RedactionRule } from "./rule.js";
import { ANSIBLE_VAULT_RULE } from "./rules/ansible-vault.js";
import { AUTHORIZATION_HEADER_RULE } from "./rules/authorization-header.js";
import { AWS_CREDENTIAL_ROW_RULE } from "./rules/aws-credential-row.js";
import { AZURE_ACCOUNT_KEY_RULE } from "./rules/azure-account-key.js";
import { AZURE_KEY_LIST_RULE } from "./rules/azure-key-list.js";
import { BASIC_AUTH_FLAG_RULE } from "./rules/basic-auth-flag.js";
import { BEARER_TOKEN_RULE } from "./rules/bearer-token.js";
import { BUNDLER_CREDENTIAL_RULE } from "./rules/bundler-credential.js";
import { COMMAND_FLAG_RULE } from "./rules/command-line.js";
import { COOKIE_HEADER_RULE } from "./rules/cookie-header.js";
import { CREDENTIAL_CALL_RULE } from "./rules/credential-call.js";
import { DISCORD_TOKEN_RULE } from "./rules/discord-token.js";
import {
  ENCODED_ASSIGNMENT_RULE,
  ESCAPED_QUOTE_ASSIGNMENT_RULE,
} from "./rules/encoded-assignment.js";
import { GO_MYSQL_DSN_RULE } from "./rules/go-mysql-dsn.js";
import { GOOGLE_CLIENT_ID_RULE } from "./rules/google-client-id.js";
import { HYPHEN_JOINED_RULE } from "./rules/hyphen-joined.js";
import { DOCKER_AUTH_RULE, JWK_PRIVATE_KEY_RULE } from "./rules/json-member.js";
import { JSON_SECRET_DATA_RULE } from "./rules/json-secret-data.js";
import { JWT_RULE } from "./rules/jwt.js";
import { KEY_VAULT_SECRET_RULE, SECRET_MANAGER_RULE } from "./rules/key-vault-secret.js";
import { NETWORK_CONFIG_RULE } from "./rules/network-config.js";
import { OPENSSL_KEY_TEXT_RULE } from "./rules/openssl-key-text.js";
import { ORACLE_THIN_RULE } from "./rules/oracle-thin.js";
import { PEM_PRIVATE_KEY_RULE, PUTTY_PRIVATE_KEY_RULE } from "./rules/pem-private-key.js";
import { PGPASS_RULE } from "./rules/pgpass.js";
import { PIPED_PASSWORD_RULE } from "./rules/piped-password.js";
import {
  ELASTIC_PASSWORD_RULE,
  JENKINS_PASSWORD_RULE,
  MYSQL_PASSWORD_RULE,
  WIFI_KEY_RULE,
} from "./rules/printed-password.js";
import { PRIVATE_KEY_BODY_RULE } from "./rules/private-key-body.js";
import { REDIS_AUTH_RULE } from "./rules/redis-auth.js";
import { REDIS_CONFIG_RULE } from "./rules/redis-config.js";
import { REVERSED_COMPARISON_RULE } from "./rules/reversed-comparison.js";
import { SASL_PLAIN_RULE } from "./rules/sasl-plain.js";
import { SECRET_DATA_BLOCK_RULE } from "./rules/secret-data-block.js";
import { SECRET_ELEMENT_RULE } from "./rules/secret-element.js";
import {
  API_SUFFIX_RULE,
  AWS_SECRET_ASSIGNMENT_RULE,
  CAMEL_PAT_RULE,
  CAMEL_SHORT_KEYWORD_RULE,
  CC_TEST_REPORTER_RULE,
  GLUED_SHORT_KEYWORD_RULE,
  PAT_ASSIGNMENT_RULE,
  QUALIFIED_KEY_ASSIGNMENT_RULES,
  SENSITIVE_ASSIGNMENT_RULE,
  SHORT_KEYWORD_ASSIGNMENT_RULE,
  SONAR_LOGIN_RULE,
  VENDOR_ASSIGNMENT_RULE,
} from "./rules/sensitive-assignment.js";
import { SENSITIVE_OUTPUT_RULE } from "./rules/sensitive-output.js";
import { SQL_PASSWORD_RULE } from "./rules/sql-password.js";
import { TERRAFORM_VARIABLE_RULE } from "./rules/terraform-variable.js";
import { TLS_KEY_LOG_RULE } from "./rules/tls-key-log.js";
import { URL_USERINFO_RULE } from "./rules/url-userinfo.js";
import { USERNAME_KEY_RULE } from "./rules/username-key.js";
import { VALUE_FIRST_ATTRIBUTE_RULE } from "./rules/value-first-attribute.js";
import { VAULT_UNSEAL_KEY_RULE } from "./rules/vault-init.js";
import { VAULT_KV_DATA_RULE } from "./rules/vault-kv-data.js";
import { VAULT_KV_JSON_RULE } from "./rules/vault-kv-json.js";
import { VENDOR_TOKEN_RULES } from "./rules/vendor-tokens.js";
import { WORDPRESS_SALT_RULE } from "./rules/wordpress-salt.js";

/**
 * The credential rules a redactor applies unless `builtins: false`: private keys, JWTs,
 * vendor tokens, authorization headers, URL user-info and sensitive assignments. Read
 * them to see what is covered; pass your own through `rules`.
 *
 * @category redaction
 * @example
 * ```ts
 * import { BUILTIN_RULES } from "@spool/transforms";
 * console.log(BUILTIN_RULES.map((rule) => rule.name).join(", "));
 * ```
 */
export const BUILTIN_RULES: readonly RedactionRule[] = Object.freeze([
  PEM_PRIVATE_KEY_RULE,
  PUTTY_PRIVATE_KEY_RULE,
  PRIVATE_KEY_BODY_RULE,
  TLS_KEY_LOG_RULE,
  OPENSSL_KEY_TEXT_RULE,
  KEY_VAULT_SECRET_RULE,
  USERNAME_KEY_RULE,
  SECRET_MANAGER_RULE,
  JWT_RULE,
  ...VENDOR_TOKEN_RULES,
  DISCORD_TOKEN_RULE,
  GOOGLE_CLIENT_ID_RULE,
  SASL_PLAIN_RULE,
  REDIS_AUTH_RULE,
  REDIS_CONFIG_RULE,
  AUTHORIZATION_HEADER_RULE,
  COOKIE_HEADER_RULE,
  SENSITIVE_OUTPUT_RULE,
  JWK_PRIVATE_KEY_RULE,
  DOCKER_AUTH_RULE,
  SQL_PASSWORD_RULE,
  CREDENTIAL_CALL_RULE,
  PGPASS_RULE,
  MYSQL_PASSWORD_RULE,
  ELASTIC_PASSWORD_RULE,
  JENKINS_PASSWORD_RULE,
  WIFI_KEY_RULE,
  BUNDLER_CREDENTIAL_RULE,
  VAULT_UNSEAL_KEY_RULE,
  VAULT_KV_DATA_RULE,
  VAULT_KV_JSON_RULE,
  AWS_CREDENTIAL_ROW_RULE,
  NETWORK_CONFIG_RULE,
  ANSIBLE_VAULT_RULE,
  WORDPRESS_SALT_RULE,
  AZURE_KEY_LIST_RULE,
  AZURE_ACCOUNT_KEY_RULE,
  URL_USERINFO_RULE,
  ORACLE_THIN_RULE,
  GO_MYSQL_DSN_RULE,
  AWS_SECRET_ASSIGNMENT_RULE,
  SENSITIVE_ASSIGNMENT_RULE,
  REVERSED_COMPARISON_RULE,
  VALUE_FIRST_ATTRIBUTE_RULE,
  HYPHEN_JOINED_RULE,
  TERRAFORM_VARIABLE_RULE,
  SECRET_ELEMENT_RULE,
  SECRET_DATA_BLOCK_RULE,
  JSON_SECRET_DATA_RULE,
  SHORT_KEYWORD_ASSIGNMENT_RULE,
  CAMEL_SHORT_KEYWORD_RULE,
  GLUED_SHORT_KEYWORD_RULE,
  PAT_ASSIGNMENT_RULE,
  CAMEL_PAT_RULE,
  ENCODED_ASSIGNMENT_RULE,
  ESCAPED_QUOTE_ASSIGNMENT_RULE,
  BASIC_AUTH_FLAG_RULE,
  COMMAND_FLAG_RULE,
  PIPED_PASSWORD_RULE,
  VENDOR_ASSIGNMENT_RULE,
  SONAR_LOGIN_RULE,
  CC_TEST_REPORTER_RULE,
  // After the vendors' rule, so a span both find is named for the vendor (`HEROKU_API=…`):
  // a tie goes to the name listed first.
  API_SUFFIX_RULE,
  ...QUALIFIED_KEY_ASSIGNMENT_RULES,
  // Last: a span a header's or a keyword's rule finds too is named after theirs.
  BEARER_TOKEN_RULE,
]);
