// The book (docs/book, built into dist/book): every page's live examples show what the core
// computes for their scenarios and follow an edit, no page logs an error, every rule section of
// docs/rules has a live example, and axe finds nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { session, serveUnderSubPath, screenshot, ROOT, DIST } from "./harness.mjs";
import { axe, expected, failure, readRows } from "./outcome.mjs";
import { fromYaml, planFleet } from "../web/pkg/fleet.node.js";

const BOOK = join(DIST, "book");
const SOURCES = join(ROOT, "docs", "book", "src");
/** The chapters, as mdBook writes them (index.html is the first chapter again). */
const PAGES = readdirSync(BOOK)
  .filter((f) => f.endsWith(".html") && !["404.html", "toc.html", "print.html"].includes(f))
  .sort();

const run = session("book");
const figures = run.figures;

/** Open a book page, recording its console errors and uncaught exceptions. */
async function open(file, width = 1280) {
  const page = await run.chrome.newPage({ viewport: { width, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${run.server.url}/book/${file}`);
  return { page, errors };
}

/** A scenario's widget (a fleet widget, `fleet="..."`, shows a fleet instead). */
const SCENARIO = "allot-playground:not([fleet])";

/** Every widget of the page has rendered its outcome (a table, or why it cannot schedule),
 * every fleet widget its clusters. */
const rendered = (page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll("allot-playground")].every((w) =>
      w.shadowRoot?.querySelector(w.hasAttribute("fleet") ? "#fleet-clusters li[data-cluster]" : "#assignment, #deploy, #error, .pipeline")),
  );

/** Each scenario widget's scenario as it is now (what its element reports). */
const scenarios = (page) =>
  page.$$eval(SCENARIO, (ws) => ws.map((w) => w.scenario));

/** Check each widget against the core: the same placement, or the same error. */
async function agree(page, file) {
  const docs = await scenarios(page);
  // Each widget by an id of its own: #w0, #w1, ...
  await page.$$eval(SCENARIO, (ws) => ws.forEach((w, i) => (w.id ||= `w${i}`)));
  for (const [i, doc] of docs.entries()) {
    assert.ok(doc, `${file} widget ${i}: no scenario reported`);
    const code = failure(doc);
    if (code === undefined) {
      assert.deepEqual(await page.evaluate(readRows, `#w${i}`), expected(doc), `${file} widget ${i}: ${doc.title}`);
    } else {
      const shown = await page.$eval(`#w${i}`, (w) => w.shadowRoot.querySelector("#error")?.dataset.code
        ?? (w.shadowRoot.querySelector(".pipeline") ? "pipeline" : null));
      assert.ok(shown === code || shown === "pipeline", `${file} widget ${i}: ${shown} for ${code}`);
    }
  }
  return docs;
}

test("the book has a page per chapter and the widget module is served beside it", () => {
  for (const chapter of ["introduction", "division", "estimators", "scheduler", "objects", "versions", "eru", "decisions"])
    assert.ok(PAGES.includes(`${chapter}.html`), `${chapter}.html in ${PAGES}`);
  const html = readFileSync(join(BOOK, "division.html"), "utf8");
  assert.match(html, /<script type="module" src="\.\.\/pkg\/element\.js"><\/script>/);
  assert.ok(readdirSync(join(DIST, "pkg")).includes("widget_bg.wasm"));
});

test("every book page: each widget shows the core's outcome, follows an edit, and nothing logs an error", async () => {
  let widgets = 0;
  for (const file of PAGES) {
    const { page, errors } = await open(file);
    await rendered(page);
    const docs = await agree(page, file);
    widgets += docs.length;
    // An edit: one more replica (or instance) in every widget that shows the field.
    for (const [i, doc] of docs.entries()) {
      const path = doc.nodes ? "workload.count" : "workload.replicas";
      const input = page.locator(`#w${i}`).locator(`input[data-path="${path}"]`).first();
      if ((await input.count()) === 0) continue;
      const now = doc.nodes ? doc.workload.count : (doc.workload.replicas ?? 0);
      await input.fill(String(now + 1));
      await page.waitForFunction(
        ([i, path, n]) => {
          const s = document.querySelectorAll("allot-playground:not([fleet])")[i].scenario;
          return path.split(".").reduce((v, k) => v?.[k], s) === n;
        },
        [i, path, now + 1],
      );
    }
    await rendered(page);
    await agree(page, file);
    assert.deepEqual(errors, [], `${file}: errors in the console`);
    await page.close();
  }
  figures.widgets = widgets;
  assert.ok(widgets >= 40, `${widgets} widgets`);
});

test("the fleet chapters: each fleet widget loads its example, and a deleted cluster's plan is the core's", async () => {
  const manifest = (id) => readFileSync(join(ROOT, "docs", "manifests", `${id}.yaml`), "utf8");
  for (const [file, ids] of [["cluster-fails.html", ["fleet-shop"]], ["policy-changes.html", ["fleet-policy", "fleet-burst"]], ["readiness.html", ["fleet-failover"]]]) {
    const { page, errors } = await open(file);
    await rendered(page);
    assert.deepEqual(await page.$$eval("allot-playground[fleet]", (ws) => ws.map((w) => w.getAttribute("fleet"))), ids);
    for (const [i, id] of ids.entries()) {
      const w = page.locator("allot-playground[fleet]").nth(i);
      const clusters = manifest(id).split(/^---$/m).map((d) => fromYaml(d)).filter((o) => o?.kind === "Cluster");
      assert.equal(await w.locator("#fleet-clusters li[data-cluster]").count(), clusters.length, `${file} ${id}`);
      const first = clusters[0].metadata.name;
      await w.locator(`[data-cluster="${first}"] button.delete`).click();
      await w.locator("#fleet-plan").waitFor();
      const plan = planFleet(manifest(id), {}, { deleteCluster: [first] });
      assert.equal(await w.locator("#fleet-summary").textContent(), plan.summary.said, `${file} ${id}`);
    }
    await screenshot(page, `book-${file.replace(".html", "")}`);
    assert.deepEqual(errors, [], `${file}: errors in the console`);
    await page.close();
  }
});

test("every rule section of docs/rules has a live example in the book", () => {
  // Each section of the rules is an mdBook anchor; a chapter includes it and a widget follows
  // before the next section (sections included back to back share the widget after them).
  const anchors = ["karmada", "eru"].flatMap((f) =>
    [...readFileSync(join(ROOT, "docs", "rules", `${f}.md`), "utf8").matchAll(/ANCHOR: (\S+) -->/g)].map((m) => m[1]),
  );
  assert.ok(anchors.length > 40, `${anchors.length} sections`);
  const illustrated = new Set();
  for (const f of readdirSync(SOURCES).filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(join(SOURCES, f), "utf8");
    const parts = text.split(/(\{\{#include [^}]+\}\})/);
    let waiting = [];
    for (const part of parts) {
      const m = part.match(/^\{\{#include [^:}]+:(\S+)\}\}$/);
      if (m) waiting.push(m[1]);
      else if (part.includes("<allot-playground")) {
        waiting.forEach((a) => illustrated.add(a));
        waiting = [];
      } else if (part.trim() !== "" && waiting.length && !waiting.every((a) => a.endsWith("-intro"))) {
        // Prose between sections is fine; a section must still get its example first.
        if (/\n#+ /.test(part)) assert.fail(`${f}: ${waiting.join(", ")} has no example before the next heading`);
      }
    }
  }
  const missing = anchors.filter((a) => !a.endsWith("-intro") && !illustrated.has(a));
  assert.deepEqual(missing, [], "rule sections without a live example");
});

test("the book: links to the playground and back, examples open in the playground", async () => {
  const { page } = await open("introduction.html");
  await rendered(page);
  // The book's link to the playground, relative, lands on the playground.
  const href = await page.$eval('main a[href="../"]', (a) => a.href);
  assert.equal(href, `${run.server.url}/`);
  const open_ = await page.$eval("allot-playground", (w) => w.shadowRoot.querySelector("#open").href);
  assert.ok(open_.startsWith(`${run.server.url}/#s=1.`), open_);
  const playground = await run.chrome.newPage();
  await playground.goto(open_);
  await playground.waitForSelector("#assignment");
  const doc = await page.$eval("allot-playground", (w) => w.scenario);
  assert.deepEqual(await playground.evaluate(readRows, null), expected(doc));
  // And the playground links to the book.
  const book = await playground.$eval('footer a[href="book/"]', (a) => a.href);
  assert.equal(book, `${run.server.url}/book/`);
  await playground.close();
  // The table of contents' button (a button in this book's template) opens and closes it.
  const shown = () => page.evaluate(() => document.documentElement.classList.contains("sidebar-visible"));
  const was = await shown();
  await page.click("#mdbook-sidebar-toggle");
  await page.waitForFunction((was) => document.documentElement.classList.contains("sidebar-visible") !== was, was);
  assert.equal(await page.getAttribute("#mdbook-sidebar-toggle", "aria-expanded"), String(!was));
  await page.close();
});

test("under a sub-path, the book's widgets load and its links stay inside it", async () => {
  const sub = await serveUnderSubPath();
  const page = await run.chrome.newPage();
  try {
    await page.goto(`${sub.url}/tools/book/division.html`);
    await rendered(page);
    assert.equal(await page.$eval('a[rel="prev"]', (a) => a.href), `${sub.url}/tools/book/introduction.html`);
    const open = await page.$eval("allot-playground", (w) => w.shadowRoot.querySelector("#open").href);
    assert.ok(open.startsWith(`${sub.url}/tools/#s=1.`), open);
  } finally {
    await page.close();
    await sub.close();
  }
});

test("the objects chapter: a widget's Kubernetes editor loads the playground's example manifests", async () => {
  const { page, errors } = await open("objects.html");
  await rendered(page);
  const w = page.locator("allot-playground").first();
  const example = await w.locator("#k8s-preset option").nth(1).getAttribute("value");
  await w.locator("#k8s-preset").selectOption(example);
  await page.waitForFunction(() =>
    document.querySelector("allot-playground").shadowRoot.querySelector("#k8s-objects").value.includes("kind: PropagationPolicy"));
  await w.locator("#k8s-import").click();
  await page.waitForFunction(() => document.querySelector("allot-playground").shadowRoot.querySelector("#k8s-report"));
  assert.deepEqual(await page.evaluate(readRows, "allot-playground"), expected(await page.$eval("allot-playground", (e) => e.scenario)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("a page with several widgets instantiates the module once", async () => {
  const { page } = await open("division.html");
  await rendered(page);
  const loads = await page.evaluate(() =>
    performance.getEntriesByType("resource").filter((r) => r.name.endsWith("widget_bg.wasm")).length);
  assert.equal(loads, 1);
  assert.ok((await page.$$("allot-playground")).length > 5);
  await page.close();
});

test("accessibility: axe finds nothing on a book page", async () => {
  const { page } = await open("scheduler.html");
  await rendered(page);
  assert.deepEqual(await axe(page), []);
  await page.close();
});

test("screenshots of every chapter, and the first widget's load time", async () => {
  const shots = PAGES.filter((f) => f !== "index.html").map((f) => [f, 1280]);
  for (const [file, width] of [...shots, ["division.html", 400]]) {
    const { page } = await open(file, width);
    await rendered(page);
    await screenshot(page, `book-${file.replace(".html", "")}${width === 400 ? "-400" : ""}`);
    await page.close();
  }
  // From navigation to the first widget's first editor being there to type in: median of 5.
  const times = [];
  for (let i = 0; i < 5; i++) {
    const { page } = await open("division.html");
    const t = await page.waitForFunction(() =>
      document.querySelector("allot-playground")?.shadowRoot?.querySelector("input[data-path]") && performance.now(),
    { polling: 5 });
    times.push(Math.round(await t.jsonValue()));
    await page.close();
  }
  times.sort((a, b) => a - b);
  figures.firstWidgetMs = { median: times[2], runs: times };
});
