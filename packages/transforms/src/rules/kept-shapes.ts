/**
 * One idle instance of each built-in candidate class, held for the life of the process.
 *
 * V8 holds the hidden classes (maps) an object's fields lead to only through the objects
 * that have them. Candidates live for a few bytes, so when none is alive at a major
 * collection those maps die, and every optimised function that checks them (the rules'
 * `start`, `next`, `skip`…) is thrown away and compiled again when the next candidate
 * is made: `--trace-deopt` said "weak objects" 165 times for a 256 MiB capture of log
 * text (about 25 functions at each major collection), and V8 spent ~0.7 s recompiling
 * them. An idle instance made by the same constructor keeps the maps; it holds no input.
 */
const KEPT: object[] = [];

/** Keep `idle` (a candidate made by its class's constructor and never fed) for good. */
export function keepShape(idle: object): void {
  KEPT.push(idle);
}
