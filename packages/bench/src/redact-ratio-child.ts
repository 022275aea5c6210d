/**
 * `node --expose-gc --single-threaded redact-ratio-child.js [JSON]`: the measuring process
 * of `spool bench redact --adversarial`, spawned with the V8 flags `linear-ratio.ts` needs.
 * Writes one JSON line per named input and per probe (see {@link ChildLine}).
 *
 * Every probe and named input is measured; a ratio above the limit is measured again with
 * longer runs, up to runs of a second, before it counts. The last stage's ratio is the
 * input's: a noisy short sample cannot fail alone, and a real quadratic (4×) cannot pass
 * because a longer run only makes it plainer.
 *
 * JSON (optional): `{"limit": K}` measures only the first K probes and named inputs, and
 * `{"quick": true}` uses runs of a few milliseconds (a smoke test, not a measurement).
 */
import { z } from "zod";
import {
  allProbes,
  LINEAR,
  NAMED,
  NAMED_STAGES,
  probeRedaction,
  redactWork,
  STAGES,
} from "./adversarial-probes.js";
import { type LinearRatioOptions, linearRatio } from "./linear-ratio.js";
import type { ChildLine, StageFigure } from "./redact-ratio-lines.js";

const QUICK: LinearRatioOptions = { minSeconds: 0.001, rounds: 1, minBytes: 16384 };

/** The child's options, its one argument. */
const ChildOptionsSchema = z.object({
  limit: z.number().optional(),
  quick: z.boolean().optional(),
});

function runRatioChild(): void {
  const options = ChildOptionsSchema.parse(JSON.parse(process.argv[2] ?? "{}"));
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const work = redactWork(probeRedaction());
  const write = (line: ChildLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
  for (const [input, unit] of NAMED.slice(0, limit))
    write({
      kind: "named",
      input,
      stages: measure(work, unit, options.quick ? [QUICK] : NAMED_STAGES),
    });
  const probes = allProbes().slice(0, limit);
  let remeasured = 0;
  for (const [k, probe] of probes.entries()) {
    // Progress for a person waiting (stderr): the whole run takes minutes.
    if (k % 250 === 0 && k > 0)
      process.stderr.write(
        `adversarial: ${k}/${probes.length} probes, ${remeasured} re-measured\n`,
      );
    const stages = measure(work, probe.unit, options.quick ? [QUICK] : STAGES);
    if (stages.length > 1) remeasured++;
    write({ kind: "probe", rule: probe.rule, anchor: probe.anchor, shape: probe.shape, stages });
  }
}

/** `unit` at each stage in turn until its ratio is within the limit (or the stages run out). */
function measure(
  work: (input: Buffer) => void,
  unit: string,
  stages: readonly LinearRatioOptions[],
): StageFigure[] {
  const figures: StageFigure[] = [];
  for (const stage of stages) {
    const f = figure(work, unit, stage);
    figures.push(f);
    if (f.ratio <= LINEAR) break;
  }
  return figures;
}

function figure(work: (input: Buffer) => void, unit: string, stage: LinearRatioOptions) {
  const r = linearRatio(work, unit, stage);
  return { ratio: Math.round(r.ratio * 100) / 100, bytes: r.bytes, seconds: r.seconds };
}

runRatioChild();
