/**
 * What the measuring child of `spool bench redact --adversarial` writes, one JSON line per
 * named input and per probe, as zod schemas: the parent (`redact-adversarial.ts`) parses
 * its lines with them. A module of its own, because the child's module runs the
 * measurement when it is loaded.
 */
import { z } from "zod";

export const StageFigureSchema = z
  .object({ ratio: z.number(), bytes: z.number(), seconds: z.number() })
  .readonly();

/** One stage's figure. */
export type StageFigure = z.infer<typeof StageFigureSchema>;

/**
 * A line of the child's output: a named input's or a probe's figures, one per stage run (the
 * last is the input's or the probe's own).
 */
export const ChildLineSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("named"),
      input: z.string(),
      stages: z.array(StageFigureSchema).readonly(),
    })
    .readonly(),
  z
    .object({
      kind: z.literal("probe"),
      rule: z.string(),
      anchor: z.string(),
      shape: z.string(),
      stages: z.array(StageFigureSchema).readonly(),
    })
    .readonly(),
]);

/** A line of the child's output. */
export type ChildLine = z.infer<typeof ChildLineSchema>;
