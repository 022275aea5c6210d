/**
 * The web view of `spool serve` in a real headless browser (Debian's chromium driven by
 * playwright-core): sign in with the keyboard, list, open, page, lines, grep, live tail of
 * a running job (heartbeat comments in between), and output holding `<script>` shown as
 * text and never run. A screenshot of each view goes to `.screens/serve/` (gitignored;
 * `SPOOL_SCREENSHOTS=DIR` elsewhere).
 *
 * Skipped, with the reason printed, only where chromium cannot run at all; under CI it
 * must run (.ci/run installs it), so there a launch failure fails the test.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Receipt } from "@spool/core";
import { createManualClock } from "@spool/core/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killGroups, nodeCmd, runJson, spool, tempRoot } from "./helpers.js";
import { type InProcessServer, serveInProcess } from "./serve-helpers.js";

const CHROMIUM = process.env.SPOOL_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS =
  process.env.SPOOL_SCREENSHOTS ?? fileURLToPath(new URL("../.screens/serve/", import.meta.url));
/** Polls of the page wait generously: a loaded machine can take seconds (the default is 1 s). */
const POLL = { timeout: 20_000 };
const leftovers: number[] = [];

// 2000 lines with markup in them; every 250th has a needle.
const OUTPUT = `let s = ""; for (let i = 1; i <= 2000; i++) s += "line " + i + " <script>window.__pwned = " + i + "</script> <img src=x onerror=\\"window.__pwned = 1\\"> &amp; é€" + (i % 250 === 0 ? " needle" : "") + "\\n"; process.stdout.write(s);`;
// A job that ticks 200 times, 50 ms apart, and ends.
const TICKER = `let i = 0; const t = setInterval(() => { i++; console.log("tick " + i + " <b>bold?</b>"); if (i === 200) { clearInterval(t); } }, 50);`;

describe("spool serve: the web view in headless chromium", () => {
  const root = tempRoot();
  let server: InProcessServer;
  let browser: Browser | null = null;
  let page: Page;
  let skipReason: string | null = null;
  const requested: string[] = [];
  let finalId = "";
  // Heartbeats of the live tail, sent when the test advances this clock.
  const clock = createManualClock(0);

  beforeAll(async () => {
    finalId = runJson(root, nodeCmd(OUTPUT)).receipt.captureId;
    server = await serveInProcess(root, { clock, heartbeatMs: 15_000 });
    try {
      if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed`);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      });
    } catch (error) {
      if (process.env.CI) throw error;
      skipReason = `chromium cannot run here: ${(error as Error).message.split("\n")[0]}`;
      console.warn(`serve-browser: skipped: ${skipReason}`);
      return;
    }
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on("request", (r) => requested.push(r.url()));
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
    killGroups(leftovers);
  });

  const shot = (name: string) =>
    page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  it("signs in with the keyboard and lists captures with their states; the token is in no URL", async (ctx) => {
    if (skipReason) return ctx.skip();
    await page.goto(server.url);
    await page.locator("#token").waitFor({ state: "visible" });
    await shot("0-login");
    await page.keyboard.type(server.rootToken);
    await page.keyboard.press("Enter");
    await page.locator("#captures tr").first().waitFor();
    await expect.poll(() => page.locator("#captures tr").count(), POLL).toBe(1);
    const row = await page.locator("#captures tr").first().textContent();
    expect(row).toContain(finalId);
    expect(row).toContain("exited");
    expect(row).toContain("complete");
    await shot("1-list");
    for (const url of requested) expect(url).not.toContain(server.rootToken.slice(11));
    expect(page.url()).not.toContain(server.rootToken.slice(11));
  });

  it("opens a capture by keyboard, shows its receipt, and output with <script> stays text", async (ctx) => {
    if (skipReason) return ctx.skip();
    await page.locator(`button[aria-label="open capture ${finalId}"]`).focus();
    await page.keyboard.press("Enter");
    await page.locator("#viewer").filter({ hasText: "line 1 " }).waitFor();
    const text = await page.locator("#viewer").textContent();
    expect(text).toContain(
      'line 1 <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 1"> &amp; é€',
    );
    expect(await page.locator("#viewer script, #viewer img, #matches script").count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(await page.locator("#capture-states").textContent()).toContain("process: exited");
    await page.locator("#receipt-box summary").click();
    expect(await page.locator("#receipt").textContent()).toContain(`"captureId": "${finalId}"`);
    expect(await page.locator("#receipt").textContent()).not.toContain(root);
    await shot("2-capture");
  });

  it("pages by range (buttons and the n/p keys) and by lines", async (ctx) => {
    if (skipReason) return ctx.skip();
    await page.locator("#next").click();
    await expect.poll(() => page.locator("#position").textContent(), POLL).toMatch(/^bytes 65536–/);
    await page.locator("#viewer").click();
    await page.keyboard.press("n");
    await expect
      .poll(() => page.locator("#position").textContent(), POLL)
      .toMatch(/^bytes 131072–/);
    await page.keyboard.press("p");
    await expect.poll(() => page.locator("#position").textContent(), POLL).toMatch(/^bytes 65536–/);
    await shot("3-page");
    await page.locator("#lines").fill("1500:1502");
    await page.locator("#lines").press("Enter");
    await expect
      .poll(async () => (await page.locator("#viewer").textContent())?.split("\n")[0], POLL)
      .toMatch(/^line 1500 /);
    expect((await page.locator("#viewer").textContent())?.trimEnd().split("\n")).toHaveLength(3);
  });

  it("greps, and a result opens its line", async (ctx) => {
    if (skipReason) return ctx.skip();
    await page.locator("#pattern").fill("needle");
    await page.locator("#pattern").press("Enter");
    await expect.poll(() => page.locator("#matches li").count(), POLL).toBe(8);
    expect(await page.locator("#matches li").first().textContent()).toMatch(
      /^250:\d+: line 250 <script>/,
    );
    await shot("4-grep");
    await page.locator("#matches li button").nth(1).click();
    await expect
      .poll(async () => (await page.locator("#viewer").textContent())?.split("\n")[0], POLL)
      .toMatch(/^line 500 /);
  });

  it("tails a running job live until it ends, then shows its final states", async (ctx) => {
    if (skipReason) return ctx.skip();
    const r = spool(["start", "--root", root, "--", ...nodeCmd(TICKER)]);
    expect(r.status, r.stderr).toBe(0);
    const job = JSON.parse(r.stdout.toString()) as Receipt;
    if (job.process.pid) leftovers.push(job.process.pid);
    await page.goto(`${server.url}/#/capture/${job.captureId}`);
    await page.locator("#tail:not([disabled])").waitFor();
    await page.locator("#tail").focus();
    await page.keyboard.press("Enter");
    await page.locator("#viewer").filter({ hasText: "tick " }).waitFor({ timeout: 20_000 });
    // Heartbeat comments in the middle of the follow: the tail shows nothing for them and
    // goes on (each advance sends one if the follow is waiting).
    for (let i = 0; i < 3; i++) {
      await expect.poll(() => clock.pending, { timeout: 20_000 }).toBe(1);
      clock.advance(15_000);
    }
    await shot("5-tail");
    await page.locator("#tail-state").filter({ hasText: "ended" }).waitFor({ timeout: 40_000 });
    const text = (await page.locator("#viewer").textContent()) ?? "";
    expect(text).toContain("tick 200 <b>bold?</b>");
    expect(await page.locator("#viewer b").count()).toBe(0);
    // Every tick from where the tail started, once each, in order.
    const ticks = [...text.matchAll(/tick (\d+) /g)].map((m) => Number(m[1]));
    expect(ticks.at(-1)).toBe(200);
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => 201 - ticks.length + i));
    expect(await page.locator("#capture-states").textContent()).toContain("capture: complete");
    await shot("6-tail-ended");
  });
});
