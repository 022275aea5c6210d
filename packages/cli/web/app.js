// The spool web view. Every byte of a capture is untrusted: it reaches the page only
// through textContent (never innerHTML), and the token only through the Authorization
// header (kept in this tab's sessionStorage, never in a URL). Plain ES modules: no build.

import { API, call, clearToken, setToken, token, whenSignedOut } from "./api.js";
import { CapturePage, VIEWS } from "./capture.js";
import { $ } from "./dom.js";
import { CaptureList } from "./list.js";

function show(section) {
  for (const id of ["login", "list", "capture"]) $(id).hidden = id !== section;
  $("logout").hidden = section === "login";
  if (section === "login") $("token").focus();
}

function fail(error) {
  $("error").textContent = error instanceof Error ? error.message : String(error);
}

const list = new CaptureList();
const page = new CapturePage(fail);
whenSignedOut(() => show("login"));

/** `#/capture/ID[/VIEW][#L12[-L40]]`. */
const CAPTURE =
  /^#\/capture\/([A-Za-z0-9_-]{16,64})(?:\/([a-z.]+))?(?:#L(\d{1,15})(?:-L(\d{1,15}))?)?$/;

export function parseHash(hash) {
  const m = CAPTURE.exec(hash);
  if (!m) return null;
  const view = m[2] && VIEWS.includes(m[2]) ? m[2] : null;
  const a = m[3] ? Number(m[3]) : null;
  const b = m[4] ? Number(m[4]) : a;
  return { id: m[1], view, lines: a === null ? null : [Math.min(a, b), Math.max(a, b)] };
}

function route() {
  if (!token()) return show("login");
  $("error").textContent = "";
  const target = parseHash(location.hash);
  if (target) {
    list.hide();
    show("capture");
    page.open(target.id, target.view, target.lines).catch(fail);
  } else {
    page.close();
    show("list");
    document.title = "spool";
    $("favicon").href = "/favicon-idle.svg";
    list.show().catch(fail);
  }
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const value = $("token").value.trim();
  $("token").value = "";
  if (!value) return;
  setToken(value);
  call(`${API}/captures`)
    .then(() => {
      $("login-error").textContent = "";
      route();
    })
    .catch((error) => {
      $("login-error").textContent = error.message;
    });
});
$("logout").addEventListener("click", () => {
  page.close();
  list.hide();
  clearToken();
  location.hash = "#/";
  show("login");
});
$("refresh").addEventListener("click", () => list.load().catch(fail));
$("view").addEventListener("change", () => page.setView($("view").value));
$("jump-end").addEventListener("click", () => page.jumpToEnd());
$("copy-link").addEventListener("click", () => copyLink());
$("grep-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const pattern = $("pattern").value;
  if (pattern) page.runGrep(pattern, $("ignore-case").checked).catch(fail);
});
$("grep-next").addEventListener("click", () => page.grep.next());
$("grep-prev").addEventListener("click", () => page.grep.prev());
$("context").addEventListener("change", () => page.grep.renderList());
document.addEventListener("keydown", (e) => {
  if ($("capture").hidden || e.target instanceof HTMLInputElement) return;
  if (e.target instanceof HTMLSelectElement) return;
  if (e.key === "n") page.grep.next();
  else if (e.key === "N") page.grep.prev();
});

/** Copy a link to the selected line (or the first on screen); show it when the clipboard is closed. */
function copyLink() {
  const n = Number($("copy-link").dataset.line || 1);
  const sel = page.viewer.selected ?? [n, n];
  const url = new URL(page.linkOf(sel[0], sel[1]), location.href).href;
  const out = $("link-out");
  out.value = url;
  const showIt = () => {
    out.hidden = false;
    out.select();
  };
  if (!navigator.clipboard) return showIt();
  navigator.clipboard.writeText(url).then(() => {
    out.hidden = false;
    $("view-note").textContent = "link copied";
  }, showIt);
}

window.addEventListener("hashchange", route);
route();
