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

/**
 * A fresh capture id: 24 base64url characters (about 143 random bits), starting with a
 * letter or digit so it is never read as a command-line option.
 *
 * @category capture
 * @example
 * ```ts
 * import { newCaptureId } from "@spool/core";
 * const captureId = newCaptureId(); // e.g. "q3Zt9xV0Lk2mN8bR4sT6wY1a"
 * ```
 */
export function newCaptureId(): string {
  for (;;) {
    const id = randomBytes(18).toString("base64url");
    // Rejection keeps the ids uniform over those that start with a letter or digit.
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

/**
 * What a capture id may be: ids this framework makes (24 base64url characters), and ids a
 * caller supplies (16-64 base64url characters). A name that does not match is never a
 * capture.
 *
 * @category capture
 * @example
 * ```ts
 * import { CAPTURE_ID_PATTERN } from "@spool/core";
 * CAPTURE_ID_PATTERN.test("../etc"); // false
 * ```
 */
export const CAPTURE_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * What `--call-id` (and so a callId REF) may be: 1-128 characters of `A-Za-z0-9._:-`.
 *
 * @category capture
 * @example
 * ```ts
 * import { CALL_ID_PATTERN } from "@spool/core";
 * CALL_ID_PATTERN.test("tool-call:42"); // true
 * ```
 */
export const CALL_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The shape of an id this framework makes (24 base64url characters); not a proof that a
 * capture with it exists.
 *
 * @category capture
 * @example
 * ```ts
 * import { isCaptureId, newCaptureId } from "@spool/core";
 * isCaptureId(newCaptureId()); // true
 * isCaptureId("stdout.txt"); // false
 * ```
 */
export function isCaptureId(value: string): boolean {
  return /^[A-Za-z0-9_-]{24}$/.test(value);
}
