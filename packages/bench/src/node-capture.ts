/**
 * The Node baselines of `spool bench throughput`, run as a program:
 *
 *     node node-capture.js OUT [--replace ENV_NAME]... -- CMD [ARGS...]
 *
 * spawns CMD and captures its stdout the plain Node way (`spawn` → `stream.pipeline` →
 * `fs.createWriteStream`), optionally through one `replacestream` per literal secret
 * (the values of the named environment variables), as an off-the-shelf redacting capture.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import replaceStream from "replacestream";

/** Capture `command`'s stdout into `out`, replacing each literal in `secrets`. */
export async function nodeCapture(
  out: string,
  command: readonly string[],
  secrets: readonly string[],
): Promise<number> {
  const [cmd, ...args] = command;
  if (!cmd) throw new Error("node-capture: no command");
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  const stages: Array<Readable | Transform> = [child.stdout!];
  for (const secret of secrets)
    stages.push(replaceStream(secret, "[REDACTED]", { ignoreCase: false }) as unknown as Transform);
  await pipeline([...stages, createWriteStream(out, { mode: 0o600 })]);
  return exited;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const sep = argv.indexOf("--");
  const out = argv[0];
  const secrets: string[] = [];
  for (let i = 1; i < sep; i++) {
    if (argv[i] === "--replace") secrets.push(process.env[argv[++i] ?? ""] ?? "");
  }
  if (!out || sep < 0 || secrets.some((s) => s === "")) {
    process.stderr.write("usage: node-capture OUT [--replace ENV_NAME]... -- CMD [ARGS...]\n");
    process.exit(64);
  }
  nodeCapture(out, argv.slice(sep + 1), secrets).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`node-capture: ${String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
