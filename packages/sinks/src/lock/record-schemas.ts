/**
 * The zod schemas of the small records a file root keeps beside its captures: a process
 * identity, `owner.json` and a root-quota reservation. The capture path reads these
 * records without zod (`ownerOf`, `ownerFileOf`, `reservationOf`: loading zod cost `spool
 * run` tens of milliseconds at its first byte on disk); these schemas accept exactly what
 * those functions accept, which a property test checks.
 *
 * @example
 * ```ts
 * import { ReservationSchema } from "@spool/sinks";
 * declare const json: unknown;
 * const reservation = ReservationSchema.safeParse(json);
 * ```
 */
import { z } from "zod";
import type { Reservation } from "../quota/root-quota.js";
import type { OwnerFile } from "./owner.js";
import type { Owner } from "./owner-identity.js";

/**
 * The zod schema of a process identity (pid and start time).
 *
 * @category storage
 * @example
 * ```ts
 * import { OwnerSchema } from "@spool/sinks";
 * OwnerSchema.parse({ pid: 4242, start: null }).pid; // 4242
 * ```
 */
export const OwnerSchema = z.object({
  pid: z.number().int().positive(),
  /** Process start time as the OS reports it, or null where unknown. */
  start: z.string().nullable(),
}) satisfies z.ZodType<Owner>;

/**
 * The zod schema of `owner.json` as the writer publishes it: the owner, and when its
 * capture started.
 *
 * @category storage
 * @example
 * ```ts
 * import { OwnerFileSchema } from "@spool/sinks";
 * OwnerFileSchema.safeParse({ pid: 4242, start: "123", startedAt: "2026-12-01T10:00:00.000Z" }).success; // true
 * ```
 */
export const OwnerFileSchema = OwnerSchema.extend({
  startedAt: z.string().optional(),
}) satisfies z.ZodType<OwnerFile>;

/**
 * The zod schema of one capture's reservation in a root's books.
 *
 * @category storage
 * @example
 * ```ts
 * import { ReservationSchema } from "@spool/sinks";
 * declare const json: unknown;
 * const reservation = ReservationSchema.safeParse(json);
 * ```
 */
export const ReservationSchema = z.object({
  version: z.literal(1),
  captureId: z.string(),
  owner: OwnerSchema,
  bytes: z.number().int().nonnegative(),
  /** The capture ended (or was reconciled): `bytes` is what it kept. */
  settled: z.boolean(),
}) satisfies z.ZodType<Reservation>;
