/**
 * The per-root allowance (`--root-quota`, SPEC §7), the {@link Allowance} of a file root
 * (`rootQuotaAllowance` in quota.ts hands it to `withQuotas`): every capture that retains bytes
 * holds a reservation file `ROOT/.spool-quota/<captureId>.json`, and the reservations
 * together never pass the allowance. A capture grows its reservation (in steps, under a
 * file-system lock, so captures in separate processes cannot both take the last bytes)
 * before it writes; at the end it settles the reservation to the bytes it kept. Settled
 * reservations keep counting, so earlier captures use up the allowance rather than being
 * deleted to make room.
 *
 * The files are the only state: reservations of dead supervisors are settled from the
 * bytes actually on disk, and reservations of deleted captures are dropped, whenever the
 * lock is taken ({@link createRootAllowance}) or by {@link reconcileRootQuota}.
 *
 * @example
 * ```ts
 * import { createRootAllowance } from "@spool/sinks";
 * const allowance = createRootAllowance({ root: "/tmp/r", limit: 16 * 1024 * 1024, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA" });
 * const granted = allowance.reserve(65536); // bytes this capture may hold in all (less than asked is a refusal)
 * allowance.release(4096);                  // at the end: what it kept
 * ```
 */
import * as path from "node:path";
import { SpoolError } from "@spool/core/runtime";
import { type FsLayer, nodeFs } from "../file/fs-layer.js";
import { ensurePrivateDir, errnoOf, publishAtomic, TOOL_OUTPUTS } from "../file/storage.js";
import { withFileLock } from "../lock/file-lock.js";
import {
  currentOwner,
  isOwnerAlive,
  isRecord,
  type Owner,
  ownerOf,
  readOwnerFile,
} from "../lock/owner.js";
import type { Allowance } from "./allowance.js";

/**
 * The directory of a root that holds its allowance's books (one reservation per capture,
 * and the lock).
 *
 * @category quotas
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { ROOT_QUOTA_DIR } from "@spool/sinks/internal";
 * join("/home/me/.spool", ROOT_QUOTA_DIR);
 * ```
 */
export const ROOT_QUOTA_DIR = ".spool-quota";
const LOCK = "lock";
const COMPONENT = "root-quota";

/**
 * One capture's reservation in a root's books (its zod schema, for users:
 * `ReservationSchema`; this module reads the books without zod, see {@link reservationOf}).
 *
 * @category quotas
 * @example
 * ```ts
 * import type { Reservation } from "@spool/sinks";
 * declare const reservation: Reservation;
 * if (reservation.settled) console.log(`${reservation.captureId} keeps ${reservation.bytes} bytes`);
 * ```
 */
export interface Reservation {
  version: 1;
  captureId: string;
  owner: Owner;
  bytes: number;
  /** The capture ended (or was reconciled): `bytes` is what it kept. */
  settled: boolean;
}

/**
 * `value` as a {@link Reservation}, or null when it is not one; what `ReservationSchema`
 * accepts, without zod (every capture that spills reads the books).
 *
 * @category quotas
 * @example
 * ```ts
 * import { reservationOf } from "@spool/sinks";
 * reservationOf({ version: 1, captureId: "A", owner: { pid: 1, start: null }, bytes: 0, settled: true })?.bytes; // 0
 * ```
 */
export function reservationOf(value: unknown): Reservation | null {
  if (!isRecord(value)) return null;
  const { version, captureId, bytes, settled } = value;
  const owner = ownerOf(value.owner);
  if (version !== 1 || typeof captureId !== "string" || owner === null) return null;
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) return null;
  if (typeof settled !== "boolean") return null;
  return { version, captureId, owner, bytes, settled };
}

/**
 * Options of {@link createRootAllowance}.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRootAllowance, type RootAllowanceOptions } from "@spool/sinks";
 * const options: RootAllowanceOptions = { root: "/home/me/.spool", limit: 128 * 1024 * 1024, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA" };
 * const allowance = createRootAllowance(options);
 * ```
 */
export interface RootAllowanceOptions {
  /** The absolute root whose books are kept (under {@link ROOT_QUOTA_DIR}). */
  readonly root: string;
  /** The allowance in bytes for every capture in the root together. */
  readonly limit: number;
  /** The capture whose reservation this is. */
  readonly captureId: string;
  /**
   * Bytes reserved beyond what is asked, to take the lock less often. By default the step
   * grows with the reservation, up to a quarter of it, never past `limit / 32`: each step
   * costs a lock cycle on the reader's thread, and a fixed 4 MiB step meant 256 of
   * them per GiB captured.
   * @default max(64 KiB, min(4 MiB, limit / 32)), growing to min(reserved / 4, limit / 32)
   */
  readonly stepBytes?: number;
  /** The file-system calls used (tests inject faults). @default nodeFs */
  readonly fs?: FsLayer;
}

/**
 * A capture's reservation in a file root: `reserve` grows it (in steps, under the lock)
 * to cover `total` if the allowance has room; `release` settles it to what was kept.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRootAllowance, type RootAllowance } from "@spool/sinks";
 * const allowance: RootAllowance = createRootAllowance({ root: "/home/me/.spool", limit: 1 << 27, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA" });
 * allowance.reserve(1024);
 * ```
 */
export type RootAllowance = Allowance;

/**
 * A capture's reservation in the books of a file root, shared with every other process
 * capturing into it. Throws `SPOOL_E_OPTIONS` for a limit that is not a whole number ≥ 0.
 * `rootQuotaAllowance(limit)` is the {@link AllowanceSource} form `withQuotas` takes.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRootAllowance } from "@spool/sinks";
 * const allowance = createRootAllowance({ root: "/home/me/.spool", limit: 128 * 1024 * 1024, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA" });
 * const held = allowance.reserve(4096);
 * allowance.release(held);
 * ```
 */
export function createRootAllowance(options: RootAllowanceOptions): RootAllowance {
  const fsl = options.fs ?? nodeFs;
  const { root, limit, captureId } = options;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new SpoolError("SPOOL_E_OPTIONS", COMPONENT, "the root quota must be a whole number ≥ 0");
  }
  const base = Math.max(64 * 1024, Math.min(4 * 1024 * 1024, limit / 32));
  const stepAt = (held: number) =>
    options.stepBytes ?? Math.max(base, Math.min(Math.floor(held / 4), Math.floor(limit / 32)));
  let reserved = 0;
  let settled = false;
  const mine = `${captureId}.json`;

  /**
   * Only the first reservation and the settled one are made durable. A growth need not
   * be: other processes see it at once, and after a crash of the machine every unsettled
   * reservation is settled from the bytes on disk, whatever it said. Its fsyncs also
   * waited on the capture's own dirty data (~5 ms each, on the reader's thread).
   */
  const write = (bytes: number, isSettled: boolean, durable = true) => {
    const record: Reservation = {
      version: 1,
      captureId,
      owner: currentOwner(),
      bytes,
      settled: isSettled,
    };
    publishAtomic(quotaDir(root, fsl), mine, Buffer.from(`${JSON.stringify(record)}\n`), {
      replace: true,
      durable,
      fs: fsl,
    });
  };

  return {
    get reserved() {
      return reserved;
    },
    reserve(total) {
      if (total <= reserved || settled) return reserved;
      return withQuotaLock(
        root,
        () => {
          const others = usageLocked(root, fsl, mine);
          const available = Math.max(0, limit - others);
          const want = Math.min(available, Math.floor(total + stepAt(reserved)));
          if (want > reserved) {
            write(want, false, reserved === 0);
            reserved = want;
          }
          return reserved;
        },
        fsl,
      );
    },
    release(kept) {
      if (settled) return;
      settled = true;
      if (reserved === 0 && kept === 0) return;
      withQuotaLock(root, () => write(kept, true), fsl);
      reserved = kept;
    },
  };
}

/**
 * Bytes reserved or kept in the root right now (reconciling dead reservations).
 *
 * @category quotas
 * @example
 * ```ts
 * import { DEFAULT_ROOT_QUOTA } from "@spool/sinks";
 * import { rootQuotaUsage } from "@spool/sinks/internal";
 * const free = DEFAULT_ROOT_QUOTA - rootQuotaUsage("/home/me/.spool");
 * ```
 */
export function rootQuotaUsage(root: string, fsl: FsLayer = nodeFs): number {
  return withQuotaLock(root, () => usageLocked(root, fsl, null), fsl);
}

/**
 * Rebuild the allowance's books from the files: settle reservations of dead
 * supervisors to the bytes their captures hold on disk, drop reservations of captures
 * that no longer exist, and add settled reservations for captures that have none.
 * Idempotent; never touches a capture whose supervisor is alive.
 *
 * @category quotas
 * @example
 * ```ts
 * import { reconcileRootQuota } from "@spool/sinks";
 * reconcileRootQuota("/home/me/.spool"); // after removing captures by hand
 * ```
 */
export function reconcileRootQuota(root: string, fsl: FsLayer = nodeFs): void {
  const outputs = path.join(root, TOOL_OUTPUTS);
  withQuotaLock(
    root,
    () => {
      const dir = quotaDir(root, fsl);
      const booked = new Set<string>();
      for (const [name, r] of readReservations(dir, fsl)) {
        booked.add(r.captureId);
        const exists = captureDirExists(outputs, r.captureId, fsl);
        if (!r.settled && isOwnerAlive(r.owner)) continue;
        if (!exists) {
          fsl.unlinkSync(path.join(dir, name));
          continue;
        }
        if (!r.settled) settleFromDisk(dir, outputs, r, fsl);
      }
      for (const id of listDir(outputs, fsl)) {
        if (booked.has(id) || id.startsWith(".")) continue;
        const owner = readOwnerFile(path.join(outputs, id));
        if (owner && isOwnerAlive(owner)) continue;
        const bytes = keptOnDisk(outputs, id, fsl);
        const record: Reservation = {
          version: 1,
          captureId: id,
          owner: owner ? { pid: owner.pid, start: owner.start } : currentOwner(),
          bytes,
          settled: true,
        };
        publishAtomic(dir, `${id}.json`, Buffer.from(`${JSON.stringify(record)}\n`), {
          replace: true,
          fs: fsl,
        });
      }
    },
    fsl,
  );
}

/**
 * Bytes of stream files (`stdout.*`, `stderr.*`) a capture directory holds on disk.
 *
 * @category quotas
 * @example
 * ```ts
 * import { keptOnDisk } from "@spool/sinks";
 * keptOnDisk("/home/me/.spool/tool-outputs", "AAAAAAAAAAAAAAAAAAAAAAAA");
 * ```
 */
export function keptOnDisk(outputs: string, captureId: string, fsl: FsLayer = nodeFs): number {
  let total = 0;
  for (const name of listDir(path.join(outputs, captureId), fsl)) {
    if (!/^(stdout|stderr)\.(live|txt|bin)$/.test(name)) continue;
    try {
      const st = fsl.lstatSync(path.join(outputs, captureId, name));
      if (st.isFile()) total += st.size;
    } catch {
      // renamed or removed meanwhile
    }
  }
  return total;
}

function withQuotaLock<T>(root: string, fn: () => T, fsl: FsLayer): T {
  return withFileLock(path.join(quotaDir(root, fsl), LOCK), fn, { fs: fsl });
}

function quotaDir(root: string, fsl: FsLayer): string {
  return ensurePrivateDir(path.join(root, ROOT_QUOTA_DIR), { fs: fsl });
}

function usageLocked(root: string, fsl: FsLayer, except: string | null): number {
  const dir = path.join(root, ROOT_QUOTA_DIR);
  const outputs = path.join(root, TOOL_OUTPUTS);
  let total = 0;
  for (const [name, r] of readReservations(dir, fsl)) {
    if (name === except) continue;
    if (!r.settled && !isOwnerAlive(r.owner)) {
      total += settleFromDisk(dir, outputs, r, fsl);
      continue;
    }
    total += r.bytes;
  }
  return total;
}

function settleFromDisk(dir: string, outputs: string, r: Reservation, fsl: FsLayer): number {
  const bytes = keptOnDisk(outputs, r.captureId, fsl);
  const record: Reservation = { ...r, bytes, settled: true };
  publishAtomic(dir, `${r.captureId}.json`, Buffer.from(`${JSON.stringify(record)}\n`), {
    replace: true,
    fs: fsl,
  });
  return bytes;
}

function readReservations(dir: string, fsl: FsLayer): Array<[string, Reservation]> {
  const out: Array<[string, Reservation]> = [];
  for (const name of listDir(dir, fsl)) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
    try {
      const st = fsl.lstatSync(path.join(dir, name));
      if (!st.isFile()) continue;
      const reservation = reservationOf(
        JSON.parse(fsl.readFileSync(path.join(dir, name)).toString("utf8")),
      );
      if (reservation !== null) out.push([name, reservation]);
    } catch {
      // a reservation being replaced is read on the next pass
    }
  }
  return out;
}

function captureDirExists(outputs: string, id: string, fsl: FsLayer): boolean {
  try {
    return fsl.lstatSync(path.join(outputs, id)).isDirectory();
  } catch {
    return false;
  }
}

function listDir(dir: string, fsl: FsLayer): string[] {
  try {
    return fsl.readdirSync(dir);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return [];
    throw error;
  }
}
