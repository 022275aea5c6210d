/**
 * fast-check, the kit's optional peer dependency, loaded with a clear message when it is
 * missing (a bare `import` would fail with `ERR_MODULE_NOT_FOUND` and no hint of why).
 *
 * @example
 * ```ts
 * import { fc } from "./fast-check-peer.js"; // internal to @spool/transforms/testing
 * fc.sample(fc.nat(), 1);
 * ```
 */

import { SpoolError } from "@spool/core/errors";
import type FastCheck from "fast-check";

async function loadFastCheck(): Promise<typeof FastCheck> {
  try {
    return (await import("fast-check")).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String(error).includes("fast-check")) throw error;
    throw new SpoolError(
      "SPOOL_E_USAGE",
      "@spool/transforms/testing",
      "needs fast-check, an optional peer dependency: run `npm install --save-dev fast-check@^4`",
      { cause: error },
    );
  }
}

export const fc: typeof FastCheck = await loadFastCheck();
