/**
 * The help of `spool`, rendered from the command definitions (`commands.ts`): the command
 * list (`spool help`), one command (`spool help CMD`, `spool CMD --help`), and the
 * Markdown reference docs/cli.md (`scripts/cli-docs.mjs` writes it; a test fails when it
 * is stale).
 */
import {
  type CommandDefinition,
  formatDuration,
  formatSize,
  type OptionSpec,
  type OptionTable,
  usageLine,
} from "./args.js";
import { COMMANDS } from "./commands.js";

/** `spool help`: every command with its usage and summary. */
export function commandListText(): string {
  const lines = ["usage: spool <command> [options]", ""];
  for (const c of listed()) {
    lines.push(`  ${c.name} ${usageLine(c)}`, `      ${c.summary}`);
  }
  lines.push(
    "",
    "REF is a captureId, a callId or a ref (tool-outputs/<id>/stdout.txt).",
    "Sizes accept KiB, MiB, GiB. spool help CMD (or spool CMD --help): its options.",
    "spool --version: the version. Reference: docs/cli.md in the spool repository.",
    "",
  );
  return lines.join("\n");
}

/** `spool help CMD`: usage, description, and every option with its default and range. */
export function commandText(c: CommandDefinition): string {
  const lines = [`usage: spool ${c.name} ${usageLine(c)}`, "", c.summary];
  for (const p of c.description ?? []) lines.push("", ...wrap(p, 88));
  const options = Object.entries(c.options as OptionTable);
  if (options.length > 0) {
    lines.push("", "Options:");
    const heads = options.map(([name, spec]) => optionHead(name, spec));
    const width = Math.min(30, Math.max(...heads.map((h) => h.length)));
    options.forEach(([, spec], i) => {
      const head = heads[i]!;
      const text = [spec.help, ...notes(spec)].join("; ");
      if (head.length > width) lines.push(`  ${head}`, `  ${" ".repeat(width)}  ${text}`);
      else lines.push(`  ${head.padEnd(width)}  ${text}`);
    });
  }
  lines.push("");
  return lines.join("\n");
}

/** docs/cli.md. */
export function cliMarkdown(): string {
  const out = [
    "# The `spool` command line",
    "",
    "<!-- Generated from packages/cli/src/commands.ts by `node scripts/cli-docs.mjs`; do not edit. -->",
    "",
    "Every command prints its own help with `spool help CMD` or `spool CMD --help`;",
    "`spool --version` prints the version. `REF` is a captureId, a callId (`--call-id`) or a",
    "ref (`tool-outputs/<id>/stdout.txt`). Sizes are bytes, or a number with `KiB`, `MiB` or",
    "`GiB` (`K`, `M`, `G` too). Durations are whole milliseconds (options ending in `-ms`) or",
    "seconds with up to three decimals (`S`).",
    "",
    "A value outside its range, an unknown option or a missing argument is refused with a",
    "one-line message on stderr and exit status 64, before anything is created on disk.",
    "",
    "| Command | Summary |",
    "| --- | --- |",
    ...listed().map((c) => `| [\`${c.name}\`](#spool-${c.name}) | ${cell(c.summary)} |`),
  ];
  for (const c of listed()) {
    out.push("", `## spool ${c.name}`, "", "```", `spool ${c.name} ${usageLine(c)}`, "```", "");
    out.push(`${sentence(c.summary)}`);
    for (const p of c.description ?? []) out.push("", p);
    const options = Object.entries(c.options as OptionTable);
    if (options.length === 0) continue;
    out.push("", "| Option | Default | Range | Meaning |", "| --- | --- | --- | --- |");
    for (const [name, spec] of options) {
      out.push(
        `| \`${cell(optionHead(name, spec))}\` | ${cell(defaultOf(spec) ?? "")} | ${cell(rangeOf(spec) ?? "")} | ${cell(spec.help)} |`,
      );
    }
  }
  out.push(
    "",
    "## Exit statuses",
    "",
    "| Status | Meaning |",
    "| --- | --- |",
    "| 0 | success (`run`, `wait`: CMD exited 0) |",
    "| 1-125 | `run`, `wait`: CMD's own exit status |",
    "| 126, 127 | `run`, `start`: CMD could not be run (not executable, not found) |",
    "| 128+N | `run`, `wait`: CMD was ended by signal N |",
    "| 64 | usage error: bad option, value out of range, unknown REF |",
    "| 70 | internal or storage error (the message names it); `start`: the job's storage could not be made ready, so CMD was not run |",
    "| 75 | `wait --timeout`: the job is still running |",
    "",
  );
  return out.join("\n");
}

function listed(): CommandDefinition[] {
  return COMMANDS.filter((c) => !c.hidden);
}

function optionHead(name: string, spec: OptionSpec): string {
  const long = spec.kind === "flag" ? `--${name}` : `--${name} ${spec.placeholder ?? "VALUE"}`;
  return spec.short ? `-${spec.short}, ${long}` : long;
}

function notes(spec: OptionSpec): string[] {
  const out: string[] = [];
  const d = defaultOf(spec);
  if (d !== null) out.push(`default ${d}`);
  const r = rangeOf(spec);
  if (r !== null) out.push(r);
  return out;
}

function defaultOf(spec: OptionSpec): string | null {
  switch (spec.kind) {
    case "flag":
    case "repeatable":
      return null;
    case "string":
    case "enum":
      return spec.default ?? null;
    case "int":
      return spec.default === undefined ? null : String(spec.default);
    case "size":
      return spec.default === undefined ? null : formatSize(spec.default);
    case "duration":
      return spec.default === undefined ? null : formatDuration(spec.default, spec.unit);
  }
}

function rangeOf(spec: OptionSpec): string | null {
  switch (spec.kind) {
    case "enum":
      return `one of ${spec.choices.join(", ")}`;
    case "int":
      return spec.max === Number.MAX_SAFE_INTEGER ? `≥ ${spec.min}` : `${spec.min}-${spec.max}`;
    case "size":
      return spec.max === Number.MAX_SAFE_INTEGER
        ? `≥ ${formatSize(spec.min)}`
        : `${formatSize(spec.min)}-${formatSize(spec.max)}`;
    case "duration":
      return `${formatDuration(spec.min, spec.unit)}-${formatDuration(spec.max, spec.unit)}`;
    default:
      return null;
  }
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|");
}

function sentence(s: string): string {
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
