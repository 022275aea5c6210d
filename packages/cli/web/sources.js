// Row sources for the viewer: the lines of a text stream (fetched by line number through
// the line index, `?lines=A:B`, and appended live by the follow), and the hex rows of a
// binary stream (fetched by byte `Range`). Each keeps a bounded cache and fetches only
// blocks that are still on screen when their turn comes.

import { call, streamUrl } from "./api.js";
import { renderLine } from "./sgr.js";

const BLOCK = 200;
const CACHE_ROWS = 60_000;
/** Characters of one line shown; the rest is counted, not drawn. */
export const LINE_CHARS = 4096;
const PARALLEL = 3;

/** A bounded cache of fetched rows and a queue of blocks to fetch. */
class Fetcher {
  constructor(fetchBlock) {
    this.fetchBlock = fetchBlock;
    this.rows = new Map();
    this.pending = new Set();
    this.queue = [];
    this.running = 0;
    this.tried = new Set();
    this.inView = () => true;
    this.onChange = () => {};
    this.onError = () => {};
  }

  row(n, block) {
    const hit = this.rows.get(n);
    if (hit !== undefined) return hit;
    let first = n - ((n - 1) % block);
    // A block fetched already that lacks `n` (a cut answer, or evicted): start at `n`.
    if (this.tried.has(first)) first = n;
    if (!this.pending.has(first)) {
      this.pending.add(first);
      this.queue.push(first);
      this.pump();
    }
    return null;
  }

  set(n, item) {
    this.rows.delete(n);
    this.rows.set(n, item);
    if (this.rows.size > CACHE_ROWS) {
      const drop = this.rows.size - CACHE_ROWS;
      let i = 0;
      for (const key of this.rows.keys()) {
        if (i++ >= drop) break;
        this.rows.delete(key);
      }
    }
  }

  pump() {
    while (this.running < PARALLEL && this.queue.length > 0) {
      // Newest first: the block asked last is the one on screen.
      const first = this.queue.pop();
      if (!this.inView(first)) {
        this.pending.delete(first);
        continue;
      }
      this.running++;
      this.fetchBlock(first)
        .catch((error) => this.onError(error))
        .finally(() => {
          this.running--;
          this.pending.delete(first);
          this.tried.add(first);
          this.onChange();
          this.pump();
        });
    }
  }
}

/** A long line: its first LINE_CHARS characters, and how many more there are. */
function clip(text) {
  if (text.length <= LINE_CHARS) return { text };
  return { text: text.slice(0, LINE_CHARS), more: text.length - LINE_CHARS };
}

export class LineSource {
  constructor(id, stream) {
    this.id = id;
    this.stream = stream;
    this.total = 0;
    this.fetcher = new Fetcher((first) => this.fetchLines(first));
    this.live = null; // { line, partial }: where followed text continues
  }

  set onChange(f) {
    this.fetcher.onChange = f;
  }
  get onChange() {
    return this.fetcher.onChange;
  }

  /** Ask the line count at the committed end: `{ lines, lastLineStart, committed, … }`. */
  async count() {
    const response = await call(`${streamUrl(this.id, this.stream)}/lines`);
    const info = await response.json();
    this.total = Math.max(this.total, info.lines);
    return info;
  }

  get(n) {
    return this.fetcher.row(n, BLOCK);
  }

  label(n) {
    return String(n);
  }

  render(parent, item, marks) {
    renderLine(parent, item.text, marks);
    if (item.more) parent.append(moreNote(item.more));
  }

  async fetchLines(first) {
    const last = first + BLOCK - 1;
    const response = await call(`${streamUrl(this.id, this.stream)}?lines=${first}:${last}`);
    const text = await response.text();
    const cut = response.headers.get("spool-cut") !== null;
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    lines.forEach((line, i) => {
      const n = first + i;
      if (this.live && n >= this.live.line) return; // the follow knows better
      const item = clip(line);
      if (cut && i === lines.length - 1) item.cutAt = true;
      this.fetcher.set(n, item);
    });
    this.total = Math.max(this.total, first + lines.length - 1);
  }

  /** Followed text starts at the start of line `line`. */
  startLive(line) {
    this.live = { line: Math.max(1, line), partial: "" };
  }

  /** Append text the follow read, in order; the last, unfinished line is shown as it is. */
  append(text) {
    const live = this.live;
    const pieces = (live.partial + text).split("\n");
    live.partial = pieces.pop();
    for (const piece of pieces) this.fetcher.set(live.line++, clip(piece));
    if (live.partial !== "") this.fetcher.set(live.line, clip(live.partial));
    this.total = Math.max(this.total, live.partial === "" ? live.line - 1 : live.line);
    this.onChange();
  }
}

function moreNote(more) {
  const span = document.createElement("span");
  span.className = "more";
  span.textContent = ` … ${more} more characters not shown`;
  return span;
}

const HEX_ROW = 16;
const HEX_BLOCK = 256; // rows: 4 KiB

export class HexSource {
  constructor(id, stream, committed) {
    this.id = id;
    this.stream = stream;
    this.committed = committed;
    this.fetcher = new Fetcher((first) => this.fetchRows(first));
  }

  set onChange(f) {
    this.fetcher.onChange = f;
  }
  get onChange() {
    return this.fetcher.onChange;
  }

  get total() {
    return Math.ceil(this.committed / HEX_ROW);
  }

  grow(committed) {
    if (committed <= this.committed) return;
    // The last row may have been short: fetch it again.
    this.fetcher.rows.delete(this.total);
    this.committed = committed;
    this.onChange();
  }

  get(n) {
    return this.fetcher.row(n, HEX_BLOCK);
  }

  label(n) {
    return ((n - 1) * HEX_ROW).toString(16).padStart(8, "0");
  }

  render(parent, item) {
    parent.textContent = item.text;
  }

  async fetchRows(first) {
    const start = (first - 1) * HEX_ROW;
    const end = Math.min(this.committed, start + HEX_BLOCK * HEX_ROW) - 1;
    if (end < start) return;
    const response = await call(streamUrl(this.id, this.stream), {
      headers: { range: `bytes=${start}-${end}` },
    });
    const data = new Uint8Array(await response.arrayBuffer());
    for (let i = 0; i * HEX_ROW < data.length; i++) {
      this.fetcher.set(first + i, { text: hexRow(data.subarray(i * HEX_ROW, (i + 1) * HEX_ROW)) });
    }
  }
}

/** `de ad be ef …  |....|`: sixteen bytes, and those that are printable ASCII. */
export function hexRow(bytes) {
  let hex = "";
  let ascii = "";
  for (let i = 0; i < HEX_ROW; i++) {
    if (i === 8) hex += " ";
    if (i < bytes.length) {
      hex += `${bytes[i].toString(16).padStart(2, "0")} `;
      ascii += bytes[i] >= 0x20 && bytes[i] < 0x7f ? String.fromCharCode(bytes[i]) : ".";
    } else hex += "   ";
  }
  return `${hex} |${ascii}|`;
}
