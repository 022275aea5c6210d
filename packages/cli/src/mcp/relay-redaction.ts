/**
 * What `spool mcp-proxy` hands back in place of a result over the budget is redacted with
 * the rules its captures use (the built-in ones and the values of the environment's
 * credentials: the proxy's captures name no other known values), strings of a structured
 * part included: the preview comes from the capture, already redacted, but a structured
 * part is cut from the message as received.
 */
import {
  type CompiledRedaction,
  compileRedaction,
  DEFAULT_REDACTION_WINDOW,
  knownValuesOfEnvSecrets,
  redactText,
} from "@spool/transforms";

let compiled: CompiledRedaction | null = null;

/** The rules, compiled on first use (most proxies never spool a result). */
function rules(): CompiledRedaction {
  compiled ??= compileRedaction({
    knownValues: knownValuesOfEnvSecrets(process.env, DEFAULT_REDACTION_WINDOW),
  });
  return compiled;
}

/**
 * A JSON value with every string (object keys included) redacted. Done before the value is
 * cut to a budget, so that no secret is left half-cut and so unrecognisable.
 *
 * @example
 * redactJson({ token: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" }); // { token: "[REDACTED:github-token]" }
 */
export function redactJson(value: unknown): unknown {
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redactString(k), redactJson(v)]),
    );
  }
  return value;
}

/** One string redacted. */
export function redactString(text: string): string {
  return redactText(text, rules());
}
