import { describe, expect, it } from "vitest";
import { createTextExtractor } from "../../src/mcp/text-extractor.js";

/** The extractor's output for `json` pushed in pieces cut at `cuts`. */
function extract(json: string, cuts: readonly number[]): string {
  const bytes = Buffer.from(json);
  const x = createTextExtractor();
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...x.push(bytes.subarray(at, cut)));
    at = cut;
  }
  return Buffer.concat(out).toString();
}

/** What it must give: every `text` value of the parsed message, joined by newlines. */
function expected(message: unknown): string {
  const texts: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (k === "text" && typeof x === "string") texts.push(x);
        else walk(x);
      }
  };
  walk(message);
  return texts.join("\n");
}

const MESSAGES = [
  { result: { content: [{ type: "text", text: 'a "quoted"\\ line\nand ü 😀 \u0001 tab\t' }] } },
  {
    result: {
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        { type: "resource", resource: { uri: "x://text", text: "second\r\n" } },
      ],
      structuredContent: { texts: ["not text", { textual: "no" }], 'te"xt': "no" },
    },
    jsonrpc: "2.0",
    id: 3,
  },
  { contents: [{ uri: "file:///a", text: "\ud83d\ude00 pair, then lone \ud800 x" }] },
];

describe("createTextExtractor", () => {
  it("gives every text value, decoded, whatever the chunking", () => {
    for (const message of MESSAGES) {
      const json = JSON.stringify(message);
      // As UTF-8 (a lone surrogate becomes U+FFFD, as the extractor writes it).
      const want = Buffer.from(expected(message)).toString();
      const length = Buffer.byteLength(json);
      expect(extract(json, [])).toBe(want);
      // Every single cut, and cuts at every byte.
      for (let cut = 1; cut < length; cut++) expect(extract(json, [cut])).toBe(want);
      expect(
        extract(
          json,
          Array.from({ length: length - 1 }, (_, i) => i + 1),
        ),
      ).toBe(want);
    }
  });

  it("decodes \\u escapes, pairs included, and replaces a lone surrogate", () => {
    const json = '{"text":"\\u00fc\\ud83d\\ude00\\ud800x\\u0041"}';
    expect(extract(json, [])).toBe("ü😀\ufffdxA");
  });
});
