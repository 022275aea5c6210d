/**
 * One capture's share of an allowance shared by many captures (a root's `--root-quota`).
 * Reservations only grow until {@link Allowance.release}; an implementation may reserve
 * more than asked (a step), so that it is asked rarely.
 *
 * @category quotas
 * @example
 * ```ts
 * import type { Allowance } from "@spool/sinks";
 * declare const allowance: Allowance;
 * const held = allowance.reserve(4096);
 * if (held < 4096) console.warn("the root is full");
 * allowance.release(held);
 * ```
 */
export interface Allowance {
  /** Hold `total` bytes in all if the allowance has room; returns the bytes now held (less than `total` is a refusal of the rest). */
  reserve(total: number): number;
  /** The capture ended keeping `kept` bytes: hold exactly that from now on (what it kept keeps counting). */
  release(kept: number): void;
  /** Bytes held now. */
  readonly reserved: number;
}
