/**
 * Chromium for the web-view tests (Debian's `chromium` through playwright-core): launch
 * it headless, or say why it cannot run here (under CI it must: .ci/run installs it, and
 * a launch failure fails the test), sign in, and read what the virtualised viewer shows.
 */
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.SPOOL_CHROMIUM ?? "/usr/bin/chromium";
export const SHOTS =
  process.env.SPOOL_SCREENSHOTS ?? fileURLToPath(new URL("../.screens/serve/", import.meta.url));
/** Polls of the page wait generously: a loaded machine can take seconds (the default is 1 s). */
export const POLL = { timeout: 30_000 };

/** A browser, or why there is none (only outside CI). */
export async function launchChromium(): Promise<{ browser: Browser | null; skip: string | null }> {
  try {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed`);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling",
      ],
    });
    return { browser, skip: null };
  } catch (error) {
    if (process.env.CI) throw error;
    const skip = `chromium cannot run here: ${(error as Error).message.split("\n")[0]}`;
    console.warn(`browser test skipped: ${skip}`);
    return { browser: null, skip };
  }
}

/**
 * The browser and the page both web-view suites drive (1200×900, every request URL into
 * `requested`, the screenshot folder made), or why there is none.
 */
export async function openViewerPage(
  requested: string[],
): Promise<{ browser: Browser | null; page: Page | null; skip: string | null }> {
  const { browser, skip } = await launchChromium();
  if (!browser) return { browser, page: null, skip };
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("request", (r) => requested.push(r.url()));
  fs.mkdirSync(SHOTS, { recursive: true });
  return { browser, page, skip };
}

/** Sign in on the page at `url` with `token`, typed and submitted with the keyboard. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.locator("#token").waitFor({ state: "visible" });
  await page.locator("#token").focus();
  await page.keyboard.type(token);
  await page.keyboard.press("Enter");
  await page.locator("#list:not([hidden])").waitFor();
}

/** The rows the viewer shows now: line number (or label) and text, loaded ones only. */
export function shownRows(page: Page): Promise<{ n: number; label: string; text: string }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("#viewer .row:not([hidden])")]
      .filter((row) => !row.querySelector(".tx.loading"))
      .filter(
        (row) =>
          row.getBoundingClientRect().bottom <=
          (document.getElementById("viewer")?.getBoundingClientRect().bottom ?? 0) + 1,
      )
      .map((row) => ({
        n: Number(row.dataset.n),
        label: row.querySelector(".ln")?.textContent ?? "",
        text: row.querySelector(".tx")?.textContent ?? "",
      })),
  );
}

/** Every row on screen is loaded (no "…" placeholder). */
export function allLoaded(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.querySelectorAll("#viewer .row:not([hidden]) .tx.loading").length === 0,
  );
}

/** Three animation frames have passed: whatever a scroll or key scheduled is drawn. */
export function settled(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        ),
      ),
  );
}
