/**
 * The redactor's own markers (`[REDACTED:<rule>]`, `[OMITTED:<n> bytes undecidable]`) are
 * told from the child's bytes by this registry, so the preview tap can record where they
 * are and the preview can escape a child's look-alike (docs/receipt.md, "Whose text is
 * it"). A piece the redactor hands on is registered with the ranges in it that are its
 * markers: a marker alone, or the one piece a chunk's output is gathered into. Held weakly:
 * a piece is forgotten with it. A `[REDACTED:<rule>]` piece is registered once per compiled
 * rule set and may be handed on by many redactions of its rule: consumers read or copy
 * pieces, never write into or transfer them (the same holds for views of the input that
 * stages hand on).
 */
const MARKERS = new WeakMap<Uint8Array, readonly number[]>();

/** Register the whole of `piece` as a marker the redactor made, and return it. */
export function markerPiece<T extends Uint8Array>(piece: T): T {
  MARKERS.set(piece, [0, piece.byteLength]);
  return piece;
}

/**
 * Register `ranges` (`[start, end, start, end, …]`, ascending offsets into `piece`) as the
 * redactor's markers in `piece`, and return it.
 */
export function markedPiece<T extends Uint8Array>(piece: T, ranges: readonly number[]): T {
  MARKERS.set(piece, ranges);
  return piece;
}

/** The ranges of `piece` that are markers the redactor made, or `undefined` (none). */
export function markerRanges(piece: Uint8Array): readonly number[] | undefined {
  return MARKERS.get(piece);
}
