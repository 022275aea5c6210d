/**
 * Capture identities: base64url (24 characters, about 143 random bits), safe as a file
 * name, and never starting with `-` or `_`, so an id is never read as a command-line option.
 *
 * @example
 * ```ts
 * import { newCaptureId, isCaptureId } from "@spool/core";
 * isCaptureId(newCaptureId()); // true
 * ```
 */
import { randomBytes } from "node:crypto";

export function newCaptureId(): string {
  for (;;) {
    const id = randomBytes(18).toString("base64url");
    // Rejection keeps the ids uniform over those that start with a letter or digit.
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

/**
 * Names a capture may carry, and so its directory: the ids {@link newCaptureId} makes
 * and ids a caller supplies (16-64 base64url characters). A name that does not match is
 * never a capture.
 */
export const CAPTURE_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** What `--call-id` (and so a callId REF) may be: 1-128 characters of `A-Za-z0-9._:-`. */
export const CALL_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The shape of an id this framework makes (not a proof that it exists). */
export function isCaptureId(value: string): boolean {
  return /^[A-Za-z0-9_-]{24}$/.test(value);
}
