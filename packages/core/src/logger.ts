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
import { type Logger, pino } from "pino";

export type { Logger };

export interface LoggerOptions {
  /** A file path, "stderr", or null for no logs. @default null */
  readonly destination: string | "stderr" | null;
  /** @default "info" */
  readonly level?: "debug" | "info" | "warn" | "error";
}

export function createLogger(options: LoggerOptions): Logger {
  const level = options.level ?? "info";
  if (options.destination === null) return pino({ level: "silent" });
  const dest =
    options.destination === "stderr"
      ? pino.destination({ fd: 2, sync: true })
      : pino.destination({
          dest: options.destination,
          sync: true,
          mkdir: false,
          append: true,
          mode: 0o600,
        });
  return pino({ level, base: { pid: process.pid }, name: "spool" }, dest);
}
