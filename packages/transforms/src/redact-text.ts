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
import {
  type CompiledRedaction,
  compiledForText,
  isCompiledRedaction,
  type RedactionOptions,
} from "./compile-redaction.js";
import { createRedactor } from "./redactor.js";

/**
 * Redact a whole string at once (labels, arguments, anything that is not a stream).
 *
 * @category redaction
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("token=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"); // "token=[REDACTED:github-token]"
 * ```
 */
export function redactText(
  text: string,
  source: RedactionOptions | CompiledRedaction = {},
): string {
  const bytes = Buffer.from(text, "utf8");
  // Known values that cannot be in a short text need not be in its automaton (start-up).
  const redactor = createRedactor(
    isCompiledRedaction(source) ? compiledForText(source, bytes) : source,
  );
  const out = [...redactor.push([bytes]), ...redactor.end()];
  return Buffer.concat(out).toString("utf8");
}
