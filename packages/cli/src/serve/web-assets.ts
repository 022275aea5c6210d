/**
 * The web view's files (`packages/cli/web/`: plain HTML, CSS and JS, no build step),
 * read once when the server starts and served from memory: no request reads a file.
 * Every one goes out with a strict Content-Security-Policy (scripts and styles from this
 * origin only, nothing inline, no frames, no form posts), `nosniff` and `no-referrer`.
 */
import * as fs from "node:fs";

/** One file of the web view. */
export interface WebAsset {
  readonly route: string;
  readonly body: Uint8Array;
  readonly headers: Record<string, string>;
}

export interface WebAssets {
  readonly files: readonly WebAsset[];
}

const WEB_DIR = new URL("../../web/", import.meta.url);

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES = [
  { route: "/", file: "index.html", type: "text/html; charset=utf-8" },
  { route: "/app.js", file: "app.js", type: "text/javascript; charset=utf-8" },
  { route: "/app.css", file: "app.css", type: "text/css; charset=utf-8" },
] as const;

/** Read the web view's files (at start-up). */
export function loadWebAssets(dir: URL = WEB_DIR): WebAssets {
  return {
    files: FILES.map(({ route, file, type }) => ({
      route,
      body: fs.readFileSync(new URL(file, dir)),
      headers: {
        "content-type": type,
        "content-security-policy": CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
        "cache-control": "no-cache",
      },
    })),
  };
}
