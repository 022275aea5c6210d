/**
 * The capture path reads owners and root-quota reservations without zod (`ownerOf`,
 * `ownerFileOf`, `reservationOf`); the exported zod schemas must accept exactly the same
 * values and give the same data back.
 */
import {
  OwnerFileSchema,
  OwnerSchema,
  ownerFileOf,
  ownerOf,
  ReservationSchema,
  reservationOf,
} from "@spool/sinks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Numbers at and around every bound the checks draw (0, negatives, fractions, unsafe). */
const number = fc.oneof(
  fc.integer({ min: -3, max: 5 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(0.5, -0, 2 ** 53, 2 ** 53 - 1, Number.MAX_SAFE_INTEGER + 2, Infinity),
);
/** Each field drawn from right and wrong kinds, sometimes missing. */
const anyValue = fc.oneof(
  number,
  fc.string({ maxLength: 4 }),
  fc.constant(null),
  fc.boolean(),
  fc.constant(undefined),
  fc.constant([]),
  fc.constant({}),
);
const owner = fc.record(
  {
    pid: fc.oneof(number, anyValue),
    start: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null), anyValue),
  },
  { requiredKeys: [] },
);
const ownerFile = fc
  .tuple(owner, fc.oneof(fc.string(), anyValue), fc.boolean())
  .map(([o, startedAt, has]) => (has ? { ...o, startedAt, extra: 1 } : o));
/** Mostly right fields (so that whole records pass too), each sometimes wrong or missing. */
const mostly = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: right }, { weight: 1, arbitrary: anyValue });
const reservation = fc
  .tuple(
    fc.record({
      version: mostly(fc.constant(1)),
      captureId: mostly(fc.string({ maxLength: 6 })),
      owner: mostly(fc.record({ pid: mostly(fc.nat({ max: 9 })), start: fc.constant(null) })),
      bytes: mostly(fc.oneof(fc.nat(), number)),
      settled: mostly(fc.boolean()),
    }),
    fc.constantFrom("", "", "", "version", "captureId", "owner", "bytes", "settled"),
  )
  .map(([r, drop]) => {
    const out: Record<string, unknown> = { ...r };
    if (drop !== "") delete out[drop];
    return out;
  });
const wrapped = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: anyValue });

function agree(
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  check: (v: unknown) => unknown,
  arb: fc.Arbitrary<unknown>,
) {
  let accepted = 0;
  fc.assert(
    fc.property(arb, (value) => {
      const parsed = schema.safeParse(value);
      const mine = check(value);
      expect(mine !== null).toBe(parsed.success);
      if (parsed.success) {
        accepted++;
        expect(mine).toEqual(parsed.data);
      }
    }),
    { numRuns: 2000 },
  );
  // Both sides of the line were drawn.
  expect(accepted).toBeGreaterThan(20);
  expect(accepted).toBeLessThan(1980);
}

describe("zod-free record checks agree with the exported schemas", () => {
  it("ownerOf ⇔ OwnerSchema", () => agree(OwnerSchema, ownerOf, wrapped(owner)));
  it("ownerFileOf ⇔ OwnerFileSchema", () =>
    agree(OwnerFileSchema, ownerFileOf, wrapped(ownerFile)));
  it("reservationOf ⇔ ReservationSchema", () =>
    agree(ReservationSchema, reservationOf, wrapped(reservation)));
});
