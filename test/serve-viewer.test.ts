/**
 * The web view as a log viewer (issue #30), in Debian's chromium through playwright-core:
 *
 * - a failed 200,000-line capture opens with its last line and number in view, `exit 3`
 *   in the failure colour, the tab's title and favicon saying "failed";
 * - `#L150000` opens there, `#L120-L140` highlights that range, a line number's click
 *   and "Copy link" make such links;
 * - a running job is followed without a click, past the server's transfer cap (64 KiB
 *   here: the follow reconnects), pauses when scrolled up and resumes by "Jump to end";
 * - a 1 GiB capture (`SPOOL_VIEWER_BYTES` for another size) scrolled end to end by the
 *   scrollbar, the wheel and the keys never blocks the main thread over 100 ms, measured
 *   in the page by the Long Tasks API;
 * - SGR colours render as colours, no raw ESC reaches the page, other escapes are shown;
 * - a binary stream opens in a hex view;
 * - stdout and stderr read together in the order the capture took them (its journal);
 * - the list sorts, filters, has an exit column and refreshes itself while a job runs.
 *
 * Jobs are paced by files the test creates (never by sleeping), and no assertion is on
 * time except the Long Tasks bound the issue asks for.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allLoaded,
  openViewerPage,
  POLL,
  SHOTS,
  settled,
  shownRows,
  signIn,
} from "./browser-kit.js";
import { PHASES } from "./fixtures/order-phases.js";
import { killGroups, nodeCmd, runJson, spool, tempRoot } from "./helpers.js";
import { type InProcessServer, rawGet, serveInProcess } from "./serve-helpers.js";

const BIG_BYTES = Number(process.env.SPOOL_VIEWER_BYTES ?? 1024 ** 3);
const FAIL_RED = "rgb(204, 34, 34)";
const leftovers: number[] = [];

/** 199,999 lines of build output, then the error; exit 3. */
const FAILING = `let s = ""; for (let i = 1; i < 200000; i++) s += "compiling unit " + i + " ok\\n"; s += "error: build failed at unit 200000\\n"; process.stdout.write(s); process.exitCode = 3;`;

/** Fixed 64-byte lines "L0000000001 xxx…" up to BYTES, written at full speed (with backpressure). */
const BIG_WRITER = (bytes: number) => `
const LINE = 64, PER = 16384, total = Math.floor(${bytes} / LINE);
let first = 1;
const next = () => {
  while (first <= total) {
    const n = Math.min(PER, total - first + 1);
    const buf = Buffer.alloc(n * LINE, "x");
    for (let i = 0; i < n; i++) {
      buf.write("L" + String(first + i).padStart(10, "0") + " ", i * LINE, "latin1");
      buf[i * LINE + LINE - 1] = 10;
    }
    first += n;
    if (!process.stdout.write(buf)) return process.stdout.once("drain", next);
  }
};
next();`;

/**
 * A job: ticks every 20 ms; once GO exists it writes a burst of 6,000 lines of 100 bytes
 * (600 KB, past a 64 KiB transfer cap many times over); once STOP exists it says "done"
 * and ends.
 */
const PACED = (go: string, stop: string) => `
const fs = require("fs"); let i = 0; let burst = false;
const t = setInterval(() => {
  i++;
  if (!burst && fs.existsSync(${JSON.stringify(go)})) {
    burst = true;
    let s = ""; for (let b = 1; b <= 6000; b++) s += ("burst " + b + " ").padEnd(99, "=") + "\\n";
    process.stdout.write(s);
  }
  if (fs.existsSync(${JSON.stringify(stop)})) { console.log("done after " + i + " ticks"); clearInterval(t); return; }
  console.log("tick " + i);
}, 20);`;

/** `\x1b[…m` colours and one escape that is not SGR (clear screen). */
const SGR = `const E = String.fromCharCode(27); let s = ""; for (let i = 1; i <= 3000; i++) s += E + "[31mred" + E + "[0m plain " + E + "[1;32mbold green" + E + "[0m " + E + "[38;5;208morange" + E + "[0m " + E + "[2J cleared? line " + i + "\\n"; process.stdout.write(s);`;

/** Bytes 0..255, 100 times over. */
const BINARY = `const b = Buffer.alloc(25600); for (let i = 0; i < b.length; i++) b[i] = i % 256; process.stdout.write(b);`;

describe("spool serve: the web view as a log viewer", () => {
  const root = tempRoot();
  const gates = tempRoot();
  let server: InProcessServer;
  let browser: Browser | null = null;
  let page: Page;
  let skipReason: string | null = null;
  const ids: Record<string, string> = {};
  const requested: string[] = [];

  beforeAll(async () => {
    ids.failing = runJson(root, nodeCmd(FAILING), ["--label", "failing build"]).receipt.captureId;
    ids.sgr = runJson(root, nodeCmd(SGR), ["--keep-ansi", "--label", "colours"]).receipt.captureId;
    ids.binary = runJson(root, nodeCmd(BINARY), [
      "--binary",
      "keep",
      "--label",
      "bytes",
    ]).receipt.captureId;
    server = await serveInProcess(root, { maxTransfer: 64 * 1024 });
    const opened = await openViewerPage(requested);
    browser = opened.browser;
    skipReason = opened.skip;
    if (!opened.page) return;
    page = opened.page;
    await signIn(page, server.url, server.rootToken);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    killGroups(leftovers);
    // The 1 GiB capture, and the rest.
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(gates, { recursive: true, force: true });
  });

  const open = async (hash: string) => {
    await page.goto(`${server.url}/${hash}`);
    await page.locator("#capture:not([hidden])").waitFor();
  };
  const colourOf = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((e) => getComputedStyle(e).color);

  it("opens a failed 200,000-line capture at its end, `exit 3` in the failure colour", async (ctx) => {
    if (skipReason) return ctx.skip();
    await open(`#/capture/${ids.failing}`);
    await expect.poll(async () => (await shownRows(page)).at(-1)?.n, POLL).toBe(200_000);
    const last = (await shownRows(page)).at(-1)!;
    expect(last).toMatchObject({ label: "200000", text: "error: build failed at unit 200000" });
    expect(await page.locator("#viewer .row:not([hidden]) .ln").last().isVisible()).toBe(true);
    expect(await page.locator("#capture-states .outcome").textContent()).toBe("failed: exit 3");
    expect(await colourOf("#capture-states .outcome")).toBe(FAIL_RED);
    expect(await page.title()).toMatch(/^✖ failed · failing build/);
    expect(await page.locator("#favicon").getAttribute("href")).toBe("/favicon-failed.svg");
    expect(await page.locator("#position").textContent()).toMatch(/ of 200000$/);
    await page.screenshot({ path: path.join(SHOTS, "viewer-failed.png") });
  });

  it("opens #L150000 there, highlights #L120-L140, and makes links from line numbers", async (ctx) => {
    if (skipReason) return ctx.skip();
    await open(`#/capture/${ids.failing}/stdout#L150000`);
    await expect
      .poll(async () => (await shownRows(page)).find((r) => r.n === 150_000)?.text, POLL)
      .toBe("compiling unit 150000 ok");
    expect(await page.locator('#viewer .row.hl[data-n="150000"]').count()).toBe(1);
    await open(`#/capture/${ids.failing}/stdout#L120-L140`);
    await expect.poll(() => page.locator("#viewer .row.hl:not([hidden])").count(), POLL).toBe(21);
    const lit = await page
      .locator("#viewer .row.hl")
      .evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.n)));
    expect(lit).toEqual(Array.from({ length: 21 }, (_, i) => 120 + i));
    await page.locator('#viewer .row[data-n="125"] .ln').click();
    await expect
      .poll(() => page.evaluate(() => location.hash), POLL)
      .toBe(`#/capture/${ids.failing}/stdout#L125`);
    await page.locator('#viewer .row[data-n="128"] .ln').click({ modifiers: ["Shift"] });
    expect(await page.evaluate(() => location.hash)).toBe(
      `#/capture/${ids.failing}/stdout#L125-L128`,
    );
    await page.locator("#copy-link").click();
    await expect
      .poll(() => page.locator("#link-out").inputValue(), POLL)
      .toBe(`${server.url}/#/capture/${ids.failing}/stdout#L125-L128`);
  });

  it("follows a running job without a click, past the transfer cap; pauses when scrolled up", async (ctx) => {
    if (skipReason) return ctx.skip();
    const go = path.join(gates, "go");
    const stop = path.join(gates, "stop");
    const r = spool([
      "start",
      "--root",
      root,
      "--label",
      "live job",
      "--",
      ...nodeCmd(PACED(go, stop)),
    ]);
    expect(r.status, r.stderr.toString()).toBe(0);
    const job = JSON.parse(r.stdout.toString()) as Receipt;
    if (job.process.pid) leftovers.push(job.process.pid);
    await open(`#/capture/${job.captureId}`);
    await expect
      .poll(async () => (await shownRows(page)).at(-1)?.text ?? "", POLL)
      .toMatch(/^tick \d+$/);
    expect(await page.title()).toMatch(/^● running · live job/);
    const before = requested.filter((u) => u.includes(`/${job.captureId}/events`)).length;
    fs.writeFileSync(go, "");
    // The burst (600 KB) arrives through a 64 KiB cap: the follow reconnects each time,
    // and the view stays at the end, on the ticks after the burst.
    const total = async () =>
      Number((await page.locator("#position").textContent())?.split(" of ")[1]);
    await expect.poll(total, POLL).toBeGreaterThan(6000);
    await expect
      .poll(async () => (await shownRows(page)).at(-1)?.text ?? "", POLL)
      .toMatch(/^tick \d+$/);
    const follows = requested.filter((u) => u.includes(`/${job.captureId}/events`)).length;
    expect(follows).toBeGreaterThanOrEqual(before + 9);
    await page.screenshot({ path: path.join(SHOTS, "viewer-live.png") });
    // Scrolled up: the follow pauses (the view stays put while lines keep coming).
    await page.locator("#viewer").focus();
    await page.keyboard.press("PageUp");
    await page.locator("#jump-end:not([hidden])").waitFor();
    await settled(page);
    const held = (await shownRows(page))[0]!.n;
    const reached = await total();
    await expect.poll(total, POLL).toBeGreaterThan(reached + 10);
    expect((await shownRows(page))[0]!.n).toBe(held);
    // Jump to end: following again, to the job's last line.
    await page.locator("#jump-end").click();
    fs.writeFileSync(stop, "");
    await page.locator("#follow-state").filter({ hasText: "ended" }).waitFor(POLL);
    await expect
      .poll(async () => (await shownRows(page)).at(-1)?.text ?? "", POLL)
      .toMatch(/^done after \d+ ticks$/);
    const rows = await shownRows(page);
    expect(rows.at(-1)!.n).toBe(await total());
    expect(await page.locator("#capture-states .outcome").textContent()).toBe("passed (exit 0)");
  }, 120_000);

  it("renders SGR colours, with no raw ESC and other escapes shown escaped", async (ctx) => {
    if (skipReason) return ctx.skip();
    await open(`#/capture/${ids.sgr}`);
    await expect.poll(async () => (await shownRows(page))[0]?.n, POLL).toBe(1);
    const row = page.locator('#viewer .row[data-n="1"] .tx');
    expect(await row.locator("span.f1").first().textContent()).toBe("red");
    expect(await colourOf('#viewer .row[data-n="1"] .tx span.f1')).toBe("rgb(205, 0, 0)");
    expect(await row.locator("span.f2.sgr-bold").textContent()).toBe("bold green");
    expect(await colourOf('#viewer .row[data-n="1"] .tx span.f2')).toBe("rgb(0, 160, 0)");
    const orange = row.locator("span", { hasText: "orange" });
    expect(await orange.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(255, 135, 0)");
    expect(await row.locator(".ctl").textContent()).toBe("^[[2J");
    const text = (await row.textContent()) ?? "";
    expect(text).toBe("red plain bold green orange ^[[2J cleared? line 1");
    expect(await page.evaluate(() => document.body.textContent?.includes("\u001b"))).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, "viewer-sgr.png") });
  });

  it("opens a binary stream in a hex view", async (ctx) => {
    if (skipReason) return ctx.skip();
    await open(`#/capture/${ids.binary}`);
    await expect.poll(async () => (await shownRows(page))[2]?.label, POLL).toBe("00000020");
    const rows = await shownRows(page);
    expect(rows[0]).toMatchObject({
      label: "00000000",
      text: "00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|",
    });
    expect(rows[2]!.text).toBe(
      "20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'()*+,-./|",
    );
    expect(await page.locator("#view").inputValue()).toBe("stdout.hex");
    expect(await page.locator("#position").textContent()).toMatch(/ of 1600$/);
  });

  it("shows stdout and stderr together in the order they were written, stderr marked", async (ctx) => {
    if (skipReason) return ctx.skip();
    const own = tempRoot(); // one capture, so the child finds its own files
    const id = runJson(own, nodeCmd(PHASES(own))).receipt.captureId;
    const local = await serveInProcess(own);
    try {
      const order = JSON.parse(
        (
          await rawGet(local.url, `/api/v1/captures/${id}/order`, {
            authorization: `Bearer ${local.rootToken}`,
          })
        ).body.toString(),
      ) as { switches: [number, number][] };
      expect(order.switches).toEqual([
        [0, 0],
        [1, 0],
        [0, 80_000],
      ]);
      await signIn(page, local.url, local.rootToken);
      await page.goto(`${local.url}/#/capture/${id}/combined#L398`);
      await expect
        .poll(async () => (await shownRows(page)).some((r) => r.n === 410), POLL)
        .toBe(true);
      const rows = (await shownRows(page)).filter((r) => r.n >= 399);
      expect(rows.map((r) => r.label)).toEqual([
        "out 399",
        "out 400",
        "err 1",
        "err 2",
        "err 3",
        "err 4",
        "err 5",
        "out 401",
        "out 402",
        "out 403",
        "out 404",
        "out 405",
      ]);
      expect(rows[2]!.text).toBe("err 1 failed");
      expect(await page.locator('#viewer .row.err[data-n="401"]').count()).toBe(1);
      expect(await page.locator('#viewer .row.err[data-n="400"]').count()).toBe(0);
      expect(await page.locator("#position").textContent()).toMatch(/ of 410$/);
    } finally {
      await local.close();
      // Back on the first server's origin, whose tab session still holds its token.
      await page.goto(`${server.url}/#/`);
    }
  });

  it("lists captures sortable and filterable, with an exit column, refreshed while a job runs", async (ctx) => {
    if (skipReason) return ctx.skip();
    const stop = path.join(gates, "stop-list");
    const r = spool([
      "start",
      "--root",
      root,
      "--label",
      "list job",
      "--",
      ...nodeCmd(PACED(path.join(gates, "never"), stop)),
    ]);
    expect(r.status, r.stderr.toString()).toBe(0);
    const job = JSON.parse(r.stdout.toString()) as Receipt;
    if (job.process.pid) leftovers.push(job.process.pid);
    await page.goto(`${server.url}/#/`);
    await page.locator("#refresh").click(); // the job started after the list was drawn
    const rowOf = (id: string) => page.locator("#captures tr", { hasText: id });
    await expect
      .poll(() => rowOf(job.captureId).locator("td.state").textContent(), POLL)
      .toBe("running");
    expect(await page.locator("#list-refresh-note").textContent()).toContain("refreshing");
    const failing = rowOf(ids.failing);
    expect(await failing.locator("td.state").textContent()).toBe("failed: exit 3");
    expect(await failing.locator("td.exit").textContent()).toBe("3");
    expect(await colourOf(`#captures tr:has-text("${ids.failing}") td.state`)).toBe(FAIL_RED);
    await page.locator("#filter-state").selectOption("failed");
    await expect.poll(() => page.locator("#captures tr").count(), POLL).toBe(1);
    await page.locator("#filter-state").selectOption("all");
    await page.locator("#filter-text").fill("colours");
    await expect.poll(() => page.locator("#captures tr").count(), POLL).toBe(1);
    expect(await page.locator("#captures tr td").nth(1).textContent()).toBe("colours");
    await page.locator("#filter-text").fill("");
    await page.locator("#list-head button", { hasText: "exit" }).click();
    await page.locator("#list-head button", { hasText: "exit" }).click();
    expect(await page.locator("#captures tr td.exit").first().textContent()).toBe("3");
    expect(await page.locator('#list-head th[aria-sort="descending"]').textContent()).toBe("exit");
    await page.screenshot({ path: path.join(SHOTS, "viewer-list.png") });
    // The job ends: the list shows it without a click.
    fs.writeFileSync(stop, "");
    await expect
      .poll(() => rowOf(job.captureId).locator("td.state").textContent(), POLL)
      .toBe("passed (exit 0)");
  }, 60_000);

  it(`scrolls a ${BIG_BYTES} B capture end to end without a main-thread task over 100 ms`, async (ctx) => {
    if (skipReason) return ctx.skip();
    const big = runJson(root, nodeCmd(BIG_WRITER(BIG_BYTES)), [
      "--no-redact",
      "--max-bytes",
      "2GiB",
      "--root-quota",
      "4GiB",
      "--label",
      "big",
    ]);
    expect(big.receipt.streams.stdout.committed).toBe(Math.floor(BIG_BYTES / 64) * 64);
    const lines = Math.floor(BIG_BYTES / 64);
    await open(`#/capture/${big.receipt.captureId}`);
    await expect
      .poll(async () => (await shownRows(page))[0]?.text, POLL)
      .toBe(`L0000000001 ${"x".repeat(51)}`);
    expect(
      await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes("longtask")),
    ).toBe(true);
    await page.evaluate(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      }).observe({ type: "longtask" });
    });
    const check = async () => {
      await settled(page);
      await expect.poll(() => allLoaded(page), POLL).toBe(true);
      for (const row of await shownRows(page)) {
        expect(row.text.slice(0, 11)).toBe(`L${String(row.n).padStart(10, "0")}`);
      }
    };
    // One pass: the scrollbar end to end in 40 steps, then the wheel and the keys from
    // the top. The long tasks of each pass are kept. A task the machine's load stretched
    // (other processes on two cores deschedule chromium) does not come back in the next
    // pass; a block of the page's own does, in every pass: so the bound must hold in one
    // of three passes, and every pass's tasks are printed.
    const pass = async () => {
      await page.evaluate(() => {
        (window as unknown as { __long: number[] }).__long = [];
      });
      for (let step = 1; step <= 40; step++) {
        await page.evaluate((f) => {
          const v = document.getElementById("viewer")!;
          v.scrollTop = f * (v.scrollHeight - v.clientHeight);
        }, step / 40);
        await check();
      }
      expect((await shownRows(page)).at(-1)?.n).toBe(lines);
      await page.locator("#viewer").focus();
      await page.keyboard.press("Home");
      await check();
      await page.locator("#viewer").hover();
      for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
      await check();
      expect((await shownRows(page))[0]!.n).toBeGreaterThan(1);
      for (let i = 0; i < 10; i++) await page.keyboard.press("PageDown");
      await check();
      await page.keyboard.press("End");
      await check();
      expect((await shownRows(page)).at(-1)?.n).toBe(lines);
      await page.keyboard.press("Home");
      await check();
      return page.evaluate(() => (window as unknown as { __long: number[] }).__long);
    };
    const passes: number[][] = [];
    for (let i = 0; i < 3; i++) {
      passes.push(await pass());
      if (passes.at(-1)!.every((ms) => ms <= 100)) break;
    }
    console.log(
      `serve-viewer: ${lines} lines; long tasks (ms) in each pass: ${JSON.stringify(passes)}`,
    );
    expect(passes.at(-1)!.filter((ms) => ms > 100)).toEqual([]);
  }, 300_000);
});
