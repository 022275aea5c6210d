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

const JS = "text/javascript; charset=utf-8";
const SVG = "image/svg+xml";

/** Every file served, by a fixed route each (no request names a file). */
const FILES: readonly { route: string; file: string; type: string }[] = [
  { route: "/", file: "index.html", type: "text/html; charset=utf-8" },
  { route: "/app.css", file: "app.css", type: "text/css; charset=utf-8" },
  ...[
    "app",
    "api",
    "dom",
    "outcome",
    "list",
    "capture",
    "viewer",
    "sources",
    "follow",
    "grep",
    "sgr",
    "combined",
  ].map((name) => ({ route: `/${name}.js`, file: `${name}.js`, type: JS })),
  ...["idle", "running", "failed", "passed"].map((state) => ({
    route: `/favicon-${state}.svg`,
    file: `favicon-${state}.svg`,
    type: SVG,
  })),
];

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
