/**
 * Newline-delimited JSON-RPC framing (the MCP stdio transport): bytes in, whole lines out,
 * and what is left of an unfinished line when the stream ends (a wrapped server that died
 * mid-message), so that nothing received is lost.
 */

/** A line splitter over a byte stream. */
export interface JsonLines {
  /** Feed bytes; every completed line (without its `\n`) goes to `onLine`. */
  push(chunk: Buffer): void;
  /** Bytes of the line not yet ended by `\n`. */
  pending(): Buffer;
  /** Bytes held for the unfinished line. */
  readonly pendingBytes: number;
  /** The unfinished line's bytes, no longer held (the caller takes the line over). */
  take(): Buffer;
}

/**
 * @example
 * const lines = createJsonLines((line) => console.log(JSON.parse(line.toString())));
 * lines.push(Buffer.from('{"a":1}\n{"b"'));
 * lines.pending().toString(); // '{"b"'
 */
export function createJsonLines(onLine: (line: Buffer) => void): JsonLines {
  let parts: Buffer[] = [];
  let held = 0;
  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        parts.push(chunk.subarray(start, nl));
        const line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
        parts = [];
        held = 0;
        start = nl + 1;
        if (line.length > 0 && !(line.length === 1 && line[0] === 13)) onLine(line);
      }
      if (start < chunk.length) {
        parts.push(chunk.subarray(start));
        held += chunk.length - start;
      }
    },
    pending: () => Buffer.concat(parts),
    take() {
      const taken = Buffer.concat(parts);
      parts = [];
      held = 0;
      return taken;
    },
    get pendingBytes() {
      return held;
    },
  };
}
