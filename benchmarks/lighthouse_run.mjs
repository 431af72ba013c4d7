// One Lighthouse run through its Node API, as `lighthouse URL --output=json ...` runs it (the
// default config: mobile, simulated throttling), for benchmarks/lighthouse.py. Unlike the
// command line it does not exit when a promise is left rejected: with Chromium 156 Lighthouse's
// own "Page.enable: Session closed" (a target it attached closing as the run ends) arrives
// after the audits and made the command line stop before or while writing the report. Such a
// rejection is said on stderr, the whole report is written, and the exit status is 3.
//
// node lighthouse_run.mjs NODE_MODULES URL OUTPUT CATEGORIES CHROME_FLAGS HEADERS_JSON
//                         MAX_WAIT_MS IGNORE_STATUS(0|1)
import fs from "node:fs";
import path from "node:path";
import {pathToFileURL} from "node:url";

const [modules, url, output, categories, chromeFlags, headers, maxWait, ignoreStatus] =
  process.argv.slice(2);
const load = (name, file) => import(pathToFileURL(path.join(modules, name, file)).href);
const {default: lighthouse} = await load("lighthouse", "core/index.js");
const launcher = await load("chrome-launcher", "dist/index.js");

const late = [];
process.on("unhandledRejection", (reason) => { late.push(String(reason)); });

const chrome = await launcher.launch({chromeFlags: chromeFlags.split(" ").filter(Boolean)});
let status = 0;
try {
  const result = await lighthouse(url, {
    port: chrome.port, output: "json", logLevel: "error",
    onlyCategories: categories.split(","),
    extraHeaders: JSON.parse(fs.readFileSync(headers, "utf8")),
    maxWaitForLoad: Number(maxWait), disableFullPageScreenshot: true,
    ignoreStatusCode: ignoreStatus === "1",
  });
  if (result) fs.writeFileSync(output, result.report);
  if (result?.lhr.runtimeError) status = 2;
} catch (error) {
  process.stderr.write(`Lighthouse failed: ${error}\n`);
  status = 1;
} finally {
  chrome.kill();
}
if (late.length && !status) {
  process.stderr.write(`After the run: ${late[late.length - 1]}\n`);
  status = 3;
}
process.exit(status);
