/**
 * Capture identities: 144 random bits, base64url (24 characters), safe as a file name.
 *
 * @example
 * ```ts
 * import { newCaptureId, isCaptureId } from "@spool/core";
 * isCaptureId(newCaptureId()); // true
 * ```
 */
import { randomBytes } from "node:crypto";

export function newCaptureId(): string {
  return randomBytes(18).toString("base64url");
}

/** The shape of an id this framework makes (not a proof that it exists). */
export function isCaptureId(value: string): boolean {
  return /^[A-Za-z0-9_-]{24}$/.test(value);
}
