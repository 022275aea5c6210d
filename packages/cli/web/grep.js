// Grep over one stream: the server's scan (`…/grep?o=1`: each match with its byte offset
// and its line's), shown as a count, a list of matching lines with N lines of context
// around each, next/previous, and every match highlighted in the viewer.

import { getJson, streamUrl } from "./api.js";
import { $, el } from "./dom.js";
import { renderLine } from "./sgr.js";

const MAX = 1000;
/** Matching lines listed (with context) at a time. */
const LISTED = 50;
const encoder = new TextEncoder();

export class Grep {
  constructor(hooks) {
    this.hooks = hooks; // { source(), jump(line), changed() }
    this.clear();
  }

  clear() {
    this.byLine = new Map(); // line -> [[byteStart, byteEnd], …] within the line
    this.lines = [];
    this.current = -1;
    this.listed = LISTED;
    $("matches").replaceChildren();
    $("grep-count").textContent = "";
    this.update();
  }

  async run(id, stream, pattern, ignoreCase) {
    const q = new URLSearchParams({ pattern, o: "1", max: String(MAX) });
    if (ignoreCase) q.set("i", "1");
    const result = await getJson(`${streamUrl(id, stream)}/grep?${q}`);
    this.clear();
    for (const m of result.matches) {
      const start = m.offset - m.lineOffset;
      const spans = this.byLine.get(m.line) ?? [];
      if (spans.length === 0) this.lines.push(m.line);
      spans.push([start, start + encoder.encode(m.text).length]);
      this.byLine.set(m.line, spans);
    }
    const cut = result.cut
      ? `, stopped: ${result.cut === "max" ? `first ${MAX}` : result.cut}`
      : "";
    const n = result.matches.length;
    $("grep-count").textContent =
      `${n} match${n === 1 ? "" : "es"} on ${this.lines.length} line${this.lines.length === 1 ? "" : "s"}${cut}`;
    this.renderList();
    this.hooks.changed();
    if (this.lines.length > 0) this.go(0);
    else this.update();
  }

  /** Highlight ranges for line `n` as character indices into `text`. */
  marksFor(n, text) {
    const spans = this.byLine.get(n);
    if (!spans) return null;
    return spans.map(([a, b]) => [charIndex(text, a), charIndex(text, b)]);
  }

  go(i) {
    if (this.lines.length === 0) return;
    this.current = (i + this.lines.length) % this.lines.length;
    this.hooks.jump(this.lines[this.current]);
    this.update();
  }
  next() {
    this.go(this.current + 1);
  }
  prev() {
    this.go(this.current - 1);
  }

  update() {
    const has = this.lines.length > 0;
    $("grep-next").disabled = !has;
    $("grep-prev").disabled = !has;
    $("grep-at").textContent = has
      ? `line ${this.lines[this.current]}: ${this.current + 1} of ${this.lines.length}`
      : "";
    for (const item of $("matches").querySelectorAll("li")) {
      item.classList.toggle("current", Number(item.dataset.line) === this.lines[this.current]);
    }
  }

  /** The listed matches with their context lines (fetched through the viewer's source). */
  renderList() {
    const list = $("matches");
    list.replaceChildren();
    const context = Number($("context").value) || 0;
    const source = this.hooks.source();
    for (const line of this.lines.slice(0, this.listed)) {
      const item = el("li");
      item.dataset.line = String(line);
      for (let n = Math.max(1, line - context); n <= line + context; n++) {
        if (n > source.total) break;
        item.append(this.contextRow(source, n, n === line));
      }
      list.append(item);
    }
    if (this.lines.length > this.listed) {
      const more = el("button", `show ${Math.min(LISTED, this.lines.length - this.listed)} more`);
      more.type = "button";
      more.addEventListener("click", () => {
        this.listed += LISTED;
        this.renderList();
      });
      list.append(el("li")).append(more);
    }
  }

  contextRow(source, n, isMatch) {
    const row = el("div", null, isMatch ? "ctx hit" : "ctx");
    const jump = el("button", String(n), "ln");
    jump.type = "button";
    jump.setAttribute("aria-label", `go to line ${n}`);
    jump.addEventListener("click", () => {
      const i = this.lines.indexOf(n);
      if (i >= 0) this.go(i);
      else this.hooks.jump(n);
    });
    const text = el("span", null, "tx");
    const item = source.get(n);
    if (item) renderLine(text, item.text, (isMatch && this.marksFor(n, item.text)) || []);
    else text.textContent = "…";
    row.append(jump, text);
    return row;
  }

  /** Whether line block `[first, first + size)` holds a listed line or its context. */
  wants(first, size) {
    const context = Number($("context").value) || 0;
    return this.lines
      .slice(0, this.listed)
      .some((line) => line + context >= first && line - context < first + size);
  }

  /** The source fetched more lines: fill the context rows still waiting. */
  refreshList() {
    const waiting = [...$("matches").querySelectorAll(".ctx .tx")].some(
      (t) => t.textContent === "…",
    );
    if (waiting) {
      this.renderList();
      this.update();
    }
  }
}

/** The UTF-16 index in `text` of UTF-8 byte `at` of it. */
export function charIndex(text, at) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= at) return i;
    const c = text.codePointAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c >= 0x10000) i++;
  }
  return text.length;
}
