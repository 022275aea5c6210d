/**
 * The text of a JSON-RPC message read as it streams, never held whole: the decoded value
 * of every string whose key is `"text"` (a tool result's text items, a resource's or a
 * prompt message's text), one after another with a newline between them. `mcp-proxy`
 * spools a message too large to hold through it. A per-byte state machine over each chunk;
 * runs of plain string bytes are copied as they are (UTF-8 never uses `"` or `\` inside a
 * multi-byte character), escapes are decoded, and nothing depends on where chunks split.
 */

/** Pushes JSON bytes, returns the text bytes they complete. */
export interface TextExtractor {
  push(chunk: Buffer): Buffer[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE: Readonly<Record<number, string>> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t",
};

/**
 * @example
 * const x = createTextExtractor();
 * Buffer.concat(x.push(Buffer.from('{"content":[{"type":"text","text":"a\\nb"}]}'))).toString(); // "a\nb"
 */
export function createTextExtractor(): TextExtractor {
  const s = {
    inString: false,
    /** The string being read is a `"text"` value: its bytes are emitted. */
    emitting: false,
    /** After a `"text"` key and its colon: the next string is emitted. */
    textValueNext: false,
    /** The last string read outside a value we emit, up to 5 bytes (is it `text`?). */
    key: "",
    escape: "" as "" | "\\" | "u",
    hex: "",
    /** A high surrogate waiting for its low half. */
    high: -1,
    emitted: 0,
  };
  return {
    push(chunk) {
      const out: Buffer[] = [];
      const nextSpecial = specialFinder(chunk);
      let run = -1; // start of a run of plain bytes to copy
      const flush = (end: number) => {
        if (run >= 0 && end > run) out.push(chunk.subarray(run, end));
        run = -1;
      };
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (!s.inString) {
          betweenStrings(s, b, out);
          continue;
        }
        if (s.escape !== "") {
          const text = escaped(s, b);
          if (text !== null && s.emitting) out.push(Buffer.from(text));
          continue;
        }
        if (b === QUOTE) {
          if (s.emitting) flush(i);
          endString(s, out);
        } else if (b === BACKSLASH) {
          if (s.emitting) flush(i);
          s.escape = "\\";
        } else if (s.emitting) {
          if (s.high >= 0) {
            out.push(Buffer.from("\ufffd"));
            s.high = -1;
          }
          if (run < 0) run = i;
          i = nextSpecial(i + 1) - 1; // plain bytes up to the next " or \ : one run
        } else if (s.key.length < 5) {
          s.key += String.fromCharCode(b);
        } else {
          s.key = "-----";
          i = nextSpecial(i + 1) - 1;
        }
      }
      if (s.emitting) flush(chunk.length);
      return out;
    },
  };
}

/**
 * The index of the next `"` or `\` in `chunk` from a given index, or its length. Each of
 * the two is searched again only once passed: a chunk with none of one is scanned once,
 * not once per call.
 */
export function specialFinder(chunk: Buffer): (from: number) => number {
  let quote = -1;
  let backslash = -1;
  return (from) => {
    if (quote < from && quote !== chunk.length) {
      quote = chunk.indexOf(QUOTE, from);
      if (quote === -1) quote = chunk.length;
    }
    if (backslash < from && backslash !== chunk.length) {
      backslash = chunk.indexOf(BACKSLASH, from);
      if (backslash === -1) backslash = chunk.length;
    }
    return Math.min(quote, backslash);
  };
}

type State = {
  inString: boolean;
  emitting: boolean;
  textValueNext: boolean;
  key: string;
  escape: "" | "\\" | "u";
  hex: string;
  high: number;
  emitted: number;
};

/** A byte outside any string: only `"` (a string starts) and `:` (a key ended) matter. */
function betweenStrings(s: State, b: number, out: Buffer[]): void {
  if (b === QUOTE) {
    s.inString = true;
    s.emitting = s.textValueNext;
    s.textValueNext = false;
    s.key = "";
    if (s.emitting && s.emitted++ > 0) out.push(Buffer.from("\n"));
  } else if (b === 0x3a) {
    s.textValueNext = s.key === "text";
  } else if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
    s.textValueNext = false;
  }
}

/** The closing quote of a string. */
function endString(s: State, out: Buffer[]): void {
  if (s.emitting && s.high >= 0) out.push(Buffer.from("\ufffd"));
  s.high = -1;
  s.inString = false;
  if (s.emitting) s.key = "";
  s.emitting = false;
}

/** A byte of an escape sequence: the text it completes, or null while it goes on. */
function escaped(s: State, b: number): string | null {
  if (s.escape === "\\") {
    if (b === 0x75) {
      s.escape = "u";
      s.hex = "";
      return null;
    }
    s.escape = "";
    const simple = SIMPLE[b] ?? String.fromCharCode(b);
    if (!s.emitting) {
      s.key = "-----";
      return null;
    }
    return withPendingHigh(s, simple);
  }
  s.hex += String.fromCharCode(b);
  if (s.hex.length < 4) return null;
  s.escape = "";
  const unit = Number.parseInt(s.hex, 16);
  if (!s.emitting) {
    s.key = "-----";
    return null;
  }
  if (Number.isNaN(unit)) return withPendingHigh(s, "\ufffd");
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const before = s.high >= 0 ? "\ufffd" : "";
    s.high = unit;
    return before === "" ? null : before;
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    if (s.high < 0) return "\ufffd";
    const pair = String.fromCharCode(s.high, unit);
    s.high = -1;
    return pair;
  }
  return withPendingHigh(s, String.fromCharCode(unit));
}

/** `text`, after a replacement character for a high surrogate left without its low half. */
function withPendingHigh(s: State, text: string): string {
  if (s.high < 0) return text;
  s.high = -1;
  return `\ufffd${text}`;
}
