// Writes packages/core/receipt.schema.json from the zod schema `ReceiptSchema`; the last
// step of `pnpm build`. The file is checked in (docs/receipt.md links it), and
// packages/core/test/receipt.test.ts fails when it differs from what this writes. `pnpm
// test` and `prepare` do not run this, so a schema change not built and committed fails
// the suite instead of being silently rewritten.
import { writeFileSync } from "node:fs";
import { receiptJsonSchema } from "../packages/core/dist/index.js";

writeFileSync(
  new URL("../packages/core/receipt.schema.json", import.meta.url),
  `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`,
);
