import { describe, expect, it } from "vitest";
import { createJsonSkeleton } from "../../src/mcp/json-skeleton.js";
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

describe("createJsonSkeleton", () => {
  it("is valid JSON with every string cut to its bound, whatever the chunking", () => {
    const message = {
      result: {
        content: [{ type: "text", text: `${'é"\\\n'.repeat(300)}😀${"z".repeat(500)}` }],
        structuredContent: { content: "\u0001\u00ff😀".repeat(200), n: [1, 2.5, true, null] },
      },
      jsonrpc: "2.0",
      id: 'x"1',
    };
    const json = Buffer.from(JSON.stringify(message));
    for (const bound of [0, 300, 301, 302, 303, 1000]) {
      for (const step of [1, 3, 1000, json.length]) {
        const s = createJsonSkeleton(bound, 1 << 20);
        for (let at = 0; at < json.length; at += step) s.push(json.subarray(at, at + step));
        const copy = JSON.parse(s.text() ?? "") as typeof message;
        expect(copy.id).toBe(message.id);
        expect(copy.result.structuredContent.n).toEqual([1, 2.5, true, null]);
        const kept = copy.result.structuredContent.content;
        const cut = kept.indexOf("…[spool: ");
        expect(message.result.structuredContent.content.startsWith(kept.slice(0, cut))).toBe(true);
        expect(kept).toMatch(/…\[spool: \d+ B more in the capture\]$/);
      }
    }
  });

  it("gives up past its cap", () => {
    const s = createJsonSkeleton(10, 200);
    s.push(Buffer.from(JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => i) })));
    expect(s.text()).toBeNull();
  });
});
