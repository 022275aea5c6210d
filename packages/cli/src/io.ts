/** What a command may touch of the outside world, injectable for tests. */
export interface Io {
  readonly stdout: (text: string | Uint8Array) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** What `spool capture` reads (default: this process's stdin). */
  readonly stdin?: NodeJS.ReadableStream;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
};
