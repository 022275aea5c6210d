/**
 * `spool du [--root DIR] [--root-quota N] [--json]`: bytes each capture takes, the total,
 * and where the root stands against its allowance (`--root-quota`, default 128 MiB):
 * what the allowance books hold (captures' kept bytes and live reservations) and what is
 * left for new captures. Looking writes nothing.
 */
import * as path from "node:path";
import { printable } from "@spool/core";
import { resolveRoot } from "@spool/sinks";
import { ROOT_QUOTA_DIR, rootQuotaUsage } from "@spool/sinks/internal";
import { lstatIfAny } from "@spool/sinks/runtime";
import { type CommandInput, shown, usageError } from "./args.js";
import type { DU } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { openStore } from "./store-choice.js";

export async function duCommand(parsed: CommandInput<typeof DU>, io: Io): Promise<number> {
  if (parsed.positionals.length > 0 || parsed.rest !== null) {
    throw usageError(`unexpected argument "${shown(parsed.positionals[0] ?? "--")}"`);
  }
  const root = resolveRoot({ flag: parsed.options.root, env: io.env, create: false });
  const limit = parsed.options["root-quota"];
  const store = openStore(io, root);
  const captures = [];
  for (const c of await store.list()) {
    const usage = await store.usage(c.captureId);
    captures.push({
      ...usage,
      condition: c.condition,
      label: c.receipt.label,
      provenance: c.receipt.provenance ?? null,
    });
  }
  const total = captures.reduce((sum, c) => sum + c.bytes, 0);
  // Reading the books takes their lock (which may settle a dead capture's reservation);
  // a root that never reserved anything has no books, and none are made.
  const reserved = lstatIfAny(path.join(root, ROOT_QUOTA_DIR)) === null ? 0 : rootQuotaUsage(root);
  const quota = { limit, reserved, free: Math.max(0, limit - reserved) };
  if (parsed.options.json) {
    io.stdout(`${jsonText({ root, captures, total, quota }, 2)}\n`);
    return 0;
  }
  for (const c of captures) {
    const label = c.label === null ? "" : `  ${printable(c.label)}`;
    io.stdout(`${String(c.bytes).padStart(12)} B  ${c.captureId}  ${c.condition}${label}\n`);
  }
  io.stdout(
    `${String(total).padStart(12)} B  total in ${captures.length} capture(s); allowance ${limit} B, reserved ${reserved} B, free ${quota.free} B\n`,
  );
  return 0;
}
