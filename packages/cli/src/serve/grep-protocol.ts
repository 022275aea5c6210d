/** Messages between the grep runner and its worker (`grep-worker.ts`). */
import type { GrepMatch } from "../grep-scan.js";

/** What a request asks. */
export interface GrepJob {
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly max: number;
  readonly onlyMatching: boolean;
  readonly columns: number;
}

/** What the worker is started with: the job, and whether the stream is binary (matched byte for byte). */
export interface WorkerJob extends GrepJob {
  readonly binary: boolean;
}

/** The next bytes of the stream, or its end. */
export type GrepRequest =
  | { readonly type: "chunk"; readonly bytes: Uint8Array }
  | { readonly type: "end" };

/** The matches one request produced; `more: false` once the scan stopped (max, or end). */
export interface GrepReply {
  readonly matches: GrepMatch[];
  readonly more: boolean;
}
