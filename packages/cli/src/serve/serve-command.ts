/**
 * `spool serve [--root DIR] [--listen HOST:PORT | --socket PATH] [--token-file F]
 * [--max-transfer N] [--grep-ms N] [--access-log FILE|-] [--public --tls-cert F --tls-key F [--allow-host NAME]…]`:
 * authenticated, read-only HTTP access to the root's captures and a web view at `/`
 * (docs/serve.md). Prints one JSON line when it listens (`url` or `socket`, `tokenFile`:
 * where the root token is; the token itself is never printed), then serves until SIGINT or
 * SIGTERM.
 */
import * as fs from "node:fs";
import { systemClock } from "@spool/core";
import { resolveRoot } from "@spool/sinks";
import { type CommandInput, shown, usageError } from "../args.js";
import type { SERVE } from "../commands.js";
import type { Io } from "../io.js";
import { openStore } from "../store-choice.js";
import { openAccessLog } from "./access-log.js";
import { createGrepRunner } from "./grep-runner.js";
import { startServer } from "./http-server.js";
import { chooseListen } from "./listen-address.js";
import { loadRootToken } from "./root-token.js";
import { createServeApp } from "./serve-app.js";
import { createTokenAuthority } from "./tokens.js";
import { loadWebAssets } from "./web-assets.js";

export async function serveCommand(parsed: CommandInput<typeof SERVE>, io: Io): Promise<number> {
  const o = parsed.options;
  if (parsed.positionals.length > 0 || parsed.rest !== null) {
    throw usageError(`unexpected argument "${shown(parsed.positionals[0] ?? "--")}"`);
  }
  const certFile = o["tls-cert"];
  const keyFile = o["tls-key"];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw usageError("--tls-cert and --tls-key go together");
  }
  const address = chooseListen({
    listen: o.listen,
    socket: o.socket,
    public: o.public,
    tls: certFile !== undefined,
  });
  const maxTransfer = o["max-transfer"];
  const tls =
    certFile !== undefined && keyFile !== undefined
      ? { cert: readPrivate(certFile, false), key: readPrivate(keyFile, true) }
      : undefined;
  const root = resolveRoot({ flag: o.root, env: io.env });
  const { token, file, created } = loadRootToken({
    root,
    tokenFile: o["token-file"],
    create: true,
  });
  const accessLog =
    o["access-log"] === undefined
      ? null
      : openAccessLog(o["access-log"], {
          stdout: (line) => io.stdout(line),
          onError: (error) =>
            io.stderr(`spool serve: the access log stopped (${error.code ?? "EIO"})\n`),
        });
  const store = openStore(io, root);
  const app = createServeApp({
    store,
    authority: createTokenAuthority({ rootToken: token, now: systemClock.now }),
    grep: createGrepRunner({ timeMs: o["grep-ms"] }),
    web: loadWebAssets(),
    maxTransfer,
    heartbeatMs: o.heartbeat,
  });
  const server = await startServer({
    app,
    address,
    tls,
    hosts: o["allow-host"],
    accessLog: accessLog ? (entry) => accessLog.record(entry) : undefined,
  });
  io.stdout(
    `${JSON.stringify({ url: server.url, socket: server.socket, root, tokenFile: file, tokenCreated: created, maxTransfer })}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  await accessLog?.close();
  return 0;
}

/** A TLS file; the key must not be readable by others. */
function readPrivate(file: string, secret: boolean): Buffer {
  const st = fs.statSync(file);
  if (secret && (st.mode & 0o077) !== 0)
    throw usageError("--tls-key must not be readable by group or others");
  return fs.readFileSync(file);
}
