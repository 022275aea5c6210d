// The list of captures: sortable by any column, filtered by text (label, id) and state,
// outcome in words and colour, exit code column, refreshed every 2 s while any job runs.

import { API, getJson } from "./api.js";
import { $, bytes, duration, el, timeCell } from "./dom.js";
import { outcome } from "./outcome.js";

const REFRESH_MS = 2000;

const COLUMNS = [
  ["capture", (c) => c.captureId],
  ["label", (c) => c.label ?? ""],
  ["state", (c) => c.outcome.kind],
  ["exit", (c) => c.exitCode ?? (c.signal ? 1000 : -1)],
  ["stdout", (c) => c.committed.stdout],
  ["stderr", (c) => c.committed.stderr],
  ["started", (c) => Date.parse(c.startedAt) || 0],
  ["duration", (c) => c.duration],
];

export class CaptureList {
  constructor() {
    this.captures = [];
    this.sort = { column: "started", descending: true };
    this.timer = 0;
    this.active = false;
    $("filter-text").addEventListener("input", () => this.render());
    $("filter-state").addEventListener("change", () => this.render());
    this.header();
  }

  async show() {
    this.active = true;
    await this.load();
  }

  hide() {
    this.active = false;
    clearTimeout(this.timer);
  }

  async load() {
    clearTimeout(this.timer);
    const { captures } = await getJson(`${API}/captures`);
    const now = Date.now();
    this.captures = captures.map((c) => ({
      ...c,
      outcome: outcome(c),
      duration: (c.endedAt ? Date.parse(c.endedAt) : now) - Date.parse(c.startedAt),
    }));
    this.render();
    const running = this.captures.some((c) => c.condition === "live");
    $("list-refresh-note").textContent = running ? "refreshing every 2 s while jobs run" : "";
    if (running && this.active) {
      this.timer = setTimeout(() => this.load().catch(() => {}), REFRESH_MS);
    }
  }

  header() {
    const row = $("list-head");
    row.replaceChildren();
    for (const [name] of COLUMNS) {
      const th = el("th");
      const sort = el("button", name, "sort");
      sort.type = "button";
      sort.addEventListener("click", () => {
        const same = this.sort.column === name;
        this.sort = { column: name, descending: same ? !this.sort.descending : name === "started" };
        this.render();
      });
      th.append(sort);
      row.append(th);
    }
  }

  visible() {
    const text = $("filter-text").value.trim().toLowerCase();
    const state = $("filter-state").value;
    const key = COLUMNS.find(([name]) => name === this.sort.column)[1];
    const sign = this.sort.descending ? -1 : 1;
    return this.captures
      .filter((c) => state === "all" || c.outcome.kind === state)
      .filter(
        (c) =>
          text === "" ||
          c.captureId.toLowerCase().includes(text) ||
          (c.label ?? "").toLowerCase().includes(text),
      )
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        return (x < y ? -1 : x > y ? 1 : 0) * sign;
      });
  }

  render() {
    for (const th of $("list-head").children) {
      const name = th.textContent;
      th.setAttribute(
        "aria-sort",
        name === this.sort.column ? (this.sort.descending ? "descending" : "ascending") : "none",
      );
    }
    const shown = this.visible();
    const body = $("captures");
    body.replaceChildren(...shown.map((c) => rowOf(c)));
    $("list-empty").hidden = this.captures.length > 0;
    $("list-count").textContent = `${shown.length} of ${this.captures.length}`;
  }
}

function rowOf(c) {
  const row = el("tr", null, `kind-${c.outcome.kind}`);
  const open = el("a", c.captureId, "capture-link");
  open.href = `#/capture/${c.captureId}`;
  open.setAttribute("aria-label", `open capture ${c.captureId}`);
  const first = el("td");
  first.append(open);
  const exit = c.signal ?? (c.exitCode === null || c.exitCode === undefined ? "" : c.exitCode);
  row.append(
    first,
    el("td", c.label ?? ""),
    el("td", c.outcome.words, `state kind-${c.outcome.kind}`),
    el("td", exit, c.outcome.kind === "failed" ? "exit kind-failed" : "exit"),
    el("td", bytes(c.committed.stdout)),
    el("td", bytes(c.committed.stderr)),
    timeCell(c.startedAt),
    el("td", duration(c.duration)),
  );
  return row;
}
