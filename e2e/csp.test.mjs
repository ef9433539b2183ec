// A strict Content-Security-Policy, as documentation sites that embed the element often send:
// the playground, its embedded view, the book and the docs page with the custom element, all
// served with it, load, compute, and load the Kubernetes module without a single violation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { session, ROOT, DIST } from "./harness.mjs";

const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";
const run = session("csp", DIST, { "content-security-policy": CSP });

/** Open `path` recording every CSP violation, console error and uncaught exception. */
async function open(path, ready) {
  const page = await run.chrome.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(`uncaught: ${e}`));
  page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && errors.push(`HTTP ${r.status()} ${r.url()}`));
  // Violations inside shadow roots bubble out (the event is composed).
  await page.addInitScript(() => {
    window.__violations = [];
    addEventListener(
      "securitypolicyviolation",
      (e) => window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
      true,
    );
  });
  const response = await page.goto(run.server.url + path);
  assert.equal(response.headers()["content-security-policy"], CSP, `${path} is served with the policy`);
  await page.waitForFunction(ready, null, { timeout: 20000 });
  return { page, errors };
}

/** Every violation and error the page met. */
async function troubles(page, errors) {
  return [...errors, ...(await page.evaluate(() => window.__violations))];
}

/** The policy is in force: an inline script the page adds does not run, and is reported. */
async function enforced(page) {
  const ran = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__inline = true";
    document.head.append(script);
    await new Promise((ok) => setTimeout(ok, 100));
    return window.__inline === true;
  });
  assert.equal(ran, false, "an inline script is refused under the policy");
  assert.match((await page.evaluate(() => window.__violations)).join("\n"), /script-src/);
}

test("no code is made from text anywhere in the page or the package", () => {
  const files = (dir, ext) =>
    readdirSync(dir, { recursive: true }).filter((f) => ext.some((e) => f.endsWith(e))).map((f) => join(dir, f));
  const sources = [...files(join(ROOT, "www"), [".rs", ".js", ".html"]), ...files(join(ROOT, "web", "js"), [".js"])];
  const found = sources.filter((f) => /new Function|Function::new|\beval\(/.test(readFileSync(f, "utf8")));
  assert.deepEqual(found, []);
});

test("the playground: loads, edits, and imports Kubernetes objects under the policy", async () => {
  const { page, errors } = await open("/", () => document.querySelector("#assignment tbody tr"));
  await page.fill('input[data-path="workload.replicas"]', "8");
  await page.waitForFunction(() => document.querySelector('#assignment tr[data-cluster="member1"] .replicas')?.textContent === "4");
  // The example manifests are fetched, and the Kubernetes module imported, by the page's module.
  await page.click("#tab-kubernetes");
  await page.selectOption("#k8s-preset", "static-weight");
  await page.waitForFunction(() => document.querySelector("#k8s-objects").value.includes("kind: PropagationPolicy"));
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-report");
  await page.waitForFunction(() => document.querySelector('#assignment tr[data-cluster="member3"] .replicas')?.textContent === "5");
  assert.deepEqual(await troubles(page, errors), []);
  await enforced(page);
  await page.close();
});

test("the embedded view under the policy", async () => {
  const { page, errors } = await open("/?embed#preset=story1-scale-up-7-to-8", () =>
    document.querySelector("#assignment tbody tr"));
  assert.deepEqual(await troubles(page, errors), []);
  await page.close();
});

test("the docs page: the iframe and the custom elements under the policy", async () => {
  const { page, errors } = await open("/docs.html", () =>
    [...document.querySelectorAll("allot-playground")].every((w) => w.shadowRoot?.querySelector("#assignment tbody tr")));
  await page.frameLocator("#embed-frame").locator("#assignment tbody tr").first().waitFor();
  // An edit inside an element.
  await page.locator("#by-preset").locator('input[data-path="workload.replicas"]').fill("8");
  await page.waitForFunction(() => document.querySelector("#by-preset").scenario.workload.replicas === 8);
  assert.deepEqual(await troubles(page, errors), []);
  await enforced(page);
  await page.close();
});

test("every book page under the policy: its scripts run and its examples render", async () => {
  // 404.html is written for the site's root (its links start at /), as a server serves it.
  const pages = readdirSync(join(DIST, "book")).filter((f) => f.endsWith(".html") && !["404.html", "print.html", "toc.html"].includes(f));
  assert.ok(pages.length >= 7, `${pages}`);
  for (const file of pages) {
    const { page, errors } = await open(`/book/${file}`, () =>
      // mdBook's scripts ran (the theme is set from a script), and every example rendered.
      document.documentElement.classList.contains("js") &&
      [...document.querySelectorAll("allot-playground")].every((w) =>
        // A fleet widget's clusters come from its Web Worker, which runs under the policy too.
        w.shadowRoot?.querySelector(w.hasAttribute("fleet") ? "#fleet-clusters li[data-cluster]" : "#assignment, #deploy, #error, .pipeline")));
    // The search opens (it adds its index as a script of the book's own).
    if (file === "division.html") {
      await page.keyboard.press("s");
      await page.waitForSelector("#mdbook-searchbar", { state: "visible" });
      await page.waitForTimeout(500);
    }
    assert.deepEqual(await troubles(page, errors), [], file);
    if (file === "division.html") await enforced(page);
    await page.close();
  }
});
