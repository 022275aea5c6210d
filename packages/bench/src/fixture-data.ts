/**
 * Deterministic fixtures of the kinds and sizes the seed measured (gptme's evidence
 * table): each writes its bytes to stdout/stderr from a real child process and exits with
 * the code a real tool would. `node fixture-child.js NAME` runs one.
 */

export interface Fixture {
  readonly name: string;
  /** The seed's row name. */
  readonly title: string;
  /** The seed's inline bytes: gptme's current formatting, and its presentation-only candidate. */
  readonly seed: { readonly input: number; readonly current: number; readonly candidate: number };
  readonly exitCode: number;
  /** The line a reader must see inline when the command failed. */
  readonly finalError: string | null;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** A tiny deterministic PRNG, so fixtures are identical on every machine. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const FAILING_TEST = "tests/test_b137.py::test_0042";
export const FAILING_ASSERTION = "assert round_total(invoice) == Decimal('41.99')";
export const COMPILER_FIRST_ERROR =
  "src/net/socket_pool.c:1184:17: error: 'pool->slots' undeclared";
export const CSV_HEADER = "id,qty,price";

export function pytest(): string {
  const lines: string[] = [
    "============================= test session starts ==============================",
    "collected 20000 items",
    "",
  ];
  for (let i = 0; i < 20000; i++) {
    const name = `tests/test_b${pad(Math.floor(i / 146), 3)}.py::test_${pad(i % 146, 4)}`;
    const status = name === FAILING_TEST ? "FAILED" : "PASSED";
    lines.push(`${name} ${status} [${String(Math.floor((i * 100) / 20000)).padStart(3)}%]`);
  }
  lines.push(
    "",
    "=================================== FAILURES ===================================",
    "__________________________________ test_0042 ___________________________________",
    "",
    "    def test_0042():",
    "        invoice = make_invoice(lines=7)",
    `>       ${FAILING_ASSERTION}`,
    "E       AssertionError: assert Decimal('42.00') == Decimal('41.99')",
    "",
    `${FAILING_TEST.split("::")[0]}:88: AssertionError`,
    "=========================== short test summary info ============================",
    `FAILED ${FAILING_TEST} - AssertionError`,
    "================== 1 failed, 19999 passed in 61.42s (0:01:01) ==================",
  );
  return `${lines.join("\n")}\n`;
}

export function apiJson(): string {
  const rand = prng(7);
  const items: string[] = [];
  for (let id = 1; id <= 10000; id++) {
    const price = (rand() * 500).toFixed(2);
    const stock = Math.floor(rand() * 100);
    items.push(`{"id":${id},"price":${price},"stock":${stock}}`);
  }
  return `{"items":[${items.join(",")}],"count":10000}\n`;
}

export function compilerFailure(): string {
  const out: string[] = [];
  let length = 0;
  const push = (line: string) => {
    out.push(line);
    length += line.length + 1;
  };
  for (let i = 0; length < 355_000 && i < 10_000; i++) {
    const file = `src/module_${pad(i % 97, 2)}/unit_${pad(i, 4)}.c`;
    push(`gcc -O2 -Wall -Iinclude -c ${file} -o build/${pad(i, 4)}.o`);
    push(
      `${file}:${((i * 37) % 900) + 10}:5: warning: unused variable 'tmp_${i}' [-Wunused-variable]`,
    );
    if (i === 2112) {
      push(COMPILER_FIRST_ERROR);
      push("  1184 |     pool->slots[idx] = conn;");
      push("       |                 ^~~~~");
    }
  }
  out.push("src/net/socket_pool.c:1202:9: error: too few arguments to function 'release_slot'");
  out.push("make: *** [Makefile:42: build/socket_pool.o] Error 1");
  return `${out.join("\n")}\n`;
}

export function csv(): string {
  const rand = prng(11);
  const rows = [CSV_HEADER];
  for (let id = 1; id <= 30000; id++)
    rows.push(`${id},${Math.floor(rand() * 10)},${Math.floor(rand() * 100)}`);
  return `${rows.join("\n")}\n`;
}

export function hugeLine(): string {
  const rand = prng(3);
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const begin = "HUGE-LINE-BEGIN:";
  const end = ":HUGE-LINE-END\n";
  const body: string[] = [];
  for (let i = 0; i < 2_097_176 - begin.length - end.length; i++)
    body.push(alphabet[Math.floor(rand() * alphabet.length)]!);
  return `${begin}${body.join("")}${end}`;
}

export const FIXTURES: readonly Fixture[] = [
  {
    name: "compact",
    title: "Compact success",
    seed: { input: 19, current: 77, candidate: 163 },
    exitCode: 0,
    finalError: null,
    stdout: () => "ok: 12 tests passed",
    stderr: () => "",
  },
  {
    name: "pytest",
    title: "Pytest-style 20k result lines",
    seed: { input: 900_022, current: 40_198, candidate: 8_150 },
    exitCode: 1,
    finalError: "1 failed, 19999 passed",
    stdout: pytest,
    stderr: () => "",
  },
  {
    name: "api-json",
    title: "API JSON, 10k objects",
    seed: { input: 408_891, current: 40_194, candidate: 8_148 },
    exitCode: 0,
    finalError: null,
    stdout: apiJson,
    stderr: () => "",
  },
  {
    name: "compiler",
    title: "Compiler failure, exit 2",
    seed: { input: 358_928, current: 56_392, candidate: 10_167 },
    exitCode: 2,
    finalError: "make: *** [Makefile:42: build/socket_pool.o] Error 1",
    stdout: () => "",
    stderr: compilerFailure,
  },
  {
    name: "csv",
    title: "CSV, 30k rows",
    seed: { input: 318_905, current: 40_208, candidate: 8_155 },
    exitCode: 0,
    finalError: null,
    stdout: csv,
    stderr: () => "",
  },
  {
    name: "huge-line",
    title: "Huge single line",
    seed: { input: 2_097_176, current: 40_212, candidate: 8_157 },
    exitCode: 0,
    finalError: null,
    stdout: hugeLine,
    stderr: () => "",
  },
];
