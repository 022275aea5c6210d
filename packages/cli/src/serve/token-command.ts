/**
 * `spool token [--root DIR] [--token-file F] [--capture REF] [--ttl 1h] [--json]`: print a
 * new read-only bearer token for `spool serve`, valid for `--ttl` (default 1h, at most 30d)
 * and, with `--capture`, for that one capture only: what a child or a remote reader is
 * given instead of the root token. Tokens are signed with a key derived from the root
 * token (`ROOT/serve.token`, or `--token-file`), so `spool serve` needs no list of them;
 * replacing the root token revokes them all. `spool token --new-root` prints a fresh root
 * token for a `--token-file` (store it `0600`).
 */
import { systemClock } from "@spool/core";
import { resolveRoot } from "@spool/sinks";
import { type CommandInput, shown, usageError } from "../args.js";
import type { TOKEN } from "../commands.js";
import type { Io } from "../io.js";
import { openStore } from "../store-choice.js";
import { loadRootToken } from "./root-token.js";
import { createTokenAuthority, newRootToken, parseTtl } from "./tokens.js";

export async function tokenCommand(parsed: CommandInput<typeof TOKEN>, io: Io): Promise<number> {
  const o = parsed.options;
  if (parsed.positionals.length > 0 || parsed.rest !== null) {
    throw usageError(`unexpected argument "${shown(parsed.positionals[0] ?? "--")}"`);
  }
  if (o["new-root"] === true) {
    if (parsed.argv.some((word) => word !== "--new-root"))
      throw usageError("--new-root takes no other option");
    io.stdout(`${newRootToken()}\n`);
    return 0;
  }
  const ttlMs = parseTtl(o.ttl);
  const root = resolveRoot({ flag: o.root, env: io.env, create: false });
  let captureId: string | null = null;
  if (o.capture !== undefined) {
    captureId = (await openStore(io, o.root).resolve(o.capture)).captureId;
  }
  const { token: rootToken } = loadRootToken({
    root,
    tokenFile: o["token-file"],
    create: false,
  });
  const authority = createTokenAuthority({ rootToken, now: systemClock.now });
  const token = authority.issue({ captureId, ttlMs });
  const expiresAt = new Date(systemClock.now() + ttlMs).toISOString();
  io.stdout(
    o.json ? `${JSON.stringify({ token, captureId, expiresAt, readOnly: true })}\n` : `${token}\n`,
  );
  return 0;
}
