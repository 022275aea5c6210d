/**
 * An MCP client, the official SDK's, of a server this Node runs as a child and speaks to
 * over stdio (`spool mcp`, `spool mcp-proxy -- …`, a third-party server): shared by
 * `bench mcp` and the MCP tests. The SDK loads with the first connection, so that loading
 * this package for another bench does not load it.
 *
 * @example
 * ```ts
 * import { connectMcpClient } from "@spool/bench";
 * const { client } = await connectMcpClient([spoolBin, "mcp", "--root", root], { name: "me" });
 * console.log((await client.listTools()).tools.map((t) => t.name));
 * await client.close();
 * ```
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface McpClientOptions {
  /** The client's name in the MCP handshake. */
  readonly name: string;
  /** The server's stderr: dropped, or piped to a stream nobody reads. @default "ignore" */
  readonly stderr?: "ignore" | "pipe";
}

/** A connected client and the pid its server had when it connected. */
export interface McpConnection {
  readonly client: Client;
  readonly pid: number | null;
}

/** Start `node ...args` and connect a client to it over its stdin and stdout. */
export async function connectMcpClient(
  args: readonly string[],
  options: McpClientOptions,
): Promise<McpConnection> {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
  ]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    stderr: options.stderr ?? "ignore",
    // One result is one message, holding a big text twice (content and structuredContent):
    // a 5 MB file read is an 11.7 MB message, over the SDK's default 10 MiB, which would
    // lose the connection.
    maxBufferSize: 64 * 1024 * 1024,
  });
  const client = new Client({ name: options.name, version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}
