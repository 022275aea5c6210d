/**
 * Command-line parsing for every `spool` command: a table of options, `--name value`
 * and `--name=value`, repeatable options, `--` before the command, and one-line usage
 * errors (exit 64) that name the problem.
 */
import { SpoolError } from "@spool/core/runtime";

export type OptionKind = "flag" | "string" | "size" | "count" | "seconds";

export interface OptionSpec {
  readonly kind: OptionKind;
  readonly repeat?: boolean;
  /** Allowed values for a string option. */
  readonly choices?: readonly string[];
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;
export type ParsedValue = string | number | boolean | string[];

export interface Parsed {
  readonly options: Record<string, ParsedValue>;
  readonly positionals: string[];
  /** What follows `--`, or null if there was no `--`. */
  readonly rest: string[] | null;
}

export function usageError(message: string): SpoolError {
  return new SpoolError("SPOOL_E_USAGE", "cli", message);
}

export function parseArgs(
  argv: readonly string[],
  table: OptionTable,
  shorts: Readonly<Record<string, string>> = {},
): Parsed {
  const options: Record<string, ParsedValue> = {};
  const positionals: string[] = [];
  let rest: string[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest = argv.slice(i + 1);
      break;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg)) {
      const long = shorts[arg.slice(1)];
      if (!long) throw usageError(`unknown option ${arg}`);
      name = long;
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = table[name];
    if (!spec) throw usageError(`unknown option --${name}`);
    if (spec.kind === "flag") {
      if (inline !== undefined) throw usageError(`--${name} takes no value`);
      options[name] = true;
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw usageError(`--${name} needs a value`);
    const value = convert(name, spec, raw);
    if (spec.repeat)
      options[name] = [...((options[name] as string[] | undefined) ?? []), String(value)];
    else options[name] = value;
  }
  return { options, positionals, rest };
}

function convert(name: string, spec: OptionSpec, raw: string): string | number {
  switch (spec.kind) {
    case "size":
      return parseSize(raw, `--${name}`);
    case "count": {
      if (!/^\d{1,15}$/.test(raw))
        throw usageError(`--${name} takes a whole number, not "${clip(raw)}"`);
      return Number(raw);
    }
    case "seconds": {
      if (!/^\d{1,9}(\.\d{1,3})?$/.test(raw) || Number(raw) <= 0) {
        throw usageError(`--${name} takes a positive number of seconds, not "${clip(raw)}"`);
      }
      return Number(raw);
    }
    default:
      if (spec.choices && !spec.choices.includes(raw)) {
        throw usageError(`--${name} takes one of ${spec.choices.join(", ")}, not "${clip(raw)}"`);
      }
      return raw;
  }
}

const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  K: 1024,
  KIB: 1024,
  M: 1024 ** 2,
  MIB: 1024 ** 2,
  G: 1024 ** 3,
  GIB: 1024 ** 3,
};

/** `4096`, `64KiB`, `32MiB`, `1GiB` (binary units; `K`/`M`/`G` accepted too). */
export function parseSize(raw: string, what: string): number {
  const m = /^(\d{1,15})\s*([A-Za-z]*)$/.exec(raw.trim());
  const unit = m ? UNITS[m[2]!.toUpperCase()] : undefined;
  if (!m || unit === undefined)
    throw usageError(`${what} takes a size like 4096, 64KiB, 32MiB or 1GiB, not "${clip(raw)}"`);
  const value = Number(m[1]) * unit;
  if (!Number.isSafeInteger(value)) throw usageError(`${what} is too large`);
  return value;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
