/**
 * Built-in assignment rules: AWS secret access keys by their variable name, and any
 * assignment whose name contains a sensitive keyword (TOKEN, SECRET, PASSWORD, PASSWD,
 * PASSPHRASE, API_KEY, PRIVATE_KEY, CREDENTIAL, ACCESS_KEY, in lower, UPPER, Capitalized,
 * camel and Pascal case with `_`, `-` or no separator). See
 * `assignment-rule.ts` for the grammar and why it never holds a byte.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
 * // "aws_secret_access_key = [REDACTED:aws-secret-access-key]"
 * ```
 */
import type { MatcherRule } from "../rule.js";
import { assignmentRule } from "./assignment-rule.js";

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
]);
