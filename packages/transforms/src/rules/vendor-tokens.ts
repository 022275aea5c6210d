/**
 * Built-in rules for vendor credentials with a recognisable prefix (lengths after
 * gitleaks). Each holds at most its prefix plus `minBody` bytes, then redacts the whole
 * token however long it runs. `minBody` is below the real length so a token cut short in
 * output is still caught.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("key AKIAIOSFODNN7EXAMPLE"); // "key [REDACTED:aws-access-key-id]"
 * ```
 */
import type { MatcherRule } from "../rule.js";
import { tokenRule } from "./token-rule.js";

export const VENDOR_TOKEN_RULES: readonly MatcherRule[] = [
  // AWS access key ids: 4-letter kind + 16 of [A-Z0-9].
  tokenRule({
    name: "aws-access-key-id",
    prefixes: ["AKIA", "ASIA", "ABIA", "ACCA"],
    body: "A-Z0-9",
    minBody: 16,
  }),
  // GitHub classic tokens (36 base62 after the prefix) and fine-grained PATs (82).
  tokenRule({
    name: "github-token",
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    body: "A-Za-z0-9",
    minBody: 30,
  }),
  tokenRule({ name: "github-token", prefixes: ["github_pat_"], body: "A-Za-z0-9_", minBody: 40 }),
  tokenRule({ name: "gitlab-token", prefixes: ["glpat-"], body: "A-Za-z0-9_-", minBody: 20 }),
  tokenRule({
    name: "slack-token",
    prefixes: ["xoxa-", "xoxb-", "xoxe-", "xoxo-", "xoxp-", "xoxr-", "xoxs-"],
    body: "A-Za-z0-9-",
    minBody: 10,
  }),
  tokenRule({
    name: "stripe-key",
    prefixes: ["sk_live_", "rk_live_"],
    body: "A-Za-z0-9",
    minBody: 16,
  }),
  tokenRule({ name: "npm-token", prefixes: ["npm_"], body: "A-Za-z0-9", minBody: 36 }),
  // Listed before the OpenAI rule so an "sk-ant-" key is named for Anthropic.
  tokenRule({
    name: "anthropic-api-key",
    prefixes: ["sk-ant-"],
    body: "A-Za-z0-9_-",
    minBody: 20,
    notAfter: "_-",
  }),
  // "sk-" also starts ordinary kebab-case words: require a digit or capital as keys have.
  tokenRule({
    name: "openai-api-key",
    prefixes: ["sk-"],
    body: "A-Za-z0-9_-",
    minBody: 20,
    notAfter: "_-",
    mixed: true,
  }),
  tokenRule({ name: "google-api-key", prefixes: ["AIza"], body: "A-Za-z0-9_-", minBody: 30 }),
];
