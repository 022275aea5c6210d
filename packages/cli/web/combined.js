// stdout and stderr together in the order they were written: the capture's journal of
// stream switches (`GET …/order`: each switch is a stream and the offset in it where its
// run starts) turned into runs of bytes, read in order by `Range` (raw bytes, decoded per
// stream so a character split by a switch stays whole), split into rows. stderr rows are
// marked (a class and "err" in the gutter). Rows are loaded in batches as you scroll.

import { call, captureUrl, getJson, streamUrl } from "./api.js";
import { renderLine } from "./sgr.js";
import { LINE_CHARS } from "./sources.js";

const BATCH = 1024 * 1024;
/** Most bytes read at once to open at the end; past it the view opens there and loads on. */
const TO_END = 32 * 1024 * 1024;
const NAMES = ["stdout", "stderr"];

export class CombinedSource {
  constructor(id) {
    this.id = id;
    this.rows = [];
    this.runs = [];
    this.run = 0; // the next run to read, and where in it
    this.at = 0;
    this.lines = [1, 1];
    this.partial = ["", ""];
    this.decoders = [new TextDecoder(), new TextDecoder()];
    this.loading = null;
    this.note = "";
    this.onChange = () => {};
    // The viewer's fetch hooks: rows load in order, so only "near the end" matters.
    this.fetcher = { inView: () => true, onError: () => {} };
  }

  /** Read the journal and the first batch (`toEnd`: up to 32 MiB, to open at the end). */
  async init(toEnd) {
    const order = await getJson(`${captureUrl(this.id)}/order`);
    this.runs = runsOf(order);
    this.note = noteOf(order);
    await this.loadUntil(toEnd ? TO_END : BATCH);
    if (toEnd && this.run < this.runs.length) {
      this.note = [this.note, "opened after the first 32 MiB: scroll on for the rest"]
        .filter(Boolean)
        .join("; ");
    }
  }

  get total() {
    return this.rows.length;
  }

  get(n) {
    if (n > this.rows.length - 200 && this.run < this.runs.length) this.more();
    return this.rows[n - 1] ?? null;
  }

  label(n) {
    const row = this.rows[n - 1];
    return row ? `${row.stream === 1 ? "err" : "out"} ${row.line}` : "";
  }

  render(parent, item) {
    renderLine(parent, item.text);
  }

  more() {
    this.loading ??= this.loadUntil(BATCH)
      .catch((error) => this.fetcher.onError(error))
      .finally(() => {
        this.loading = null;
        this.onChange();
      });
  }

  async loadUntil(budget) {
    let read = 0;
    while (read < budget && this.run < this.runs.length) {
      const run = this.runs[this.run];
      const start = run.start + this.at;
      const end = Math.min(run.end, start + BATCH);
      if (end > start) {
        const response = await call(streamUrl(this.id, NAMES[run.stream]), {
          headers: { range: `bytes=${start}-${end - 1}` },
        });
        const data = new Uint8Array(await response.arrayBuffer());
        this.take(run.stream, data, start + data.length >= run.end);
        read += data.length;
        this.at += data.length;
        if (data.length === 0) this.at = run.end - run.start;
      }
      if (run.start + this.at >= run.end) {
        this.run++;
        this.at = 0;
      }
    }
  }

  /** Bytes of `stream`; `runEnds`: the run ends here (its unfinished line is shown as a row). */
  take(stream, data, runEnds) {
    const text = this.partial[stream] + this.decoders[stream].decode(data, { stream: true });
    const pieces = text.split("\n");
    this.partial[stream] = pieces.pop();
    for (const piece of pieces) this.push(stream, piece, true);
    if (runEnds && this.partial[stream] !== "") {
      this.push(stream, this.partial[stream], false);
      this.partial[stream] = "";
    }
  }

  push(stream, text, whole) {
    const cls = stream === 1 ? "err" : "";
    this.rows.push({ stream, line: this.lines[stream], text: text.slice(0, LINE_CHARS), cls });
    if (whole) this.lines[stream]++;
  }
}

/** The journal's switches as runs `{ stream, start, end }` of each stream's bytes. */
export function runsOf(order) {
  const committed = [order.committed.stdout, order.committed.stderr];
  const switches = order.switches ?? [];
  if (switches.length === 0) {
    return [0, 1]
      .filter((s) => committed[s] > 0)
      .map((s) => ({ stream: s, start: 0, end: committed[s] }));
  }
  const runs = [];
  for (let i = 0; i < switches.length; i++) {
    const [stream, start] = switches[i];
    const next = switches.slice(i + 1).find(([s]) => s === stream);
    const end = Math.min(next ? next[1] : committed[stream], committed[stream]);
    if (end > start) runs.push({ stream, start, end });
  }
  return runs;
}

function noteOf(order) {
  if (!order.switches)
    return "the order of writes was not recorded for this capture: stdout, then stderr";
  if (order.full)
    return `the order was recorded for the first ${order.switches.length} switches only; later output of each stream follows its last recorded run`;
  return "";
}
