import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Automaton, buildAutomaton, type Needle } from "../src/aho-corasick.js";
import { automatonKey, readAutomatonImage, writeAutomatonImage } from "../src/automaton-image.js";
import { builtinAutomatonImage } from "../src/compile-redaction.js";
import { compileRedaction, redactText } from "../src/index.js";

/** Every table and number of the two automata (all of their fields but the functions). */
function expectSameAutomaton(loaded: Automaton, built: Automaton): void {
  const fields = (a: Automaton) =>
    Object.entries(a)
      .filter(([, value]) => typeof value !== "function")
      .map(([name, value]) => [
        name,
        ArrayBuffer.isView(value) ? [...(value as Int32Array)] : value,
      ]);
  expect(fields(loaded)).toEqual(fields(built));
}

/** Every state's step on every class, through dense rows and sparse fallbacks alike. */
function expectSameSteps(loaded: Automaton, built: Automaton): void {
  for (let s = 0; s < built.states; s++)
    for (let c = 0; c < built.classes; c++) expect(loaded.step(s, c)).toBe(built.step(s, c));
}

const needle = fc
  .record({
    text: fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "x"), minLength: 1, maxLength: 8 }),
    literal: fc.integer({ min: -1, max: 3 }),
    anchor: fc.integer({ min: -1, max: 5 }),
  })
  .map(({ text, literal, anchor }): Needle => ({ bytes: Buffer.from(text), literal, anchor }));

describe("automaton images", () => {
  it("load as the automaton they were written from, densified or not", () => {
    fc.assert(
      fc.property(
        fc.array(needle, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        (needles, collapseWhitespace, denseDepth) => {
          const options = { collapseWhitespace, denseDepth };
          const built = buildAutomaton(needles, options);
          const key = automatonKey(needles, options);
          const loaded = readAutomatonImage(writeAutomatonImage(built, key), key);
          expect(loaded).not.toBeNull();
          expectSameAutomaton(loaded!, built);
          expectSameSteps(loaded!, built);
          expectSameAutomaton(loaded!.densified(), built.densified());
        },
      ),
      { numRuns: 150 },
    );
  });

  it("are refused under another key, at another offset only when aligned, and when damaged", () => {
    const needles: Needle[] = [{ bytes: Buffer.from("secret"), literal: 0, anchor: -1 }];
    const key = automatonKey(needles, {});
    const image = writeAutomatonImage(buildAutomaton(needles, {}), key);
    expect(
      readAutomatonImage(image, automatonKey(needles, { collapseWhitespace: true })),
    ).toBeNull();
    expect(
      readAutomatonImage(image, automatonKey([{ ...needles[0]!, literal: 1 }], {})),
    ).toBeNull();
    // A pooled buffer may start at any offset: the image is copied to align its tables.
    const shifted = new Uint8Array(image.length + 1).subarray(1);
    shifted.set(image);
    expect(readAutomatonImage(shifted, key)).not.toBeNull();
    for (const cut of [0, 3, 40, image.length >> 1, image.length - 1])
      expect(readAutomatonImage(image.subarray(0, cut), key)).toBeNull();
    const garbled = image.slice();
    garbled[6] = 0x7b; // the header's JSON no longer parses
    expect(readAutomatonImage(garbled, key)).toBeNull();
  });

  it("the build's image of the built-in rules is current and redacts as a fresh build does", () => {
    const file = new URL("../dist/automata/builtin-exact.bin", import.meta.url);
    // `pnpm test` writes it (scripts/build-automata.mjs) before vitest runs.
    expect(existsSync(file), "run `pnpm build` first").toBe(true);
    expect(Buffer.compare(readFileSync(file), builtinAutomatonImage())).toBe(0);
    const fromImage = compileRedaction({});
    // Known values make the needles differ: that automaton is built, not loaded.
    const built = compileRedaction({ knownValues: ["correct-horse-battery"] });
    // A loaded automaton's tables are views of the one image; a built one's are not.
    expect(fromImage.exact.dense.buffer).toBe(fromImage.exact.fail.buffer);
    expect(built.exact.dense.buffer).not.toBe(built.exact.fail.buffer);
    const text =
      "Authorization: Bearer abcdefghijklmnopqrstuvwx\npassword=hunter2hunter2 ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n";
    expect(redactText(text, fromImage)).toBe(redactText(text, built));
    expect(redactText(text, fromImage)).not.toBe(text);
  });
});
