/**
 * Built-in rules for vendor credentials with a recognisable prefix: one token rule per
 * entry of the provider catalogue (`provider-catalogue.ts`), all anchored in the one
 * automaton. Each holds at most its prefix plus `minBody` bytes, then redacts the whole
 * token however long it runs. `minBody` is below the real length so a token cut short in
 * output is still caught.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("key AKIAIOSFODNN7EXAMPLE"); // "key [REDACTED:aws-access-key-id]"
 * ```
 */
import { PROVIDER_FORMATS, type ProviderFormat } from "../provider-catalogue.js";
import type { MatcherRule } from "../rule.js";
import { tokenRule } from "./token-rule.js";

/**
 * A query's prefix that starts with `&` is also read as Go's JSON writes it, escaped
 * (`\u0026key=…`: `encoding/json` escapes `&`, `<` and `>` by default).
 */
function withEscapedAmpersand(prefixes: readonly string[]): readonly string[] {
  const escaped = prefixes.filter((p) => p.startsWith("&")).map((p) => `\\u0026${p.slice(1)}`);
  return escaped.length === 0 ? prefixes : [...prefixes, ...escaped];
}

/** The token rule of one catalogue entry. */
export function providerRule(format: ProviderFormat): MatcherRule {
  return tokenRule({
    name: format.rule,
    prefixes: withEscapedAmpersand(format.prefixes),
    body: format.body,
    minBody: format.minBody,
    ...(format.mixed === undefined ? {} : { mixed: format.mixed }),
    ...(format.needs === undefined ? {} : { needs: format.needs }),
    ...(format.maxBody === undefined ? {} : { maxBody: format.maxBody }),
    ...(format.innerEquals === true ? { padding: false } : {}),
    ...(format.formText === true ? { formText: true } : {}),
    ...(format.keepPrefix === undefined ? {} : { keepPrefix: format.keepPrefix }),
    ...(format.boundary === undefined ? {} : { boundary: format.boundary }),
    ...(format.notAfter === undefined ? {} : { notAfter: format.notAfter }),
    ...(format.lead === undefined ? {} : { lead: format.lead }),
    ...(format.leadBody === undefined ? {} : { leadBody: format.leadBody }),
    ...(format.leadHost === undefined ? {} : { leadHost: format.leadHost }),
  });
}

export const VENDOR_TOKEN_RULES: readonly MatcherRule[] = PROVIDER_FORMATS.map(providerRule);
