// Opens the HTML player `vmdkit view` writes, from its file, in headless Chromium
// (playwright-core, the system's chromium), and watches it play: every request the page makes
// besides the file itself, every console error and page error, and the frame counter read
// twice, a second apart. Prints one JSON document; exit status 0 when the page made no request,
// logged no error and its counter advanced, 1 otherwise.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: node player.mjs FILE.html");
  process.exit(2);
}
const url = pathToFileURL(resolve(file)).href;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const result = { requests: [], errors: [], counters: [] };
try {
  const tab = await browser.newPage();
  tab.on("request", (r) => r.url() !== url && result.requests.push(r.url()));
  tab.on("console", (m) => m.type() === "error" && result.errors.push(`console: ${m.text()}`));
  tab.on("pageerror", (e) => result.errors.push(`page: ${e.message}`));
  await tab.goto(url);
  const counter = () => tab.evaluate(() => document.getElementById("frame")?.textContent ?? "");
  result.counters.push(await counter());
  await tab.waitForTimeout(1000);
  result.counters.push(await counter());
} catch (e) {
  result.errors.push(`run: ${e.message}`);
} finally {
  await browser.close();
}
const frame = (s) => Number.parseFloat(String(s).replace(/^\D*/, ""));
const [first, second] = result.counters.map(frame);
result.advanced = Number.isFinite(first) && Number.isFinite(second) && second > first;
console.log(JSON.stringify(result));
process.exit(result.requests.length === 0 && result.errors.length === 0 && result.advanced ? 0 : 1);
