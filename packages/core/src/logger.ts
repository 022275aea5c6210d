/**
 * The framework's own structured logs (pino): state changes only (start, spill,
 * saturation, finalize), never per chunk and never output content.
 *
 * @example
 * ```ts
 * import { createLogger } from "@spool/core";
 * const log = createLogger({ destination: null }); // silent
 * log.info({ event: "start" }, "capture started");
 * ```
 */
import { createRequire } from "node:module";
import type { Logger, pino as Pino } from "pino";
import { openLogFile } from "./log-file.js";

export type { Logger };

// pino is loaded only when logs go somewhere: most runs log nothing, and loading it
// cost ~16 ms of every `spool run`'s startup.
const load = (): typeof Pino =>
  (createRequire(import.meta.url)("pino") as { pino: typeof Pino }).pino;

export interface LoggerOptions {
  /** A file path (opened by `openLogFile`: exclusive, private, never through a link), "stderr", or null for no logs. @default null */
  readonly destination: string | "stderr" | null;
  /** @default "info" */
  readonly level?: "debug" | "info" | "warn" | "error";
}

export function createLogger(options: LoggerOptions): Logger {
  const level = options.level ?? "info";
  if (options.destination === null) return SILENT;
  const pino = load();
  const dest =
    options.destination === "stderr"
      ? pino.destination({ fd: 2, sync: true })
      : pino.destination({ fd: openLogFile(options.destination), sync: true });
  return pino({ level, base: { pid: process.pid }, name: "spool" }, dest);
}

/** A logger that drops everything, without loading pino. */
const SILENT: Logger = (() => {
  const noop = () => {};
  const logger = {
    level: "silent",
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    flush: noop,
    isLevelEnabled: () => false,
    child: () => logger,
  };
  return logger as unknown as Logger;
})();
