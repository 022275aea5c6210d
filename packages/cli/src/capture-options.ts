/**
 * The capture options shared by `spool run` and `spool start`, and how they become a
 * pipeline: decoder → (ANSI strip) → (redactor) → preview tap → writer queue → file spool.
 */
import {
  type CaptureOptions,
  createLogger,
  DEFAULT_PREVIEW_BUDGET,
  type Logger,
  type PreviewBudget,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import {
  createFileSpool,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROOT_QUOTA,
  type FileSpool,
  resolveRoot,
} from "@spool/sinks/runtime";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
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
  if (callId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(callId)) {
    throw usageError("--call-id takes 1-128 characters of A-Z a-z 0-9 . _ : -");
  }
  const preview: PreviewBudget = {
    stdoutChars: (o["preview-stdout"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.stdoutChars,
    stderrChars: (o["preview-stderr"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.stderrChars,
    maxBytes: (o["preview-bytes"] as number | undefined) ?? DEFAULT_PREVIEW_BUDGET.maxBytes,
  };
  if (preview.maxBytes < 256) throw usageError("--preview-bytes must be at least 256");
  const binary = o.binary === "keep";
  const root = resolveRoot({ flag: o.root as string | undefined, env });
  const logDest = (o.log as string | undefined) ?? env.SPOOL_LOG ?? null;
  const logger = createLogger({ destination: logDest });
  const label = o["no-label"]
    ? null
    : ((o.label as string | undefined) ?? [command, ...args].join(" "));
  const queue = {
    ...(o["queue-bytes"] !== undefined ? { budgetBytes: o["queue-bytes"] as number } : {}),
    ...(o["stall-ms"] !== undefined ? { stallMs: o["stall-ms"] as number } : {}),
  };
  const files = createFileSpool({
    binary,
    queue,
    maxBytes: (o["max-bytes"] as number | undefined) ?? DEFAULT_MAX_BYTES,
    rootQuota: (o["root-quota"] as number | undefined) ?? DEFAULT_ROOT_QUOTA,
  });
  const plan = (stream: StreamName): StreamPlan => {
    const chars = stream === "stdout" ? preview.stdoutChars : preview.stderrChars;
    const tap = createPreviewTap({ ...previewTapBudget(chars), binary });
    return binary
      ? { stages: [], tap, representation: "binary" }
      : { stages: [createUtf8Decoder()], tap };
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

function boundLabel(label: string): string {
  const chars = [...label];
  return chars.length <= MAX_LABEL ? label : `${chars.slice(0, MAX_LABEL - 1).join("")}…`;
}
