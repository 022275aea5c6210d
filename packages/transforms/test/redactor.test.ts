import { isUtf8 } from "node:buffer";
import { runStage } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { createRedactor } from "../src/redactor.js";
import { type LiteralRule, type MatcherRule, Verdict } from "../src/rule.js";
import { allChunkings, byteAtATime, checkRedactor, checkStage, splitAt } from "../src/testing.js";
import { createUtf8Decoder } from "../src/utf8-decoder.js";

const bytes = (s: string) => Buffer.from(s, "utf8");
const run = (source: Parameters<typeof createRedactor>[0], chunks: Uint8Array[]) =>
  runStage(createRedactor(source), chunks).toString("utf8");

// Short, self-overlapping and mutually overlapping needles over the alphabet "abc".
const ABC = compileRedaction({
  builtins: false,
  window: 64,
  rules: [
    { kind: "literal", name: "aba", values: ["aba", "abab"] },
    { kind: "literal", name: "bcb", values: ["bcb", "cbc"] },
    { kind: "literal", name: "aac", values: ["aacaac", "acaa"] },
    { kind: "literal", name: "ml", values: ["cc a"] },
  ],
});

describe("redactor: chunking invariance and provenance", () => {
  it("holds for every chunking of short inputs over abc (exhaustive, n <= 14)", () => {
    const inputs = [
      "abababcbcbcb",
      "aacaacaacaac",
      "cc  \n a cc a",
      "abacbcbacaab",
      "cabababababac",
      "aabcbcbcacaacc",
    ];
    for (const text of inputs) {
      const input = bytes(text);
      expect(input.length).toBeLessThanOrEqual(14);
      let count = 0;
      for (const chunks of allChunkings(input)) {
        checkRedactor(ABC, input, chunks);
        count++;
      }
      expect(count).toBe(2 ** (input.length - 1));
    }
  });

  it("holds for random abc inputs under random and byte-at-a-time chunkings", () => {
    const input = fc
      .array(fc.constantFrom("a", "b", "c", " ", "\n"), { minLength: 1, maxLength: 300 })
      .map((cs) => bytes(cs.join("")));
    fc.assert(
      fc.property(
        input,
        fc.array(fc.integer({ min: 1, max: 299 }), { maxLength: 40 }),
        (text, cuts) => {
          checkRedactor(ABC, text, splitAt(text, cuts));
          checkRedactor(ABC, text, byteAtATime(text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("redacts overlapping and adjacent matches as one marker", () => {
    expect(run(ABC, [bytes("x ababab y")])).toBe("x [REDACTED:aba] y");
    // "bcb" then "cbc" overlap; "aba" touches them: one span, named after the first.
    expect(run(ABC, [bytes("abcbcb!")])).toBe("a[REDACTED:bcb]!");
    expect(run(ABC, [bytes("ababcbc!")])).toBe("[REDACTED:aba]!");
  });

  it("matches a multi-line literal across any whitespace run", () => {
    expect(run(ABC, [bytes("cc\r\n\t  a!")])).toBe("[REDACTED:ml]!");
    expect(run(ABC, [bytes("cca")])).toBe("cca");
  });
});

describe("redactor: adversarial cases", () => {
  it("never leaks a self-overlapping secret split as Xk9Xk9 + Xk9Q2", () => {
    const redactor = createRedactor({ knownValues: ["Xk9Xk9Q2"], builtins: false });
    const first = Buffer.concat(redactor.push([bytes("Xk9Xk9")]));
    expect(first.toString()).toBe("");
    expect(redactor.held).toBe(6);
    const rest = Buffer.concat([...redactor.push([bytes("Xk9Q2 done")]), ...redactor.end()]);
    expect(rest.toString()).toBe("Xk9[REDACTED:known-value] done");
    // Compiled once: the 1,024 chunkings then cost a redactor each, not a compilation.
    const compiled = compileRedaction({ knownValues: ["Xk9Xk9Q2"], builtins: false });
    for (const chunks of allChunkings(bytes("Xk9Xk9Xk9Q2"))) {
      checkRedactor(compiled, bytes("Xk9Xk9Xk9Q2"), chunks);
    }
  });

  it("does not release held bytes when time passes between writes", () => {
    vi.useFakeTimers();
    try {
      const redactor = createRedactor({ knownValues: ["s3cret-value-42"], builtins: false });
      const out = redactor.push([bytes("value: s3cret-va")]);
      expect(Buffer.concat(out).toString()).toBe("value: ");
      vi.advanceTimersByTime(60_000);
      expect(redactor.held).toBe(9);
      const later = Buffer.concat([...redactor.push([bytes("lue-42\n")]), ...redactor.end()]);
      expect(later.toString()).toBe("[REDACTED:known-value]\n");
    } finally {
      vi.useRealTimers();
    }
  });

  it("omits a multi-line secret's prefix followed by a 1 MiB whitespace run, holding at most the window", () => {
    const source = compileRedaction({
      knownValues: ["first-line-secret\nsecond-line-secret"],
      builtins: false,
    });
    const run = 1 << 20;
    const input = Buffer.concat([
      bytes("log: first-line-secret"),
      Buffer.alloc(run, 0x20),
      bytes("second-line-secret end"),
    ]);
    const redactor = createRedactor(source);
    const out: Uint8Array[] = [];
    let maxHeld = 0;
    for (const chunk of splitAt(
      input,
      Array.from({ length: 64 }, (_, i) => 5 + i * 16411),
    )) {
      out.push(...redactor.push([chunk]));
      maxHeld = Math.max(maxHeld, redactor.held);
    }
    out.push(...redactor.end());
    const text = Buffer.concat(out).toString();
    expect(maxHeld).toBeLessThanOrEqual(source.window);
    expect(text.startsWith("log: [OMITTED:8192 bytes undecidable]")).toBe(true);
    expect(text).not.toContain("first-line");
    expect(redactor.counters.omissions).toBe(1);
    expect(text.length).toBe(
      5 + "[OMITTED:8192 bytes undecidable]".length + (input.length - 5 - 8192),
    );
    expect(runStage(createRedactor(source), [input]).toString()).toBe(text);
  });

  it("fails closed on a candidate longer than the window: omission marker, then drop to whitespace in O(1)", () => {
    // A user matcher that never decides: it holds until the window forces an omission.
    const undecided: MatcherRule = {
      kind: "matcher",
      name: "undecided",
      anchors: ["tok:"],
      maxLength: 64,
      start: () => ({ from: 0, next: () => Verdict.Hold, end: () => Verdict.Reject }),
    };
    const source = compileRedaction({ rules: [undecided], builtins: false, window: 64 });
    const input = bytes(`a tok:${"x".repeat(20_000)} tail`);
    const redactor = createRedactor(source);
    const out: Uint8Array[] = [];
    for (const chunk of splitAt(input, [3, 70, 1000, 19_999])) {
      out.push(...redactor.push([chunk]));
      expect(redactor.held).toBeLessThanOrEqual(64);
    }
    out.push(...redactor.end());
    // 64 held bytes ("tok:" + 60 x) hit the window; the remaining 19 940 x are dropped uncounted in memory.
    expect(Buffer.concat(out).toString()).toBe("a [OMITTED:20004 bytes undecidable] tail");
    expect(redactor.counters.omissions).toBe(1);
    checkRedactor(source, input, splitAt(input, [5, 64, 65, 66, 20_003]));
  });

  it("fails closed with a redaction when a matcher overruns its own declared maxLength", () => {
    const source = compileRedaction({
      rules: [
        {
          kind: "matcher",
          name: "undecided",
          anchors: ["tok:"],
          maxLength: 16,
          start: () => ({ from: 0, next: () => Verdict.Hold, end: () => Verdict.Reject }),
        },
      ],
      builtins: false,
      window: 64,
    });
    const input = bytes(`a tok:${"x".repeat(20_000)} tail`);
    expect(run(source, [input])).toBe("a [REDACTED:undecided] tail");
    checkRedactor(source, input, splitAt(input, [3, 19, 20, 21, 9000]));
  });

  it("omits an undecided known-value candidate at exactly the window and counts the drop", () => {
    const source = compileRedaction({ knownValues: ["aaaa bbbb"], builtins: false, window: 64 });
    const input = bytes(`x aaaa${" ".repeat(100)}zzzz tail`);
    const text = run(source, [input]);
    // 64 held bytes from "aaaa", then the next byte is whitespace: the drop ends at once.
    expect(text).toBe(`x [OMITTED:64 bytes undecidable]${" ".repeat(100 - 60)}zzzz tail`);
    for (const chunks of [byteAtATime(input), splitAt(input, [7, 50, 66, 67])])
      checkRedactor(source, input, chunks);
  });

  it("keeps UTF-8 intact under a split at every byte", () => {
    const source = compileRedaction({ knownValues: ["пароль-秘密-🔑-42"] });
    const input = bytes("日本語 пароль-秘密-🔑-42 ümlaut password=ghp_ÄÖÜ 🔑 end");
    const whole = run(source, [input]);
    expect(whole).toBe(
      "日本語 [REDACTED:known-value] ümlaut password=[REDACTED:secret-assignment] 🔑 end",
    );
    for (let cut = 1; cut < input.length; cut++) {
      const chunks = splitAt(input, [cut]);
      const out = runStage(createRedactor(source), chunks);
      expect(isUtf8(out)).toBe(true);
      expect(out.toString()).toBe(whole);
    }
    checkRedactor(source, input, byteAtATime(input));
  });

  it("keeps SPEC §5 with random known values, built-ins and random text", () => {
    const source = compileRedaction({
      knownValues: ["hunter2-hunter2", "multi line\nsecret value"],
    });
    const text = fc
      .array(
        fc.constantFrom(
          "hunter2-",
          "hunter2",
          " ",
          "\n",
          "multi",
          "line",
          "secret",
          "value",
          "token=",
          "ghp_",
          "A1b2C3d4E5",
          "x",
          "é",
          '"',
          ":",
        ),
        { maxLength: 60 },
      )
      .map((parts) => bytes(parts.join("")));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 20 }),
        (input, cuts) => {
          checkRedactor(source, input, splitAt(input, cuts));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("counts redactions and omissions, and refuses writes after end", () => {
    const redactor = createRedactor({ knownValues: ["abcdefgh-1"], builtins: false });
    redactor.push([bytes("abcdefgh-1 and abcdefgh-1")]);
    redactor.end();
    // Two 10-byte values removed, two 24-byte markers written.
    expect(redactor.counters).toEqual({
      redactions: 2,
      omissions: 0,
      redactedBytes: 20,
      markerBytes: 2 * "[REDACTED:known-value]".length,
    });
    expect(() => redactor.push([bytes("x")])).toThrow(/push after end/);
    expect(redactor.name).toBe("redactor");
    expect(redactor.transform).toBe("redact");
  });
});

describe("redactor: case-insensitive anchors", () => {
  it("matches ignoreCase anchors in any case mix through the case-folded automaton", () => {
    const source = compileRedaction({
      builtins: false,
      rules: [
        {
          kind: "pattern",
          name: "pin",
          anchors: ["pin:"],
          ignoreCase: true,
          pattern: /pin:(?<secret>\d{4,8})/i,
          maxLength: 12,
        },
      ],
    });
    for (const text of ["PIN:1234 x", "pIn:98765 x", "Pin:0000 x"]) {
      expect(run(source, [bytes(text)])).toBe(`${text.slice(0, 4)}[REDACTED:pin] x`);
      checkRedactor(source, bytes(text), byteAtATime(bytes(text)));
    }
    expect(run(source, [bytes("spin:12 pin:ab")])).toBe("spin:12 pin:ab");
  });
});

describe("redactor: pattern rules", () => {
  const source = compileRedaction({
    builtins: false,
    rules: [
      {
        kind: "pattern",
        name: "acme",
        anchors: ["acme_"],
        pattern: /acme_(?<secret>[0-9a-f]{16,})/,
        maxLength: 40,
      },
    ],
  });

  it("redacts the named group and releases non-matches", () => {
    expect(run(source, [bytes("k=acme_0123456789abcdef!")])).toBe("k=acme_[REDACTED:acme]!");
    expect(run(source, [bytes("acme_xyz and acme_0123")])).toBe("acme_xyz and acme_0123");
  });

  it("fails closed when a match runs to maxLength, through the next whitespace", () => {
    const long = `acme_${"a".repeat(100)} after`;
    expect(run(source, [bytes(long)])).toBe("acme_[REDACTED:acme] after");
    checkStage(() => createRedactor(source), bytes(long), byteAtATime(bytes(long)));
  });
});

describe("redactor: agrees with a brute-force reference", () => {
  /** Every occurrence of every needle, merged when overlapping or adjacent; named after the earliest start. */
  function reference(
    text: string,
    rules: readonly { name: string; values: readonly string[] }[],
  ): string {
    const spans: { start: number; end: number; rule: number }[] = [];
    for (let i = 0; i < text.length; i++) {
      rules.forEach((rule, r) => {
        for (const v of rule.values)
          if (text.startsWith(v, i)) spans.push({ start: i, end: i + v.length, rule: r });
      });
    }
    spans.sort((a, b) => a.start - b.start || a.rule - b.rule);
    let out = "";
    let at = 0;
    for (let k = 0; k < spans.length; ) {
      const first = spans[k]!;
      let end = first.end;
      let j = k + 1;
      while (j < spans.length && spans[j]!.start <= end) end = Math.max(end, spans[j++]!.end);
      out += `${text.slice(at, first.start)}[REDACTED:${rules[first.rule]!.name}]`;
      at = end;
      k = j;
    }
    return out + text.slice(at);
  }

  it("on random needles and text over a small alphabet, under random chunkings", () => {
    const word = fc
      .array(fc.constantFrom("a", "b", "c"), { minLength: 1, maxLength: 5 })
      .map((cs) => cs.join(""));
    const rulesArb = fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 3,
    });
    const textArb = fc
      .array(fc.constantFrom("a", "b", "c", "x"), { maxLength: 120 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(
        rulesArb,
        textArb,
        fc.array(fc.integer({ min: 1, max: 119 }), { maxLength: 12 }),
        (values, text, cuts) => {
          const rules = values.map((v, i) => ({
            kind: "literal" as const,
            name: `r${i}`,
            values: v,
          }));
          const source = compileRedaction({ rules, builtins: false });
          const input = bytes(text);
          expect(run(source, splitAt(input, cuts))).toBe(reference(text, rules));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("redactor: decoded input with no secret passes unchanged", () => {
  /**
   * Decode `input` in `decoderChunks`, hand the decoder's pieces (the same objects, in
   * order) to a redactor in batches of the given sizes; returns what each stage produced.
   */
  const decodeThenRedact = (
    source: Parameters<typeof createRedactor>[0],
    decoderChunks: readonly Uint8Array[],
    batchSizes: readonly number[],
  ) => {
    const decoder = createUtf8Decoder();
    const pieces: Uint8Array[] = [];
    for (const chunk of decoderChunks) pieces.push(...decoder.push([chunk]));
    pieces.push(...decoder.end());
    const redactor = createRedactor(source);
    const out: Uint8Array[] = [];
    let at = 0;
    for (let k = 0; at < pieces.length; k++) {
      const size = batchSizes.length === 0 ? pieces.length : batchSizes[k % batchSizes.length]!;
      out.push(...redactor.push(pieces.slice(at, at + size)));
      at += size;
    }
    out.push(...redactor.end());
    return { decoded: Buffer.concat(pieces), redacted: Buffer.concat(out), redactor, decoder };
  };
  const countFffd = (buf: Buffer) => buf.toString("utf8").split("\uFFFD").length - 1;

  it("keeps every U+FFFD of adjacent invalid bytes (one shared piece per replacement)", () => {
    const { decoded, redacted } = decodeThenRedact({}, [Buffer.from("a\xff\xfeb", "latin1")], []);
    expect(redacted.toString("utf8")).toBe("a\uFFFD\uFFFDb");
    expect(redacted.equals(decoded)).toBe(true);
    expect(redacted.byteLength).toBe(8);
  });

  it("is the identity on any decoded bytes under any decoder chunking and batching", () => {
    // Every byte value, dense in invalid ones; no secret can be spelled by chance.
    const absent = compileRedaction({
      builtins: false,
      knownValues: ["never-in-random-bytes-7Qz"],
    });
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0xff, 0xfe, 0x80, 0xc3, 0xe6, 0xef, 0xbf, 0xbd, 0xf0),
    );
    fc.assert(
      fc.property(
        fc.array(byte, { minLength: 1, maxLength: 400 }).map((b) => Uint8Array.from(b)),
        fc.array(fc.integer({ min: 1, max: 399 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }),
        (input, cuts, batches) => {
          const chunks = splitAt(input, cuts);
          const { decoded, redacted, redactor } = decodeThenRedact(absent, chunks, batches);
          expect(decoded.equals(Buffer.from(new TextDecoder().decode(input), "utf8"))).toBe(true);
          expect(redacted.equals(decoded)).toBe(true);
          expect(redactor.counters).toEqual({
            redactions: 0,
            omissions: 0,
            redactedBytes: 0,
            markerBytes: 0,
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it("is the identity with the built-in rules on text that spells no credential", () => {
    // Letters, spaces, newlines, valid and invalid multi-byte pieces: nothing a built-in anchors on.
    const piece = fc.constantFrom(
      [0x61],
      [0x62],
      [0x20],
      [0x0a],
      [0xff],
      [0xfe],
      [0x80],
      [0xc3, 0xa9],
      [0xe6, 0x97],
      [0xe6, 0x97, 0xa5],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x9f, 0x98],
    );
    const input = fc
      .array(piece, { minLength: 1, maxLength: 300 })
      .map((ps) => Uint8Array.from(ps.flat()));
    fc.assert(
      fc.property(
        input,
        fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }),
        (bytesIn, cuts, batches) => {
          const chunks = splitAt(bytesIn, cuts);
          const { decoded, redacted, redactor, decoder } = decodeThenRedact({}, chunks, batches);
          expect(redacted.equals(decoded)).toBe(true);
          expect(countFffd(redacted)).toBe(decoder.counters.replacements);
          expect(redactor.counters).toEqual({
            redactions: 0,
            omissions: 0,
            redactedBytes: 0,
            markerBytes: 0,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("redactor on long streams", () => {
  it("redacts the same past the switch to the densified automaton (after 1 MiB) as in one chunk", () => {
    // Lines with credentials of several rules, some straddling every 64 KiB boundary.
    const line = (n: number) => {
      const id = n.toString(36).padStart(6, "0");
      if (n % 3 === 0)
        return `${id} Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.${id}abcdefghijklmn.${id}opqrstuvwxyz0123\n`;
      if (n % 3 === 1)
        return `${id} aws key AKIA${id.toUpperCase()}ABCDEFGHIJ region=eu token=ghp_${id}abcdefghijklmnopqrstuvwxyz0123\n`;
      return `${id} password=Nt${id}8W3pd84huvs plain text line with nothing in it at all\n`;
    };
    const lines: string[] = [];
    let length = 0;
    for (let n = 0; length < 1.5 * 1024 * 1024; n++) {
      lines.push(line(n));
      length += lines[n]!.length;
    }
    const input = Buffer.from(lines.join(""));
    const compiled = compileRedaction({ knownValues: ["k9-known-value-Q2"] });
    const whole = createRedactor(compiled);
    const expected = Buffer.concat([...whole.push([input]), ...whole.end()]);
    const chunked = createRedactor(compiled);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < input.byteLength; at += 65_536)
      pieces.push(...chunked.push([input.subarray(at, at + 65_536)]));
    pieces.push(...chunked.end());
    expect(Buffer.concat(pieces).equals(expected)).toBe(true);
    expect(chunked.counters).toEqual(whole.counters);
    expect(whole.counters.redactions).toBeGreaterThan(20_000);
  });
});

describe("gathered pieces", () => {
  it("stay as they were handed on, across chunks (many markers per chunk)", () => {
    const line = (i: number) =>
      `${i} token=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q${String(i % 10)}r8 ok\n`;
    // 64 redactions per chunk of ~3.6 KiB (past the few-markers path, so each chunk's output
    // is gathered into one piece), 600 chunks.
    const chunks = Array.from({ length: 600 }, (_, c) =>
      Buffer.from(Array.from({ length: 64 }, (_, i) => line(c * 64 + i)).join("")),
    );
    const redactor = createRedactor(compileRedaction({}));
    const pieces: Uint8Array[] = [];
    const copies: Buffer[] = [];
    const keep = (out: Uint8Array[]) => {
      for (const piece of out) {
        pieces.push(piece);
        copies.push(Buffer.from(piece));
      }
    };
    for (const chunk of chunks) keep(redactor.push([chunk]));
    keep(redactor.end());
    expect(redactor.counters.redactions).toBe(600 * 64);
    // No later piece was written over an earlier one.
    for (const [k, piece] of pieces.entries())
      expect(Buffer.from(piece).equals(copies[k]!)).toBe(true);
    const whole = createRedactor(compileRedaction({}));
    const expected = Buffer.concat([...whole.push([Buffer.concat(chunks)]), ...whole.end()]);
    expect(Buffer.concat(pieces).equals(expected)).toBe(true);
  });

  it("hold no secret in their memory beyond the piece (what the redactions saved)", () => {
    // 40 tokens in ~64 KiB: gathered in place, the piece a little shorter than its memory.
    const token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    const line = (i: number) => `${String(i).padStart(4, "0")} ${"x".repeat(1560)} ${token}\n`;
    const chunk = Buffer.from(Array.from({ length: 40 }, (_, i) => line(i)).join(""));
    const redactor = createRedactor(compileRedaction({}));
    const pieces = [...redactor.push([chunk]), ...redactor.end()];
    expect(redactor.counters.redactions).toBe(40);
    const own = pieces.filter((piece) => piece.buffer !== chunk.buffer);
    expect(own.some((piece) => piece.buffer.byteLength > piece.byteLength)).toBe(true);
    for (const piece of own) expect(Buffer.from(piece.buffer).includes(token)).toBe(false);
  });

  it("hold what they stand for when markers are longer than the bytes they replace", () => {
    // Each marker is longer than its value, so the output runs ahead of its bytes in the
    // chunk; chunks split inside a value, so some begin with held bytes.
    const rule: LiteralRule = {
      kind: "literal",
      name: "a-long-name-for-a-short-value",
      values: ["xyzzy"],
    };
    const compiled = compileRedaction({ builtins: false, rules: [rule] });
    // Short ranges between the markers (moved inside the piece) and long ones (each copied
    // through a view).
    for (const gap of [(i: number) => i % 7, () => 3000]) {
      const text = Array.from({ length: 400 }, (_, i) => `${"-".repeat(gap(i))}xyzzy${i}`).join(
        " ",
      );
      const expected = text.replaceAll("xyzzy", "[REDACTED:a-long-name-for-a-short-value]");
      for (const size of [3, 97, 1000, 4096, 65_536]) {
        const redactor = createRedactor(compiled);
        const pieces: Uint8Array[] = [];
        const input = bytes(text);
        for (let at = 0; at < input.byteLength; at += size)
          pieces.push(...redactor.push([input.subarray(at, at + size)]));
        pieces.push(...redactor.end());
        expect(Buffer.concat(pieces).toString()).toBe(expected);
        expect(redactor.counters.redactions).toBe(400);
      }
    }
  });

  it("hand on a chunk that begins with held bytes as those bytes and a view of the chunk", () => {
    // "tok" may start `token=…`: held at the end of the first chunk, then decided by the
    // second, whose bytes go on as a view of it, not in a fresh copy of the whole chunk.
    const redactor = createRedactor(compileRedaction({}));
    expect(Buffer.concat(redactor.push([bytes("a line of text tok")])).toString()).toBe(
      "a line of text ",
    );
    const second = bytes(`ens are counted here\n${"more text\n".repeat(100)}`);
    const out = redactor.push([second]);
    expect(Buffer.concat(out).toString()).toBe(`tok${second.toString()}`);
    expect(out.map((piece) => piece.byteLength)).toEqual([3, second.byteLength]);
    expect(out[1]!.buffer).toBe(second.buffer);
  });
});
