/**
 * Command-line parsing for every `spool` command, from the command's one definition
 * ({@link defineCommand}): typed options (flag, string, int, size, duration, enum,
 * repeatable), each with its range and default; `--name value` and `--name=value`;
 * `--` before the command; one-line usage errors (exit 64) that name the problem with the
 * user's input escaped. Parsing is pure: it opens, reads and creates nothing.
 *
 * @example
 * ```ts
 * import { defineCommand, parseCommand } from "./args.js";
 * const cmd = defineCommand({
 *   name: "demo",
 *   summary: "a demo",
 *   positionals: [{ name: "FILE" }],
 *   options: { max: { kind: "int", min: 1, max: 100, default: 10, placeholder: "N", help: "most lines" } },
 * });
 * parseCommand(cmd, ["--max=3"]).options.max; // 3
 * ```
 */
import { SpoolError, UNSAFE_CHARACTERS, writtenOut } from "@spool/core/runtime";

/** The largest delay a Node timer can hold (2^31 − 1 ms); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface OptionBase {
  /** One line of help text. */
  readonly help: string;
  /** What the value looks like in the help (`DIR`, `N`, `S`). */
  readonly placeholder?: string;
  /** A one-letter alias (`n` for `-n`). */
  readonly short?: string;
}

/** Present or absent; takes no value. */
export interface FlagOption extends OptionBase {
  readonly kind: "flag";
}

export interface StringOption extends OptionBase {
  readonly kind: "string";
  readonly default?: string;
}

/** A string option given any number of times; the values in order. */
export interface RepeatableOption extends OptionBase {
  readonly kind: "repeatable";
}

export interface EnumOption extends OptionBase {
  readonly kind: "enum";
  readonly choices: readonly string[];
  readonly default?: string;
}

/** A whole number in `[min, max]`. */
export interface IntOption extends OptionBase {
  readonly kind: "int";
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

/** A byte count (`4096`, `64KiB`, `32MiB`, `1GiB`) in `[min, max]` bytes. */
export interface SizeOption extends OptionBase {
  readonly kind: "size";
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

/**
 * A duration written in `unit` (seconds may have up to three decimals), parsed to whole
 * milliseconds in `[min, max]`.
 */
export interface DurationOption extends OptionBase {
  readonly kind: "duration";
  readonly unit: "s" | "ms";
  readonly min: number;
  readonly max: number;
  /** In milliseconds. */
  readonly default?: number;
}

export type OptionSpec =
  | FlagOption
  | StringOption
  | RepeatableOption
  | EnumOption
  | IntOption
  | SizeOption
  | DurationOption;

export type OptionKind = OptionSpec["kind"];
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** The value an option parses to: absent options are their default, else `undefined`. */
export type ValueOf<S extends OptionSpec> = S extends FlagOption
  ? boolean
  : S extends RepeatableOption
    ? string[]
    : S extends { readonly kind: "enum"; readonly choices: readonly (infer C)[] }
      ? S extends { readonly default: string }
        ? C
        : C | undefined
      : S extends StringOption
        ? S extends { readonly default: string }
          ? string
          : string | undefined
        : S extends { readonly default: number }
          ? number
          : number | undefined;

/** The typed options object a command receives. */
export type OptionsOf<T extends OptionTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

/** One word a command takes before `--` (not an option), as its usage line shows it. */
export interface PositionalSpec {
  /** Its placeholder: `REF`, `PATTERN`, `BUNDLE`. */
  readonly name: string;
  /** The words it may be (the benches): the usage line lists them, `a|b|c`, not the name. */
  readonly choices?: readonly string[];
  /** It may be left out: `[CMD]`. @default false */
  readonly optional?: boolean;
  /** One or more: `REF...`. @default false */
  readonly repeatable?: boolean;
}

/** One command: what the parser, `spool help`, `spool CMD --help` and docs/cli.md read. */
export interface CommandDefinition<T extends OptionTable = OptionTable> {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The words before `--`, in order (the usage line is made from these: {@link usageLine}). */
  readonly positionals?: readonly PositionalSpec[];
  /** Options (names in `options`) that stand instead of the positionals: `REF...|--all`. */
  readonly instead?: readonly string[];
  /** Options (names in `options`) the command needs, shown after the positionals: `REF --to ROOT`. */
  readonly needs?: readonly string[];
  /** What follows `--`: `CMD` shows `-- CMD [ARGS...]`; optional shows it in brackets. */
  readonly command?: { readonly name: string; readonly optional?: boolean };
  /** What the command reads on standard input: `< INPUT`. */
  readonly stdin?: string;
  /** Paragraphs shown by `spool help CMD`. */
  readonly description?: readonly string[];
  readonly options: T;
  /** Internal commands are dispatched but not listed. */
  readonly hidden?: boolean;
}

/**
 * The arguments after a command's name, made from its definition: positionals (or the
 * options that stand instead of them), the options it needs, `[options]`, then what
 * follows `--` or comes on standard input: `REF...|--all [options]`,
 * `[options] -- CMD [ARGS...]`.
 */
export function usageLine(definition: CommandDefinition): string {
  const table: OptionTable = definition.options;
  const option = (name: string) => {
    const spec = table[name];
    return spec === undefined || spec.kind === "flag"
      ? `--${name}`
      : `--${name} ${spec.placeholder ?? "VALUE"}`;
  };
  const words = (definition.positionals ?? []).map((p) => {
    const word = `${p.choices ? p.choices.join("|") : p.name}${p.repeatable ? "..." : ""}`;
    return p.optional ? `[${word}]` : word;
  });
  const instead = (definition.instead ?? []).map(option);
  const parts = [[words.join(" "), ...instead].filter((w) => w !== "").join("|")];
  parts.push(...(definition.needs ?? []).map(option));
  if (Object.keys(table).length > 0) parts.push("[options]");
  const command = definition.command;
  if (command !== undefined) {
    const tail = `-- ${command.name} [ARGS...]`;
    parts.push(command.optional ? `[${tail}]` : tail);
  }
  if (definition.stdin !== undefined) parts.push(`< ${definition.stdin}`);
  return parts.filter((p) => p !== "").join(" ");
}

/** Keeps the literal option types, so {@link parseCommand} can type what it returns. */
export function defineCommand<const T extends OptionTable>(
  definition: CommandDefinition<T>,
): CommandDefinition<T> {
  return definition;
}

export interface ParsedCommand<O> {
  readonly options: O;
  readonly positionals: string[];
  /** What follows `--`, or null if there was no `--`. */
  readonly rest: string[] | null;
  /** The words parsed, as given (a job supervisor is launched with them). */
  readonly argv: readonly string[];
}

/** What the body of command `D` receives: its parsed, typed options. */
export type CommandInput<D extends CommandDefinition> = ParsedCommand<OptionsOf<D["options"]>>;

/** A parse result of any command (what shared helpers such as `locateCapture` take). */
export type Parsed = ParsedCommand<Readonly<Record<string, unknown>>>;

export function usageError(message: string): SpoolError {
  return new SpoolError("SPOOL_E_USAGE", "cli", message);
}

/** Parse `argv` (the words after the command name) against `definition`. */
export function parseCommand<T extends OptionTable>(
  definition: CommandDefinition<T>,
  argv: readonly string[],
): ParsedCommand<OptionsOf<T>> {
  const table: OptionTable = definition.options;
  const shorts = new Map<string, string>();
  for (const [name, spec] of Object.entries(table)) if (spec.short) shorts.set(spec.short, name);
  const options: Record<string, unknown> = defaults(table);
  const seen = new Set<string>();
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
      const long = shorts.get(arg.slice(1));
      if (!long) throw usageError(`unknown option ${shown(arg)}`);
      name = long;
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!spec) throw usageError(`unknown option --${shown(name)}`);
    if (spec.kind === "flag") {
      if (inline !== undefined) throw usageError(`--${name} takes no value`);
      options[name] = true;
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw usageError(`--${name} needs a value`);
    if (spec.kind === "repeatable") {
      options[name] = seen.has(name) ? [...(options[name] as string[]), raw] : [raw];
    } else {
      options[name] = convert(name, spec, raw);
    }
    seen.add(name);
  }
  return { options: options as OptionsOf<T>, positionals, rest, argv };
}

/**
 * The typed input of `definition` from option values rather than words (an MCP tool's
 * arguments, a job's specification): the parser's defaults for what is not given, and
 * each value given checked as the parser checks it (a known option, an enum's choices,
 * a number within its range); `rest` is what would follow `--`.
 */
export function commandInput<T extends OptionTable>(
  definition: CommandDefinition<T>,
  given: Readonly<Record<string, unknown>>,
  rest: readonly string[] | null,
): ParsedCommand<OptionsOf<T>> {
  const table: OptionTable = definition.options;
  const options: Record<string, unknown> = defaults(table);
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const spec = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!spec) throw usageError(`unknown option --${shown(name)}`);
    options[name] = checkedValue(name, spec, value);
  }
  return { options: options as OptionsOf<T>, positionals: [], rest: rest && [...rest], argv: [] };
}

/** `value` for option `name` if it is of the option's kind and in its range. */
function checkedValue(name: string, spec: OptionSpec, value: unknown): unknown {
  const option = `--${name}`;
  const kind = spec.kind;
  if (kind === "flag") {
    if (typeof value !== "boolean") throw usageError(`${option} takes true or false`);
  } else if (kind === "repeatable") {
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
      throw usageError(`${option} takes a list of strings`);
  } else if (kind === "string" || kind === "enum") {
    if (typeof value !== "string") throw usageError(`${option} takes a string`);
    if (kind === "enum" && !spec.choices.includes(value))
      throw usageError(`${option} takes one of ${spec.choices.join(", ")}, not "${shown(value)}"`);
  } else {
    if (typeof value !== "number" || !Number.isSafeInteger(value))
      throw usageError(`${option} takes a whole number`);
    const format =
      kind === "size"
        ? formatSize
        : kind === "duration"
          ? (v: number) => formatDuration(v, spec.unit)
          : String;
    inRange(option, value, spec, format);
  }
  return value;
}

/**
 * User input inside a one-line message: control characters (C0, DEL, C1) escaped as
 * `\xHH`, so the message cannot drive the terminal or break the line; clipped to 40
 * characters.
 */
export function shown(raw: string): string {
  const chars = [...raw];
  return escapeControls(chars.length > 40 ? `${chars.slice(0, 37).join("")}...` : raw);
}

/** Control characters (C0 with tab and newline, DEL, C1) as `\xHH`, invisible and bidi ones as `\uXXXX`: text from outside, safe on one line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS_AND_INVISIBLES, writtenOut);
}

/** Every control character (newline and tab too) and the invisible and bidi ones. */
const CONTROLS_AND_INVISIBLES = new RegExp(`[${UNSAFE_CHARACTERS}\\t\\n]`, "g");

/** `4096`, `64KiB`, `32MiB`, `1GiB` (binary units; `K`/`M`/`G` accepted too). */
export function parseSize(raw: string, what: string): number {
  const m = /^(\d{1,15})\s*([A-Za-z]*)$/.exec(raw.trim());
  const unit = m ? UNITS[m[2]!.toUpperCase()] : undefined;
  if (!m || unit === undefined)
    throw usageError(`${what} takes a size like 4096, 64KiB, 32MiB or 1GiB, not "${shown(raw)}"`);
  const value = Number(m[1]) * unit;
  if (!Number.isSafeInteger(value)) throw usageError(`${what} is too large`);
  return value;
}

/** `64KiB`, `1MiB`, `4096B`: a byte count the way the help writes it. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** A duration in milliseconds the way the option is written (`S` or `N` ms). */
export function formatDuration(ms: number, unit: "s" | "ms"): string {
  return unit === "s" ? `${ms / 1000}s` : `${ms}ms`;
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

function defaults(table: OptionTable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.kind === "flag") out[name] = false;
    else if (spec.kind === "repeatable") out[name] = [];
    else out[name] = spec.default;
  }
  return out;
}

function convert(
  name: string,
  spec: Exclude<OptionSpec, FlagOption | RepeatableOption>,
  raw: string,
): string | number {
  const option = `--${name}`;
  switch (spec.kind) {
    case "string":
      return raw;
    case "enum":
      if (!spec.choices.includes(raw))
        throw usageError(`${option} takes one of ${spec.choices.join(", ")}, not "${shown(raw)}"`);
      return raw;
    case "int": {
      if (!/^\d{1,15}$/.test(raw))
        throw usageError(`${option} takes a whole number, not "${shown(raw)}"`);
      return inRange(option, Number(raw), spec, String);
    }
    case "size":
      return inRange(option, parseSize(raw, option), spec, formatSize);
    case "duration": {
      const ms = parseDuration(option, spec.unit, raw);
      return inRange(option, ms, spec, (v) => formatDuration(v, spec.unit));
    }
  }
}

function parseDuration(option: string, unit: "s" | "ms", raw: string): number {
  if (unit === "ms") {
    if (!/^\d{1,15}$/.test(raw))
      throw usageError(`${option} takes a whole number of milliseconds, not "${shown(raw)}"`);
    return Number(raw);
  }
  if (!/^\d{1,15}(\.\d{1,3})?$/.test(raw))
    throw usageError(`${option} takes a number of seconds (e.g. 30 or 1.5), not "${shown(raw)}"`);
  return Math.round(Number(raw) * 1000);
}

function inRange(
  option: string,
  value: number,
  spec: { readonly min: number; readonly max: number },
  format: (v: number) => string,
): number {
  if (value < spec.min || value > spec.max) {
    throw usageError(`${option} must be between ${format(spec.min)} and ${format(spec.max)}`);
  }
  return value;
}
