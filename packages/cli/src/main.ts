/**
 * The `spool` binary: look the command up in its definition (`commands.ts`), parse its
 * options, load its module, run it. `spool help`, `spool help CMD`, `spool CMD --help` and
 * `spool --version`; usage errors are one line and exit 64.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isSpoolError } from "@spool/core/runtime";
import {
  type CommandDefinition,
  escapeControls,
  type OptionsOf,
  type OptionTable,
  type ParsedCommand,
  parseCommand,
  shown,
} from "./args.js";
import * as defs from "./commands.js";
import { type Io, processIo } from "./io.js";

/** A command's body: its parsed, typed options in, its exit status out. */
type Command<T extends OptionTable> = (
  parsed: ParsedCommand<OptionsOf<T>>,
  io: Io,
) => Promise<number>;

interface Entry<T extends OptionTable> {
  readonly definition: CommandDefinition<T>;
  readonly load: () => Promise<Command<T>>;
}

function commandEntry<T extends OptionTable>(
  definition: CommandDefinition<T>,
  load: () => Promise<Command<T>>,
): Entry<OptionTable> {
  return { definition, load } as unknown as Entry<OptionTable>;
}

// Each command is imported when it runs: loading them all (zod and the sinks' lock, quota
// and recovery modules among them) cost `spool run` tens of milliseconds at every start.
const ENTRIES: ReadonlyMap<string, Entry<OptionTable>> = new Map(
  [
    commandEntry(defs.RUN, async () => (await import("./run.js")).runCommand),
    commandEntry(defs.START, async () => (await import("./start.js")).startCommand),
    commandEntry(defs.STATUS, async () => (await import("./status.js")).statusCommand),
    commandEntry(defs.WAIT, async () => (await import("./wait.js")).waitCommand),
    commandEntry(defs.READ, async () => (await import("./read.js")).readCommand),
    commandEntry(defs.TAIL, async () => (await import("./tail.js")).tailCommand),
    commandEntry(defs.GREP, async () => (await import("./grep.js")).grepCommand),
    commandEntry(defs.KILL, async () => (await import("./kill.js")).killCommand),
    commandEntry(defs.SUPERVISE, async () => (await import("./supervisor.js")).superviseCommand),
    commandEntry(defs.BENCH, async () => (await import("./bench.js")).benchCommand),
    commandEntry(defs.LS, async () => (await import("./ls.js")).lsCommand),
    commandEntry(defs.RECOVER, async () => (await import("./recover.js")).recoverCommand),
    commandEntry(defs.EXPORT, async () => (await import("./export.js")).exportCommand),
    commandEntry(defs.IMPORT, async () => (await import("./import.js")).importCommand),
    commandEntry(defs.SHARE, async () => (await import("./share.js")).shareCommand),
    commandEntry(defs.RM, async () => (await import("./rm.js")).rmCommand),
    commandEntry(defs.DU, async () => (await import("./du.js")).duCommand),
    commandEntry(defs.SERVE, async () => (await import("./serve/serve-command.js")).serveCommand),
    commandEntry(defs.TOKEN, async () => (await import("./serve/token-command.js")).tokenCommand),
    commandEntry(defs.CAPTURE, async () => (await import("./stdin-capture.js")).captureCommand),
    commandEntry(defs.MCP, async () => (await import("./mcp-server.js")).mcpCommand),
    commandEntry(defs.MCP_PROXY, async () => (await import("./mcp-proxy.js")).mcpProxyCommand),
  ].map((e) => [e.definition.name, e]),
);

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } finally {
    reportUsage(io.env);
  }
}

/**
 * Benchmarks ask `spool` for its own peak RSS and CPU time: with `SPOOL_RUSAGE_FILE` set,
 * they are written there at exit (exclusively; an existing file is left alone).
 */
function reportUsage(env: NodeJS.ProcessEnv): void {
  const file = env.SPOOL_RUSAGE_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  try {
    writeFileSync(
      file,
      JSON.stringify({ maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }),
      { flag: "wx", mode: 0o600 },
    );
  } catch {
    // measurement is best effort
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr((await import("./help.js")).commandListText());
    return 64;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  if (name === "help" || name === "--help" || name === "-h") return help(rest, io);
  const found = ENTRIES.get(name);
  if (!found) {
    io.stderr(`spool: unknown command "${shown(name)}" (try: spool help)\n`);
    return 64;
  }
  const { definition } = found;
  const options = rest.indexOf("--") === -1 ? rest : rest.slice(0, rest.indexOf("--"));
  if (options.includes("--help")) {
    io.stdout((await import("./help.js")).commandText(definition));
    return 0;
  }
  try {
    return await invoke(found, rest, io);
  } catch (error) {
    if (
      isSpoolError(
        error,
        "SPOOL_E_USAGE",
        "SPOOL_E_OPTIONS",
        "SPOOL_E_REF_INVALID",
        "SPOOL_E_REF_OUTSIDE_ROOT",
        "SPOOL_E_REF_NOT_FOUND",
        "SPOOL_E_REDACT_VALUE",
        "SPOOL_E_AUTH",
      )
    ) {
      io.stderr(`spool ${name}: ${escapeControls(error.message.replace(/^cli: /, ""))}\n`);
      return 64;
    }
    if (isSpoolError(error)) {
      io.stderr(`spool ${name}: ${escapeControls(error.message)}\n`);
      return 70;
    }
    throw error;
  }
}

/**
 * Run command `name` on `argv` (the words after its name) with `io`; its typed errors are
 * thrown, not printed. The MCP server calls the commands through this, with an `Io` that
 * collects what they print.
 */
export async function invokeCommand(
  name: string,
  argv: readonly string[],
  io: Io,
): Promise<number> {
  const found = ENTRIES.get(name);
  if (!found) throw new Error(`spool: no command ${name}`);
  return invoke(found, argv, io);
}

async function invoke(found: Entry<OptionTable>, argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommand(found.definition, argv);
  const command = await found.load();
  return command(parsed, io.invoke === undefined ? { ...io, invoke: invokeCommand } : io);
}

/** `spool help [CMD]`; the renderer is loaded only here, off the path of every other command. */
async function help(topics: readonly string[], io: Io): Promise<number> {
  const { commandListText, commandText } = await import("./help.js");
  const [topic, ...more] = topics;
  if (topic === undefined) {
    io.stdout(commandListText());
    return 0;
  }
  const definition = defs.commandNamed(topic);
  if (!definition || definition.hidden || more.length > 0) {
    io.stderr(`spool help: unknown command "${shown(topics.join(" "))}" (try: spool help)\n`);
    return 64;
  }
  io.stdout(commandText(definition));
  return 0;
}

/** The version in the CLI's package.json (read on demand: only `--version` needs it). */
function version(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  );
  const known = typeof pkg === "object" && pkg !== null && "version" in pkg;
  return `spool ${known && typeof pkg.version === "string" ? pkg.version : "(unknown version)"}`;
}
