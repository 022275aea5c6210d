#!/usr/bin/env node
import { main } from "../dist/entry/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`spool: internal error: ${error?.message ?? error}\n`);
    process.exitCode = 70;
  },
);
