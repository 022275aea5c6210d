import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { createRedactor, type RedactorStageOptions } from "../src/redactor.js";
import { byteAtATime, splitAt } from "../src/testing.js";

const compiled = compileRedaction();
const TOKEN = "Zq8vLm2xQw9rTy6uIo3pAs7Hk2Nw5Rt8Qe4Jd6Fg1Lp3";
const MARK = "[REDACTED:secret-assignment]";

function redact(chunks: Uint8Array[], options: RedactorStageOptions = {}): string {
  const redactor = createRedactor(compiled, options);
  const out = chunks.flatMap((chunk) => redactor.push([chunk]));
  return Buffer.concat([...out, ...redactor.end()]).toString("latin1");
}

const text = (s: string) => [Buffer.from(s, "latin1")];

describe("a secret repeated later in the stream", () => {
  it("is redacted wherever a run of its bytes is it whole, after the rule redacted it", () => {
    const input = `API_KEY=${TOKEN}\nUsing ${TOKEN}; GET /v1/${TOKEN}/items '${TOKEN}' | '${TOKEN}'\n`;
    expect(redact(text(input))).toBe(
      `API_KEY=${MARK}\nUsing ${MARK}; GET /v1/${MARK}/items '${MARK}' | '${MARK}'\n`,
    );
  });

  it("learns a span kept open across chunks from its own bytes, however the input is cut", () => {
    // Terraform tokens glued together: the first one's body runs into the second's lead, so
    // its span stays open (a later anchor's lead is inside it) when a chunk ends after it. The
    // span is no single run (it holds dots), so nothing is learned; it was learned from bytes
    // the input no longer held, and the second body redacted as its repeat, at some cuts.
    const body = "igV8u6-311rfBktEuBMB25v6Af1sr5N-W_F4r_JkiPcuErfdKx03_dPyQeQZqSex_O3";
    const input = Buffer.from(`VXLyn0icCVFWg7.atlasv1.${body}`.repeat(3), "latin1");
    const whole = redact([input]);
    for (let cut = 1; cut < input.length; cut++)
      expect(redact(splitAt(input, [cut])), `cut at ${cut}`).toBe(whole);
  });

  it("keeps an earlier copy, a longer run holding it, and a value too short or not random", () => {
    const input =
      `${TOKEN} first\nAPI_KEY=${TOKEN}\nx${TOKEN} ${TOKEN}9 ${TOKEN}_a\n` +
      "password=hunter2x\nhunter2x\nAPI_KEY=Zq8vLm2xQw9rTy\nZq8vLm2xQw9rTy\n" +
      'password = "real-secret-6-levels"\nreal-secret-6-levels\n';
    expect(redact(text(input))).toBe(
      `${TOKEN} first\nAPI_KEY=${MARK}\nx${TOKEN} ${TOKEN}9 ${TOKEN}_a\n` +
        `password=${MARK}\nhunter2x\nAPI_KEY=${MARK}\nZq8vLm2xQw9rTy\n` +
        `password = "${MARK}"\nreal-secret-6-levels\n`,
    );
  });

  it("is read after a string's escape, inside JSON as a tool result carries it", () => {
    const input = JSON.stringify({ log: `API_KEY=${TOKEN}\n${TOKEN}\tok` });
    expect(redact(text(input))).toBe(JSON.stringify({ log: `API_KEY=${MARK}\n${MARK}\tok` }));
  });

  it("is marked with the rule that redacted it first", () => {
    const ghp = "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78";
    expect(redact(text(`export GITHUB_TOKEN=${ghp}\necho ${ghp}\n`))).toBe(
      "export GITHUB_TOKEN=[REDACTED:github-token]\necho [REDACTED:github-token]\n",
    );
  });

  it("is not looked for with `repeats: false`", () => {
    expect(redact(text(`API_KEY=${TOKEN}\nUsing ${TOKEN}\n`), { repeats: false })).toBe(
      `API_KEY=${MARK}\nUsing ${TOKEN}\n`,
    );
  });

  // What stands around the repeat: no backslash, nothing a rule reads (`xyz` spells no keyword).
  const around = fc.string({
    unit: fc.constantFrom(..."0123456789 .,;:/|()'\"\nxyz_-"),
    maxLength: 12,
  });
  const PIECE = /[A-Za-z0-9_-]/;

  it("is redacted exactly when its run is bounded, however the input is chunked", () => {
    fc.assert(
      fc.property(
        around,
        around,
        fc.array(fc.nat({ max: 200 }), { maxLength: 6 }),
        (before, after, cuts) => {
          const input = Buffer.from(`API_KEY=${TOKEN}\n${before}${TOKEN}${after}\n`, "latin1");
          const whole = redact([input]);
          expect(redact(splitAt(input, cuts))).toBe(whole);
          expect(redact(byteAtATime(input))).toBe(whole);
          const bounded =
            (before === "" || !PIECE.test(before.at(-1)!)) &&
            (after === "" || !PIECE.test(after[0]!));
          expect(whole.includes(TOKEN)).toBe(!bounded);
        },
      ),
    );
  });

  // Values of a token's shape, each named once by a rule (`API_KEY_<i>=`), and copies of them
  // before and after that, among filler no rule reads.
  const VALUES = [
    "Zq8vLm2xQw9rTy6uIo3pAs7Hk2Nw5Rt8Qe",
    "Hm4kQ8wZ2pL6tR9yX3cB7vJ5sD1fG3hK9l",
    "Nx5tW7qL3mZ9pR2kV8dF1gB4nC6xZ0aS2q",
  ];
  const item = fc.oneof(
    fc.nat({ max: 2 }).map((i) => ({ named: i })),
    fc.nat({ max: 2 }).map((i) => ({ copy: i })),
    fc.constantFrom("x ", "\n", " | ", "1234 ", "''", "\t", "yy-z ").map((filler) => ({ filler })),
  );

  it("redacts every copy after a rule named it and none before, in any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 24 }),
        fc.array(fc.nat({ max: 400 }), { maxLength: 8 }),
        (items, cuts) => {
          const named = new Set<number>();
          let input = "";
          let expected = "";
          for (const it of items) {
            if ("named" in it) {
              input += `\nAPI_KEY_${it.named}=${VALUES[it.named]}\n`;
              expected += `\nAPI_KEY_${it.named}=${MARK}\n`;
              named.add(it.named);
            } else if ("copy" in it) {
              input += ` ${VALUES[it.copy]} `;
              expected += ` ${named.has(it.copy) ? MARK : VALUES[it.copy]} `;
            } else {
              input += it.filler;
              expected += it.filler;
            }
          }
          const bytes = Buffer.from(input, "latin1");
          expect(redact([bytes])).toBe(expected);
          expect(redact(splitAt(bytes, cuts))).toBe(expected);
        },
      ),
    );
  });
});
