// CPU time of the built-in redactor at n and 2n bytes of one input unit repeated, median
// of 5 interleaved rounds, at n = 256 KiB and 1 MiB: `node scripts/redact-ratio.mjs 'SG.'`
// (after a build). The check behind docs/benchmarks.md's re-measured adversarial cases.
import { compileRedaction, createRedactor } from "../packages/transforms/dist/index.js";

const compiled = compileRedaction({});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const time = (buf) => {
  const t0 = cpu();
  const r = createRedactor(compiled);
  for (let i = 0; i < buf.length; i += 65536) r.push([buf.subarray(i, i + 65536)]);
  r.end();
  return cpu() - t0;
};
const unit = process.argv[2] ?? "password=";
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const make = (n) => Buffer.from(unit.repeat(Math.ceil(n / unit.length)).slice(0, n), "latin1");
for (const n of [262144, 1048576]) {
  const a = make(n);
  const b = make(2 * n);
  time(a);
  const xs = [];
  const ys = [];
  for (let i = 0; i < 5; i++) {
    xs.push(time(a));
    ys.push(time(b));
  }
  const ratio = (median(ys) / median(xs)).toFixed(2);
  console.log(
    `${JSON.stringify(unit)} n=${n}: ratio ${ratio}, ${(n / 1e6 / median(xs)).toFixed(1)} MB/s`,
  );
}
