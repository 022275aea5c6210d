/**
 * The redactor's own markers (`[REDACTED:<rule>]`, `[OMITTED:<n> bytes undecidable]`) are
 * emitted as pieces of their own; this registry tells them from the child's bytes, so the
 * preview tap can record where they are and the preview can escape a child's look-alike
 * (docs/receipt.md, "Whose text is it"). Held weakly: a piece is forgotten with it.
 * A `[REDACTED:<rule>]` piece is registered once per compiled rule set and handed on by
 * every redaction of its rule: consumers read or copy pieces, never write into or
 * transfer them (the same holds for views of the input that stages hand on).
 */
const MARKERS = new WeakSet<Uint8Array>();

/** Register `piece` as a marker the redactor made, and return it. */
export function markerPiece<T extends Uint8Array>(piece: T): T {
  MARKERS.add(piece);
  return piece;
}

/** Whether `piece` is a marker the redactor made (not bytes of the stream). */
export function isMarkerPiece(piece: Uint8Array): boolean {
  return MARKERS.has(piece);
}
