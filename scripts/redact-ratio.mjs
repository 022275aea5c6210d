// CPU time of the built-in redactor at 2n over n bytes of one input unit repeated, measured
// as `spool bench redact --adversarial` re-measures a probe (packages/bench/src/linear-ratio.ts:
// n sized so a run at n takes ≥ 0.25 s and then ≥ 1 s, a minor GC before each run, total CPU at
// 2n over total at n in 5 interleaved rounds), in this process re-run with `--expose-gc --single-threaded`:
// `node scripts/redact-ratio.mjs 'SG.' 'pw="'` (after a build). The check behind
// docs/benchmarks.md's re-measured adversarial cases.
import { spawnSync } from "node:child_process";

if (typeof globalThis.gc !== "function") {
  const flags = ["--expose-gc", "--single-threaded"];
  const args = [...flags, new URL(import.meta.url).pathname, ...process.argv.slice(2)];
  process.exit(spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1);
}

const { probeRedaction, redactWork } = await import("../packages/bench/dist/adversarial-probes.js");
const { linearRatio } = await import("../packages/bench/dist/linear-ratio.js");

const work = redactWork(probeRedaction());
const units = process.argv.length > 2 ? process.argv.slice(2) : ["password="];
for (const unit of units) {
  for (const minSeconds of [0.25, 1]) {
    const r = linearRatio(work, unit, { minSeconds, rounds: 5 });
    const rounds = r.rounds.map((x) => x.toFixed(2)).join(" ");
    console.log(
      `${JSON.stringify(unit)} n=${r.bytes}: ratio ${r.ratio.toFixed(2)} (rounds ${rounds}), ` +
        `${(r.bytes / 1e6 / r.seconds).toFixed(1)} MB/s of CPU at n`,
    );
  }
}
