/**
 * The usual spellings of a (possibly multi-word) keyword: lowercase, UPPERCASE,
 * Capitalized, camelCase, PascalCase and an acronym first (`APIKey`), joined by `_`, `-`,
 * nothing, a space or a dot. Built-in rules spell their keywords out this way instead of matching
 * ASCII case-insensitively: the spellings join the one exact automaton, so scanning stays
 * one table lookup per byte (a case-folded automaton would be a second lookup on every
 * byte). Arbitrary case mixes such as `pAsSwOrD` are not matched.
 *
 * @example
 * ```ts
 * import { keywordSpellings } from "./keyword-spellings.js";
 * keywordSpellings(["api", "key"]); // ["api_key", "API_KEY", "Api_key", "api_Key", "Api_Key", "api-key", …, "apiKey", "ApiKey", …, "API key"]
 * ```
 */
export function keywordSpellings(words: readonly string[]): string[] {
  const lower = words.map((w) => w.toLowerCase());
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const spellings = new Set<string>();
  // Words apart too (`API key: …`, `datadog api key …`), as a form or a person writes them,
  // and dotted, as a properties or flattened YAML key (`api.key=…`).
  const joiners = lower.length > 1 ? ["_", "-", "", " ", "."] : [""];
  for (const joiner of joiners) {
    spellings.add(lower.join(joiner));
    spellings.add(lower.join(joiner).toUpperCase());
    spellings.add([cap(lower[0]!), ...lower.slice(1)].join(joiner));
    spellings.add([lower[0]!, ...lower.slice(1).map(cap)].join(joiner));
    spellings.add(lower.map(cap).join(joiner));
    // An acronym first (`API Key`, `APIKey`).
    if (lower.length > 1)
      spellings.add([lower[0]!.toUpperCase(), ...lower.slice(1).map(cap)].join(joiner));
  }
  // An acronym in prose (`The API key is …`): words apart, the rest lowercase.
  if (lower.length > 1) spellings.add([lower[0]!.toUpperCase(), ...lower.slice(1)].join(" "));
  return [...spellings];
}
