/**
 * Real file systems for the fault suite: small tmpfs mounts, a loop-mounted ext4 image
 * with `errors=remount-ro` (whose errors are triggered through sysfs), read-only
 * remounts. Mounting needs root and a kernel that lets this process mount (CI may not):
 * {@link mountSkipReason} says why not, and the suites skip with that reason.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

function sh(command: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 60_000 });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim() };
}

function must(command: string, args: string[]): string {
  const r = sh(command, args);
  if (!r.ok) throw new Error(`${command} ${args.join(" ")}: ${r.out}`);
  return r.out;
}

let probed: string | null | undefined;

/** Why real mounts cannot be made here, or null when they can (probed once). */
export function mountSkipReason(): string | null {
  if (probed !== undefined) return probed;
  probed = probe();
  return probed;
}

function probe(): string | null {
  if (process.platform !== "linux") return "real mounts need Linux";
  if (process.getuid?.() !== 0) return "real mounts need root (run the suite as root)";
  for (const tool of ["mount", "umount", "mkfs.ext4"]) {
    if (!sh("sh", ["-c", `command -v ${tool}`]).ok) return `${tool} is not installed`;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spool-mount-probe-"));
  try {
    const r = sh("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    if (!r.ok) return `this environment does not allow mounting (mount: ${r.out})`;
    sh("umount", [dir]);
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Mount {
  readonly dir: string;
  /** Turn read-only now (`mount -o remount,ro`). */
  readOnly(): void;
  readWrite(): void;
  /** Unmount (lazily if busy) and remove everything it made; safe to call twice. */
  dispose(): void;
}

const live = new Set<Mount>();

/** Unmount everything still mounted (afterAll). */
export function disposeAll(): void {
  for (const m of [...live]) m.dispose();
}

function mounted(dir: string, cleanup: () => void): Mount {
  let gone = false;
  const m: Mount = {
    dir,
    readOnly: () => must("mount", ["-o", "remount,ro", dir]),
    readWrite: () => must("mount", ["-o", "remount,rw", dir]),
    dispose() {
      if (gone) return;
      gone = true;
      live.delete(m);
      if (!sh("umount", [dir]).ok) sh("umount", ["-l", dir]);
      cleanup();
    },
  };
  live.add(m);
  return m;
}

/** A tmpfs of `size` (mount's syntax: "1m", "512k"). */
export function mountTmpfs(size: string, inodes?: number): Mount {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spool-tmpfs-"));
  const options = [`size=${size}`, "mode=0700", ...(inodes ? [`nr_inodes=${inodes}`] : [])];
  must("mount", ["-t", "tmpfs", "-o", options.join(","), "tmpfs", dir]);
  return mounted(dir, () => fs.rmSync(dir, { recursive: true, force: true }));
}

/** A loop-mounted ext4 image of `mib` MiB with `errors=remount-ro`. */
export function mountExt4(
  mib: number,
): Mount & { device(): string; fail(): void; remount(): void } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "spool-ext4-"));
  const image = path.join(base, "fs.img");
  const dir = path.join(base, "mnt");
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.writeFileSync(image, "");
  fs.truncateSync(image, mib * 1024 * 1024);
  must("mkfs.ext4", ["-q", "-F", image]);
  must("mount", ["-o", "loop,errors=remount-ro", image, dir]);
  const m = mounted(dir, () => fs.rmSync(base, { recursive: true, force: true }));
  const device = () => path.basename(must("findmnt", ["-no", "SOURCE", dir]));
  return {
    ...m,
    /** The loop device's name (its sysfs directory under /sys/fs/ext4). */
    device,
    /** A file-system error now: ext4 turns the mount read-only; unsynced data is lost. */
    fail() {
      fs.writeFileSync(`/sys/fs/ext4/${device()}/trigger_fs_error`, "spool fault suite\n");
    },
    /** Unmount and mount the image again, read-write: what the disk really kept. */
    remount() {
      if (!sh("umount", [dir]).ok) must("umount", ["-l", dir]);
      must("mount", ["-o", "loop,errors=remount-ro", image, dir]);
    },
  };
}

/** Fill the file system holding `dir` with a file until ENOSPC. */
export function fillUp(dir: string): string {
  const file = path.join(dir, "filler");
  const fd = fs.openSync(file, "w");
  const block = Buffer.alloc(64 * 1024, 0x66);
  try {
    for (let size = block.byteLength; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(fd, block, 0, size);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}
