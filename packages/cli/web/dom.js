// Small DOM and formatting helpers. Text reaches the page only through textContent.

export const $ = (id) => document.getElementById(id);

export function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

export function button(text, onClick, label) {
  const b = el("button", text);
  b.type = "button";
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

const UNITS = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["min", 60_000],
  ["s", 1000],
];

/** `1 h 4 min`, `12 s`, `340 ms`: the two largest units of a duration. */
export function duration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const parts = [];
  let left = ms;
  for (const [unit, size] of UNITS) {
    if (left >= size && parts.length < 2) {
      parts.push(`${Math.floor(left / size)} ${unit}`);
      left %= size;
    } else if (parts.length > 0) break;
  }
  return parts.join(" ");
}

/** `5 min ago`, `just now`, `in 2 s` (clock skew). */
export function relative(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const d = now - t;
  if (Math.abs(d) < 1000) return "just now";
  return d > 0 ? `${duration(d)} ago` : `in ${duration(-d)}`;
}

export function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** A time element: relative text, the exact time on hover. */
export function timeCell(iso, tag = "td") {
  const cell = el(tag, iso ? relative(iso) : "");
  if (iso) cell.title = iso;
  return cell;
}
