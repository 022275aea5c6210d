/**
 * An automaton as bytes and back. The built-in rules' automaton is the same for every
 * `spool run` without known values or rules of its own, and building it was most of the
 * redactor's share of start-up (~12 ms, and the garbage it leaves): the build writes it
 * once as an image beside the code (`scripts/build-automata.mjs`), and `compileRedaction`
 * loads that image instead when its needles are exactly the ones the image was built from.
 *
 * An image is a little-endian `u32` header length, a JSON header (format, version, the key
 * of the needles and options it was built from, the scalar fields, each table's offset and
 * length) and, from the next 4-byte boundary, the tables, each 4-byte aligned. Loading
 * makes views on the bytes, no copies. The key is checked, and every table's place and
 * length; anything else about an image is trusted as the code beside it is.
 *
 * @example
 * ```ts
 * import { buildAutomaton } from "./aho-corasick.js";
 * import { automatonKey, readAutomatonImage, writeAutomatonImage } from "./automaton-image.js";
 * const needles = [{ bytes: Buffer.from("secret"), literal: 0, anchor: -1 }];
 * const key = automatonKey(needles, {});
 * const image = writeAutomatonImage(buildAutomaton(needles, {}), key);
 * readAutomatonImage(image, key); // scans as the built automaton does
 * readAutomatonImage(image, "another key"); // null
 * ```
 */
import { createHash } from "node:crypto";
import {
  type Automaton,
  type AutomatonOptions,
  type AutomatonTables,
  assemble,
  automatonTables,
  type Needle,
} from "./aho-corasick.js";

const FORMAT = "spool-automaton";
/** Bump when the tables' meaning changes: older images then no longer load. */
const VERSION = 3;

/** The byte tables; every other table is `Int32Array`. */
const BYTE_TABLES = new Set(["classOf", "flags", "cClass"]);
const ROW_TABLES = [
  "levelStart",
  "wsCount",
  "flags",
  "outState",
  "literalStates",
  "literalIds",
  "cStart",
  "cClass",
] as const;
const TOP_TABLES = [
  "classOf",
  "dense",
  "code",
  "fail",
  "anchorStart",
  "anchorIds",
  "anchorLength",
  "anchorWs",
] as const;
type TableName = (typeof ROW_TABLES)[number] | (typeof TOP_TABLES)[number];
type Table = Uint8Array | Int32Array;

interface Header {
  readonly format: string;
  readonly version: number;
  readonly key: string;
  readonly classes: number;
  readonly wsClass: number;
  readonly denseStates: number;
  readonly maxWsCount: number;
  readonly maxDepth: number;
  /** Each table's byte offset (from the first table, after the header) and element count. */
  readonly tables: Record<string, [number, number]>;
}

/** What an automaton is built from, as one hex string: needles (in order) and options. */
export function automatonKey(needles: readonly Needle[], options: AutomatonOptions): string {
  const hash = createHash("sha256");
  hash.update(`${FORMAT} ${VERSION} ${JSON.stringify(options)}\n`);
  // Each needle's length, literal and anchor, then all their bytes: two updates, not two a
  // needle (this runs at every start-up that loads the built-in image).
  const heads = new Int32Array(3 * needles.length);
  let size = 0;
  for (const [i, needle] of needles.entries()) {
    heads[3 * i] = needle.bytes.length;
    heads[3 * i + 1] = needle.literal;
    heads[3 * i + 2] = needle.anchor;
    size += needle.bytes.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const needle of needles) {
    bytes.set(needle.bytes, at);
    at += needle.bytes.length;
  }
  hash.update(new Uint8Array(heads.buffer));
  hash.update(bytes);
  return hash.digest("hex");
}

/** `a` (as built, before any densifying) as an image under `key`. */
export function writeAutomatonImage(a: Automaton, key: string): Uint8Array {
  const t = automatonTables(a);
  const named: [TableName, Table][] = [
    ...TOP_TABLES.map((name): [TableName, Table] => [name, t[name]]),
    ...ROW_TABLES.map((name): [TableName, Table] => [name, t.rows[name]]),
  ];
  const tables: Record<string, [number, number]> = {};
  let size = 0;
  for (const [name, table] of named) {
    tables[name] = [size, table.length];
    size += align4(table.byteLength);
  }
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    key,
    classes: t.classes,
    wsClass: t.wsClass,
    denseStates: t.denseStates,
    maxWsCount: t.maxWsCount,
    maxDepth: t.maxDepth,
    tables,
  };
  const json = Buffer.from(JSON.stringify(header));
  const start = align4(4 + json.length);
  const image = new Uint8Array(start + size);
  new DataView(image.buffer).setUint32(0, json.length, true);
  image.set(json, 4);
  for (const [name, table] of named) {
    image.set(
      new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
      start + tables[name]![0],
    );
  }
  return image;
}

/** The automaton in `image` if it is a whole image built under `key`, else `null`. */
export function readAutomatonImage(image: Uint8Array, key: string): Automaton | null {
  // Views need 4-byte aligned tables: a pooled buffer may start anywhere.
  const bytes = image.byteOffset % 4 === 0 ? image : image.slice();
  const header = readHeader(bytes);
  if (header === null || header.key !== key) return null;
  const start = align4(4 + new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true));
  // The image ends where its last table's padding does: a cut inside that padding (a byte
  // table last) is as damaged as any other.
  let end = start;
  const table = (name: TableName): Table | null => {
    const place = header.tables[name];
    if (!Array.isArray(place)) return null;
    const offset = start + place[0];
    const length = place[1];
    const width = BYTE_TABLES.has(name) ? 1 : 4;
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset % 4 !== 0) return null;
    if (offset < start || length < 0 || offset + length * width > bytes.byteLength) return null;
    end = Math.max(end, offset + align4(length * width));
    return width === 1
      ? new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length)
      : new Int32Array(bytes.buffer, bytes.byteOffset + offset, length);
  };
  const read = Object.fromEntries(
    [...TOP_TABLES, ...ROW_TABLES].map((name) => [name, table(name)]),
  );
  if (Object.values(read).some((t) => t === null) || end !== bytes.byteLength) return null;
  const tables = {
    ...header,
    ...read,
    rows: Object.fromEntries(ROW_TABLES.map((name) => [name, read[name]])),
  } as unknown as AutomatonTables;
  return fits(tables) ? assemble(tables) : null;
}

function readHeader(bytes: Uint8Array): Header | null {
  if (bytes.byteLength < 4) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (4 + length > bytes.byteLength) return null;
  try {
    const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, length).toString());
    const ok =
      header?.format === FORMAT &&
      header.version === VERSION &&
      typeof header.key === "string" &&
      typeof header.tables === "object" &&
      header.tables !== null;
    return ok ? (header as Header) : null;
  } catch {
    return null;
  }
}

/** The tables' lengths agree with each other (states, classes, dense rows). */
function fits(t: AutomatonTables): boolean {
  const states = t.fail.length;
  const { rows } = t;
  const perState = [rows.wsCount, rows.flags, rows.outState];
  const levels = rows.levelStart;
  return (
    states > 0 &&
    levels.length >= 2 &&
    levels[0] === 0 &&
    levels[levels.length - 1] === states &&
    t.maxDepth === levels.length - 2 &&
    rows.literalStates.length === rows.literalIds.length &&
    t.classOf.length === 256 &&
    t.denseStates > 0 &&
    t.denseStates <= states &&
    t.dense.length === t.denseStates * t.classes &&
    t.code.length === t.dense.length &&
    perState.every((table) => table.length === states) &&
    rows.cStart.length === states + 1 &&
    rows.cClass.length === states - 1 &&
    t.anchorStart.length === states + 1 &&
    t.anchorLength.length === t.anchorWs.length
  );
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
