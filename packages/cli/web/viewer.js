// A virtualised view of rows (lines of a stream, hex rows, combined rows): only the rows
// on screen are in the DOM, whatever the size. The scroll range is the row count times the
// row height up to MAX_PX; past that the scrollbar maps proportionally and the wheel and
// keys move by rows, so any row of a multi-GB capture is reachable. Rows come from a
// source ({ total, get(n), label(n) }); a row not fetched yet shows as loading and is
// filled when the source says it changed.

export const ROW_PX = 18;
const MAX_PX = 8_000_000;

export class Viewer {
  constructor(box, hooks) {
    this.box = box;
    box.tabIndex = 0; // scrolled by keys too
    this.hooks = hooks; // { linkOf(n), decorate(n, item), onSelect(a, b), onFollow(on), onTop(n) }
    this.rowsEl = box.querySelector(".vrows");
    this.space = box.querySelector(".vspace");
    this.source = null;
    this.top = 1;
    this.follow = false;
    this.selected = null;
    this.pool = [];
    this.expected = null; // the scrollTop we set last (its scroll event is ours)
    this.frame = 0;
    box.addEventListener("scroll", () => this.onScroll());
    box.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    box.addEventListener("keydown", (e) => this.onKey(e));
    new ResizeObserver(() => (this.follow ? this.setTop(this.maxTop) : this.schedule())).observe(
      box,
    );
  }

  setSource(source) {
    this.source = source;
    source.onChange = () => this.changed();
    this.follow = false;
    this.top = 1;
    this.selected = null;
    this.expected = 0;
    this.box.scrollTop = 0;
    for (const row of this.pool) row.item = undefined;
    this.schedule();
  }

  get total() {
    return this.source ? this.source.total : 0;
  }
  get fullRows() {
    return Math.max(1, Math.floor(this.box.clientHeight / ROW_PX));
  }
  get maxTop() {
    return Math.max(1, this.total - this.fullRows + 1);
  }
  get height() {
    return Math.min(this.total * ROW_PX, MAX_PX) + ROW_PX;
  }
  get scaled() {
    return this.total * ROW_PX > MAX_PX;
  }
  get range() {
    return Math.max(1, this.height - this.box.clientHeight);
  }

  /** The scrollTop that shows row `top` first. */
  positionOf(top) {
    if (!this.scaled) return (top - 1) * ROW_PX;
    return ((top - 1) / Math.max(1, this.maxTop - 1)) * this.range;
  }

  topAt(scrollTop) {
    if (!this.scaled) return 1 + Math.floor(scrollTop / ROW_PX);
    return 1 + Math.round((scrollTop / this.range) * (this.maxTop - 1));
  }

  /** Show row `n`: first on screen ("top"), in the middle ("center") or last ("end"). */
  scrollTo(n, where = "center") {
    let top = n;
    if (where === "center") top = n - Math.floor(this.fullRows / 2);
    else if (where === "end") top = n - this.fullRows + 1;
    this.setTop(top);
  }

  setTop(top) {
    this.top = Math.min(Math.max(1, Math.round(top)), this.maxTop);
    this.layout();
    this.expected = Math.round(this.positionOf(this.top));
    this.box.scrollTop = this.expected;
    this.schedule();
  }

  setFollow(on) {
    if (this.follow === on) return;
    this.follow = on;
    if (on) this.setTop(this.maxTop);
    this.hooks.onFollow?.(on);
  }

  select(a, b = a) {
    this.selected = a === null ? null : [Math.min(a, b), Math.max(a, b)];
    this.schedule();
  }

  changed() {
    if (this.follow) this.setTop(this.maxTop);
    else this.schedule();
  }

  onScroll() {
    const at = this.box.scrollTop;
    if (this.expected !== null && Math.abs(at - this.expected) <= 1) {
      this.expected = null;
      return;
    }
    this.expected = null;
    this.top = Math.min(this.topAt(at), this.maxTop);
    if (this.follow && this.top < this.maxTop) this.setFollow(false);
    this.schedule();
  }

  onWheel(e) {
    if (e.deltaY < 0 && this.follow) this.setFollow(false);
    if (!this.scaled || e.deltaY === 0) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 1 : e.deltaMode === 2 ? this.fullRows : 1 / ROW_PX;
    const rows = Math.round(e.deltaY * unit) || Math.sign(e.deltaY);
    this.setTop(this.top + rows);
  }

  onKey(e) {
    const page = Math.max(1, this.fullRows - 1);
    const moves = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      " ": e.shiftKey ? -page : page,
    };
    let top = null;
    if (e.key in moves) top = this.top + moves[e.key];
    else if (e.key === "Home") top = 1;
    else if (e.key === "End") top = this.maxTop;
    else return;
    e.preventDefault();
    if (top < this.top && this.follow) this.setFollow(false);
    this.setTop(top);
    if (this.top >= this.maxTop && e.key === "End")
      this.setFollow(this.hooks.canFollow?.() ?? false);
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  layout() {
    const h = this.box.clientHeight;
    this.rowsEl.style.height = `${h}px`;
    this.space.style.height = `${Math.max(0, this.height - h)}px`;
  }

  render() {
    if (!this.source) return;
    this.layout();
    const count = Math.ceil(this.box.clientHeight / ROW_PX) + 1;
    while (this.pool.length < count) this.pool.push(this.newRow());
    const offset = this.scaled ? 0 : this.box.scrollTop - this.positionOf(this.top);
    this.rowsEl.style.transform = `translateY(${-Math.max(0, Math.min(offset, ROW_PX))}px)`;
    for (let i = 0; i < this.pool.length; i++) this.fill(this.pool[i], this.top + i, i < count);
    this.hooks.onTop?.(this.top, Math.min(this.total, this.top + this.fullRows - 1));
  }

  newRow() {
    const row = document.createElement("div");
    row.className = "row";
    const ln = row.appendChild(document.createElement("a"));
    ln.className = "ln";
    ln.addEventListener("click", (e) => {
      e.preventDefault();
      const n = Number(row.dataset.n);
      const from = e.shiftKey && this.selected ? this.selected[0] : n;
      this.select(from, n);
      this.hooks.onSelect?.(this.selected[0], this.selected[1]);
    });
    row.appendChild(document.createElement("span")).className = "tx";
    this.rowsEl.appendChild(row);
    return row;
  }

  fill(row, n, wanted) {
    if (!wanted || n > this.total) {
      row.hidden = true;
      return;
    }
    row.hidden = false;
    const item = this.source.get(n);
    const deco = item ? this.hooks.decorate?.(n, item) : null;
    const key = `${n}|${deco?.key ?? ""}`;
    const sel = this.selected !== null && n >= this.selected[0] && n <= this.selected[1];
    row.classList.toggle("hl", sel);
    if (row.item === item && row.key === key) return;
    row.item = item;
    row.key = key;
    row.dataset.n = String(n);
    const [ln, tx] = row.children;
    ln.textContent = this.source.label(n);
    ln.href = this.hooks.linkOf?.(n) ?? "#";
    row.className = `row${sel ? " hl" : ""}${item?.cls ? ` ${item.cls}` : ""}${deco?.cls ? ` ${deco.cls}` : ""}`;
    if (!item) {
      tx.textContent = "…";
      tx.className = "tx loading";
      return;
    }
    tx.className = "tx";
    this.source.render(tx, item, deco?.marks ?? []);
  }

  /** Rows on screen now: [first, last]. */
  visible() {
    return [this.top, Math.min(this.total, this.top + this.fullRows)];
  }
}
