import type { CompiledRedaction, RedactionOptions } from "../src/compile-redaction.js";
import { byteAtATime, checkRedactor, splitAt } from "../src/testing.js";

/**
 * The redactor's SPEC §5 checks on `input` fed byte by byte and cut into at most three
 * pieces at every pair of places `a ≤ b` (`b` in steps of `stride`).
 */
export function checkEverySplit(
  source: RedactionOptions | CompiledRedaction,
  input: Uint8Array,
  stride: number,
): void {
  checkRedactor(source, input, byteAtATime(input));
  for (let a = 1; a < input.length; a++)
    for (let b = a; b < input.length; b += stride)
      checkRedactor(source, input, splitAt(input, a === b ? [a] : [a, b]));
}
