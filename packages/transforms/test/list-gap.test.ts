import { describe, expect, it } from "vitest";
import { GAP_END, GAP_HOLD, GAP_OPEN, GAP_REST, ListGap } from "../src/rules/list-gap.js";

/** What the gap says at each byte of `text`, up to the first byte that is not a hold. */
function walk(gap: ListGap, text: string): string {
  let said = "";
  for (const byte of Buffer.from(text, "latin1")) {
    const read = gap.read(byte);
    said += read === GAP_HOLD ? "." : read === GAP_OPEN ? "O" : "E";
    if (read !== GAP_HOLD) break;
  }
  return said;
}

function json(quote = 0x22, escaped = false): ListGap {
  const gap = new ListGap(false, quote, escaped);
  gap.reset(0, true);
  return gap;
}

describe("the bytes between a list's elements", () => {
  it("opens the next JSON element after one comma, blanks and line breaks", () => {
    expect(walk(json(), ', "')).toBe("..O");
    expect(walk(json(), ',\n    "')).toBe("......O");
    expect(walk(json(0x27), " , '")).toBe("...O");
  });

  it("ends the list at its bracket, a second comma, another quote or anything else", () => {
    expect(walk(json(), "]")).toBe("E");
    expect(walk(json(), ", ,")).toBe("..E");
    expect(walk(json(), ", '")).toBe("..E");
    expect(walk(json(), ", {")).toBe("..E");
    expect(walk(json(), `,${" ".repeat(70)}"`)).toMatch(/E$/);
  });

  it("reads escapes inside a string: line breaks, and the quotes only escaped", () => {
    expect(walk(json(0x22, true), ',\\n  \\"')).toBe("......O");
    // A run of backslashes reads as one (a string inside a string inside a string).
    expect(walk(json(0x22, true), ', \\\\\\"')).toBe(".....O");
    expect(walk(json(0x22, true), ', "')).toBe("..E");
    expect(walk(json(), ", \\x")).toBe("...E");
  });

  it("takes the element's closing quote once when it was not read", () => {
    const gap = new ListGap(false, 0, false);
    gap.reset(0, false);
    expect(walk(gap, '", "')).toBe("...O");
    gap.reset(0, false);
    expect(walk(gap, '"x')).toBe(".E");
    // A quote after the closing one opens the next element: strings joined, a shell array.
    gap.reset(0, false);
    expect(walk(gap, '""')).toBe(".O");
    gap.reset(0, false);
    expect(walk(gap, '" "')).toBe("..O");
  });

  it("opens a YAML item at the first one's indentation, after its `-` and a blank", () => {
    const gap = new ListGap(true, 0, false);
    gap.itemIndent = 2;
    gap.reset(1, true);
    expect(walk(gap, "  - ")).toBe("...O");
    gap.reset(1, true);
    expect(walk(gap, "    - ")).toBe("....E");
    gap.reset(1, true);
    expect(walk(gap, "next: 1")).toBe("E");
    gap.reset(0, true);
    expect(walk(gap, "  \r\n  - ")).toBe(".......O");
  });

  it("learns a YAML list's indentation from its first item when told none", () => {
    const gap = new ListGap(true, 0, false);
    gap.reset(1, false);
    expect(walk(gap, "   - ")).toBe("....O");
    gap.reset(1, true);
    expect(walk(gap, "  - ")).toBe("..E");
  });

  it("reads an object's next member's name and `:` before its value", () => {
    const gap = new ListGap(false, 0x22, false, true);
    gap.reset(0, true);
    expect(walk(gap, ', "us-east.staging" : "')).toMatch(/^\.+O$/);
    gap.reset(0, true);
    expect(walk(gap, ', "a": 1')).toBe(".......E");
    gap.reset(0, true);
    expect(walk(gap, ', "a\nb": "')).toBe("....E");
    const yaml = new ListGap(true, 0, false, true);
    yaml.itemIndent = 2;
    yaml.reset(1, true);
    expect(walk(yaml, "  staging: ")).toMatch(/^\.+O$/);
    yaml.reset(1, true);
    expect(walk(yaml, "    deep: ")).toBe("....E");
    yaml.reset(1, true);
    expect(walk(yaml, "  a b: ")).toBe("...E");
  });

  it("keeps an element's rest to its closing quote or its line's end", () => {
    const gap = new ListGap(false, 0, false);
    gap.reset(GAP_REST, false);
    expect(walk(gap, ' Path=/; Expires=Wed, 21 Oct", "')).toMatch(/^\.+O$/);
    gap.reset(GAP_REST, false);
    expect(walk(gap, " Path=/\n")).toMatch(/E$/);
    const yaml = new ListGap(true, 0, false);
    yaml.itemIndent = 0;
    yaml.reset(GAP_REST, false);
    expect(walk(yaml, ' path="/"; HttpOnly\n- ')).toMatch(/^\.+O$/);
  });

  it("begins after an element's end only where a list goes on", () => {
    const gap = new ListGap(false, 0x22, false);
    expect(gap.ended(0x22, false)).toBe(true);
    expect(gap.ended(0x22, true)).toBe(false);
    expect(gap.ended(0x0a, false)).toBe(false);
    const yaml = new ListGap(true, 0, false);
    expect(yaml.ended(0x0a, false)).toBe(true);
    expect(yaml.ended(0x6e, true)).toBe(true);
    expect(yaml.ended(0x22, true)).toBe(true);
    expect(yaml.ended(0x20, false)).toBe(false);
    expect(GAP_END).not.toBe(GAP_OPEN);
  });
});
