// Regenerates packages/core/receipt.schema.json from the zod schema (run after `tsc -b`).
import { writeFileSync } from "node:fs";
import { receiptJsonSchema } from "../packages/core/dist/index.js";

writeFileSync(
  new URL("../packages/core/receipt.schema.json", import.meta.url),
  `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`,
);
