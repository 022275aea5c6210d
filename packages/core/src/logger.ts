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
import type { pino as Pino } from "pino";
import { SpoolError } from "./errors.js";
import { openLogFile } from "./log-file.js";

/**
 * What the framework logs through: a pino logger fits, and so does any object with these
 * methods (pino is an optional peer dependency, loaded only by {@link createLogger}).
 *
 * @category logging
 * @example
 * ```ts
 * import type { Logger } from "@spool/core";
 * const logger: Logger = {
 *   info: (fields, message) => console.log(message, fields),
 *   warn: (fields, message) => console.warn(message, fields),
 *   error: (fields, message) => console.error(message, fields),
 *   debug: () => {},
 * };
 * ```
 */
export interface Logger {
  /** A state change worth keeping (start, spill, finalize). */
  info(fields: object, message?: string): void;
  /** Something degraded (saturation, a storage error the capture survives). */
  warn(fields: object, message?: string): void;
  /** Something failed. */
  error(fields: object, message?: string): void;
  /** Detail for diagnosing spool itself. */
  debug(fields: object, message?: string): void;
  /** Called before the process exits, when present. */
  flush?(): void;
}

// pino is loaded only when logs go somewhere: most runs log nothing, and loading it
// cost ~16 ms of every `spool run`'s startup.
const loadPino = (): typeof Pino => {
  try {
    return (createRequire(import.meta.url)("pino") as { pino: typeof Pino }).pino;
  } catch (error) {
    throw new SpoolError(
      "SPOOL_E_USAGE",
      "logger",
      "logging to a destination needs pino, an optional peer dependency: run `npm install pino@^10`",
      { cause: error },
    );
  }
};

/**
 * Options of {@link createLogger}.
 *
 * @category logging
 * @example
 * ```ts
 * import { createLogger, type LoggerOptions } from "@spool/core";
 * const options: LoggerOptions = { destination: "stderr", level: "debug" };
 * const log = createLogger(options); // needs pino installed
 * ```
 */
export interface LoggerOptions {
  /** Where logs go: a file path (opened by `openLogFile`: exclusive, private, never through a link), "stderr", or null for no logs (pino is then not loaded). */
  readonly destination: string | "stderr" | null;
  /** The least severe level written. @default "info" */
  readonly level?: "debug" | "info" | "warn" | "error";
}

/**
 * A pino logger writing JSON lines to `destination` (0600, appended), or a silent logger
 * that loads nothing when `destination` is null.
 *
 * @category logging
 * @example
 * ```ts
 * import { createLogger } from "@spool/core";
 * const log = createLogger({ destination: "/tmp/spool.log", level: "warn" }); // needs pino installed
 * log.warn({ event: "spill" }, "spooling");
 * ```
 */
export function createLogger(options: LoggerOptions): Logger {
  const level = options.level ?? "info";
  if (options.destination === null) return SILENT;
  const pino = loadPino();
  const dest =
    options.destination === "stderr"
      ? pino.destination({ fd: 2, sync: true })
      : pino.destination({ fd: openLogFile(options.destination), sync: true });
  const logger = pino({ level, base: { pid: process.pid }, name: "spool" }, dest);
  return logger as unknown as Logger;
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
    flush: noop,
  };
  return logger;
})();
