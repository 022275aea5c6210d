// A line of captured text into DOM nodes: SGR escapes (`ESC [ … m`: colours, bold, dim,
// italic, underline, inverse) become styled spans; every other control character, and
// every other escape sequence, is shown escaped (`␛[2J`, `␀`), never interpreted. Text
// goes in through textContent only; colours are classes (the 16 colours) or CSSOM
// properties (256 and true colours), which the page's CSP allows (no style attribute).

const ESC = String.fromCharCode(0x1b);

/** Code points shown as a visible symbol instead of acting (C0 except tab, DEL, C1). */
const isControl = (n) => (n < 0x20 && n !== 0x09) || (n >= 0x7f && n <= 0x9f);

function hasControl(text) {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/**
 * The CSI sequence at `text[at]` (an ESC): `{ params, intermediates, final, length }`, or
 * null when `ESC [` is not followed by a whole one (parameter bytes 0x30–0x3f, then
 * intermediates 0x20–0x2f, then a final byte 0x40–0x7e; at most 64 characters).
 */
export function csiAt(text, at) {
  if (text[at + 1] !== "[") return null;
  let i = at + 2;
  const limit = Math.min(text.length, at + 64);
  while (i < limit && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  const paramsEnd = i;
  while (i < limit && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  if (i >= limit) return null;
  const final = text.charCodeAt(i);
  if (final < 0x40 || final > 0x7e) return null;
  return {
    params: text.slice(at + 2, paramsEnd),
    intermediates: text.slice(paramsEnd, i),
    final: text[i],
    length: i + 1 - at,
  };
}

const blank = () => ({
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  under: false,
  inverse: false,
});

/** The 256-colour palette entry `n` as an rgb() string. */
function palette(n) {
  if (n < 16) return null;
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]}, ${v[Math.floor(i / 6) % 6]}, ${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g}, ${g}, ${g})`;
}

/** An extended colour (`38;5;n`, `38;2;r;g;b`) from `codes` at `i`: [colour, codes used]. */
function extended(codes, i) {
  if (codes[i + 1] === 5 && codes[i + 2] !== undefined) {
    const n = codes[i + 2] & 255;
    return [n < 16 ? { cls: n } : { css: palette(n) }, 3];
  }
  if (codes[i + 1] === 2 && codes[i + 4] !== undefined) {
    const [r, g, b] = [codes[i + 2], codes[i + 3], codes[i + 4]].map((v) => v & 255);
    return [{ css: `rgb(${r}, ${g}, ${b})` }, 5];
  }
  return [null, 1];
}

const SIMPLE = {
  0: (s) => Object.assign(s, blank()),
  1: (s) => {
    s.bold = true;
  },
  2: (s) => {
    s.dim = true;
  },
  3: (s) => {
    s.italic = true;
  },
  4: (s) => {
    s.under = true;
  },
  7: (s) => {
    s.inverse = true;
  },
  22: (s) => {
    s.bold = false;
    s.dim = false;
  },
  23: (s) => {
    s.italic = false;
  },
  24: (s) => {
    s.under = false;
  },
  27: (s) => {
    s.inverse = false;
  },
  39: (s) => {
    s.fg = null;
  },
  49: (s) => {
    s.bg = null;
  },
};

/** Apply one SGR parameter list to the style `s`. */
export function applySgr(s, params) {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (SIMPLE[c]) SIMPLE[c](s);
    else if (c >= 30 && c <= 37) s.fg = { cls: c - 30 };
    else if (c >= 90 && c <= 97) s.fg = { cls: c - 90 + 8 };
    else if (c >= 40 && c <= 47) s.bg = { cls: c - 40 };
    else if (c >= 100 && c <= 107) s.bg = { cls: c - 100 + 8 };
    else if (c === 38 || c === 48) {
      const [colour, used] = extended(codes, i);
      if (c === 38) s.fg = colour;
      else s.bg = colour;
      i += used - 1;
    }
  }
  return s;
}

const styled = (s) => s.fg || s.bg || s.bold || s.dim || s.italic || s.under || s.inverse;

/** A span carrying style `s` (classes, and CSSOM colours for 256/true colours). */
function spanOf(s) {
  const span = document.createElement("span");
  const cls = [];
  const [fg, bg] = s.inverse ? [s.bg, s.fg] : [s.fg, s.bg];
  if (fg?.cls !== undefined) cls.push(`f${fg.cls}`);
  else if (fg?.css) span.style.color = fg.css;
  if (bg?.cls !== undefined) cls.push(`b${bg.cls}`);
  else if (bg?.css) span.style.backgroundColor = bg.css;
  if (s.inverse && !fg) cls.push("inv");
  if (s.bold) cls.push("sgr-bold");
  if (s.dim) cls.push("sgr-dim");
  if (s.italic) cls.push("sgr-italic");
  if (s.under) cls.push("sgr-under");
  span.className = cls.join(" ");
  return span;
}

/** Control characters made visible, in caret notation (`^[`, `^G`, `^?`), C1 as `\x9b`. */
export function visibleControls(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const n = text.charCodeAt(i);
    if (!isControl(n)) out += text[i];
    else if (n < 0x20) out += `^${String.fromCharCode(n + 0x40)}`;
    else if (n === 0x7f) out += "^?";
    else out += `\\x${n.toString(16)}`;
  }
  return out;
}

/**
 * Split `text` into runs: `{ text, style, raw }` where `raw` marks escaped controls. Each
 * run keeps its index in `text` (`at`), so highlights can be laid over them.
 */
export function sgrRuns(text) {
  const runs = [];
  let style = blank();
  let at = 0;
  let plainFrom = 0;
  const flush = (to) => {
    if (to > plainFrom)
      runs.push({ at: plainFrom, text: text.slice(plainFrom, to), style: { ...style } });
  };
  while (at < text.length) {
    const esc = text.indexOf(ESC, at);
    if (esc === -1) break;
    const m = csiAt(text, esc);
    flush(esc);
    if (m && m.final === "m" && m.intermediates === "" && /^[0-9;:]*$/.test(m.params)) {
      style = applySgr({ ...style }, m.params);
      at = esc + m.length;
    } else {
      // Not SGR: shown as it is written, escaped.
      const len = m ? m.length : 1;
      runs.push({ at: esc, text: text.slice(esc, esc + len), style: { ...style }, raw: true });
      at = esc + len;
    }
    plainFrom = at;
  }
  flush(text.length);
  return runs;
}

/**
 * Fill `parent` with `text` rendered: SGR styles, escaped controls, and `<mark>` over the
 * character ranges `marks` ([[start, end], …] into `text`, sorted).
 */
export function renderLine(parent, text, marks = []) {
  parent.replaceChildren();
  for (const run of sgrRuns(text)) {
    const target = styled(run.style) ? parent.appendChild(spanOf(run.style)) : parent;
    appendMarked(target, run, marks);
  }
}

function appendMarked(target, run, marks) {
  const end = run.at + run.text.length;
  let from = run.at;
  for (const [ms, me] of marks) {
    if (me <= from || ms >= end) continue;
    if (ms > from) appendText(target, run, from, ms);
    const mark = target.appendChild(document.createElement("mark"));
    appendText(mark, run, Math.max(ms, from), Math.min(me, end));
    from = Math.min(me, end);
  }
  if (from < end) appendText(target, run, from, end);
}

function appendText(target, run, from, to) {
  const piece = run.text.slice(from - run.at, to - run.at);
  if (run.raw) return appendControl(target, piece);
  if (!hasControl(piece)) return target.append(piece);
  // Plain text with control characters in it: only those are shown escaped.
  let plain = 0;
  for (let i = 0; i <= piece.length; i++) {
    if (i < piece.length && !isControl(piece.charCodeAt(i))) continue;
    if (i > plain) target.append(piece.slice(plain, i));
    if (i < piece.length) appendControl(target, piece[i]);
    plain = i + 1;
  }
}

function appendControl(target, text) {
  const code = target.appendChild(document.createElement("span"));
  code.className = "ctl";
  code.title = "a control character, shown escaped";
  code.textContent = visibleControls(text);
}
