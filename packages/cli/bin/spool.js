#!/usr/bin/env node
import { main } from "../dist/entry/main.js";

let settled = false;
// The event loop ran dry while the command still waited on something nothing can wake
// (a bug): say so and fail, rather than exit 0 having printed nothing.
process.once("beforeExit", () => {
  if (settled) return;
  process.stderr.write(
    "spool: internal error: the command stopped waiting on nothing left to happen\n",
  );
  process.exitCode = 70;
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error) => {
    settled = true;
    process.stderr.write(`spool: internal error: ${error?.message ?? error}\n`);
    process.exitCode = 70;
  },
);
