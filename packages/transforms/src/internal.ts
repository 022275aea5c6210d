/**
 * `@spool/transforms/internal`: what `@spool/cli` uses from transforms and library users do
 * not: how a capture's default label (its command line) has the values of secret-looking
 * flags removed. Not part of the public API: it may change in any release, whatever the
 * version says.
 *
 * @example
 * ```ts
 * import { redactCommandFlags } from "@spool/transforms/internal";
 * redactCommandFlags("deploy --token abc"); // the value of --token replaced by a marker
 * ```
 */
export { COMMAND_FLAG_MARKER, redactCommandFlags } from "./command-flags.js";
export { printsSecret } from "./secret-commands.js";
