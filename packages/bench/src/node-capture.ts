/**
 * The Node baselines of `spool bench throughput`, run as a program:
 *
 *     node node-capture.js OUT [--replace ENV_NAME]... [--sha256] -- CMD [ARGS...]
 *     node node-capture.js --discard -- CMD [ARGS...]
 *
 * spawns CMD and captures its stdout the plain Node way (`spawn` → `stream.pipeline` →
 * `fs.createWriteStream`), optionally through one `replacestream` per literal secret
 * (the values of the named environment variables), as an off-the-shelf redacting capture,
 * or through a SHA-256 of the bytes on their way (what a receipt's `sha256` costs), or
 * only reads and drops the bytes (`--discard`: what reading the pipe costs a Node process).
 * With `SPOOL_RUSAGE_FILE` set it reports its own CPU at exit, as `spool` does, so the
 * bench can set spool's own CPU beside what the same work costs plain Node.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, writeFileSync } from "node:fs";
import { type Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import replaceStream from "replacestream";

/** What a baseline does with the bytes besides writing them to OUT. */
export interface NodeCaptureOptions {
  /** Literal secrets, one `replacestream` each. */
  readonly secrets?: readonly string[];
  /** Hash the bytes (SHA-256) on their way to the file. */
  readonly sha256?: boolean;
}

/** Capture `command`'s stdout into `out` (`null`: read and drop it). */
export async function nodeCapture(
  out: string | null,
  command: readonly string[],
  options: NodeCaptureOptions = {},
): Promise<number> {
  const [cmd, ...args] = command;
  if (!cmd) throw new Error("node-capture: no command");
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  const stages: Array<Readable | Transform | Writable> = [child.stdout!];
  for (const secret of options.secrets ?? [])
    stages.push(replaceStream(secret, "[REDACTED]", { ignoreCase: false }) as unknown as Transform);
  if (options.sha256) stages.push(hashing());
  stages.push(out === null ? discarding() : createWriteStream(out, { mode: 0o600 }));
  await pipeline(stages);
  return exited;
}

function hashing(): Transform {
  const hash = createHash("sha256");
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      hash.digest();
      done();
    },
  });
}

function discarding(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

/** The same self-report as `spool`'s (`SPOOL_RUSAGE_FILE`): peak RSS and CPU of all threads. */
function writeChildUsage(): void {
  const file = process.env.SPOOL_RUSAGE_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  writeFileSync(
    file,
    JSON.stringify({ maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }),
    { flag: "wx", mode: 0o600 },
  );
}

const USAGE =
  "usage: node-capture (OUT [--replace ENV_NAME]... [--sha256] | --discard) -- CMD [ARGS...]\n";

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const sep = argv.indexOf("--");
  const out = argv[0] === "--discard" ? null : (argv[0] ?? "");
  const secrets: string[] = [];
  let sha256 = false;
  let bad = out === "" || sep < 1;
  for (let i = 1; i < sep; i++) {
    if (argv[i] === "--replace" && out !== null) secrets.push(process.env[argv[++i] ?? ""] ?? "");
    else if (argv[i] === "--sha256" && out !== null) sha256 = true;
    else bad = true;
  }
  if (bad || secrets.some((s) => s === "")) {
    process.stderr.write(USAGE);
    process.exit(64);
  }
  nodeCapture(out, argv.slice(sep + 1), { secrets, sha256 }).then(
    (code) => {
      process.exitCode = code;
      writeChildUsage();
    },
    (error: unknown) => {
      process.stderr.write(`node-capture: ${String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
