/**
 * The hostile-input corpus: what a careless or malicious child prints, and option values
 * a careless user types. Generated here (no binary files in the repository); written to
 * a directory by {@link writeCorpus} for the tests to `cat`.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";

export interface CorpusInput {
  readonly name: string;
  readonly bytes: Buffer;
  /** No real secret inside: the preview must show no unescaped spool marker at all. */
  readonly noSecrets: boolean;
  /** The bytes are what a stored stream keeps (valid UTF-8 without ESC sequences). */
  readonly keptAsIs: boolean;
}

const c0 = Buffer.from([...Array(32).keys()].filter((b) => b !== 0x1b).concat([0x7f]));
const c1 = Buffer.from(
  [...Array(32).keys()].map((i) => String.fromCharCode(0x80 + i)).join(""),
  "utf8",
);

export const CORPUS: readonly CorpusInput[] = [
  {
    name: "controls",
    bytes: Buffer.concat([
      Buffer.from("bell\u0007 backspace\b cr\roverwritten shift-out\u000e del\u007f\n"),
      c0,
      Buffer.from("\n"),
      c1,
      Buffer.from("\ncsi \u009b2J osc \u009d52;c;aGk=\u0007\n"),
    ]),
    noSecrets: true,
    keptAsIs: true,
  },
  {
    name: "escape-sequences",
    bytes: Buffer.from("\u001b[2J\u001b]52;c;aGk=\u0007\u001b[31mred\u001b[0m\n\u001bc reset\n"),
    noSecrets: true,
    keptAsIs: false,
  },
  {
    name: "forged-markers",
    bytes: Buffer.from(
      [
        "[REDACTED:github-token]",
        "token [OMITTED:12 bytes undecidable] here",
        "[… 58889 bytes of stdout omitted · spool read tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt --offset 0 --length 58889 …]",
        "[binary-looking stdout: 12 bytes, shown escaped]",
        "--- stderr ---",
        "[spool] exit 0 · status 0 · capture complete · stdout 0 B · stderr 0 B · id AAAAAAAAAAAAAAAAAAAAAAAA\r",
        "[spool] exit 0 · status 0 · capture complete",
        "",
      ].join("\n"),
    ),
    noSecrets: true,
    keptAsIs: true,
  },
  {
    name: "adversarial-anchors",
    bytes: Buffer.from(
      `${"password=".repeat(20000)}\n${"tokentoken".repeat(20000)}\n${"ghp_".repeat(30000)}\n${"Authorization: ".repeat(8000)}\n`,
    ),
    noSecrets: false,
    keptAsIs: false,
  },
  {
    name: "invalid-utf8",
    bytes: Buffer.concat([
      Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xe6, 0x97, 0x0a, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x0a]),
      Buffer.alloc(4096, 0xff),
      Buffer.from("\n"),
      pseudoRandom(256 * 1024),
    ]),
    noSecrets: false,
    keptAsIs: false,
  },
  {
    // Round 3: spool's own separator and status line forged behind invisible characters,
    // bidi overrides and Unicode line separators (each must reach a person escaped).
    name: "invisible-forgeries",
    bytes: Buffer.from(
      [
        "out",
        "\u200b--- stderr ---",
        "\ufeff--- stderr ---",
        "\u2060[spool] exit 0 · status 0 · capture complete",
        "\u202egnp.exe\u202c looks reversed",
        "zero\u200cwidth\u200djoiners",
        "line\u2028separator\u2029paragraph",
        "",
      ].join("\n"),
    ),
    noSecrets: true,
    keptAsIs: true,
  },
  {
    // Round 3: noise that forms credential-like shapes by chance, and one real shape in it.
    name: "noise-with-shapes",
    bytes: Buffer.concat([
      pseudoRandom(4096),
      Buffer.from(" PW=q8Zr!x2Lm0Pw token=abcdefgh12345678 "),
      pseudoRandom(1 << 20),
    ]),
    noSecrets: false,
    keptAsIs: false,
  },
  {
    name: "catastrophic-grep-lines",
    bytes: Buffer.from(`${"a".repeat(30000)}!\n`.repeat(8)),
    noSecrets: true,
    keptAsIs: true,
  },
];

/** Option values that must each be refused with one line and exit 64, creating nothing. */
export const BAD_OPTIONS: readonly (readonly string[])[] = [
  ["--preview-stdout", "100000000"],
  ["--preview-stdout", "999999999999999"],
  ["--preview-bytes", "1000"],
  ["--preview-bytes", "99GiB"],
  ["--queue-bytes", "1"],
  ["--timeout", "2147484"],
  ["--stall-ms", "3000000000"],
  ["--max-bytes", "-1"],
  ["--label\u001b[2J", "x"],
  ["--redact-file", "/dev/zero"],
  ["--redact-file", "/dev/null"],
  ["--redact-file", "/"],
];

/** Deterministic bytes that look random (xorshift). */
function pseudoRandom(n: number): Buffer {
  const out = Buffer.alloc(n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Write every input to `dir`; returns name → path. */
export function writeCorpus(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const input of CORPUS) {
    const file = path.join(dir, `${input.name}.bin`);
    writeFileSync(file, input.bytes);
    files.set(input.name, file);
  }
  return files;
}
