// The playground as a user sees it: presets, live edits, rescheduling, links, embedding. Every
// number the page shows is checked against the npm package's `schedule` (the same core).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync, gzipSync } from "node:zlib";
import { session, serveUnderSubPath, screenshot, ROOT, DIST } from "./harness.mjs";
import { axe, expected, failure, readRows } from "./outcome.mjs";

const EXAMPLES = join(ROOT, "docs", "examples");
const presets = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(EXAMPLES, f), "utf8"))]);
const DEFAULT = presets.find(([id]) => id === "divide-7-replicas-2-1-1")[1];

const run = session("playground");
const figures = run.figures;
const pageErrors = [];

async function open(path, ready = "#assignment, #deploy") {
  const page = await run.chrome.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(run.server.url + path);
  await page.waitForSelector(ready);
  return page;
}

/** What the page shows: target name -> replicas (Karmada) or new instances (eru). */
const shown = (page) => page.evaluate(readRows, null);

/** A preset whose story is a scheduling failure. */
const failing = (scenario) => failure(scenario) !== undefined;

const link = (scenario) =>
  "#s=1." + deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString("base64url");

const field = (path) => `:is(input,select,textarea)[data-path="${path}"]`;

/** Open a section's "more" fields (the workload's or the policy's), as a reader does. */
const unfold = (page, section) =>
  page.click(`section.editor[data-section="${section}"] details.more:not([open]) > summary`);

test("every preset shows the core's assignment", async () => {
  const page = await open("/");
  for (const [id, scenario] of presets) {
    if (failing(scenario)) continue;
    await page.selectOption("#preset", id);
    await page.waitForFunction((t) => document.querySelector(".outcome h2")?.textContent === t, scenario.title);
    const want = expected(scenario);
    await page.waitForFunction(
      (n) => document.querySelectorAll("#assignment tbody tr, #deploy tbody tr").length === n,
      Object.keys(want).length,
    );
    assert.deepEqual(await shown(page), want, id);
    if (["story1-scale-up-7-to-8", "kep521-story2-node-selector", "eru-cpu-binding"].includes(id))
      await screenshot(page, `preset-${id}`);
  }
  await page.close();
});

test("a preset link loads that preset, and a wrong one says so", async () => {
  const page = await open("/#preset=story4-add-cluster");
  assert.deepEqual(await shown(page), expected(presets.find(([id]) => id === "story4-add-cluster")[1]));
  await page.goto(run.server.url + "/#preset=nope");
  await page.reload();
  await page.waitForSelector("#notice");
  assert.match(await page.textContent("#notice"), /no preset named “nope”/);
  await page.close();
});

test("editing a weight updates the assignment at once", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.fill(field("clusters[0].weight"), "5");
  const want = expected({ ...DEFAULT, clusters: [{ name: "member1", weight: 5 }, ...DEFAULT.clusters.slice(1)] });
  await page.waitForFunction((w) => document.querySelector('[data-cluster="member1"] .replicas')?.textContent === w,
    want.member1);
  assert.deepEqual(await shown(page), want);
  await screenshot(page, "edited-weight");
  await page.close();
});

test("an invalid value shows its error next to the field, and the page recovers", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.fill(field("clusters[1].weight"), "x");
  await page.waitForSelector('.problem[data-path="clusters[1].weight"]');
  assert.equal(await page.getAttribute("#error", "data-path"), "clusters[1].weight");
  assert.equal(await page.getAttribute(field("clusters[1].weight"), "aria-invalid"), "true");
  await unfold(page, "workload");
  await page.fill(field("workload.requests"), "cpu=lots");
  await page.fill(field("clusters[1].weight"), "1");
  await page.waitForSelector('#error[data-code="invalid_quantity"]');
  // Meanwhile the last valid outcome stays in view, marked as such.
  await page.waitForSelector(".results.stale #assignment");
  await screenshot(page, "error-next-to-field");
  await page.fill(field("workload.requests"), "");
  await page.waitForSelector(".results:not(.stale) #assignment");
  assert.equal(await page.$("#error"), null);
  assert.deepEqual(await shown(page), expected(DEFAULT));
  await page.close();
});

test("the JSON tab edits the whole scenario; a value no menu offers shows as it is", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.click("#tab-json");
  const doc = JSON.parse(await page.inputValue("#scenario-json"));
  doc.policy.method = "evenly";
  await page.fill("#scenario-json", JSON.stringify(doc, null, 2));
  await page.waitForSelector('#error[data-path="policy.method"]');
  // Half-typed JSON stays as typed, with where it stops being JSON.
  await page.fill("#scenario-json", '{"version": 1, "clusters": [');
  await page.waitForSelector('.json .problem[data-code="invalid_json"]');
  await page.click("#tab-form");
  await page.waitForSelector("#draft-notice");
  assert.equal(await page.inputValue(field("policy.method")), "evenly");
  assert.match(await page.textContent(`.problem[data-path="policy.method"]`), /evenly/);
  await page.selectOption(field("policy.method"), "remainder");
  await page.waitForSelector(".results:not(.stale) #assignment");
  assert.deepEqual(await shown(page), expected({ ...DEFAULT, policy: { ...DEFAULT.policy, method: "remainder" },
    seed: Number(await page.getAttribute("#seed", "data-seed")) }));
  await page.close();
});

test("resource models: a grades table, and a broken rule shown in its cell", async () => {
  const page = await open("/#preset=resource-models-3c-20gi");
  await page.click('#clusters tr[data-row="0"] button.more');
  // Without models, Karmada's default grades apply (its webhook sets them), as the hint says.
  assert.match(await page.textContent(".models .hint"), /Karmada's 9 default grades apply/);
  await page.click("text=use Karmada's default models");
  const min = field("clusters[0].resourceModels[0].ranges[0].min");
  await page.waitForSelector(min);
  assert.ok((await page.$$(".models tbody tr")).length >= 9);
  // Grade 0's cpu range is 0 … 1: a min of 5 empties it, and the cell of its max says so.
  await page.fill(min, "5");
  const at = `.problem[data-path="clusters[0].resourceModels[0].ranges[0].max"]`;
  await page.waitForSelector(at);
  assert.equal(await page.getAttribute("#error", "data-code"), "invalid_model");
  assert.match(await page.textContent(at), /grade 0, resource cpu: max must be greater than min/);
  await screenshot(page, "resource-model-error");
  await page.fill(min, "0");
  await page.waitForSelector(".results:not(.stale) #assignment");
  // The resource-modeling gate is on unless the scenario says otherwise; turning it off
  // writes `false` and the estimates come from the summaries alone.
  const gate = field("policy.gates.customizedClusterResourceModeling");
  await unfold(page, "policy");
  assert.equal(await page.isChecked(gate), true);
  const before = await shown(page);
  await page.uncheck(gate);
  await page.click("#tab-json");
  const doc = JSON.parse(await page.inputValue("#scenario-json"));
  assert.equal(doc.policy.gates.customizedClusterResourceModeling, false);
  await page.click("#tab-form");
  await page.waitForFunction((b) => JSON.stringify(b) !== JSON.stringify(
    Object.fromEntries([...document.querySelectorAll("#assignment tbody tr")].map((r) =>
      [r.dataset.cluster, r.querySelector(".replicas").textContent]))), before);
  assert.deepEqual(await shown(page), expected(doc));
  await page.close();
});

test("keyboard: tab through a row and type", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.focus(field("clusters[0].name"));
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), "clusters[0].weight");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("6");
  await page.waitForFunction(() => document.querySelector('[data-cluster="member1"] .replicas')?.textContent === "5");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), "clusters[0].availableReplicas");
  await page.close();
});

test("apply as current, then scale: the diff shows what grew and the rest stays", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const first = await shown(page);
  await page.click("#apply");
  await page.waitForFunction(() => document.querySelector('[data-cluster="member1"] .previous')?.textContent === "3");
  const previous = await page.$$eval("#assignment tbody tr", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, r.querySelector(".previous").textContent])));
  assert.deepEqual(previous, first);
  await page.fill(field("workload.replicas"), "8");
  const scenario = { ...DEFAULT, workload: { replicas: 8 }, previous: Object.fromEntries(
    Object.entries(first).map(([k, v]) => [k, Number(v)])) };
  const want = expected(scenario);
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "8");
  assert.deepEqual(await shown(page), want);
  const changes = await page.$$eval("#assignment tbody tr", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, r.querySelector(".change").title])));
  for (const [name, n] of Object.entries(want)) {
    const word = Number(n) > Number(first[name]) ? "grew" : Number(n) < Number(first[name]) ? "shrank" : "unchanged";
    assert.equal(changes[name], word, name);
  }
  assert.equal(Object.values(changes).filter((c) => c === "grew").length, 1);
  await screenshot(page, "apply-then-scale");
  await page.close();
});

test("seed: re-roll draws another, pin keeps it in the scenario", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const seed = await page.getAttribute("#seed", "data-seed");
  await page.click("#reroll");
  await page.waitForFunction((s) => document.querySelector("#seed").dataset.seed !== s, seed);
  await page.click("#pin");
  await page.waitForFunction(() => document.querySelector("#seed").dataset.drawn === "false");
  await page.click("#tab-json");
  const doc = JSON.parse(await page.inputValue("#scenario-json"));
  assert.equal(String(doc.seed), await page.getAttribute("#seed", "data-seed"));
  await page.close();
});

test("a share link round-trips the edited scenario; autosave keeps edits over a reload", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.fill(field("clusters[2].weight"), "4");
  await page.fill(field("workload.replicas"), "11");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "11");
  const before = await shown(page);
  await page.click("#share");
  const url = await page.inputValue("#share-link");
  assert.match(url, /#s=1\./);
  const other = await open(url.slice(url.indexOf("/", 8)));
  assert.deepEqual(await shown(other), before);
  assert.equal(await other.inputValue(field("clusters[2].weight")), "4");
  await other.close();
  // Autosave: the same page reloaded without a fragment shows the edits.
  await page.goto(run.server.url + "/");
  await page.waitForSelector("#assignment");
  assert.deepEqual(await shown(page), before);
  // An outside link made the way the docs describe (raw DEFLATE, base64url) loads too.
  const eru = presets.find(([id]) => id === "eru-fill")[1];
  await page.goto(run.server.url + "/" + link(eru));
  await page.reload();
  await page.waitForSelector("#deploy");
  assert.deepEqual(await shown(page), expected(eru));
  await page.close();
});

test("after Share link, further edits survive a reload, and the share box follows the scenario", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.fill(field("workload.replicas"), "5");
  await page.click("#share");
  assert.match(page.url(), /#s=1\./);
  await page.fill(field("workload.replicas"), "6");
  await page.fill(field("clusters[0].weight"), "3");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "6");
  await page.waitForFunction(() => !location.hash.startsWith("#s="));
  assert.equal(await page.locator("#share-link").count(), 0, "the old link is not shown for a new scenario");
  await page.waitForFunction(() => {
    const saved = JSON.parse(localStorage.getItem("allot.playground.scenario.v1") ?? "{}");
    return saved.workload?.replicas === 6 && saved.clusters?.[0]?.weight === 3;
  });
  await page.reload();
  await page.waitForSelector("#assignment");
  assert.equal(await page.inputValue(field("workload.replicas")), "6");
  assert.equal(await page.inputValue(field("clusters[0].weight")), "3");
  // A preset after sharing: the box goes too.
  await page.click("#share");
  await page.waitForSelector("#share-link");
  await page.selectOption("#preset", "story4-add-cluster");
  await page.waitForFunction(() => !document.querySelector("#share-link"));
  await page.close();
});

test("a share link pins the seed in effect: every tab opening it sees what its sender saw", async () => {
  const names = "abcdefghij".split("");
  const scenario = { version: 1, workload: { replicas: 5 }, policy: { method: "remainder" },
    clusters: names.map((name) => ({ name })) };
  const page = await open("/" + link(scenario));
  const sent = await shown(page);
  await page.click("#share");
  const url = await page.inputValue("#share-link");
  const seen = [];
  for (let i = 0; i < 4; i++) {
    const other = await open(url.slice(url.indexOf("/", 8)));
    seen.push(await shown(other));
    await other.close();
  }
  assert.deepEqual(seen, [sent, sent, sent, sent]);
  await page.close();
});

test("export writes the scenario file; import reads one back, and refuses what is not JSON", async () => {
  const page = await open("/#preset=story4-add-cluster");
  await page.fill(field("workload.replicas"), "6");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  assert.equal(download.suggestedFilename(), "scenario.json");
  const exported = JSON.parse(readFileSync(await download.path(), "utf8"));
  assert.equal(exported.workload.replicas, 6);
  assert.deepEqual(exported.clusters, presets.find(([id]) => id === "story4-add-cluster")[1].clusters);
  await page.selectOption("#preset", "eru-fill");
  await page.waitForSelector("#deploy");
  await page.setInputFiles("#import", { name: "scenario.json", mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(exported)) });
  await page.waitForSelector("#assignment");
  assert.deepEqual(await shown(page), expected(exported));
  await page.setInputFiles("#import", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await page.waitForSelector("#notice");
  assert.match(await page.textContent("#notice"), /notes\.txt is not JSON/);
  assert.deepEqual(await shown(page), expected(exported));
  await page.close();
});

test("a corrupted or foreign link shows a message and the default scenario", async () => {
  for (const fragment of ["#s=1.AAAAbroken", "#s=0.abc", link({ version: 2 })]) {
    const page = await run.chrome.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(run.server.url + "/" + fragment);
    await page.waitForSelector("#notice");
    await page.waitForSelector("#assignment");
    assert.deepEqual(await shown(page), expected(DEFAULT), fragment);
    assert.match(await page.textContent("#notice"), /link/);
    if (fragment.includes("broken")) await screenshot(page, "corrupted-link");
    await page.close();
  }
});

test("compare and evenness: three methods side by side; tied clusters share the remainder inside the band of a fair draw", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.click("#tab-compare");
  await page.waitForSelector("#compare");
  const col = (name) => page.$$eval(`#compare tbody td[data-column="${name}"]`, (t) => t.map((c) => c.textContent));
  const o = (method) => expected({ ...DEFAULT, policy: { method }, seed: 0 });
  assert.deepEqual(await col("webster"), Object.values(o("webster")));
  assert.deepEqual(await col("name-order"), Object.values(o("name-order")));
  await screenshot(page, "compare");
  await page.click("#tab-evenness");
  await page.waitForSelector('#evenness-status[data-done="true"]', { timeout: 30000 });
  const rows = () => page.$$eval("#evenness tbody tr", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, { ...r.dataset, share: r.querySelector("svg text").textContent,
      won: Number(r.querySelector("td:nth-child(3)").textContent) }])));
  let rem = await rows();
  // member1's remainder replica is its weight's: left out of the chart, and said so.
  assert.deepEqual(Object.keys(rem), ["member2", "member3"]);
  assert.match(await page.textContent("#evenness-left"), /member1 \(by weight alone\)/);
  assert.equal(rem.member2.won + rem.member3.won, 1000);
  for (const m of ["member2", "member3"]) {
    assert.equal(rem[m].fair, "0.5000");
    assert.equal(rem[m].outside, "false", `${m} inside the 99% band of a fair draw`);
    // Shares are rounded to a tenth of a percent, not truncated (499 of 1000 is 49.9%).
    assert.equal(rem[m].share, `${(rem[m].won / 10).toFixed(1)}%`);
  }
  // Name order: member2 wins every tie, far outside the band.
  await page.selectOption("#evenness-method", "name-order");
  await page.waitForFunction(() => document.querySelector('#evenness [data-cluster="member2"]')?.dataset.outside === "true"
    && document.querySelector('#evenness-status[data-done="true"]'));
  rem = await rows();
  assert.equal(rem.member2.share, "100.0%");
  await screenshot(page, "evenness-name-order");
  await page.selectOption("#evenness-method", "remainder");
  await page.waitForFunction(() => document.querySelector('#evenness [data-cluster="member2"]')?.dataset.outside === "false"
    && document.querySelector('#evenness-status[data-done="true"]'));
  await screenshot(page, "evenness");
  await page.click("#tab-markdown");
  const md = await page.inputValue("#markdown");
  assert.match(md, /\| member1 \| 0 \| 3 \| grew \|/);
  await page.close();
});

test("evenness with a previous placement: inertia's clusters are named, only the ties a draw decides are judged", async () => {
  // Floor shares 1 each, 2 left over: member1 gets one by its previous replicas, member2 and
  // member3 tie for the other, member4 (none before) comes last by its previous replicas.
  const page = await open("/" + link({
    version: 1, clusters: ["member1", "member2", "member3", "member4"].map((name) => ({ name })),
    workload: { replicas: 6 }, policy: { method: "remainder" }, previous: { member1: 2, member2: 1, member3: 1 },
  }));
  await page.click("#tab-evenness");
  await page.waitForSelector('#evenness-status[data-done="true"]', { timeout: 30000 });
  const rows = await page.$$eval("#evenness tbody tr", (rows) => rows.map((r) =>
    [r.dataset.cluster, Number(r.querySelector("td:nth-child(2)").textContent), Number(r.querySelector("td:nth-child(3)").textContent)]));
  assert.deepEqual(rows.map(([name]) => name), ["member2", "member3"], "only the clusters a random tie decided");
  assert.equal(rows[0][1], 1000);
  assert.equal(rows[0][2] + rows[1][2], 1000);
  const left = await page.textContent("#evenness-left");
  assert.match(left, /member1 \(kept by inertia in 1000 of 1000 runs\)/);
  assert.match(left, /member4 \(behind by inertia in 1000 runs\)/);
  assert.match(await page.textContent("#evenness-status"), /a random choice decided 1000 of them/);
  assert.equal(await page.$$eval("#evenness rect.outside", (r) => r.length), 0);
  await page.close();
});

test("1000 clusters: an edit updates the assignment within a frame", async () => {
  const page = await open("/#preset=large-1000-clusters");
  // A thousand rows show a hundred at a time; the total covers all of them.
  assert.equal(await page.$$eval("#assignment tbody tr", (r) => r.length), 100);
  assert.equal(await page.textContent(".replicas-total"), "5000");
  await page.click(".outcome .pager .next");
  await page.waitForSelector('#assignment tr[data-cluster="member0101"]');
  assert.match(await page.textContent(".outcome .pager"), /101–200 of 1000/);
  // Edit -> assignment updated (a MutationObserver sees the new total), and edit -> the
  // next frame painted. Figures, not assertions: timing belongs in benchmarks, and the numbers
  // depend on the machine; they are written to target/playground-figures.json.
  const times = await page.evaluate(async () => {
    const input = document.querySelector('[data-path="workload.replicas"]');
    const out = [];
    for (let i = 0; i < 15; i++) {
      const want = String(5000 + i + 1);
      const cell = document.querySelector(".replicas-total");
      const t0 = performance.now();
      let updated;
      const seen = new Promise((ok) => {
        const mo = new MutationObserver(() => {
          if (cell.textContent === want) { updated = performance.now() - t0; mo.disconnect(); ok(); }
        });
        mo.observe(cell, { subtree: true, characterData: true, childList: true });
      });
      input.value = want;
      input.dispatchEvent(new InputEvent("input", { bubbles: true }));
      await seen;
      await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      out.push([updated, performance.now() - t0]);
      await new Promise((ok) => setTimeout(ok, 30));
    }
    return out;
  });
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  figures.edit_1000_clusters_ms = {
    assignment_updated_median: median(times.map((t) => t[0])),
    assignment_updated_max: Math.max(...times.map((t) => t[0])),
    next_frame_median: median(times.map((t) => t[1])),
    runs: times.length,
  };
  assert.equal(await page.textContent(".replicas-total"), "5015");
  // Evenness over 1,000 seeds of 1,000 clusters runs in chunks: record the longest task the
  // main thread ran meanwhile, and check an edit during the run is answered and restarts it.
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => {
      window.__longest = Math.max(window.__longest, e.duration);
    })).observe({ type: "longtask" });
    window.__evenStart = performance.now();
  });
  await page.click("#tab-evenness");
  await page.waitForSelector('#evenness-status[data-done="true"]', { timeout: 120000 });
  const run = await page.evaluate(() => ({
    seconds: (performance.now() - window.__evenStart) / 1000,
    longest_task_ms: window.__longest,
  }));
  figures.evenness_1000_seeds_1000_clusters = run;
  await page.fill(field("workload.replicas"), "4000");
  await page.waitForFunction(() => document.querySelector("#evenness-status")?.dataset.done === "false");
  await page.click("#tab-result");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "4000");
  await screenshot(page, "large-1000-clusters");
  await page.close();
});

test("the whole app stays within 600,000 bytes gzip", () => {
  // What index.html loads: the page, its script, its wasm and its style. A budget catches
  // accidental growth; it never justifies hand-writing what a well-kept crate does (the same
  // ceilings as ./dev's: 600,000 bytes for the widget's wasm; 490 KiB before). The app counts its
  // script, style and page too (about 15,000 bytes). The fleet view, workload affinity groups,
  // compiled static weights and inline names took it to 616,400 bytes, and the ceiling to
  // 625,000 for a while; the fleet view is now an app of its own (e2e/fleet.test.mjs checks
  // its size), fetched when it is opened: 539,044 bytes without it.
  const files = readdirSync(DIST).filter((f) => /\.(wasm|js|css|html)$/.test(f) && f !== "docs.html");
  const sizes = Object.fromEntries(files.map((f) => {
    const body = readFileSync(join(DIST, f));
    return [f.replace(/-[0-9a-f]{16}/, ""), { raw: body.length, gzip: gzipSync(body, { level: 9 }).length }];
  }));
  const total = Object.values(sizes).reduce((a, s) => a + s.gzip, 0);
  figures.app_gzip_bytes = { total, files: sizes };
  assert.ok(total <= 600_000, `the app is ${total} bytes gzipped`);
});

test("first paint of the release build", async () => {
  const page = await run.chrome.newPage();
  await page.goto(run.server.url + "/#preset=divide-7-replicas-2-1-1");
  await page.waitForSelector("#assignment");
  // The paint entry can be recorded a frame after the assignment shows: wait for it (buffered,
  // so one already recorded counts), for at most five seconds.
  const paint = await page.evaluate(() => new Promise((resolve) => {
    const done = (fcp) => resolve({ fcp, assignment: performance.now() });
    new PerformanceObserver((list) => {
      const entry = list.getEntriesByName("first-contentful-paint")[0];
      if (entry) done(entry.startTime);
    }).observe({ type: "paint", buffered: true });
    setTimeout(() => done(undefined), 5000);
  }));
  figures.first_contentful_paint_ms = paint.fcp;
  assert.ok(paint.fcp !== undefined);
  await page.close();
});

test("the embedded view shows one scenario compactly and opens the playground", async () => {
  const page = await open("/?embed#preset=story1-scale-up-7-to-8");
  assert.ok(await page.$("main.embed"));
  assert.equal(await page.$("#clusters"), null);
  const story = presets.find(([id]) => id === "story1-scale-up-7-to-8")[1];
  assert.deepEqual(await shown(page), expected(story));
  await page.fill(field("workload.replicas"), "9");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "9");
  assert.deepEqual(await shown(page), expected({ ...story, workload: { replicas: 9 } }));
  assert.match(await page.getAttribute("#open", "href"), /#s=1\./);
  await page.setViewportSize({ width: 640, height: 480 });
  await screenshot(page, "embed");
  // It fits 400 px: nothing wider than the frame, the result's columns included.
  await page.setViewportSize({ width: 400, height: 700 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 401));
  const table = await page.$eval("#assignment", (t) => [t.scrollWidth, t.parentElement.clientWidth]);
  assert.ok(table[0] <= table[1] + 1, JSON.stringify(table));
  await screenshot(page, "embed-400");
  await page.close();
  // `editors=` chooses its editors: here the weights and the method too.
  const chosen = await open("/?embed&editors=replicas,weights,method#preset=story1-scale-up-7-to-8");
  assert.equal(await chosen.$$eval(".embed-editors :is(input,select)[data-path]", (fs) => fs.map((f) => f.dataset.path).join(" ")),
    "workload.replicas clusters[0].weight clusters[1].weight clusters[2].weight clusters[3].weight policy.method");
  const edited = { ...story, clusters: story.clusters.map((c) => (c.name === "member4" ? { ...c, weight: 3 } : c)) };
  await chosen.fill(field("clusters[3].weight"), "3");
  await chosen.waitForFunction((want) => document.querySelector('#assignment tr[data-cluster="member4"] .replicas')?.textContent === want,
    expected(edited).member4);
  assert.deepEqual(await shown(chosen), expected(edited));
  await chosen.close();
});

test("the docs page: an iframe of the embed view and the custom element", async () => {
  const page = await open("/docs.html", "allot-playground");
  const frame = page.frameLocator("#embed-frame");
  await frame.locator("#assignment").waitFor();
  const el = page.locator("#by-preset");
  await el.locator("#assignment tbody tr").first().waitFor();
  const rows = () => page.evaluate(readRows, "#by-preset");
  assert.deepEqual(await rows(), expected(DEFAULT));
  const cell = (name) => page.evaluate((n) =>
    document.querySelector("#by-preset").shadowRoot.querySelector(`#assignment tr[data-cluster="${n}"] .replicas`)?.textContent, name);
  await el.locator(field("workload.replicas")).fill("8");
  await page.waitForFunction(() =>
    document.querySelector("#by-preset").shadowRoot.querySelector('#assignment tr[data-cluster="member1"] .replicas')?.textContent === "4");
  assert.deepEqual(await rows(), expected({ ...DEFAULT, workload: { replicas: 8 } }));
  // The element reports the scenario as edited.
  assert.equal(await page.$eval("#by-preset", (e) => e.scenario.workload.replicas), 8);
  await el.locator(field("policy.method")).selectOption("name-order");
  await page.waitForFunction(() => document.querySelector("#by-preset").scenario.policy.method === "name-order");
  assert.deepEqual(await rows(), expected({ ...DEFAULT, workload: { replicas: 8 }, policy: { ...DEFAULT.policy, method: "name-order" } }));
  assert.equal(await cell("member3"), "2");
  const inline = await page.$$eval("#inline", ([e]) => e.shadowRoot.querySelectorAll("#assignment tbody tr").length);
  assert.equal(inline, 3);
  // An error names its field, in the widget.
  await el.locator(field("clusters[0].weight")).fill("-1");
  await page.waitForFunction(() => document.querySelector("#by-preset").shadowRoot.querySelector("#error"));
  const error = await page.$eval("#by-preset", (e) => e.shadowRoot.querySelector('#error li[data-path="clusters[0].weight"]').textContent);
  assert.equal(error, "clusters[0].weight: must not be negative, got -1");
  // Its link focuses the field, inside the widget.
  await el.locator('#error a.jump').click();
  await page.waitForFunction(() =>
    document.querySelector("#by-preset").shadowRoot.activeElement?.dataset.path === "clusters[0].weight");
  await el.locator(field("clusters[0].weight")).fill("2");
  // An unknown editor name says which there are.
  await page.evaluate(() => document.querySelector("#inline").setAttribute("editors", "replicas wieghts"));
  await page.waitForFunction(() => document.querySelector("#inline").shadowRoot.querySelector(".error[role=alert]"));
  assert.match(await page.$eval("#inline", (e) => e.shadowRoot.querySelector(".error").textContent), /no editor named “wieghts”.*weights/);
  await page.evaluate(() => document.querySelector("#inline").setAttribute("editors", "replicas weights"));
  await page.waitForFunction(() => document.querySelector("#inline").shadowRoot.querySelector("#assignment"));
  await screenshot(page, "docs-page");
  await page.close();
});

test("Kubernetes: paste multi-document YAML, see the report and the placement, export the binding", async () => {
  const { explain, fromObjects: fromObjectsNode } = await import("../web/pkg/kubernetes.node.js");
  const yaml = readFileSync(join(ROOT, "docs", "manifests", "static-weight.yaml"), "utf8");
  const page = await open("/");
  await page.click("#tab-kubernetes");
  // The empty text area's example is YAML over several lines, not HTML entities.
  const placeholder = await page.getAttribute("#k8s-objects", "placeholder");
  assert.ok(placeholder.startsWith("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\n"), placeholder);
  // Two files dropped on the text area become two documents of it.
  const [first, rest] = [yaml.slice(0, yaml.indexOf("---\n")), yaml.slice(yaml.indexOf("---\n") + 4)];
  const files = await page.evaluateHandle(([a, b]) => {
    const d = new DataTransfer();
    d.items.add(new File([a], "cluster.yaml"));
    d.items.add(new File([b], "rest.yaml"));
    return d;
  }, [first, rest]);
  await page.dispatchEvent("#k8s-objects", "drop", { dataTransfer: files });
  await page.waitForFunction(() => document.querySelector("#k8s-objects").value.includes("kind: PropagationPolicy"));
  assert.deepEqual(fromObjectsNode((await page.inputValue("#k8s-objects"))).scenario, fromObjectsNode(yaml).scenario);
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-report");
  assert.match(await page.textContent("#k8s-report .report-defaulted"), /Defaulted \(\d+\)/);
  assert.match(await page.textContent("#k8s-report .report-used"), /policy\.staticWeights/);
  assert.match(
    await page.textContent("#k8s-report .report-policy"),
    /^Policy: PropagationPolicy default\/nginx \(priority 0, matched by name\): the only policy that selects the template/,
  );
  assert.match(await page.textContent("#notice"), /Imported from Kubernetes objects: 3 clusters/);
  // The placement the page shows is the core's for the imported scenario.
  const e = explain(yaml);
  await page.waitForFunction(() => document.querySelector("#assignment tbody tr[data-cluster=member3] .replicas")?.textContent === "5");
  assert.deepEqual(await shown(page), expected(e.scenario));
  await screenshot(page, "kubernetes-import");
  // The binding the outcome writes, named after the imported Deployment.
  await page.click("#k8s-export-binding");
  await page.waitForSelector("#k8s-exported");
  const binding = await page.textContent("#k8s-exported");
  assert.match(binding, /kind: ResourceBinding/);
  assert.match(binding, /^# \* member3: - -> 5$/m);
  assert.match(binding, /name: nginx-deployment/);
  assert.match(binding, /- name: member1\n {4}replicas: 2\n {2}- name: member3\n {4}replicas: 5/);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#k8s-download")]);
  assert.equal(download.suggestedFilename(), "resourcebinding.yaml");
  // The objects export imports back to the same scenario.
  await page.click("#k8s-export-objects");
  await page.waitForFunction(() => document.querySelector("#k8s-exported")?.textContent.includes("kind: PropagationPolicy"));
  assert.deepEqual(fromObjectsNode(await page.textContent("#k8s-exported")).scenario, e.scenario);
  // An error names its object and field; the scenario stays.
  await page.fill("#k8s-objects", yaml.replace("apiVersion: apps/v1\nkind: Deployment", "apiVersion: apps/v1beta1\nkind: Deployment"));
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-error");
  assert.equal(await page.getAttribute("#k8s-error", "data-path"), "objects[3].apiVersion");
  assert.match(await page.textContent("#k8s-error"), /Deployment nginx/);
  assert.deepEqual(await shown(page), expected(e.scenario));
  await page.close();
});

test("Kubernetes: an example with member clusters' nodes and pods", async () => {
  const page = await open("/");
  await page.click("#tab-kubernetes");
  // The example manifests are fetched from beside the page.
  await page.selectOption("#k8s-preset", "statefulset-nodes");
  await page.waitForFunction(() => document.querySelectorAll(".member-name").length === 2);
  assert.match(await page.inputValue("#k8s-objects"), /kind: StatefulSet/);
  await page.click("#k8s-import");
  await page.waitForFunction(() => document.querySelector("#assignment tbody tr[data-cluster=member1] .replicas")?.textContent === "4");
  assert.equal(await page.textContent("#assignment tbody tr[data-cluster=member2] .replicas"), "1");
  await page.close();
});

// --- Issue 21's bugs, each asserted as a user meets it -------------------------------------

test("bug 3: a resource model's quantity error marks its own cell", async () => {
  const page = await open("/#preset=resource-models-3c-20gi");
  await page.click('#clusters tr[data-row="0"] button.more');
  await page.click("text=use Karmada's default models");
  const min = "clusters[0].resourceModels[0].ranges[0].min";
  await page.waitForSelector(field(min));
  await page.fill(field(min), "abc");
  await page.waitForSelector(`.problem[data-path="${min}"]`);
  assert.equal(await page.getAttribute(field(min), "aria-invalid"), "true");
  assert.equal(await page.getAttribute("#error", "data-path"), min);
  await page.close();
});

test("Kubernetes: the import report says which policy won and why, and why the others did not", async () => {
  const yaml = readFileSync(join(ROOT, "docs", "manifests", "static-weight.yaml"), "utf8");
  const everything = [
    "apiVersion: policy.karmada.io/v1alpha1",
    "kind: ClusterPropagationPolicy",
    "metadata: {name: all-deployments}",
    "spec:",
    "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]",
    "  priority: 5",
    "",
  ].join("\n");
  const page = await open("/");
  await page.click("#tab-kubernetes");
  await page.fill("#k8s-objects", `${yaml}\n---\n${everything}`);
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-report .report-policy");
  const text = await page.textContent("#k8s-report .report-policy");
  assert.match(
    text,
    /Policy: PropagationPolicy default\/nginx \(priority 0, matched by name\) over ClusterPropagationPolicy all-deployments \(priority 5, matched by an empty selector\): a PropagationPolicy that selects the template comes before any ClusterPropagationPolicy/,
  );
  assert.match(text, /not used: ClusterPropagationPolicy all-deployments: a PropagationPolicy that selects the template comes before/);
});

test("bugs 4 and 5: JSON that does not read is reported, kept across tabs, and dims the outcome", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.click("#tab-json");
  const doc = JSON.parse(await page.inputValue("#scenario-json"));
  await page.fill("#scenario-json", JSON.stringify({ ...doc, version: 99 }, null, 2));
  await page.waitForSelector('#error[data-path="version"]');
  const broken = JSON.stringify({ ...doc, version: 99 }, null, 2).slice(0, -3);
  await page.fill("#scenario-json", broken);
  // The banner now speaks of the text, not of the version it can no longer see.
  await page.waitForSelector('#error[data-code="invalid_json"]');
  assert.match(await page.textContent("#error"), /not JSON yet \(line \d+, column \d+/);
  await page.waitForSelector(".results.stale #assignment");
  // Away to the form and back: the text is still there, and the form says so meanwhile.
  await page.click("#tab-form");
  assert.match(await page.textContent("#draft-notice"), /not JSON yet/);
  await page.click("#tab-json");
  assert.equal(await page.inputValue("#scenario-json"), broken);
  await page.fill("#scenario-json", JSON.stringify(doc, null, 2));
  await page.waitForSelector(".results:not(.stale) #assignment");
  assert.equal(await page.$("#error"), null);
  await page.close();
});

test("bug 7: FILL short of able nodes blames the count, not an empty nodes limit", async () => {
  const scenario = {
    version: 1,
    policy: { strategy: "FILL" },
    nodes: [{ name: "n1", cpuMap: { 0: 100 }, memory: 100 }, { name: "n2", cpuMap: { 0: 100 }, memory: 30 }],
    workload: { count: 5, requests: { memory: 10 } },
  };
  assert.equal(failing(scenario), true);
  const page = await open("/" + link(scenario), "#error");
  assert.equal(await page.getAttribute("#error", "data-path"), "workload.count");
  await page.waitForSelector('.problem[data-path="workload.count"]');
  assert.equal(await page.$('.problem[data-path="policy.nodesLimit"]'), null);
  await page.close();
});

test("bug 8: keyboard removal and addition move focus sensibly; Ctrl+Z undoes in view", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.focus('#clusters tr[data-row="1"] button.remove');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 2);
  // Focus is on the row that took its place, in a field: a second Enter deletes nothing.
  await page.waitForFunction(() => document.activeElement?.dataset.path === "clusters[1].name");
  await page.keyboard.press("Enter");
  assert.equal((await page.$$("#clusters tbody tr[data-row]")).length, 2);
  // "+ add cluster" puts focus in the new row.
  await page.click('button.add[data-for="clusters"]');
  await page.waitForFunction(() => document.activeElement?.dataset.path === "clusters[2].name");
  // Ctrl+Z outside any field is the page's undo: the added row goes, then the removed one comes back.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 2);
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 3);
  assert.deepEqual(await shown(page), expected(DEFAULT));
  await page.keyboard.press("Control+Shift+z");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 2);
  // Inside a field too, typing is undone as one step by the page.
  await page.fill(field("workload.replicas"), "12");
  await page.focus(field("workload.replicas"));
  await page.keyboard.press("Control+z");
  await page.waitForFunction((f) => document.querySelector(f).value === "7", field("workload.replicas"));
  assert.equal(await page.isEnabled("#redo"), true);
  await page.close();
});

test("bug 9: rules are numbered, field selectors show, and Why cites rules by those numbers", async () => {
  const scenario = {
    version: 1,
    clusters: [{ name: "member1", region: "eu" }, { name: "member2", region: "us" }],
    workload: { replicas: 4 },
    policy: {
      staticWeights: [
        { targetCluster: { clusterNames: ["member1", "member2"] }, weight: 1 },
        { targetCluster: { fieldSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["eu"] }] } }, weight: 3 },
      ],
    },
  };
  const page = await open("/" + link(scenario));
  assert.deepEqual(await page.$$eval("#rules th.number", (t) => t.map((c) => c.textContent)), ["#1", "#2"]);
  assert.match(await page.inputValue(field("policy.staticWeights[1].targetCluster.fieldSelector.matchExpressions")), /"region"/);
  const why = await page.textContent("#explanation");
  assert.match(why, /member1: weight 3 \(the largest of rules #1, #2\)/);
  assert.match(why, /member2: weight 1 \(rule #1\)/);
  assert.doesNotMatch(why, /#0/);
  await page.close();
  const own = await open("/#preset=divide-7-replicas-2-1-1");
  assert.match(await own.textContent("#explanation"), /member1: weight 2 \(its own\)/);
  await own.close();
});

test("bug 10: the Markdown says what the page says", async () => {
  const none = { ...DEFAULT, workload: { replicas: 0 } };
  for (const path of ["/#preset=divide-7-replicas-2-1-1", "/#preset=general-estimator-500m", "/" + link(none)]) {
    const page = await open(path);
    const available = await page.$$eval("#assignment tbody tr", (rows) =>
      rows.map((r) => [r.dataset.cluster, r.querySelector(".available").textContent]));
    await page.click("#tab-markdown");
    const md = await page.inputValue("#markdown");
    for (const [name, text] of available)
      assert.match(md, new RegExp(`\\| ${name} \\|[^\\n]*\\| ${text} \\|\\n`), `${path} ${name}`);
    await page.close();
  }
});

test("bug 11: a number too large for any integer says too large", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  for (const n of ["99999999999999999999999", "9223372036854775808"]) {
    await page.fill(field("clusters[0].weight"), n);
    await page.waitForSelector('.problem[data-path="clusters[0].weight"][data-code="too_large"]');
  }
  await page.fill(field("clusters[0].weight"), "1x");
  assert.match(await page.textContent('.problem[data-path="clusters[0].weight"]'), /expected a whole number, got "1x"/);
  await page.close();
});

test("bug 12: pods that hold nothing are named in Why", async () => {
  const scenario = {
    version: 1,
    clusters: [{
      name: "member1",
      nodes: [{ name: "n1", allocatable: { cpu: "8", memory: "32Gi", pods: 110 } }],
      pods: [
        { name: "web-0", nodeName: "n1", requests: { cpu: "1" } },
        { name: "pending-0", requests: { cpu: "1" } },
        { name: "gone-0", nodeName: "n9", requests: { cpu: "1" } },
      ],
    }],
    workload: { replicas: 2, requests: { cpu: "1" } },
  };
  const page = await open("/" + link(scenario));
  const text = await page.textContent('.estimate[data-cluster="member1"]');
  assert.match(text, /2 pods ignored/);
  assert.match(text, /pending-0: not bound to a node/);
  assert.match(text, /gone-0: on node n9, which the cluster does not list/);
  await page.close();
});

test("bug 13: weights with another strategy are one error, with a way to clear them", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.selectOption(field("policy.strategy"), "dynamicWeight");
  await page.waitForSelector('#error[data-path="policy.strategy"]');
  assert.match(await page.textContent("#error"), /dynamicWeight does not divide by weights: clear the weights of member1, member2, member3/);
  for (const strategy of ["aggregated", "duplicated"]) {
    await page.selectOption(field("policy.strategy"), strategy);
    await page.waitForFunction((s) => document.querySelector("#error")?.textContent.includes(`${s} does not divide by weights`), strategy);
  }
  await page.click("#clear-weights");
  await page.waitForSelector(".results:not(.stale) #assignment");
  assert.equal(await page.$("#error"), null);
  assert.equal(await page.inputValue(field("clusters[0].weight")), "");
  await page.close();
});

test("bug 14: the built page works under a sub-path, saying it is loading until it runs", async () => {
  const sub = await serveUnderSubPath();
  try {
    const html = await (await fetch(`${sub.url}/tools/index.html`)).text();
    assert.match(html, /id="loading"/);
    assert.doesNotMatch(html, /(src|href)="\/[^/]/, "no absolute asset URL");
    const page = await run.chrome.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${sub.url}/tools/#preset=divide-7-replicas-2-1-1`);
    await page.waitForSelector("#assignment");
    assert.equal(await page.$("#loading"), null);
    assert.deepEqual(await shown(page), expected(DEFAULT));
    await page.close();
  } finally {
    await sub.close();
  }
});

test("accessibility: axe finds nothing on the page, with an error, embedded, and on the docs page", async () => {
  const report = {};
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  report.main = await axe(page);
  await page.fill(field("clusters[1].weight"), "x");
  await page.waitForSelector(".results.stale #assignment");
  report.error = await axe(page);
  await page.close();
  const embedded = await open("/?embed#preset=divide-7-replicas-2-1-1");
  report.embed = await axe(embedded);
  await embedded.close();
  const docs = await run.chrome.newPage();
  await docs.goto(run.server.url + "/docs.html");
  await docs.waitForSelector("allot-scenario, iframe");
  report.docs = await axe(docs);
  await docs.close();
  figures.axe = report;
  assert.deepEqual(report, { main: [], error: [], embed: [], docs: [] });
});

test("fit: tables fit their column at 1,280, 1,440 and 1,920 px, without sideways scrolling", async () => {
  for (const width of [1280, 1440, 1920]) {
    for (const preset of ["divide-7-replicas-2-1-1", "general-estimator-500m", "eru-cpu-binding"]) {
      const page = await run.chrome.newPage({ viewport: { width, height: 1000 } });
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      await page.goto(`${run.server.url}/#preset=${preset}`);
      await page.waitForSelector("#assignment, #deploy");
      const over = await page.$$eval(".rows > table, table.result", (tables) =>
        tables.filter((t) => t.scrollWidth > t.parentElement.clientWidth + 1)
          .map((t) => `${t.id || t.dataset.path}: ${t.scrollWidth} > ${t.parentElement.clientWidth}`));
      assert.deepEqual(over, [], `${preset} at ${width} px`);
      if (preset === "divide-7-replicas-2-1-1" && width !== 1440) await screenshot(page, `main-${width}`);
      await page.close();
    }
  }
  const narrow = await run.chrome.newPage({ viewport: { width: 400, height: 900 } });
  await narrow.goto(`${run.server.url}/#preset=divide-7-replicas-2-1-1`);
  await narrow.waitForSelector("#assignment");
  // One column: nothing wider than the screen.
  assert.ok(await narrow.evaluate(() => document.documentElement.scrollWidth <= 401));
  await screenshot(narrow, "main-400");
  await narrow.fill(field("clusters[1].weight"), "x");
  await narrow.waitForSelector("#error");
  await screenshot(narrow, "error-400");
  await narrow.close();
});

test("copy and new: copies confirm visibly; a new scenario starts from scratch and Undo brings the old one back", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.click("#copy-markdown");
  await page.waitForSelector("#copy-markdown[data-copied]");
  assert.match(await page.evaluate(() => getComputedStyle(document.querySelector("#copy-markdown"), "::after").content), /copied ✓/);
  await page.click("#share");
  await page.waitForSelector(".copied");
  await page.selectOption("#preset", "new");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 1);
  assert.equal(await page.textContent("#outcome-heading"), "Outcome");
  assert.equal(await page.inputValue(field("title")), "");
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#clusters tbody tr[data-row]").length === 3);
  assert.equal(await page.textContent("#outcome-heading"), DEFAULT.title);
  await page.close();
});

test("step history: each apply is a named step with what moved; back, forward, and one link for all", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const steps = () => page.$$eval("#history .steps li", (li) => li.map((l) => l.textContent));
  await page.click("#apply");
  await page.waitForSelector("#history .steps li");
  const first = await shown(page);
  await page.fill(field("workload.replicas"), "8");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "8");
  await page.click("#apply");
  await page.click('button.add[data-for="clusters"]');
  await page.waitForFunction(() => document.activeElement?.value === "member4");
  await page.click("#apply");
  await page.waitForFunction(() => document.querySelectorAll("#history .steps li").length === 4);
  const said = await steps();
  assert.match(said[0], /^Step 1: 7 replicas over 3 clusters/);
  assert.match(said[1], /^Step 2: scaled from 7 to 8/);
  assert.match(said[2], /^Step 3: member4 added/);
  assert.match(said[2], /member4 0 → \d/);
  assert.match(said[3], /Now: editing from step 3/);
  await screenshot(page, "history");
  // Back to step 1: its scenario and outcome as they were.
  await page.click('#history button[data-step="0"]');
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "7");
  assert.deepEqual(await shown(page), first);
  await page.click("#history-forward");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "8");
  // One link for the whole history: a fresh tab sees the same steps, on the same one.
  await page.click("#share-history");
  const url = await page.evaluate(() => location.href);
  assert.match(url, /#h=1\./);
  const other = await open(url.slice(url.indexOf("/", 8)));
  assert.deepEqual(await other.$$eval("#history .steps li", (li) => li.map((l) => l.textContent)),
    (await steps()));
  assert.deepEqual(await shown(other), await shown(page));
  await other.close();
  // Undo takes an apply back with its step.
  await page.click("#history-forward");
  await page.click("#history-forward");
  await page.waitForFunction(() => document.querySelector("#history li.now[aria-current]"));
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#history .steps li").length === 3);
  // A reload keeps the history (the browser's autosave holds it whole).
  const before = await steps();
  await page.waitForTimeout(500);
  assert.equal(new URL(page.url()).hash, "");
  await page.reload();
  await page.waitForSelector("#history .steps li");
  assert.deepEqual(await steps(), before);
  await page.close();
});

test("step history: the stories load as histories; story 3 holds both of its variants", async () => {
  const page = await open("/#preset=story3-weight-change");
  await page.waitForFunction(() => document.querySelectorAll("#history .steps li").length === 3);
  const said = await page.$$eval("#history .steps li", (li) => li.map((l) => l.textContent));
  assert.match(said[0], /^Step 1: 6 replicas over 4 clusters.*member1 0 → 2, member2 0 → 1, member3 0 → 2, member4 0 → 1/);
  assert.match(said[1], /^Step 2: member1's weight 1 → 2member1 2 → 3, member3 2 → 1/);
  assert.match(said[2], /^Step 3: member1's weight 1 → 2, scaled from 6 to 7 \(from step 1\)member1 2 → 3/);
  assert.equal(await page.getAttribute("#history li:nth-child(3)", "aria-current"), "step");
  const story = presets.find(([id]) => id === "story3-weight-change")[1];
  assert.deepEqual(await shown(page), expected(story));
  await page.click('#history button[data-step="1"]');
  await page.waitForFunction(() => document.querySelector('[data-cluster="member1"] .replicas')?.textContent === "3"
    && document.querySelector(".replicas-total")?.textContent === "6");
  await screenshot(page, "history-story3");
  await page.close();
});

test("inputs people already write: tolerations as copied from a manifest (YAML), with an example", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const tolerations = field("workload.nodeClaim.tolerations");
  await unfold(page, "workload");
  assert.match(await page.getAttribute(tolerations, "placeholder"), /key: dedicated\n\s+operator: Equal/);
  const yaml = "- key: dedicated\n  operator: Equal\n  value: gpu\n  effect: NoSchedule\n";
  await page.fill(tolerations, yaml);
  // Read (by the Kubernetes module, loaded for it): no error, and the text stays as typed.
  await page.waitForFunction((f) => document.querySelector(f).getAttribute("aria-invalid") === null
    && !document.querySelector("#error"), tolerations);
  assert.equal(await page.inputValue(tolerations), yaml);
  await page.click("#tab-json");
  const doc = JSON.parse(await page.inputValue("#scenario-json"));
  assert.deepEqual(doc.workload.nodeClaim.tolerations, [{ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" }]);
  await page.click("#tab-form");
  // Text that is neither says why, under the field.
  await page.fill(tolerations, "- key: [unclosed\n");
  await page.waitForFunction(() => /not YAML or JSON/.test(document.querySelector('[data-path="workload.nodeClaim.tolerations"] ~ .problem')?.textContent ?? ""));
  assert.ok(!pageErrors.length, pageErrors.join("\n"));
  await page.close();
});

test("errors: every problem is listed in a line that stays in view, each with a link to its field", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  await page.fill(field("clusters[2].weight"), "x");
  await page.waitForSelector('#error[data-path="clusters[2].weight"] a.jump');
  await page.focus(field("title"));
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const top = await page.$eval("#error", (e) => e.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 5, `the error is at ${top}px, out of view`);
  await page.click("#error a.jump");
  await page.waitForFunction(() => document.activeElement?.dataset.path === "clusters[2].weight");
  // Several problems: every one is listed with its link, and every field is marked.
  await page.fill(field("clusters[0].weight"), "-1");
  await page.fill(field("workload.replicas"), "seven");
  await page.waitForFunction(() => document.querySelectorAll("#error li").length === 3);
  assert.deepEqual(await page.$$eval("#error li", (li) => li.map((l) => l.dataset.path)),
    ["clusters[2].weight", "workload.replicas", "clusters[0].weight"]);
  assert.match(await page.textContent("#error .count"), /^3 problems:/);
  for (const path of ["workload.replicas", "clusters[2].weight", "clusters[0].weight"])
    assert.equal(await page.getAttribute(field(path), "aria-invalid"), "true", path);
  await page.click('#error li[data-path="clusters[0].weight"] a.jump');
  await page.waitForFunction(() => document.activeElement?.dataset.path === "clusters[0].weight");
  await screenshot(page, "errors-listed");
  await page.close();
});

test("words and plans: a preset's title follows the edits; CPU plans are open; memory reads as a quantity", async () => {
  const page = await open("/#preset=story1-scale-up-7-to-8");
  const story = presets.find(([id]) => id === "story1-scale-up-7-to-8")[1];
  assert.equal(await page.textContent("#outcome-heading"), story.title);
  await page.fill(field("workload.replicas"), "9");
  await page.waitForFunction((t) => document.querySelector("#outcome-heading").textContent === t, `${story.title} (edited)`);
  assert.equal(await page.$(".outcome .description"), null);
  assert.equal(await page.inputValue(field("description")), "");
  await page.selectOption("#preset", "eru-cpu-binding");
  await page.waitForSelector("details.plans[open]");
  assert.match(await page.textContent("details.plans li"), /CPU \d+:100/);
  await page.selectOption("#preset", "eru-memory");
  await page.waitForSelector('[data-node="node1"] pre');
  assert.match(await page.textContent('[data-node="node1"] pre'), /memory: \(100Mi - 0\) \/ 10Mi = 10/);
  assert.equal(await page.inputValue(field("nodes[0].memory")), "100Mi");
  await page.close();
});

test("400 px: one column, the outcome right under the clusters it depends on", async () => {
  const page = await run.chrome.newPage({ viewport: { width: 400, height: 900 } });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(run.server.url + "/#preset=divide-7-replicas-2-1-1");
  await page.waitForSelector("#assignment");
  const box = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; });
  const clusters = await box('section.editor[data-section="clusters"]');
  const outcome = await box("section.outcome");
  const scheduling = await box('section.editor[data-section="scheduling: filters and spreading"]');
  assert.ok(clusters.bottom <= outcome.top && outcome.top - clusters.bottom < 40, JSON.stringify({ clusters, outcome }));
  assert.ok(outcome.bottom <= scheduling.top, JSON.stringify({ outcome, scheduling }));
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 400);
  // The result's columns fit (its bars, which repeat the numbers, are left out).
  const table = await page.$eval("#assignment", (t) => [t.scrollWidth, t.parentElement.clientWidth]);
  assert.ok(table[0] <= table[1] + 1, JSON.stringify(table));
  await page.close();
});

test("history: every step lays out alike, what moved beside its step (under it at 400 px), the first step too", async () => {
  for (const width of [400, 1280, 1920]) {
    const page = await run.chrome.newPage({ viewport: { width, height: 1000 } });
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${run.server.url}/#preset=story3-weight-change`);
    await page.waitForSelector("#history .steps li .moved");
    const steps = await page.$$eval("#history .steps li", (lis) => lis.filter((li) => li.querySelector(".moved")).map((li) => {
      const b = li.querySelector(".step").getBoundingClientRect(), m = li.querySelector(".moved").getBoundingClientRect();
      // Where what moved starts, from the step's button: beside it (right of it, on its first
      // line) or under it (at its left).
      const beside = m.left >= b.right - 1 && m.top < b.top + b.height / 2;
      return { beside, under: !beside && m.top >= b.bottom - 1 && Math.abs(m.left - b.left) < 1, left: Math.round(m.left) };
    }));
    assert.ok(steps.length >= 3, `${width} px: ${steps.length} steps`);
    for (const [k, step] of steps.entries()) {
      assert.ok(step.beside || step.under, `${width} px, step ${k + 1}: ${JSON.stringify(step)}`);
      assert.deepEqual(step, steps[0], `${width} px: step ${k + 1} lays out as step 1`);
    }
    assert.equal(steps[0].beside, width > 600, `${width} px`);
    await page.close();
  }
});

test("screenshots: the main page, an error, the history and the evenness view at 400, 1,280 and 1,920 px", async () => {
  for (const width of [400, 1280, 1920]) {
    const page = await run.chrome.newPage({ viewport: { width, height: 1000 } });
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${run.server.url}/#preset=story3-weight-change`);
    await page.waitForSelector("#history .steps li");
    await screenshot(page, `history-${width}`);
    await page.click("#tab-evenness");
    await page.waitForSelector('#evenness-status[data-done="true"]', { timeout: 30000 });
    await screenshot(page, `evenness-${width}`);
    await page.click("#tab-result");
    await page.fill(field("clusters[1].weight"), "-1");
    await page.waitForSelector('#error[data-path="clusters[1].weight"]');
    await screenshot(page, `error-${width}`);
    // Nothing is wider than the screen in any of these states.
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w + 1, width), `${width} px`);
    await page.close();
  }
});

test("no page error anywhere", () => {
  assert.deepEqual(pageErrors, []);
});

/** The Pipeline tab's rows: cluster -> {out, title, verdicts by plugin, selected}. */
const pipelineRows = (page) =>
  page.$$eval("#pipeline tbody tr[data-cluster]", (rows) =>
    Object.fromEntries(
      rows.map((r) => [
        r.dataset.cluster,
        {
          out: r.classList.contains("out"),
          title: r.getAttribute("title"),
          verdicts: Object.fromEntries([...r.querySelectorAll("td.verdict")].map((c) => [c.dataset.plugin, c.textContent])),
          selected: r.querySelector(".selected").textContent,
          why: r.nextElementSibling?.dataset.why === r.dataset.cluster ? r.nextElementSibling.textContent : null,
        },
      ]),
    ),
  );

test("pipeline: a taint drops a cluster, greyed with Karmada's reason", async () => {
  const page = await open("/#preset=scheduler-taint-drops-cluster");
  await page.click("#tab-pipeline");
  await page.waitForSelector("#pipeline");
  const rows = await pipelineRows(page);
  assert.equal(rows.member3.out, true);
  assert.equal(rows.member3.title, "cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}");
  assert.equal(rows.member3.verdicts.TaintToleration, "✗");
  assert.equal(rows.member3.why, "↳ out (TaintToleration): untolerated taint dedicated=gpu:NoSchedule");
  assert.equal(rows.member3.selected, "");
  assert.equal(rows.member2.out, false);
  assert.match(await page.textContent("#pipeline-explanation"), /member3 is out \(TaintToleration\)/);
  await screenshot(page, "pipeline-taint");
  // Tolerate it from the editor: the cluster comes back.
  await page.click("#tolerations + button.add, #tolerations ~ button.add");
  await page.fill(field("policy.clusterTolerations[1].key"), "dedicated");
  await page.press(field("policy.clusterTolerations[1].key"), "Tab");
  await page.waitForFunction(() => !document.querySelector('#pipeline tr[data-cluster="member3"]').classList.contains("out"));
  assert.equal(await page.$('#pipeline tr[data-why="member3"]'), null);
  await page.close();
});

test("pipeline: regions, swaps, affinity terms and overflow tiers", async () => {
  const page = await open("/#preset=scheduler-spread-two-regions");
  await page.click("#tab-pipeline");
  await page.waitForSelector("#regions");
  assert.match(await page.textContent("#regions"), /eu: group score 6000/);
  assert.match(await page.textContent("#pipeline-explanation"), /in eu, member1 is kept over member2/);
  await screenshot(page, "pipeline-regions");
  await page.selectOption("#preset", "scheduler-cluster-swap");
  await page.waitForFunction(() => /member3 replaced member2/.test(document.querySelector("#pipeline-explanation")?.textContent));
  await page.selectOption("#preset", "scheduler-affinity-fallback");
  await page.waitForSelector("#terms li.fail");
  const terms = await page.$$eval("#terms li", (li) => li.map((l) => [l.dataset.term, l.className]));
  assert.deepEqual(terms, [["onprem", "fail"], ["cloud", "pass"]]);
  await screenshot(page, "pipeline-affinity-fallback");
  await page.selectOption("#preset", "scheduler-overflow-tiers");
  await page.click("#tab-result");
  await page.waitForFunction(() => document.querySelector('#assignment tr[data-cluster="cloud1"] .replicas')?.textContent === "4");
  await page.close();
});

test("pipeline: spreading only by a label shows Karmada's error and the steps", async () => {
  const page = await open("/#preset=scheduler-label-only", "#pipeline");
  assert.equal(await page.getAttribute("#error", "data-code"), "spread_unsatisfiable");
  assert.match(await page.textContent("#error"), /just support cluster and region spread constraint/);
  const rows = await pipelineRows(page);
  assert.deepEqual(Object.keys(rows), ["member1", "member2"]);
  assert.ok(Object.values(rows).every((r) => !r.out));
  await screenshot(page, "pipeline-label-only");
  await page.close();
});

test("pipeline: 20 clusters are readable at 1280 px", async () => {
  const clusters = Array.from({ length: 20 }, (_, i) => ({
    name: `member${i + 1}`,
    region: ["eu", "us", "ap"][i % 3],
    availableReplicas: 5 + i,
    taints: i % 4 === 0 ? [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] : [],
  }));
  const scenario = {
    version: 1,
    title: "Twenty clusters",
    clusters,
    workload: { replicas: 40 },
    policy: {
      strategy: "dynamicWeight",
      spreadConstraints: [
        { spreadByField: "region", minGroups: 2, maxGroups: 3 },
        { spreadByField: "cluster", minGroups: 2, maxGroups: 6 },
      ],
    },
  };
  const page = await run.chrome.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(run.server.url + "/" + link(scenario));
  await page.waitForSelector("#assignment");
  await page.click("#tab-pipeline");
  await page.waitForSelector("#pipeline");
  const rows = await pipelineRows(page);
  assert.equal(Object.keys(rows).length, 20);
  assert.equal(Object.values(rows).filter((r) => r.out).length, 5);
  await screenshot(page, "pipeline-20-clusters");
  // The table fits its column: nothing is cut off or scrolled sideways.
  const fit = await page.$eval("#pipeline", (t) => ({ table: t.scrollWidth, box: t.parentElement.clientWidth }));
  assert.ok(fit.table <= fit.box, JSON.stringify(fit));
  await page.close();
});

// --- Issue 37's playground items, each as a user meets it ------------------------------------

/** Import the Kubernetes example `id` from the Kubernetes tab, and wait for its outcome. */
async function importExample(page, id) {
  await page.click("#tab-kubernetes");
  await page.selectOption("#k8s-preset", id);
  await page.waitForFunction(() => document.querySelector("#k8s-objects").value.includes("kind: PropagationPolicy"));
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-report");
}

test("a failed import leaves nothing that looks current", async () => {
  const page = await open("/");
  await importExample(page, "static-weight");
  assert.match(await page.textContent("#notice"), /Imported from Kubernetes objects: 3 clusters/);
  const before = await shown(page);
  const text = await page.inputValue("#k8s-objects");
  await page.fill("#k8s-objects", text.replace("apiVersion: apps/v1\nkind: Deployment", "apiVersion: apps/v1beta1\nkind: Deployment"));
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-error");
  // The banner of the import before is gone; the outcome, still the scenario's, is dimmed and
  // says whose it is.
  assert.equal(await page.$("#notice"), null);
  await page.waitForSelector(".results.stale");
  assert.match(await page.textContent(".stale-note"), /import failed.*before it/);
  assert.deepEqual(await shown(page), before);
  // An import that reads makes it current again.
  await page.fill("#k8s-objects", text);
  await page.click("#k8s-import");
  await page.waitForFunction(() => !document.querySelector(".results.stale"));
  assert.match(await page.textContent("#notice"), /Imported from Kubernetes objects/);
  await page.close();
});

test("no two controls share a name: the scenario file and the Kubernetes objects", async () => {
  const page = await open("/");
  // Every button and file control, the Kubernetes tab's too (mounted, hidden).
  const names = await page.$$eval("button, label.button", (els) =>
    els.map((e) => e.textContent.trim()).filter((n) => /import|open|save|export/i.test(n)));
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], names.join(" | "));
  assert.ok(!names.includes("Import"), names.join(" | "));
  assert.ok(names.includes("Open scenario file") && names.includes("Import objects"), names.join(" | "));
  await page.close();
});

test("the first screen and the Pipeline tab speak Karmada's words, the rest explained on hover", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const text = await page.textContent("main");
  for (const word of ["seed 000", "proposal's opening", "decided nothing", "whose input", "Webster's tie order"])
    assert.ok(!text.includes(word), `the page says “${word}”`);
  const available = await page.$$eval("#assignment tbody td.available", (cells) => cells.map((c) => [c.textContent, c.title]));
  for (const [cell, title] of available) {
    assert.notEqual(cell, "requested");
    assert.match(title, /no estimator answered/);
  }
  assert.match(await page.getAttribute("#seed", "title"), /tie/);
  await page.click("#tab-pipeline");
  await page.waitForSelector("#pipeline");
  const heads = await page.$$eval("#pipeline thead th", (th) => th.map((h) => [h.textContent, h.title]));
  const said = heads.map(([h]) => h);
  for (const word of ["kept", "order", "avail.", "API"]) assert.ok(!said.includes(word), said.join(" | "));
  for (const [h, title] of heads.slice(1)) assert.ok(title, `${h} is explained on hover`);
  const hint = await page.textContent(".pipeline .hint");
  assert.ok(!hint.includes("uses no scheduler field"), hint);
  assert.match(hint, /APIEnablement/);
  // No row shows a column of dashes for a plugin that judged nothing.
  assert.equal(await page.$('#pipeline td[data-plugin="APIEnablement"]'), null);
  await page.close();
});

test("the two “available” figures are labelled for what they are", async () => {
  const scenario = {
    version: 1,
    clusters: [{ name: "member1", availableReplicas: 100 }, { name: "member2", availableReplicas: 100 }],
    workload: { replicas: 4 },
    policy: { strategy: "dynamicWeight" },
    previous: { member1: 1, member2: 3 },
  };
  const page = await open("/" + link(scenario));
  const result = await page.$$eval("#assignment tbody tr", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, Number(r.querySelector(".available").textContent)])));
  assert.match(await page.getAttribute("#assignment th[title*=Pipeline]", "title"), /previous/);
  await page.click("#tab-pipeline");
  await page.waitForSelector("#pipeline");
  const heads = await page.$$eval("#pipeline thead th", (th) => th.map((h) => h.textContent));
  const column = heads.indexOf("available + previous");
  assert.ok(column > 0, heads.join(" | "));
  const pipeline = await page.$$eval("#pipeline tbody tr[data-cluster]", (rows, column) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, Number(r.children[column].textContent)])), column);
  // Each figure is what its label says.
  for (const [name, n] of Object.entries(result)) assert.equal(pipeline[name], n + scenario.previous[name], name);
  await page.close();
});

test("evenness after inertia: ties the previous placement decided are not judged as chance", async () => {
  const page = await open("/#preset=story1-scale-up-7-to-8");
  await page.click("#tab-evenness");
  await page.waitForSelector('#evenness-status[data-done="true"]', { timeout: 30000 });
  assert.match(await page.textContent("#evenness-status"), /a random choice decided 0 of them/);
  assert.equal(await page.$('#evenness tr[data-outside="true"]'), null);
  assert.equal(await page.$("#evenness tbody tr"), null, "no cluster is judged against a fair draw");
  assert.equal(await page.$("#evenness thead"), null, "no table without a row");
  assert.equal(await page.$("#evenness-none"), null, "weights alone did not decide them");
  assert.match(await page.textContent("#evenness-left"), /kept by inertia in 1000 of 1000 runs/);
  assert.match(await page.textContent("#evenness-inertia"), /kept by inertia/);
  await page.close();
});

test("advanced fields fold under “more”, open when set, and stay open while typed in", async () => {
  const page = await open("/#preset=divide-7-replicas-2-1-1");
  const requests = field("workload.requests");
  assert.equal(await page.isVisible(requests), false);
  await unfold(page, "workload");
  await page.fill(requests, "cpu=1");
  await page.fill(requests, "");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "7");
  assert.equal(await page.isVisible(requests), true, "clearing the field keeps it in view");
  // A preset that sets one opens them by itself.
  await page.close();
  const set = await open("/#preset=general-estimator-500m");
  assert.equal(await set.isVisible(field("workload.requests")), true);
  await set.close();
});

test("the answer is where the eye is, at 1280x900 and at 400 px", async () => {
  const wide = await run.chrome.newPage({ viewport: { width: 1280, height: 900 } });
  wide.on("pageerror", (e) => pageErrors.push(String(e)));
  await wide.goto(run.server.url + "/#preset=divide-7-replicas-2-1-1");
  await wide.waitForSelector("#assignment");
  const top = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top);
  assert.ok((await top(wide, 'section.editor[data-section="clusters"] table')) < 900 - 100, "the clusters table is above the fold");
  assert.ok((await top(wide, "#assignment tbody tr")) < 900 - 100, "the assignment is above the fold");
  await wide.close();
  const narrow = await run.chrome.newPage({ viewport: { width: 400, height: 900 } });
  narrow.on("pageerror", (e) => pageErrors.push(String(e)));
  await narrow.goto(run.server.url + "/#preset=divide-7-replicas-2-1-1");
  await narrow.waitForSelector("#assignment");
  // Editing the replicas, at the top of the form: the answer shows at the foot of the screen.
  await narrow.fill(field("workload.replicas"), "8");
  await narrow.waitForFunction(() => document.querySelector(".answer-bar")?.textContent.includes("member1 4"));
  const bar = await narrow.$eval(".answer-bar", (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
  assert.ok(bar.top >= 0 && bar.bottom <= 900, JSON.stringify(bar));
  const replicas = await narrow.$eval(field("workload.replicas"), (e) => e.getBoundingClientRect().bottom);
  assert.ok(replicas < bar.top, "the field edited is not under the answer");
  await screenshot(narrow, "answer-bar-400");
  await narrow.close();
});

test("cosmetics: a toleration's effect reads whole, a past step says so, no preload warning, headings in order", async () => {
  const page = await run.chrome.newPage({ viewport: { width: 1280, height: 900 } });
  const warnings = [];
  page.on("console", (m) => ["warning", "error"].includes(m.type()) && warnings.push(m.text()));
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(run.server.url + "/#preset=divide-7-replicas-2-1-1");
  await page.waitForSelector("#assignment");
  await page.waitForTimeout(3500);
  assert.deepEqual(warnings.filter((w) => /integrity|preload/i.test(w)), []);
  // A toleration's effect select shows its longest effect whole.
  await page.click('button.add[data-for="policy.clusterTolerations"]');
  const effect = '#tolerations select[data-path$=".effect"]';
  await page.waitForSelector(effect);
  await page.selectOption(effect, "PreferNoSchedule");
  const [box, needed] = await page.$eval(effect, (s) => {
    const probe = document.createElement("span");
    probe.style.font = getComputedStyle(s).font;
    probe.textContent = "PreferNoSchedule";
    document.body.append(probe);
    const w = probe.getBoundingClientRect().width;
    probe.remove();
    return [s.clientWidth, w];
  });
  assert.ok(box >= needed, `${box} px for ${needed} px of text`);
  // A past step says it is one.
  await page.click("#apply");
  await page.fill(field("workload.replicas"), "8");
  await page.waitForFunction(() => document.querySelector(".replicas-total")?.textContent === "8");
  await page.click("#apply");
  await page.click('#history button[data-step="0"]');
  await page.waitForSelector("#step-banner");
  assert.match(await page.textContent("#step-banner"), /Viewing step 1 as it was applied/);
  await page.click("#step-banner-home");
  await page.waitForFunction(() => !document.querySelector("#step-banner"));
  // After an import, the Pipeline tab's headings follow the page's.
  await importExample(page, "static-weight");
  await page.click("#tab-pipeline");
  await page.waitForSelector("#pipeline");
  const found = await axe(page);
  assert.deepEqual(found.filter((v) => v.id === "heading-order"), []);
  await page.close();
});

test("the example manifests say which policy Karmada uses, and refuse what its webhook refuses", async () => {
  const page = await open("/");
  await importExample(page, "policy-priority");
  assert.match(
    await page.textContent("#k8s-report .report-policy"),
    /PropagationPolicy shop\/web-by-label .* over ClusterPropagationPolicy every-deployment .*whatever the priorities/,
  );
  await page.selectOption("#k8s-preset", "region-spread-refused");
  await page.waitForFunction(() => document.querySelector("#k8s-objects").value.includes("web-regions"));
  await page.click("#k8s-import");
  await page.waitForSelector("#k8s-error");
  assert.match(await page.getAttribute("#k8s-error", "data-path"), /^objects\[3\]\.spec\.placement\.spreadConstraints/);
  assert.match(await page.textContent("#k8s-error"), /refused at admission: the cluster spread constraint must be enabled/);
  await page.close();
});
