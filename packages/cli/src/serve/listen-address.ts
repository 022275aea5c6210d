/**
 * Where `spool serve` listens, and which `Host` headers name it. Loopback (`127.0.0.0/8`,
 * `::1`, `localhost`) or a unix socket is allowed as is; any other address is refused
 * unless `--public` is given together with a TLS certificate and key, so the root's bytes
 * never cross a network in the clear by accident.
 *
 * @example
 * ```ts
 * import { chooseListen } from "./listen-address.js";
 * chooseListen({ listen: "127.0.0.1:8080", public: false, tls: false }); // { kind: "tcp", host: "127.0.0.1", port: 8080 }
 * chooseListen({ listen: "0.0.0.0:8080", public: false, tls: false }); // throws SPOOL_E_USAGE
 * ```
 */
import { isIP } from "node:net";
import * as path from "node:path";
import { SpoolError } from "@spool/core";

export type ListenAddress =
  | {
      readonly kind: "tcp";
      readonly host: string;
      readonly port: number;
      readonly loopback: boolean;
    }
  | { readonly kind: "socket"; readonly path: string };

export interface ListenChoice {
  readonly listen?: string | undefined;
  readonly socket?: string | undefined;
  readonly public: boolean;
  readonly tls: boolean;
}

/** The default: loopback, a port the system picks (printed at start). */
export const DEFAULT_LISTEN = "127.0.0.1:0";

export function chooseListen(choice: ListenChoice): ListenAddress {
  if (choice.listen !== undefined && choice.socket !== undefined) {
    throw usage("--listen and --socket exclude each other");
  }
  if (choice.socket !== undefined) {
    if (choice.socket.length === 0 || choice.socket.includes("\0") || choice.socket.length > 100) {
      throw usage("--socket takes a path of at most 100 bytes");
    }
    return { kind: "socket", path: path.resolve(choice.socket) };
  }
  const raw = choice.listen ?? DEFAULT_LISTEN;
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw);
  const host = m ? ((m[1] ?? m[2]) as string) : "";
  const port = m ? Number(m[3]) : -1;
  if (!m || port > 65535 || (host !== "localhost" && isIP(host) === 0)) {
    throw usage(
      `--listen takes HOST:PORT with an IP address or localhost, not "${raw.slice(0, 60)}"`,
    );
  }
  const loopback = isLoopback(host);
  if (!loopback) {
    if (!choice.public) {
      throw usage(
        `${host} is not a loopback address: pass --public (with --tls-cert and --tls-key) to listen there`,
      );
    }
    if (!choice.tls) throw usage("--public needs --tls-cert and --tls-key");
  }
  return { kind: "tcp", host, port, loopback };
}

/** The `Host` header values that name the server once it listens on `port`. */
export function allowedHosts(
  address: ListenAddress,
  port: number,
  extra: readonly string[],
): Set<string> {
  const hosts = new Set(extra.map((h) => h.toLowerCase()));
  if (address.kind === "socket") {
    hosts.add("localhost");
    return hosts;
  }
  const named = isIP(address.host) === 6 ? `[${address.host}]` : address.host;
  hosts.add(`${named.toLowerCase()}:${port}`);
  if (address.loopback) {
    for (const h of ["127.0.0.1", "localhost", "[::1]"]) hosts.add(`${h}:${port}`);
  }
  return hosts;
}

export function isLoopback(host: string): boolean {
  if (host === "localhost" || host === "::1") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

const usage = (message: string) => new SpoolError("SPOOL_E_USAGE", "cli", message);
