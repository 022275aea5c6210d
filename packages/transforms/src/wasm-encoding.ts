/**
 * Just enough of the WebAssembly binary format to write one small module by hand: i32
 * functions, one exported memory, and the instructions the start scan uses
 * (`byte-scan.ts`). Writing the few hundred bytes here keeps the build free of a
 * toolchain and nothing is fetched or compiled natively: `WebAssembly.Module` compiles
 * them when the scan is first needed.
 *
 * @example
 * ```ts
 * import { op, wasmModule } from "./wasm-encoding.js";
 * // (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)
 * const bytes = wasmModule(1, [{ name: "add", params: 2, locals: 0, code: [...op.get(0), ...op.get(1), ...op.add] }]);
 * // new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.add(2, 3) === 5
 * ```
 */

/** One exported function: `params` i32 parameters, `locals` more i32 locals, one i32 result. */
export interface WasmFunction {
  readonly name: string;
  readonly params: number;
  readonly locals: number;
  /** The body's instructions, without the final `end`. */
  readonly code: readonly number[];
}

const I32 = 0x7f;

/** A module with one memory of `pages` 64 KiB pages, exported as `memory`, and `functions`. */
export function wasmModule(pages: number, functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((f) => [0x60, ...vector(new Array(f.params).fill([I32])), 1, I32]);
  const exports = [
    [...name("memory"), 0x02, 0],
    ...functions.map((f, i) => [...name(f.name), 0x00, ...unsigned(i)]),
  ];
  const bodies = functions.map((f) => {
    const locals = f.locals > 0 ? [1, ...unsigned(f.locals), I32] : [0];
    const body = [...locals, ...f.code, 0x0b];
    return [...unsigned(body.length), ...body];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, i) => unsigned(i)))),
    ...section(5, vector([[0x00, ...unsigned(pages)]])),
    ...section(7, vector(exports)),
    ...section(10, vector(bodies)),
  ]);
}

/** The instructions, by their text-format names (memory offsets are immediates). */
export const op = {
  get: (local: number) => [0x20, ...unsigned(local)],
  set: (local: number) => [0x21, ...unsigned(local)],
  const: (value: number) => [0x41, ...signed(value | 0)],
  /** `i32.load` of the aligned word at the address on the stack plus `offset`. */
  load: (offset: number) => [0x28, 0x02, ...unsigned(offset)],
  load8: (offset: number) => [0x2d, 0x00, ...unsigned(offset)],
  /** `i32.load` of the four bytes at any address (little-endian: the first lowest). */
  loadBytes: (offset: number) => [0x28, 0x00, ...unsigned(offset)],
  store: (offset: number) => [0x36, 0x02, ...unsigned(offset)],
  store8: (offset: number) => [0x3a, 0x00, ...unsigned(offset)],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  and: [0x71],
  or: [0x72],
  shl: [0x74],
  shrU: [0x76],
  eqz: [0x45],
  eq: [0x46],
  gtS: [0x4a],
  geU: [0x4f],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...unsigned(depth)],
  brIf: (depth: number) => [0x0d, ...unsigned(depth)],
  return: [0x0f],
} as const;

function section(id: number, bytes: readonly number[]): number[] {
  return [id, ...unsigned(bytes.length), ...bytes];
}

function vector(items: readonly (readonly number[])[]): number[] {
  return [...unsigned(items.length), ...items.flat()];
}

function name(text: string): number[] {
  return [...unsigned(text.length), ...Buffer.from(text, "latin1")];
}

/** LEB128, unsigned. */
function unsigned(value: number): number[] {
  const out: number[] = [];
  let n = value >>> 0;
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? low : low | 0x80);
  } while (n !== 0);
  return out;
}

/** LEB128, signed (an `i32.const`). */
function signed(value: number): number[] {
  const out: number[] = [];
  let n = value | 0;
  for (;;) {
    const low = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (low & 0x40) === 0) || (n === -1 && (low & 0x40) !== 0)) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}
