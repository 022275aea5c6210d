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

/**
 * The ANSI strip stage's name (`Stage.name` and the receipt's `transforms` entry), e.g.
 * to find it in a plan.
 *
 * @category stages
 * @example
 * ```ts
 * import { ANSI_STRIP, createStreamPlan } from "@spool/transforms";
 * const plan = createStreamPlan({ previewChars: 4000, redactor: null });
 * plan.stages.some((stage) => stage.name === ANSI_STRIP); // true
 * ```
 */
export const ANSI_STRIP = "ansi-strip";

/**
 * Longest string sequence (OSC, DCS, …) in bytes dropped before it is cut off: a stream
 * that opens one and never closes it loses at most this much.
 *
 * @category stages
 * @example
 * ```ts
 * import { MAX_CONTROL_STRING } from "@spool/transforms";
 * MAX_CONTROL_STRING; // 4096
 * ```
 */
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

/**
 * A stage that removes ANSI escape sequences (CSI, OSC, and the rest), holding at most
 * an unfinished sequence between writes.
 *
 * @category stages
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createAnsiStrip } from "@spool/transforms";
 * runStage(createAnsiStrip(), [Buffer.from("\x1b[31mred\x1b[0m")]).toString(); // "red"
 * ```
 */
export function createAnsiStrip(): Stage {
  const parser: Parser = { state: State.Text, length: 0 };
  return {
    name: ANSI_STRIP,
    transform: "ansi-strip",
    held: 0,
    window: 0,
    push(batch) {
      const out: Uint8Array[] = [];
      for (const chunk of batch) if (chunk.byteLength > 0) stripChunk(parser, chunk, out);
      return out;
    },
    end() {
      parser.state = State.Text;
      return [];
    },
  };
}

/** The only state that crosses a chunk boundary. */
interface Parser {
  state: number;
  /** Bytes of the current sequence so far (its parameters, intermediates or string). */
  length: number;
}

/**
 * A step function's answer: the next state, plus what the byte does to the output (bits
 * above the state): dropped, kept as text (the sequence ended before it), or read again.
 */
const KEEP = 8;
const AGAIN = 16;
const STATE_BITS = 7;

/**
 * Push the text of `chunk` to `out`: the chunk itself when it holds no sequence, else its
 * text runs joined in one new buffer. Text is scanned here with the state in a local (the
 * per-byte hot path); bytes of a sequence go to the step function of its family.
 *
 * One buffer, not a piece per run: decoded random bytes hold an ESC every ~256 bytes, and
 * the stages after this one pay per piece far more than the copy costs (a 64 KiB read of
 * them became ~200 pieces; the redactor then spent 2.5× its cost on the same bytes).
 */
function stripChunk(p: Parser, chunk: Uint8Array, out: Uint8Array[]): void {
  const state = p.state;
  if (state === State.Text && chunk.indexOf(ESC) < 0) {
    out.push(chunk);
    return;
  }
  const runs: Uint8Array[] = [];
  p.state = stripRuns(state, p, chunk, runs);
  if (runs.length === 1) out.push(runs[0]!);
  else if (runs.length > 1) out.push(Buffer.concat(runs));
}

/** The text runs of `chunk` into `runs`, starting in `state`; returns the state at its end. */
function stripRuns(start: number, p: Parser, chunk: Uint8Array, runs: Uint8Array[]): number {
  let state = start;
  let runStart = -1;
  const n = chunk.length;
  for (let i = 0; i < n; i++) {
    if (state === State.Text) {
      // Text runs to the next ESC: found natively, not byte by byte (random bytes hold
      // one every 256 bytes, and the text between is most of the stream).
      const esc = chunk.indexOf(ESC, i);
      const end = esc < 0 ? n : esc;
      if (end > i && runStart < 0) runStart = i;
      if (esc < 0) break;
      if (runStart >= 0) runs.push(chunk.subarray(runStart, esc));
      runStart = -1;
      state = State.Escape;
      i = esc;
      continue;
    }
    const byte = chunk[i]!;
    const step = sequenceStep(p, state, byte);
    state = step & STATE_BITS;
    if (step & KEEP) runStart = i;
    else if (step & AGAIN) i--;
  }
  if (runStart >= 0) runs.push(chunk.subarray(runStart, n));
  return state;
}

function sequenceStep(p: Parser, state: number, byte: number): number {
  switch (state) {
    case State.Escape:
      return escapeStep(p, byte);
    case State.EscapeIntermediate:
      return intermediateStep(p, byte);
    case State.Csi:
      return csiStep(p, byte);
    default:
      return controlStringStep(p, state, byte);
  }
}

/** The byte after ESC: which sequence this is. */
function escapeStep(p: Parser, byte: number): number {
  p.length = 0;
  if (byte === 0x5b) return State.Csi;
  if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f)
    return State.ControlString;
  if (byte >= 0x20 && byte <= 0x2f) return State.EscapeIntermediate;
  if (byte >= 0x30 && byte <= 0x7e) return State.Text;
  if (byte === ESC) return State.Escape;
  // Not an escape sequence: drop the lone ESC, keep this byte.
  return State.Text | KEEP;
}

/** `ESC` intermediates (at most 16) then a final byte, e.g. `ESC ( B`. */
function intermediateStep(p: Parser, byte: number): number {
  if (byte >= 0x20 && byte <= 0x2f && ++p.length < 16) return State.EscapeIntermediate;
  return endOrBreak(byte, byte >= 0x30 && byte <= 0x7e);
}

/** `ESC [` parameters and intermediates (at most 256) then a final byte. */
function csiStep(p: Parser, byte: number): number {
  if (byte >= 0x20 && byte <= 0x3f && ++p.length < 256) return State.Csi;
  return endOrBreak(byte, byte >= 0x40 && byte <= 0x7e);
}

/** A sequence ends at its final byte (dropped); broken by any other, that byte is kept (or starts the next escape). */
function endOrBreak(byte: number, final: boolean): number {
  if (final) return State.Text;
  return byte === ESC ? State.Escape : State.Text | KEEP;
}

/** OSC, DCS, SOS, PM, APC: until BEL or `ESC \`, cut off after MAX_CONTROL_STRING bytes. */
function controlStringStep(p: Parser, state: number, byte: number): number {
  switch (state) {
    case State.ControlString:
      if (byte === BEL) return State.Text;
      if (byte === ESC) return State.ControlStringEscape;
      return ++p.length > MAX_CONTROL_STRING ? State.SkipContinuation : State.ControlString;
    case State.ControlStringEscape:
      // ESC \ is the terminator; any other ESC starts a new sequence after this one.
      return byte === 0x5c ? State.Text : State.Escape | AGAIN;
    default:
      // SkipContinuation
      if (byte >= 0x80 && byte <= 0xbf) return State.SkipContinuation;
      return State.Text | KEEP;
  }
}
