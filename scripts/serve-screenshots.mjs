// The screenshots of docs/serve.md, made from real captures: `node scripts/serve-screenshots.mjs [DIR]`
// (default docs/serve/; needs `pnpm build` and Debian's chromium, or SPOOL_CHROMIUM=PATH).
// A private temporary root gets a failed build (200,000 lines, the error at the end), a
// coloured build kept with --keep-ansi, a passed run and a running job; `spool serve`
// serves it on loopback, and chromium takes: the list, the failed capture as it opens
// (at its end), the live job following, and a grep with highlights and context.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const SPOOL = path.join(REPO, "packages/cli/bin/spool.js");
const OUT = path.resolve(process.argv[2] ?? path.join(REPO, "docs/serve"));
const CHROMIUM = process.env.SPOOL_CHROMIUM ?? "/usr/bin/chromium";

const FAILING = `
const E = String.fromCharCode(27); let s = "";
for (let i = 1; i < 199990; i++) s += "[" + String(Math.floor(i / 2000)).padStart(3) + "%] compiling src/unit" + i + ".c\\n";
s += "src/parser.c:4812:17: " + E + "[1;31merror:" + E + "[0m 'token' undeclared (first use in this function)\\n";
s += " 4812 |     return token->next;\\n      |            ^~~~~\\n";
for (let i = 0; i < 6; i++) s += "src/parser.c:" + (4900 + i) + ":3: " + E + "[1;35mwarning:" + E + "[0m unused variable 'tmp" + i + "'\\n";
s += "make[2]: *** [Makefile:142: src/parser.o] Error 1\\nmake[1]: *** [Makefile:88: all] Error 2\\n" + E + "[31mBUILD FAILED" + E + "[0m in 4 min 12 s\\n";
process.stdout.write(s); process.exitCode = 3;`;

const PASSING = `let s = ""; for (let i = 1; i <= 5000; i++) s += "test " + i + " ... ok\\n"; s += "5000 passed\\n"; process.stdout.write(s);`;

const LIVE = (stop) => `
const fs = require("fs"); const E = String.fromCharCode(27); let i = 0;
const t = setInterval(() => {
  i++;
  const pct = String(Math.min(99, Math.floor(i / 3))).padStart(3);
  console.log("[" + pct + "%] " + E + "[32mBuilding C object" + E + "[0m src/module" + i + ".c.o");
  if (i % 9 === 0) console.log(E + "[33mnote:" + E + "[0m cache miss for src/module" + i + ".c");
  if (fs.existsSync(${JSON.stringify(stop)})) { clearInterval(t); }
}, 40);`;

function run(root, args) {
  const r = spawnSync(
    process.execPath,
    [SPOOL, ...args.slice(0, 1), "--root", root, ...args.slice(1)],
    {
      encoding: "utf8",
    },
  );
  if (r.status !== 0 && r.status !== 3) throw new Error(`spool ${args[0]}: ${r.stderr}`);
  return r.stdout;
}

function startServe(root) {
  const child = spawn(process.execPath, [SPOOL, "serve", "--root", root], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve({ child, url: JSON.parse(line).url });
    });
    child.once("exit", (code) => reject(new Error(`spool serve exited ${code}`)));
  });
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-shots-"));
  fs.chmodSync(root, 0o700);
  const stop = path.join(root, "stop-live-job");
  let serve = null;
  let browser = null;
  let job = null;
  try {
    run(root, [
      "run",
      "--json",
      "--label",
      "make test (passed)",
      "--",
      process.execPath,
      "-e",
      PASSING,
    ]);
    const failed = JSON.parse(
      run(root, [
        "run",
        "--json",
        "--keep-ansi",
        "--label",
        "make all",
        "--",
        process.execPath,
        "-e",
        FAILING,
      ]),
    );
    job = JSON.parse(
      run(root, [
        "start",
        "--keep-ansi",
        "--label",
        "make -j4 (running)",
        "--",
        process.execPath,
        "-e",
        LIVE(stop),
      ]),
    );
    serve = await startServe(root);
    const token = fs.readFileSync(path.join(root, "serve.token"), "utf8").trim();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    await page.goto(serve.url);
    await page.locator("#token").fill(token);
    await page.keyboard.press("Enter");
    await page.locator("#captures tr").nth(2).waitFor();
    fs.mkdirSync(OUT, { recursive: true });
    const shot = (name) => page.screenshot({ path: path.join(OUT, `${name}.png`) });
    await shot("list");

    await page.goto(`${serve.url}/#/capture/${failed.captureId}`);
    await page.locator("#viewer .row .tx", { hasText: "BUILD FAILED" }).waitFor();
    await shot("failed");

    await page.locator("#pattern").fill("error|warning");
    await page.locator("#pattern").press("Enter");
    await page.locator("#grep-count", { hasText: "match" }).waitFor();
    await page.locator("#matches .ctx.hit").first().waitFor();
    await page.waitForFunction(
      () => !document.querySelector("#matches .tx")?.textContent?.includes("…"),
    );
    await shot("grep");

    await page.goto(`${serve.url}/#/capture/${job.captureId}`);
    await page.locator("#viewer .row .tx", { hasText: "Building" }).first().waitFor();
    await page.waitForFunction(
      () => Number(document.getElementById("position").textContent.split(" of ")[1]) > 60,
    );
    await shot("live");
    console.log(`screenshots in ${OUT}: list.png failed.png grep.png live.png`);
  } finally {
    fs.writeFileSync(stop, "");
    await browser?.close();
    serve?.child.kill("SIGTERM");
    if (job)
      spawnSync(
        process.execPath,
        [SPOOL, "wait", job.captureId, "--root", root, "--timeout", "20s"],
        { stdio: "ignore" },
      );
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
