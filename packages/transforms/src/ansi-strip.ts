/**
 * Removes terminal control sequences (colours, cursor moves, titles, hyperlinks) from a
 * byte stream, chunk-safely: a byte-level state machine whose output does not depend on
 * where the input was split. It holds nothing: a sequence's bytes are dropped as they
 * arrive, so only the parser state crosses a chunk boundary.
 *
 * Recognised (ECMA-48 / xterm): CSI (`ESC [` parameters, intermediates, final byte), the
 * string sequences OSC, DCS, SOS, PM and APC (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`,
 * ended by BEL or `ESC \`), and other escapes (`ESC` intermediates final, e.g. `ESC ( B`).
 * A CSI broken by an unexpected byte ends there and that byte is kept; a string sequence
 * longer than 4096 bytes is cut off (its bytes stay dropped, whole UTF-8 characters), so
 * an unterminated one cannot swallow the rest of the output.
 *
 * @example
 * ```ts
 * import { createAnsiStrip } from "@spool/transforms";
 * const strip = createAnsiStrip();
 * strip.push([Buffer.from("\x1b[31mred\x1b[")]); // [<"red">]
 * strip.push([Buffer.from("0m done")]); // [<" done">]
 * ```
 */
import type { Stage } from "@spool/core/runtime";

export const ANSI_STRIP = "ansi-strip";

/** Longest string sequence (OSC, DCS, …) dropped before it is cut off. */
export const MAX_CONTROL_STRING = 4096;

const ESC = 0x1b;
const BEL = 0x07;

const State = {
  Text: 0,
  Escape: 1,
  EscapeIntermediate: 2,
  Csi: 3,
  ControlString: 4,
  ControlStringEscape: 5,
  /** Cut-off string sequence: skip UTF-8 continuation bytes so no character is split. */
  SkipContinuation: 6,
} as const;

export function createAnsiStrip(): Stage {
  let state: number = State.Text;
  let length = 0;

  const stripChunk = (chunk: Uint8Array, out: Uint8Array[]) => {
    let runStart = -1;
    const n = chunk.length;
    let i = 0;
    if (state === State.Text) {
      const esc = chunk.indexOf(ESC);
      if (esc < 0) {
        out.push(chunk);
        return;
      }
    }
    for (; i < n; i++) {
      const byte = chunk[i]!;
      switch (state) {
        case State.Text:
          if (byte !== ESC) {
            if (runStart < 0) runStart = i;
            continue;
          }
          if (runStart >= 0) out.push(chunk.subarray(runStart, i));
          runStart = -1;
          state = State.Escape;
          continue;
        case State.Escape:
          length = 0;
          if (byte === 0x5b) state = State.Csi;
          else if (
            byte === 0x5d ||
            byte === 0x50 ||
            byte === 0x58 ||
            byte === 0x5e ||
            byte === 0x5f
          )
            state = State.ControlString;
          else if (byte >= 0x20 && byte <= 0x2f) state = State.EscapeIntermediate;
          else if (byte >= 0x30 && byte <= 0x7e) state = State.Text;
          else if (byte === ESC) state = State.Escape;
          else {
            // Not an escape sequence: drop the lone ESC, keep this byte.
            state = State.Text;
            runStart = i;
          }
          continue;
        case State.EscapeIntermediate:
          if (byte >= 0x20 && byte <= 0x2f && ++length < 16) continue;
          if (byte >= 0x30 && byte <= 0x7e) {
            state = State.Text;
            continue;
          }
          state = byte === ESC ? State.Escape : State.Text;
          if (state === State.Text) runStart = i;
          continue;
        case State.Csi:
          if (byte >= 0x20 && byte <= 0x3f && ++length < 256) continue;
          if (byte >= 0x40 && byte <= 0x7e) {
            state = State.Text;
            continue;
          }
          state = byte === ESC ? State.Escape : State.Text;
          if (state === State.Text) runStart = i;
          continue;
        case State.ControlString:
          if (byte === BEL) state = State.Text;
          else if (byte === ESC) state = State.ControlStringEscape;
          else if (++length > MAX_CONTROL_STRING) state = State.SkipContinuation;
          continue;
        case State.ControlStringEscape:
          // ESC \ is the terminator; any other ESC starts a new sequence after this one.
          if (byte === 0x5c) state = State.Text;
          else {
            state = State.Escape;
            i--;
          }
          continue;
        case State.SkipContinuation:
          if (byte >= 0x80 && byte <= 0xbf) continue;
          state = State.Text;
          runStart = i;
          continue;
      }
    }
    if (runStart >= 0) out.push(chunk.subarray(runStart, n));
  };

  return {
    name: ANSI_STRIP,
    transform: "ansi-strip",
    held: 0,
    window: 0,
    push(batch) {
      const out: Uint8Array[] = [];
      for (const chunk of batch) if (chunk.byteLength > 0) stripChunk(chunk, out);
      return out;
    },
    end() {
      state = State.Text;
      return [];
    },
  };
}
