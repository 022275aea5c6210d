// One capture: its outcome in words and colour, times, receipt, and a virtualised viewer
// of one view (stdout, stderr, their hex, or both in write order). A failed capture opens
// at its end, a running one follows its output (paused when you scroll up, resumed by
// "Jump to end"), a passed one at the top, and `#L123` / `#L120-L140` at those lines.

import { captureUrl, getJson } from "./api.js";
import { CombinedSource } from "./combined.js";
import { $, duration, el, relative } from "./dom.js";
import { follow } from "./follow.js";
import { Grep } from "./grep.js";
import { markDocument, outcome, summaryOf } from "./outcome.js";
import { HexSource, LineSource } from "./sources.js";
import { Viewer } from "./viewer.js";

export const VIEWS = ["stdout", "stderr", "combined", "stdout.hex", "stderr.hex"];

export class CapturePage {
  constructor(fail) {
    this.fail = fail;
    this.id = null;
    this.stop = null;
    this.viewer = new Viewer($("viewer"), {
      linkOf: (n) => this.linkOf(n, n),
      decorate: (n, item) => this.decorate(n, item),
      onSelect: (a, b) => history.replaceState(null, "", this.linkOf(a, b)),
      onFollow: (on) => this.followChanged(on),
      onTop: (a, b) => this.position(a, b),
      canFollow: () => this.condition === "live",
    });
    this.grep = new Grep({
      source: () => this.source,
      jump: (n) => {
        this.viewer.setFollow(false);
        this.viewer.scrollTo(n, "center");
      },
      changed: () => this.viewer.schedule(),
    });
    this.grepKey = 0;
  }

  linkOf(a, b) {
    const range = a === b ? `L${a}` : `L${a}-L${b}`;
    return `#/capture/${this.id}/${this.view}#${range}`;
  }

  decorate(n, item) {
    if (!this.view.endsWith(".hex") && this.view !== "combined") {
      const marks = this.grep.marksFor(n, item.text);
      if (marks) return { marks, cls: "match", key: `g${this.grepKey}` };
    }
    return null;
  }

  /** Open `id` at `view` (null: the best one), at lines `lines` ([a, b] or null). */
  async open(id, view, lines) {
    if (id === this.id && (view ?? this.view) === this.view && this.source) {
      if (lines) this.goTo(lines);
      return;
    }
    this.close();
    this.id = id;
    const { condition, receipt } = await getJson(captureUrl(id));
    if (this.id !== id) return;
    this.receipt = receipt;
    this.header(condition, receipt);
    this.wasLive = condition === "live";
    $("follow-state").textContent = this.wasLive ? "following" : "";
    this.view = view ?? defaultView(receipt);
    $("view").value = this.view;
    await this.load(lines);
  }

  close() {
    this.stop?.();
    this.stop = null;
    this.source = null;
    this.id = null;
    this.grep.clear();
  }

  async load(lines) {
    this.stop?.();
    this.stop = null;
    this.grep.clear();
    const [stream, hex] = this.view.split(".");
    $("grep-form").hidden = this.view === "combined" || hex !== undefined;
    if (this.view === "combined") return this.loadCombined(lines);
    const info = await getJson(`${captureUrl(this.id)}/streams/${stream}/lines`);
    const source = hex
      ? new HexSource(this.id, stream, info.committed)
      : new LineSource(this.id, stream);
    if (!hex) source.total = info.lines;
    this.attach(source);
    if (this.condition === "live") this.startFollow(stream, info, source);
    this.place(lines);
  }

  async loadCombined(lines) {
    const source = new CombinedSource(this.id);
    await source.init(this.failed);
    this.attach(source);
    $("view-note").textContent = source.note;
    this.place(lines);
  }

  attach(source) {
    this.source = source;
    source.fetcher.inView = (first) => this.wanted(first);
    source.fetcher.onError = (error) => this.fail(error);
    this.viewer.setSource(source);
    const onChange = source.onChange;
    source.onChange = () => {
      onChange();
      this.grep.refreshList();
    };
  }

  /** A block of rows is worth fetching: on screen or near it, or in the grep list. */
  wanted(first) {
    const [a, b] = this.viewer.visible();
    return (first <= b + 200 && first + 400 >= a) || this.grep.wants(first, 200);
  }

  /** Where a capture opens. */
  place(lines) {
    if (lines) this.goTo(lines);
    else if (this.condition === "live") this.viewer.setFollow(true);
    else if (this.failed) this.viewer.scrollTo(this.source.total, "end");
    else this.viewer.setTop(1);
    this.followChanged(this.viewer.follow);
  }

  /** Show lines a..b, highlighted: the range in the middle of the screen, or from its top. */
  goTo([a, b]) {
    this.viewer.setFollow(false);
    this.viewer.select(a, b);
    const room = this.viewer.fullRows - (b - a + 1);
    this.viewer.setTop(room > 0 ? a - Math.floor(room / 2) : a);
  }

  startFollow(stream, info, source) {
    const hex = source instanceof HexSource;
    const from = hex ? info.committed : info.lastLineStart;
    if (!hex) source.startLive(info.lines);
    const offsets = { stdout: 0, stderr: 0, [stream]: from };
    this.stop = follow(this.id, stream, offsets, {
      bytes: (_s, _offset, data) => (hex ? null : source.append(data)),
      state: (value) => {
        if (hex) source.grow(value.committed[stream]);
        $("follow-state").textContent =
          `following: ${value.process}, ${value.committed[stream]} bytes committed`;
      },
      receipt: (value) => this.ended(value),
      note: (text) => {
        $("view-note").textContent = text;
      },
      error: (error) => this.fail(error),
    });
  }

  ended({ condition, receipt }) {
    this.receipt = receipt;
    this.header(condition, receipt);
    $("follow-state").textContent = `ended: ${outcome(summaryOf(condition, receipt)).words}`;
    this.followChanged(this.viewer.follow);
  }

  header(condition, receipt) {
    this.condition = condition;
    const s = summaryOf(condition, receipt);
    const o = outcome(s);
    this.failed = o.kind === "failed";
    const label = receipt.label ?? "capture";
    const short = label.length > 80 ? `${label.slice(0, 79)}…` : label;
    $("capture-title").textContent = `${short} · ${receipt.captureId}`;
    const states = $("capture-states");
    const started = el("span", s.startedAt ? `started ${relative(s.startedAt)}` : "");
    started.title = s.startedAt ?? "";
    const end = s.endedAt ? Date.parse(s.endedAt) : Date.now();
    const took = s.startedAt ? duration(end - Date.parse(s.startedAt)) : "";
    states.replaceChildren(
      el("strong", o.words, `outcome kind-${o.kind}`),
      " · ",
      started,
      took ? ` · ${s.endedAt ? "took" : "running for"} ${took}` : "",
      ` · process ${s.process ?? "?"}, capture ${s.capture}, ${condition}`,
    );
    $("receipt").textContent = JSON.stringify(receipt, null, 2);
    markDocument(o.kind, short);
  }

  followChanged(on) {
    const live = this.condition === "live";
    $("jump-end").hidden = on;
    $("follow-state").hidden = !this.wasLive;
    $("jump-end").textContent = live ? "Jump to end and follow" : "Jump to end";
  }

  jumpToEnd() {
    if (this.condition === "live") this.viewer.setFollow(true);
    else this.viewer.scrollTo(this.source.total, "end");
  }

  position(a, b) {
    const unit = this.view.endsWith(".hex") ? "rows" : "lines";
    const total = this.source?.total ?? 0;
    $("position").textContent = total === 0 ? "empty" : `${unit} ${a}–${b} of ${total}`;
    $("copy-link").dataset.line = String(this.viewer.selected?.[0] ?? a);
  }

  setView(view) {
    location.hash = `#/capture/${this.id}/${view}`;
  }

  runGrep(pattern, ignoreCase) {
    this.grepKey++;
    return this.grep.run(this.id, this.view, pattern, ignoreCase);
  }
}

/** The view a capture opens in: stdout (stderr when only it holds bytes), in hex when binary. */
function defaultView(receipt) {
  const { stdout, stderr } = receipt.streams;
  const only = stdout.committed === 0 && stderr.committed > 0 ? "stderr" : "stdout";
  const rep = receipt.streams[only].representation;
  return rep === "binary" ? `${only}.hex` : only;
}
