/**
 * One-shot redaction of a short text (a command label, metadata written to a receipt or a
 * log) with the same rules as the stream redactor, so a secret in `--label` is caught
 * exactly as it would be in output. Pass rules compiled once with `compileRedaction` when
 * redacting many texts.
 *
 * @example
 * ```ts
 * import { compileRedaction, redactText } from "@spool/transforms";
 * const rules = compileRedaction({ knownValues: ["s3cr3t-value"] });
 * redactText("deploy with s3cr3t-value", rules); // "deploy with [REDACTED:known-value]"
 * ```
 */
import type { CompiledRedaction, RedactionOptions } from "./compile-redaction.js";
import { createRedactor } from "./redactor.js";

export function redactText(
  text: string,
  source: RedactionOptions | CompiledRedaction = {},
): string {
  const redactor = createRedactor(source);
  const out = [...redactor.push([Buffer.from(text, "utf8")]), ...redactor.end()];
  return Buffer.concat(out).toString("utf8");
}
