/**
 * The capture options shared by `spool run` and `spool start`, in three steps:
 * {@link captureConfig} checks the parsed options and touches nothing (pure);
 * {@link prepareCapture} reads what the options name (`--redact-file`) and checks the root,
 * still creating nothing, so `start` can refuse bad input in the foreground;
 * {@link openCapture} resolves (creates) the root, opens the logger and creates the file
 * spool, whose pipeline is `createStreamPlan`'s (decoder → ANSI strip → redactor → preview
 * tap) → writer queue.
 */

import { createHash } from "node:crypto";
import { accessSync, constants, lstatSync, statSync } from "node:fs";
import * as path from "node:path";
import { logFileProblem } from "@spool/core/internal";
import {
  CALL_ID_PATTERN,
  type CaptureOptions,
  createLogger,
  type Logger,
  type PreviewBudget,
  type Stage,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import {
  createFileSpool,
  defaultRoot,
  type FileSpool,
  resolveRoot,
  rootQuotaAllowance,
  withQuotas,
} from "@spool/sinks/runtime";
import {
  type CompiledRedaction,
  compileRedaction,
  createLineRedactor,
  createRedactor,
  createStreamPlan,
  DEFAULT_REDACTION_WINDOW,
  type KnownValue,
  knownValuesFromEnv,
  knownValuesOfEnvSecrets,
  parseKnownValues,
  redactText,
} from "@spool/transforms";
import { printsSecret, redactCommandFlags } from "@spool/transforms/internal";
import { type ParsedCommand, shown, usageError, usageLine } from "./args.js";
import { type CaptureFlags, RUN } from "./commands.js";
import { holdHeapBounds } from "./heap-bounds.js";
import { readRedactFile } from "./redact-file.js";

/** What the options of `run`/`start` say, checked; nothing read or created yet. */
export interface CaptureConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** As given (`--root`, `$SPOOL_ROOT` or the default), not yet resolved. */
  readonly rootChoice: string | undefined;
  readonly callId: string | null;
  /** Before redaction; null with `--no-label`. */
  readonly label: string | null;
  readonly timeoutMs: number | null;
  readonly drainMs: number;
  readonly preview: PreviewBudget;
  readonly binary: boolean;
  readonly keepAnsi: boolean;
  /** null with `--no-redact`. */
  readonly redact: { readonly envNames: readonly string[]; readonly file: string | null } | null;
  readonly logDestination: string | null;
  readonly queue: { readonly budgetBytes: number; readonly stallMs: number };
  readonly maxBytes: number;
  readonly rootQuota: number;
  readonly json: boolean;
  /** False with `--no-spool` or `--max-bytes 0`: nothing is written, the capture is disabled. */
  readonly persist: boolean;
}

/** What {@link prepareCapture} read: the compiled redaction (null with `--no-redact`). */
export interface PreparedCapture {
  readonly config: CaptureConfig;
  /** For text (the label): the built-in rules and the known values. */
  readonly redaction: CompiledRedaction | null;
  /**
   * For the streams: the same, except with `--binary keep`, whose streams are stored as
   * raw bytes: the known values alone (exact bytes, in their encoded forms), null when
   * none were named. The shape rules find text shapes (`PW=…`) that random bytes form by
   * chance, and would rewrite them (docs/redaction.md, "Binary output").
   */
  readonly streamRedaction: CompiledRedaction | null;
}

export interface CaptureSetup {
  /** The capture's options but its spool; the root is the one resolved here, always given. */
  readonly options: Omit<CaptureOptions, "spool" | "root"> & { readonly root: string };
  readonly files: FileSpool;
  readonly logger: Logger;
  readonly json: boolean;
}

const MAX_LABEL = 200;

/** Check the parsed options of `run`/`start` (ranges were checked by the parser). Pure. */
export function captureConfig(
  parsed: ParsedCommand<CaptureFlags>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): CaptureConfig {
  const o = parsed.options;
  if (parsed.rest === null)
    throw usageError(`missing -- before the command (spool run ${usageLine(RUN)})`);
  const [command, ...args] = parsed.rest;
  if (!command) throw usageError("no command after --");
  if (parsed.positionals.length > 0)
    throw usageError(`unexpected argument "${shown(parsed.positionals[0]!)}" before --`);
  if (o.label !== undefined && o["no-label"])
    throw usageError("--label and --no-label exclude each other");
  const callId = o["call-id"];
  if (callId !== undefined && !CALL_ID_PATTERN.test(callId)) {
    throw usageError("--call-id takes 1-128 characters of A-Z a-z 0-9 . _ : -");
  }
  return {
    command,
    args,
    cwd,
    env,
    rootChoice: o.root,
    callId: callId ?? null,
    label: o["no-label"] ? null : (o.label ?? [command, ...args].join(" ")),
    timeoutMs: o.timeout ?? null,
    drainMs: o["drain-ms"],
    preview: {
      stdoutChars: o["preview-stdout"],
      stderrChars: o["preview-stderr"],
      maxBytes: o["preview-bytes"],
    },
    binary: o.binary === "keep",
    keepAnsi: o["keep-ansi"],
    redact: o["no-redact"] ? null : { envNames: o["redact-env"], file: o["redact-file"] ?? null },
    logDestination: o.log ?? env.SPOOL_LOG ?? null,
    queue: { budgetBytes: o["queue-bytes"], stallMs: o["stall-ms"] },
    maxBytes: o["max-bytes"],
    rootQuota: o["root-quota"],
    json: o.json,
    persist: !o["no-spool"] && o["max-bytes"] !== 0,
  };
}

/**
 * Read what the options name and check the root, creating nothing: every refusal of the
 * user's input (exit 64) happens here or before.
 */
export function prepareCapture(config: CaptureConfig): PreparedCapture {
  const known = config.redact === null ? null : knownValuesOf(config.redact, config.env);
  const redaction = known === null ? null : compiledOnce(known, true);
  const streamRedaction =
    known === null || !config.binary
      ? redaction
      : known.length === 0
        ? null
        : compiledOnce(known, false);
  checkRootPath(config.rootChoice ?? defaultRoot(config.env), config.cwd);
  if (config.logDestination !== null && config.logDestination !== "stderr")
    checkLogPath(path.resolve(config.cwd, config.logDestination));
  return { config, redaction, streamRedaction };
}

/** Resolve the root, creating it (0700) if missing: storage faults surface here (exit 70). */
export function resolveCaptureRoot(config: CaptureConfig): string {
  // Persistence off creates nothing, not even the root: the receipt only names it.
  if (!config.persist)
    return path.resolve(config.cwd, config.rootChoice ?? defaultRoot(config.env));
  return resolveRoot({ flag: config.rootChoice, env: config.env });
}

/** Resolve (create) the root, open the logger, create the file spool. */
export function openCapture(
  { config, redaction, streamRedaction }: PreparedCapture,
  /** A stage of the caller's after the redactor (`spool run`'s live view), per stream. */
  after?: (stream: StreamName) => Stage,
): CaptureSetup {
  const root = resolveCaptureRoot(config);
  const logger = createLogger({ destination: config.logDestination });
  // Labels go through the same rules as output: they are written to disk and logs.
  const label =
    config.label === null || redaction === null
      ? config.label
      : redactText(redactCommandFlags(config.label), redaction);
  const { binary, preview } = config;
  const spool = createFileSpool({ binary, queue: config.queue });
  const releaseHeap = holdHeapBounds();
  const files: FileSpool = {
    root: undefined, // each capture gives the root resolved for it
    factory: withQuotas(spool.factory, {
      maxBytes: config.maxBytes,
      allowance: rootQuotaAllowance(config.rootQuota),
    }),
    destroy: () => {
      releaseHeap();
      return spool.destroy();
    },
  };
  // A command whose output is a secret itself (`op read …`): its stdout redacted line by
  // line whole, stored and previewed alike.
  const secretOutput = redaction !== null && printsSecret(config.command, config.args);
  // The one stage order is createStreamPlan's; the capture hands each plan its own budget.
  const plan = (stream: StreamName, budget: PreviewBudget): StreamPlan => {
    const whole = secretOutput && stream === "stdout";
    return createStreamPlan({
      preview: { budget, stream },
      redactor: whole
        ? createLineRedactor()
        : streamRedaction
          ? createRedactor(streamRedaction)
          : null,
      // Raw bytes stored, but the preview (what a model reads) still meets every rule.
      previewRedactor: binary && redaction && !whole ? createRedactor(redaction) : null,
      stripAnsi: !config.keepAnsi,
      observers: after ? [after(stream)] : [],
      binary,
    });
  };
  return {
    options: {
      command: config.command,
      args: [...config.args],
      cwd: config.cwd,
      env: config.env,
      root,
      callId: config.callId,
      label: label === null ? null : boundLabel(label),
      timeoutMs: config.timeoutMs,
      drainMs: config.drainMs,
      ...(config.persist ? {} : { persist: false }),
      preview,
      plan,
      // With --binary keep the stream meets only the named values (the preview every rule).
      redact: (binary ? streamRedaction : redaction) !== null,
      logger,
    },
    files,
    logger,
    json: config.json,
  };
}

/**
 * The known values named by `--redact-env` and `--redact-file`, and the values of the
 * environment's credentials (`GITHUB_TOKEN`, `DB_PASSWORD`: see `knownValuesOfEnvSecrets`).
 */
function knownValuesOf(
  redact: NonNullable<CaptureConfig["redact"]>,
  env: NodeJS.ProcessEnv,
): KnownValue[] {
  const known: KnownValue[] = knownValuesFromEnv([...redact.envNames], env);
  const named = new Set(known.map((value) => value.name));
  for (const value of knownValuesOfEnvSecrets(env, DEFAULT_REDACTION_WINDOW))
    if (!named.has(value.name)) known.push(value);
  const file = redact.file;
  if (file !== null) {
    for (const value of parseKnownValues(readRedactFile(file), `--redact-file ${file}`))
      known.push(value);
  }
  return known;
}

/**
 * The last compiled redaction, by a digest of the known values it was compiled from. A
 * compiled redaction is immutable and shared by every redactor built from it; compiling it
 * (the built-in rules' automata) is most of a small capture's CPU, and `mcp-proxy` and
 * `spool mcp` make one capture per tool call in one process. One entry: memory stays flat.
 */
let lastCompiled: { readonly key: string; readonly compiled: CompiledRedaction } | null = null;

/** The known values, with the built-in rules or (`builtins: false`, binary streams) alone. */
function compiledOnce(known: readonly KnownValue[], builtins: boolean): CompiledRedaction {
  // A digest, not the values: nothing secret is kept beyond the compiled automaton itself.
  // Value by value (a JSON of 100,000 values was tens of MiB at start-up).
  const hash = createHash("sha256").update(builtins ? "1" : "0");
  for (const { value, name = "" } of known)
    hash.update(`${value.length}:${value}${name.length}:${name}`);
  const key = hash.digest("hex");
  if (lastCompiled?.key !== key) {
    lastCompiled = { key, compiled: compileRedaction({ knownValues: known, builtins }) };
  }
  return lastCompiled.compiled;
}

/**
 * The root, or the nearest of its ancestors that exists, must be a directory: otherwise
 * creating it can only fail, and that is the user's choice of path (exit 64), not a
 * storage fault.
 */
function checkRootPath(given: string, cwd: string): void {
  if (given.length === 0 || given.includes("\0")) return; // resolveRoot names this one
  let at = path.resolve(cwd, given);
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && path.dirname(at) !== at) {
        at = path.dirname(at);
        continue;
      }
      if (code === "ENOTDIR") throw usageError(`the root ${shown(given)} is not a directory`);
      return; // anything else (EACCES …) is left to resolveRoot to report
    }
    if (!isDirectory) throw usageError(`the root ${shown(given)} is not a directory`);
    return;
  }
}

/**
 * The log file (`--log`, `$SPOOL_LOG`): an existing one must be a private regular file of
 * ours with one link (`logFileProblem`), never followed if a link; a new one must be
 * creatable where it is named. Checked here so a refusal is a usage error that creates
 * nothing; `openLogFile` checks the opened file again.
 */
function checkLogPath(file: string): void {
  let problem: string | null = null;
  try {
    const existing = lstatSync(file, { throwIfNoEntry: false });
    if (existing?.isDirectory()) problem = "EISDIR";
    else if (existing) problem = logFileProblem(existing);
    else if (!statSync(path.dirname(file)).isDirectory()) problem = "ENOTDIR";
    else accessSync(path.dirname(file), constants.W_OK);
  } catch (error) {
    problem = (error as NodeJS.ErrnoException).code ?? "error";
  }
  if (problem !== null) throw usageError(`cannot write the log ${shown(file)} (${problem})`);
}

function boundLabel(label: string): string {
  const chars = [...label];
  return chars.length <= MAX_LABEL ? label : `${chars.slice(0, MAX_LABEL - 1).join("")}…`;
}
