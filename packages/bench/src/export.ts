/**
 * `spool bench export [--size 2GiB] [--rounds 1] [--report DIR]`: peak RSS and speed of
 * `spool export` (tar) and `spool import` of one capture of 1/16 and all of SIZE, next
 * to GNU `tar -cf` / `tar -xf` of the same capture directory. Memory must stay flat
 * whatever the capture's size: export and import stream in bounded chunks.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import * as path from "node:path";
import { type BenchIo, type BenchOptions, benchContext, MiB } from "./context.js";
import { measure, median } from "./measure.js";
import { type BenchReport, type Cell, emitReport, machine, type TargetResult } from "./report.js";
import { fmtSize } from "./throughput.js";

export async function benchExport(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const largest = c.size(2048 * MiB);
    const rounds = c.rounds(1);
    const sizes = [Math.max(1, Math.floor(largest / 16)), largest];
    const limits = ["--max-bytes", String(2 * largest), "--root-quota", String(4 * largest)];
    const runs: Record<string, Cell>[] = [];
    for (const size of sizes) {
      const root = path.join(c.work, `root-${size}`);
      const made = spawnSync(
        c.node,
        [
          c.spool,
          "run",
          "--root",
          root,
          "--json",
          ...limits,
          "--",
          c.node,
          c.generator,
          String(size),
        ],
        { stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * MiB },
      );
      const captureId = (JSON.parse(made.stdout.toString()) as { captureId: string }).captureId;
      const bundle = path.join(c.work, `bundle-${size}.tar`);
      const other = path.join(c.work, `other-${size}`);
      const plain = path.join(c.work, `plain-${size}.tar`);
      const cases = [
        {
          id: `export-${size}`,
          argv: [c.node, c.spool, "export", "--root", root, captureId, "--out", bundle],
          rss: true,
        },
        {
          id: `import-${size}`,
          argv: [c.node, c.spool, "import", bundle, "--root", other, ...limits.slice(2)],
          rss: true,
        },
        {
          id: `tar-c-${size}`,
          argv: ["tar", "-cf", plain, "-C", root, `tool-outputs/${captureId}`],
          rss: false,
        },
        {
          id: `tar-x-${size}`,
          argv: ["tar", "-xf", plain, "-C", path.join(c.work, "x")],
          rss: false,
        },
      ];
      for (let round = 1; round <= rounds; round++) {
        for (const k of cases) {
          if (k.id.startsWith("tar-x")) spawnSync("mkdir", ["-p", path.join(c.work, "x")]);
          const m = await measure(k.argv, { rssOf: k.rss ? "command" : null });
          const rssMiB = m.peakRssKiB === null ? null : m.peakRssKiB / 1024;
          runs.push({
            round,
            case: k.id,
            size,
            wallS: m.wallMs / 1000,
            peakRssMiB: rssMiB,
            cpuS: m.cpuMs === null ? null : m.cpuMs / 1000,
            exitCode: m.exitCode,
          });
          io.stderr(
            `round ${round}/${rounds} ${k.id.padEnd(22)} ${(m.wallMs / 1000).toFixed(2)} s  peak RSS ${rssMiB === null ? "–" : rssMiB.toFixed(1)} MiB  exit ${m.exitCode}\n`,
          );
          // Leave the bundle for import, clear everything else a round made.
          if (k.id.startsWith("import")) rmSync(other, { recursive: true, force: true });
          if (k.id.startsWith("tar-x"))
            rmSync(path.join(c.work, "x"), { recursive: true, force: true });
        }
        rmSync(bundle, { force: true });
        rmSync(plain, { force: true });
      }
      rmSync(root, { recursive: true, force: true });
    }
    const ids = [...new Set(runs.map((r) => r.case as string))];
    const rows = ids.map((id) => {
      const mine = runs.filter((r) => r.case === id);
      const size = mine[0]!.size as number;
      const wall = median(mine.map((r) => r.wallS as number));
      const rss =
        mine[0]!.peakRssMiB === null ? null : Math.max(...mine.map((r) => r.peakRssMiB as number));
      return {
        id,
        label: `${id.replace(/-\d+$/, "")} ${fmtSize(size)}`,
        size,
        wallS: wall,
        mibPerS: size / MiB / wall,
        cpuS: median(mine.map((r) => (r.cpuS as number | null) ?? 0)),
        peakRssMiB: rss,
        failed: mine.some((r) => r.exitCode !== 0),
      };
    });
    const rssOf = (id: string) => rows.find((r) => r.id === id)?.peakRssMiB ?? Number.NaN;
    const wallOf = (id: string) => rows.find((r) => r.id === id)?.wallS ?? Number.NaN;
    const [small, big] = sizes as [number, number];
    const targets: TargetResult[] = (["export", "import"] as const).flatMap((what) => [
      {
        name: `peak RSS of ${what} at ${fmtSize(big)}`,
        target: "≤ 128 MiB",
        value: `${rssOf(`${what}-${big}`).toFixed(1)} MiB`,
        met: rssOf(`${what}-${big}`) <= 128,
      },
      {
        name: `peak RSS of ${what} at ${fmtSize(big)} vs ${fmtSize(small)}`,
        target: "within 25%",
        value: `${rssOf(`${what}-${small}`).toFixed(1)} → ${rssOf(`${what}-${big}`).toFixed(1)} MiB`,
        met: rssOf(`${what}-${big}`) <= rssOf(`${what}-${small}`) * 1.25,
      },
    ]);
    targets.push({
      name: `wall time of export vs tar -cf at ${fmtSize(big)} (same run)`,
      target: "reported",
      value: `${(wallOf(`export-${big}`) / wallOf(`tar-c-${big}`)).toFixed(2)}×`,
      met: null,
    });
    const report: BenchReport = {
      bench: "export",
      title: `spool bench export: export/import of ${sizes.map(fmtSize).join(" and ")} next to tar`,
      machine: machine(),
      params: { sizes: sizes.join(" "), rounds },
      columns: [
        { key: "label", label: "case" },
        { key: "peakRssMiB", label: "peak RSS MiB" },
        { key: "wallS", label: "wall s (median)" },
        { key: "mibPerS", label: "MiB/s" },
        { key: "cpuS", label: "CPU s (tree)" },
        { key: "failed", label: "failed" },
      ],
      rows,
      targets,
      chart: {
        title: "Peak RSS of spool export/import by capture size (flat is the goal)",
        unit: "MiB",
        bars: rows
          .filter((r) => r.peakRssMiB !== null)
          .map((r) => ({ label: r.label, value: r.peakRssMiB!, note: `${r.wallS.toFixed(2)} s` })),
      },
      runs,
      notes: [
        "export copies each stream in bounded chunks, hashing it and rebuilding its line index on the way; import stages, hashes and verifies every byte before publishing; tar does neither.",
        "Peak RSS is VmHWM of the spool process, polled from /proc.",
      ],
    };
    return emitReport(io, c.reportDir, report);
  } finally {
    c.dispose();
  }
}
