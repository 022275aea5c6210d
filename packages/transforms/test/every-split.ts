import fc from "fast-check";
import { expect } from "vitest";
import type { CompiledRedaction, RedactionOptions } from "../src/compile-redaction.js";
import { createRedactor } from "../src/redactor.js";
import { byteAtATime, checkNoSecretPiece, checkRedactor, splitAt } from "../src/testing.js";

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

/**
 * No prefix exposure (SPEC §5): `input` cut in two at every place, what a fresh redactor
 * emits for the first piece alone holds no 8-byte piece of `secret`, and the whole output
 * is `expected`.
 */
export function checkPrefixExposure(
  source: RedactionOptions | CompiledRedaction,
  input: string,
  secret: string,
  expected: string,
): void {
  const bytes = Buffer.from(input);
  for (let cut = 1; cut < bytes.length; cut++) {
    const redactor = createRedactor(source);
    const first = Buffer.concat(redactor.push([bytes.subarray(0, cut)])).toString();
    checkNoSecretPiece(first, secret);
    const rest = Buffer.concat([...redactor.push([bytes.subarray(cut)]), ...redactor.end()]);
    expect(first + rest.toString()).toBe(expected);
  }
}

/** How {@link checkRandomMixes} draws its texts and its cuts. */
export interface RandomMixOptions {
  /** A text joins 1 to this many pieces. */
  readonly maxPieces: number;
  /** Cut places are drawn from 1 to this (those at or past the end cut nothing). */
  readonly maxCut: number;
  /** At most this many cuts. */
  readonly maxCuts: number;
  readonly numRuns: number;
}

/** The redactor's SPEC §5 checks on random texts joined from `pieces`, cut at random places. */
export function checkRandomMixes(
  source: RedactionOptions | CompiledRedaction,
  pieces: readonly string[],
  options: RandomMixOptions,
): void {
  const text = fc
    .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: options.maxPieces })
    .map((ps) => ps.join(""));
  const cuts = fc.array(fc.integer({ min: 1, max: options.maxCut }), {
    maxLength: options.maxCuts,
  });
  fc.assert(
    fc.property(text, cuts, (t, at) => {
      const input = Buffer.from(t);
      checkRedactor(source, input, splitAt(input, at));
    }),
    { numRuns: options.numRuns },
  );
}
