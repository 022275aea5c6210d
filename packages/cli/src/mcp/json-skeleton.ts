/**
 * A bounded copy of a JSON message read as it streams: every byte outside strings as it
 * came, and each string's first `stringBytes` bytes (at least {@link LEAST_KEPT}, so that
 * keys stay whole: whether a string is a key is known only after it; never cut inside an
 * escape or a UTF-8 character), then `…[spool: N B more in the capture]`. Still valid JSON, so `mcp-proxy`
 * can keep a streamed tool result's `structuredContent` (cut as any kept structured part
 * is: the client checks it against the tool's output schema). A copy that would pass
 * `maxBytes` (many strings or items) is given up: null.
 */

import { specialFinder } from "./text-extractor.js";

/** Pushes JSON bytes; `text()` is the bounded copy so far, or null once over its cap. */
export interface JsonSkeleton {
  push(chunk: Buffer): void;
  text(): string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;
/** Bytes of any string always kept. */
export const LEAST_KEPT = 256;

/**
 * @example
 * const s = createJsonSkeleton(256, 4096);
 * s.push(Buffer.from(JSON.stringify({ a: "x".repeat(300) })));
 * s.text(); // '{"a":"xxx…x…[spool: 44 B more in the capture]"}'
 */
export function createJsonSkeleton(stringBytes: number, maxBytes: number): JsonSkeleton {
  const bound = Math.max(stringBytes, LEAST_KEPT);
  const s = { inString: false, escapeLeft: 0, unicode: false, kept: 0, total: 0, clipped: false };
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    push(chunk) {
      if (over) return;
      let run = s.clipped ? -1 : 0;
      const nextSpecial = specialFinder(chunk);
      const flush = (end: number) => {
        if (run >= 0 && end > run) {
          parts.push(Buffer.from(chunk.subarray(run, end)));
          size += end - run;
        }
      };
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (!s.inString) {
          if (b === QUOTE) Object.assign(s, { inString: true, kept: 0, total: 0, clipped: false });
          continue;
        }
        const partOfEscape = s.escapeLeft > 0;
        if (partOfEscape) {
          if (s.escapeLeft === 1 && b === U && !s.unicode) {
            s.escapeLeft = 4;
            s.unicode = true;
          } else if (--s.escapeLeft === 0) s.unicode = false;
        } else if (b === BACKSLASH) s.escapeLeft = 1;
        else if (b === QUOTE) {
          s.inString = false;
          if (s.clipped) {
            const marker = Buffer.from(`…[spool: ${s.total - s.kept} B more in the capture]`);
            parts.push(marker);
            size += marker.length;
            run = i;
          }
          s.clipped = false;
          continue;
        }
        s.total++;
        if (!partOfEscape && b !== BACKSLASH) {
          // Plain bytes up to the next " or \ are one run: skipped whole when clipped or
          // when all of them are kept.
          const next = nextSpecial(i + 1);
          if (s.clipped || s.kept + (next - i) < bound) {
            s.total += next - i - 1;
            if (!s.clipped) s.kept += next - i;
            i = next - 1;
            continue;
          }
        }
        if (s.clipped) continue;
        if (s.kept >= bound && !partOfEscape && (b & 0xc0) !== 0x80) {
          flush(i);
          run = -1;
          s.clipped = true;
        } else s.kept++;
      }
      flush(chunk.length);
      if (size > maxBytes) {
        over = true;
        parts = [];
      }
    },
    text: () => (over ? null : Buffer.concat(parts).toString("utf8")),
  };
}
