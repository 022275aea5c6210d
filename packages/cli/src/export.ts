/**
 * `spool export REF… | --all [--since T] --out FILE.tar|DIR [--root DIR] [--json]`:
 * write the chosen captures into a bundle (`exportBundle` in `@spool/sinks`): final
 * streams, receipts and line indexes, refs relative to the bundle, and a manifest of what
 * is in it and what was left out and why. A running job goes in as a `partial` snapshot
 * at its committed boundary. `--since T` keeps captures started at or after T. Nothing
 * in the root is changed; nothing is left under `--out` if the export fails.
 */
import * as path from "node:path";
import { type CaptureStore, producerOf } from "@spool/core";
import { type BundleManifest, exportBundle, resolveRoot } from "@spool/sinks";
import { parseSince } from "./age.js";
import { type CommandInput, usageError } from "./args.js";
import type { EXPORT } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";

import { fileSize, withProgress } from "./progress-line.js";
import { openStore } from "./store-choice.js";

const written = (size: string) => (size ? `${size} written` : "");

export async function exportCommand(parsed: CommandInput<typeof EXPORT>, io: Io): Promise<number> {
  const o = parsed.options;
  if (parsed.rest !== null) throw usageError(`unexpected argument "--"`);
  if (o.out === undefined || o.out.length === 0) throw usageError("missing --out FILE.tar|DIR");
  const all = o.all;
  if (all === parsed.positionals.length > 0) {
    throw usageError(all ? "--all takes no REF" : "missing REF (or --all)");
  }
  if (o.since !== undefined && !all) throw usageError("--since goes with --all");
  const since = o.since === undefined ? null : parseSince(o.since, Date.now(), "--since");
  const root = resolveRoot({ flag: o.root, env: io.env, create: false });
  const store = openStore(io, root);
  const chosen = all
    ? await everyCapture(store, since)
    : await resolveAll(store, parsed.positionals);
  const out = path.resolve(io.cwd, o.out);
  const manifest = await withProgress(
    io,
    "export",
    () => written(fileSize(out)()),
    () =>
      exportBundle({
        store,
        captureIds: chosen.ids,
        omitted: chosen.omitted,
        out,
        skipUnreadable: all,
      }),
  );
  if (o.json) io.stdout(`${jsonText(manifest, 2)}\n`);
  else io.stdout(summary(manifest, out));
  return 0;
}

async function resolveAll(store: CaptureStore, refs: readonly string[]) {
  const ids: string[] = [];
  for (const ref of refs) ids.push((await store.resolve(ref)).captureId);
  return { ids, omitted: [] };
}

async function everyCapture(store: CaptureStore, since: number | null) {
  const ids: string[] = [];
  for (const c of await store.list()) {
    if (since !== null && Date.parse(producerOf(c.receipt).startedAt) < since) continue;
    ids.push(c.captureId);
  }
  return { ids, omitted: [] };
}

function summary(manifest: BundleManifest, out: string): string {
  const lines = [`exported ${manifest.captures.length} capture(s) to ${out}`];
  for (const c of manifest.captures) {
    const bytes = c.files.reduce((sum, f) => sum + f.bytes, 0);
    const how = c.snapshot
      ? "  partial snapshot (running)"
      : c.condition === "crashed"
        ? "  crashed"
        : "";
    lines.push(`  ${c.captureId}  ${bytes} B${how}`);
    for (const left of c.omitted) lines.push(`    left out: ${left.what} (${left.reason})`);
  }
  for (const left of manifest.omitted) {
    lines.push(`  left out ${left.captureId}: ${left.detail} (${left.reason})`);
  }
  return `${lines.join("\n")}\n`;
}
