// The spool web view. Every byte of a capture is untrusted: it reaches the page only
// through textContent (never innerHTML), and the token only through the Authorization
// header (kept in this tab's sessionStorage, never in a URL).

const PAGE = 64 * 1024;
const TOKEN_KEY = "spool-token";
const $ = (id) => document.getElementById(id);
const api = "/api/v1";

let view = null; // { id, stream, offset, nextOffset, committed, follow: AbortController | null }

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

async function call(path, init = {}) {
  const headers = { authorization: `Bearer ${token()}`, ...(init.headers || {}) };
  const response = await fetch(path, { ...init, headers, cache: "no-store", credentials: "omit" });
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    show("login");
    throw new Error("signed out: the token was refused");
  }
  if (!response.ok && response.status !== 206) {
    let message = `${response.status}`;
    try {
      const body = await response.json();
      message = `${response.status} ${body.error.code}: ${body.error.message}`;
    } catch {}
    throw new Error(message);
  }
  return response;
}

function show(section) {
  for (const id of ["login", "list", "capture"]) $(id).hidden = id !== section;
  $("logout").hidden = section === "login";
  if (section === "login") $("token").focus();
}

function fail(error) {
  $("error").textContent = error instanceof Error ? error.message : String(error);
}

function clearError() {
  $("error").textContent = "";
}

// ---- list ----
async function showList() {
  stopTail();
  view = null;
  show("list");
  clearError();
  const { captures } = await (await call(`${api}/captures`)).json();
  const body = $("captures");
  body.replaceChildren();
  $("list-empty").hidden = captures.length > 0;
  for (const c of captures.slice().reverse()) {
    const row = document.createElement("tr");
    const open = el("button", c.captureId);
    open.type = "button";
    open.setAttribute("aria-label", `open capture ${c.captureId}`);
    open.addEventListener("click", () => {
      location.hash = `#/capture/${c.captureId}`;
    });
    const first = document.createElement("td");
    first.append(open);
    row.append(
      first,
      el("td", c.label ?? ""),
      el("td", c.process, `state-${c.process}`),
      el(
        "td",
        c.capture + (c.reasons.length ? ` (${c.reasons.join(", ")})` : ""),
        `state-${c.capture}`,
      ),
      el("td", c.condition, `state-${c.condition}`),
      el("td", c.committed.stdout),
      el("td", c.committed.stderr),
      el("td", c.startedAt),
    );
    body.append(row);
  }
}

// ---- one capture ----
async function showCapture(id) {
  stopTail();
  show("capture");
  clearError();
  $("matches").replaceChildren();
  const { condition, receipt } = await (await call(`${api}/captures/${id}`)).json();
  view = { id, stream: $("stream").value, offset: 0, nextOffset: 0, committed: 0, follow: null };
  const label = receipt.label ?? "capture";
  $("capture-title").textContent =
    `${label.length > 80 ? `${label.slice(0, 79)}…` : label} · ${id}`;
  renderStates(condition, receipt);
  $("receipt").textContent = JSON.stringify(receipt, null, 2);
  $("tail").disabled = condition !== "live";
  await page(0);
}

function renderStates(condition, receipt) {
  const p = $("capture-states");
  p.replaceChildren(
    el("span", `process: ${receipt.process.state}`, `state-${receipt.process.state}`),
    " · ",
    el("span", `capture: ${receipt.capture.state}`, `state-${receipt.capture.state}`),
    " · ",
    el("span", `condition: ${condition}`, `state-${condition}`),
    receipt.process.exitCode !== null ? ` · exit ${receipt.process.exitCode}` : "",
  );
}

function streamUrl(query) {
  return `${api}/captures/${view.id}/streams/${view.stream}${query}`;
}

async function load(query, note) {
  const response = await call(streamUrl(query));
  const text = await response.text();
  view.offset = Number(response.headers.get("spool-offset"));
  view.nextOffset = Number(response.headers.get("spool-next-offset"));
  view.committed = Number(response.headers.get("spool-committed"));
  $("viewer").textContent = text;
  const cut = response.headers.get("spool-cut") ? " (cut at the transfer limit)" : "";
  $("position").textContent = `bytes ${view.offset}–${view.nextOffset} of ${view.committed}${cut}`;
  $("view-note").textContent = note ?? "";
  $("prev").disabled = view.offset === 0;
  $("next").disabled = view.nextOffset >= view.committed;
}

function page(offset) {
  return load(`?offset=${Math.max(0, offset)}&length=${PAGE}`);
}

async function grep(pattern, ignoreCase) {
  const q = new URLSearchParams({ pattern, max: "200" });
  if (ignoreCase) q.set("i", "1");
  const result = await (await call(streamUrl(`/grep?${q}`))).json();
  const list = $("matches");
  list.replaceChildren();
  for (const m of result.matches) {
    const item = document.createElement("li");
    const jump = el("button", `${m.line}:${m.offset}: ${m.text}`);
    jump.type = "button";
    jump.addEventListener("click", () =>
      load(`?lines=${m.line}:${m.line + 49}`, `from line ${m.line}`).catch(fail),
    );
    item.append(jump);
    list.append(item);
  }
  const cut = result.cut ? ` (stopped: ${result.cut})` : "";
  $("view-note").textContent = `${result.matches.length} match(es)${cut}`;
}

// ---- live tail: Server-Sent Events read with fetch, so the token stays in a header ----
async function startTail() {
  stopTail();
  const controller = new AbortController();
  view.follow = controller;
  $("tail").setAttribute("aria-pressed", "true");
  $("tail-state").textContent = "following…";
  const viewer = $("viewer");
  viewer.textContent = "";
  const from = view.committed;
  const stream = view.stream;
  let offset = from;
  try {
    const response = await call(
      `${api}/captures/${view.id}/events?stream=${stream}&${stream}=${from}`,
      {
        signal: controller.signal,
      },
    );
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf("\n\n");
      while (end !== -1) {
        handleEvent(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf("\n\n");
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) fail(error);
  } finally {
    if (view && view.follow === controller) {
      view.follow = null;
      $("tail").setAttribute("aria-pressed", "false");
    }
  }

  function handleEvent(block) {
    let event = "message";
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    if (data === "") return; // a comment (the server's heartbeat): nothing to show
    const value = JSON.parse(data);
    if (event === "bytes" && value.stream === stream && value.offset === offset) {
      viewer.append(document.createTextNode(value.text ?? `[${value.base64.length} base64 chars]`));
      offset +=
        value.text !== undefined
          ? new TextEncoder().encode(value.text).length
          : atob(value.base64).length;
      viewer.scrollTop = viewer.scrollHeight;
      $("position").textContent = `following from byte ${from}, at ${offset}`;
    } else if (event === "state") {
      $("tail-state").textContent =
        `following… (${value.process}, ${value.committed[stream]} bytes committed)`;
    } else if (event === "receipt") {
      $("tail-state").textContent =
        `ended: process ${value.receipt.process.state}, capture ${value.receipt.capture.state}`;
      renderStates(value.condition, value.receipt);
      $("receipt").textContent = JSON.stringify(value.receipt, null, 2);
      $("tail").disabled = true;
    } else if (event === "cut") {
      $("tail-state").textContent = "stopped at the transfer limit";
    }
  }
}

function stopTail() {
  if (view?.follow) {
    view.follow.abort();
    view.follow = null;
    $("tail").setAttribute("aria-pressed", "false");
    $("tail-state").textContent = "";
  }
}

// ---- routing and wiring ----
function route() {
  if (!token()) return show("login");
  const m = /^#\/capture\/([A-Za-z0-9_-]{16,64})$/.exec(location.hash);
  (m ? showCapture(m[1]) : showList()).catch(fail);
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const value = $("token").value.trim();
  $("token").value = "";
  if (!value) return;
  sessionStorage.setItem(TOKEN_KEY, value);
  call(`${api}/captures`)
    .then(() => {
      $("login-error").textContent = "";
      route();
    })
    .catch((error) => {
      $("login-error").textContent = error.message;
    });
});
$("logout").addEventListener("click", () => {
  stopTail();
  sessionStorage.removeItem(TOKEN_KEY);
  location.hash = "#/";
  show("login");
});
$("refresh").addEventListener("click", () => showList().catch(fail));
$("stream").addEventListener("change", () => {
  if (!view) return;
  stopTail();
  view.stream = $("stream").value;
  page(0).catch(fail);
});
$("prev").addEventListener("click", () => page(view.offset - PAGE).catch(fail));
$("next").addEventListener("click", () => page(view.nextOffset).catch(fail));
$("lines-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const value = $("lines").value.trim();
  if (/^\d+:\d*$/.test(value)) load(`?lines=${value}`).catch(fail);
});
$("grep-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const pattern = $("pattern").value;
  if (pattern) grep(pattern, $("ignore-case").checked).catch(fail);
});
$("tail").addEventListener("click", () => {
  if (view?.follow) stopTail();
  else startTail();
});
document.addEventListener("keydown", (e) => {
  if (!view || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement)
    return;
  if (e.key === "n" && !$("next").disabled) page(view.nextOffset).catch(fail);
  if (e.key === "p" && !$("prev").disabled) page(view.offset - PAGE).catch(fail);
});
window.addEventListener("hashchange", route);
route();
