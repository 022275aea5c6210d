/**
 * The worker thread of the server's grep: the CLI's scan (`grep-scan.ts`) on bytes posted
 * to it one chunk at a time, each chunk answered with the matches it produced (the ack the
 * runner waits for before sending the next). It runs apart so that a pattern that
 * backtracks for ever can be stopped: the runner terminates the thread at its deadline.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createGrepScan, type GrepMatch } from "../grep-scan.js";
import type { GrepJob, GrepReply, GrepRequest } from "./grep-protocol.js";

const port = parentPort;
if (port) {
  const job = workerData as GrepJob;
  let batch: GrepMatch[] = [];
  const scan = createGrepScan(
    {
      pattern: new RegExp(job.pattern, job.ignoreCase ? "gi" : "g"),
      max: job.max,
      onlyMatching: job.onlyMatching,
      columns: job.columns,
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
