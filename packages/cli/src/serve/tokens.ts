/**
 * Bearer tokens of `spool serve`. Two kinds, told apart by their form:
 *
 * - the **root token** (`spool-root.<43 base64url chars>`, 256 random bits): full access to
 *   every capture of the root, cursors included. It is the root's secret: created on the
 *   first start (`serve.token` in the root, exclusively, `0600`) or given with `--token-file`.
 * - **scoped tokens** (`spool1.<claims>.<mac>`), made by `spool token`: read-only, expiring,
 *   optionally limited to one capture. The claims are base64url JSON `{v, cap, exp, ro}`;
 *   the mac is HMAC-SHA256 over `spool1.<claims>` with a key derived from the root token,
 *   so the server keeps no table of issued tokens, and replacing the root token revokes
 *   every scoped token at once.
 *
 * Every comparison of secret material is constant-time (`timingSafeEqual` on fixed-length
 * digests), and a refusal never says which part of a token was wrong.
 *
 * @example
 * ```ts
 * import { createTokenAuthority, newRootToken } from "./tokens.js";
 * const authority = createTokenAuthority({ rootToken: newRootToken(), now: () => Date.now() });
 * const token = authority.issue({ captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", ttlMs: 3_600_000 });
 * authority.verify(`Bearer ${token}`); // { kind: "scoped", captureId: "AAAA…", readOnly: true, … }
 * ```
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isCaptureId, SpoolError } from "@spool/core";

const COMPONENT = "serve-auth";
const ROOT_PREFIX = "spool-root.";
const SCOPED_PREFIX = "spool1.";
/** Longest `Authorization` value looked at (a scoped token is well under 300 bytes). */
const MAX_AUTHORIZATION = 1024;
/** Longest lifetime of a scoped token. */
export const MAX_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

/** What a verified token lets its bearer do. */
export interface Grant {
  readonly kind: "root" | "scoped";
  /** The one capture the bearer may read, or null for every capture. */
  readonly captureId: string | null;
  /** No writes of any kind (a `?cursor=` read advances a cursor: refused). */
  readonly readOnly: boolean;
  /** When the grant ends (ms since the epoch), or null for the root token. */
  readonly expiresAt: number | null;
}

export interface IssueOptions {
  /** Limit the token to this capture. @default every capture */
  readonly captureId?: string | null;
  /** Lifetime, at most {@link MAX_TOKEN_TTL_MS}. */
  readonly ttlMs: number;
}

export interface TokenAuthority {
  /** A new read-only scoped token. */
  issue(options: IssueOptions): string;
  /** The grant of an `Authorization` header value (`Bearer …`); throws `SPOOL_E_AUTH`. */
  verify(authorization: string | undefined): Grant;
}

export interface TokenAuthorityOptions {
  readonly rootToken: string;
  /** Milliseconds since the epoch (injected in tests). */
  readonly now: () => number;
}

/** A fresh root token (256 random bits). */
export function newRootToken(): string {
  return `${ROOT_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** Whether `text` has the form of a root token. */
export function isRootToken(text: string): boolean {
  return /^spool-root\.[A-Za-z0-9_-]{43}$/.test(text);
}

export function createTokenAuthority(options: TokenAuthorityOptions): TokenAuthority {
  if (!isRootToken(options.rootToken)) {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      COMPONENT,
      "the root token is not of the spool-root form",
    );
  }
  const rootDigest = digest(options.rootToken);
  const macKey = createHmac("sha256", options.rootToken).update("spool scoped token v1").digest();
  const mac = (signed: string) => createHmac("sha256", macKey).update(signed).digest();

  return {
    issue({ captureId = null, ttlMs }) {
      if (!Number.isInteger(ttlMs) || ttlMs < 1000 || ttlMs > MAX_TOKEN_TTL_MS) {
        throw new SpoolError("SPOOL_E_USAGE", COMPONENT, "a token lives from 1 s to 30 days");
      }
      if (captureId !== null && !isCaptureId(captureId)) {
        throw new SpoolError("SPOOL_E_REF_INVALID", COMPONENT, "not a captureId");
      }
      const claims = { v: 1, cap: captureId, exp: options.now() + ttlMs, ro: true };
      const signed = `${SCOPED_PREFIX}${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
      return `${signed}.${mac(signed).toString("base64url")}`;
    },
    verify(authorization) {
      if (authorization === undefined) throw denied("no bearer token");
      if (authorization.length > MAX_AUTHORIZATION) throw denied("bad bearer token");
      const m = /^Bearer ([\x21-\x7e]+)$/.exec(authorization);
      if (!m) throw denied("bad bearer token");
      const token = m[1] as string;
      if (token.startsWith(ROOT_PREFIX)) {
        // Digests of equal length, so the comparison time says nothing about the token.
        if (!timingSafeEqual(digest(token), rootDigest)) throw denied("bad bearer token");
        return { kind: "root", captureId: null, readOnly: false, expiresAt: null };
      }
      if (!token.startsWith(SCOPED_PREFIX)) throw denied("bad bearer token");
      const dot = token.lastIndexOf(".");
      const signed = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), "base64url");
      const expected = mac(signed);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw denied("bad bearer token");
      }
      const claims = parseClaims(signed.slice(SCOPED_PREFIX.length));
      if (options.now() >= claims.exp) throw denied("token expired");
      return { kind: "scoped", captureId: claims.cap, readOnly: true, expiresAt: claims.exp };
    },
  };
}

/** The claims of a token whose mac checked out (so they are ours; still checked for shape). */
function parseClaims(encoded: string): { cap: string | null; exp: number } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    throw denied("bad bearer token");
  }
  const c = value as { v?: unknown; cap?: unknown; exp?: unknown; ro?: unknown };
  const capOk = c.cap === null || (typeof c.cap === "string" && isCaptureId(c.cap));
  if (c.v !== 1 || !capOk || typeof c.exp !== "number" || c.ro !== true) {
    throw denied("bad bearer token");
  }
  return { cap: c.cap as string | null, exp: c.exp };
}

const digest = (text: string) => createHash("sha256").update(text).digest();

const denied = (message: string) => new SpoolError("SPOOL_E_AUTH", COMPONENT, message);

/**
 * A lifetime such as `90s`, `15m`, `1h`, `7d` (or plain seconds) in milliseconds; throws
 * `SPOOL_E_USAGE` for anything else or anything over 30 days.
 */
export function parseTtl(text: string): number {
  const m = /^(\d{1,9})([smhd]?)$/.exec(text);
  if (!m)
    throw new SpoolError(
      "SPOOL_E_USAGE",
      "cli",
      `--ttl takes 90s, 15m, 1h or 7d, not "${text.slice(0, 20)}"`,
    );
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "" | "s" | "m" | "h" | "d"];
  const ms = Number(m[1]) * unit * 1000;
  if (ms < 1000 || ms > MAX_TOKEN_TTL_MS) {
    throw new SpoolError("SPOOL_E_USAGE", "cli", "--ttl is from 1s to 30d");
  }
  return ms;
}
