/**
 * JSON for a terminal: `JSON.stringify` escapes C0 controls but writes DEL, the C1
 * controls (U+0080–U+009F: U+009B is a terminal's CSI, U+009D its OSC) and the line
 * separators as they are. A label, a ref or a preview a child chose could carry them, so
 * every JSON the CLI prints goes through here: those characters become `\uXXXX` escapes,
 * the same value to any JSON reader.
 *
 * @example
 * ```ts
 * import { jsonText } from "./json-text.js";
 * jsonText({ label: "a\u009b2Jb" }); // '{"label":"a\\u009b2Jb"}'
 * ```
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
