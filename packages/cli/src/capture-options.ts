/**
 * The capture options shared by `spool run` and `spool start`, and how they become a
 * pipeline: decoder → (ANSI strip) → (redactor) → preview tap → writer queue → file spool.
 */

import { readFileSync } from "node:fs";
import {
  CALL_ID_PATTERN,
  type CaptureOptions,
  createLogger,
  DEFAULT_PREVIEW_BUDGET,
  type Logger,
  type PreviewBudget,
  type Stage,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import {
  createFileSpool,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROOT_QUOTA,
  type FileSpool,
  resolveRoot,
  rootQuotaAllowance,
  withQuotas,
} from "@spool/sinks/runtime";
import {
  type CompiledRedaction,
  compileRedaction,
  createAnsiStrip,
  createPreviewTap,
  createRedactor,
  createUtf8Decoder,
  type KnownValue,
  knownValuesFromEnv,
  parseKnownValues,
  previewTapBudget,
  redactText,
} from "@spool/transforms";
import { type OptionTable, type Parsed, usageError } from "./args.js";

export const CAPTURE_OPTIONS: OptionTable = {
  root: { kind: "string" },
  json: { kind: "flag" },
  "call-id": { kind: "string" },
  label: { kind: "string" },
  "no-label": { kind: "flag" },
  timeout: { kind: "seconds" },
  "drain-ms": { kind: "count" },
  "max-bytes": { kind: "size" },
  "root-quota": { kind: "size" },
  "redact-env": { kind: "string", repeat: true },
  "redact-file": { kind: "string" },
  "no-redact": { kind: "flag" },
  "keep-ansi": { kind: "flag" },
  binary: { kind: "string", choices: ["text", "keep"] },
  "preview-stdout": { kind: "count" },
  "preview-stderr": { kind: "count" },
  "preview-bytes": { kind: "size" },
  "queue-bytes": { kind: "size" },
  "stall-ms": { kind: "count" },
  log: { kind: "string" },
};

export interface CaptureSetup {
  readonly options: Omit<CaptureOptions, "spool">;
  readonly files: FileSpool;
  readonly logger: Logger;
  readonly json: boolean;
}

const MAX_LABEL = 200;

export function captureSetup(parsed: Parsed, env: NodeJS.ProcessEnv, cwd: string): CaptureSetup {
  const o = parsed.options;
  if (parsed.rest === null)
    throw usageError("missing -- before the command (spool run [options] -- CMD [ARGS...])");
  const [command, ...args] = parsed.rest;
  if (!command) throw usageError("no command after --");
  if (parsed.positionals.length > 0)
    throw usageError(`unexpected argument "${parsed.positionals[0]}" before --`);
  if (o.label !== undefined && o["no-label"])
    throw usageError("--label and --no-label exclude each other");
  const callId = o["call-id"] as string | undefined;
  if (callId !== undefined && !CALL_ID_PATTERN.test(callId)) {
    throw usageError("--call-id takes 1-128 characters of A-Z a-z 0-9 . _ : -");
  }
  const preview: PreviewBudget = {
    stdoutChars: (o["preview-stdout"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.stdoutChars,
    stderrChars: (o["preview-stderr"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.stderrChars,
    maxBytes: (o["preview-bytes"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.maxBytes,
  };
  if (preview.maxBytes < 256) throw usageError("--preview-bytes must be at least 256");
  const binary = o.binary === "keep";
  // Everything that can refuse the input comes before anything that touches the disk.
  const redaction = o["no-redact"] ? null : redactionOf(o, env);
  const root = resolveRoot({ flag: o.root as string | undefined, env });
  const logDest = (o.log as string | undefined) ?? env.SPOOL_LOG ?? null;
  const logger = createLogger({ destination: logDest });
  const rawLabel = o["no-label"]
    ? null
    : ((o.label as string | undefined) ?? [command, ...args].join(" "));
  // Labels go through the same rules as output: they are written to disk and logs.
  const label =
    rawLabel === null || redaction === null ? rawLabel : redactText(rawLabel, redaction);
  const queue = {
    ...(o["queue-bytes"] !== undefined ? { budgetBytes: o["queue-bytes"] as number } : {}),
    ...(o["stall-ms"] !== undefined ? { stallMs: o["stall-ms"] as number } : {}),
  };
  const spool = createFileSpool({ binary, queue });
  const files: FileSpool = {
    factory: withQuotas(spool.factory, {
      maxBytes: (o["max-bytes"] as number | undefined) ?? DEFAULT_MAX_BYTES,
      allowance: rootQuotaAllowance((o["root-quota"] as number | undefined) ?? DEFAULT_ROOT_QUOTA),
    }),
    destroy: () => spool.destroy(),
  };
  const plan = (stream: StreamName): StreamPlan => {
    const chars = stream === "stdout" ? preview.stdoutChars : preview.stderrChars;
    const tap = createPreviewTap({ ...previewTapBudget(chars), binary });
    if (binary) {
      // Raw bytes are kept as they came; the redactor works on bytes, so it still applies.
      return {
        stages: redaction ? [createRedactor(redaction)] : [],
        tap,
        representation: "binary",
      };
    }
    const stages: Stage[] = [createUtf8Decoder()];
    // ANSI first: colour codes inside a secret must not hide it from the redactor.
    if (!o["keep-ansi"]) stages.push(createAnsiStrip());
    if (redaction) stages.push(createRedactor(redaction));
    return { stages, tap };
  };
  return {
    options: {
      command,
      args,
      cwd,
      env,
      root,
      callId: callId ?? null,
      label: label === null ? null : boundLabel(label),
      timeoutMs: o.timeout !== undefined ? Math.round((o.timeout as number) * 1000) : null,
      drainMs: (o["drain-ms"] as number | undefined) ?? 1000,
      preview,
      plan,
      logger,
    },
    files,
    logger,
    json: o.json === true,
  };
}

/** Built-in rules plus the known values named by `--redact-env` and `--redact-file`. */
function redactionOf(o: Parsed["options"], env: NodeJS.ProcessEnv): CompiledRedaction {
  const known: KnownValue[] = knownValuesFromEnv(
    (o["redact-env"] as string[] | undefined) ?? [],
    env,
  );
  const file = o["redact-file"] as string | undefined;
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw usageError(
        `--redact-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
    known.push(...parseKnownValues(text, `--redact-file ${file}`));
  }
  return compileRedaction({ knownValues: known });
}

function boundLabel(label: string): string {
  const chars = [...label];
  return chars.length <= MAX_LABEL ? label : `${chars.slice(0, MAX_LABEL - 1).join("")}…`;
}
