/**
 * The worker thread of the server's grep: the CLI's pattern and scan (`grep-pattern.ts`,
 * `grep-scan.ts`) on bytes posted to it one chunk at a time, each chunk answered with the
 * matches it produced (the ack the runner waits for before sending the next). The pattern
 * is linear-time (RE2), but a scan of a long stream still takes time in proportion to it:
 * running apart lets the runner stop it at its deadline without blocking the server.
 */
import { parentPort, workerData } from "node:worker_threads";
import { compileGrepPattern } from "../grep-pattern.js";
import { createGrepScan, type GrepMatch } from "../grep-scan.js";
import type { GrepReply, GrepRequest, WorkerJob } from "./grep-protocol.js";

const port = parentPort;
if (port) {
  const job = workerData as WorkerJob;
  let batch: GrepMatch[] = [];
  const scan = createGrepScan(
    {
      // The runner compiled it already (a refused pattern never reaches a worker).
      pattern: compileGrepPattern(job.pattern, job.ignoreCase, { bytes: job.binary }),
      max: job.max,
      onlyMatching: job.onlyMatching,
      columns: job.columns,
      binary: job.binary,
    },
    (match) => batch.push(match),
  );
  port.on("message", (message: GrepRequest) => {
    let more = true;
    if (message.type === "chunk") more = scan.push(Buffer.from(message.bytes));
    else scan.end();
    const reply: GrepReply = { matches: batch, more: more && message.type === "chunk" };
    batch = [];
    port.postMessage(reply);
  });
}
