// The playground as a user sees it: load, edit, check what the page shows.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, browser, screenshot } from "./harness.mjs";

let server, chrome, page;
const errors = [];

before(async () => {
  server = await serve();
  chrome = await browser();
  page = await chrome.newPage({ viewport: { width: 1100, height: 800 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.url + "/");
  await page.waitForSelector("#assignment");
});

after(async () => {
  await chrome?.close();
  await server?.close();
});

const shown = () =>
  page.$$eval("#assignment tbody tr", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.cluster, Number(r.querySelector(".replicas").textContent)])),
  );

test("the default scenario shows Webster's 7 replicas over 2:1:1", async () => {
  assert.deepEqual(await shown(), { member1: 3, member2: 2, member3: 2 });
});

test("editing replicas updates the assignment live", async () => {
  await page.fill("#replicas", "8");
  await page.waitForFunction(() => document.querySelector("#assignment .replicas")?.textContent === "4");
  assert.deepEqual(await shown(), { member1: 4, member2: 2, member3: 2 });
  await screenshot(page, "playground-8-replicas");
});

test("an invalid value shows a typed error, and the page recovers", async () => {
  await page.fill("#replicas", "-3");
  await page.waitForSelector("#error");
  assert.equal(await page.getAttribute("#error", "data-code"), "negative");
  await page.fill("#replicas", "5");
  await page.waitForSelector("#assignment");
  assert.deepEqual(await shown(), { member1: 3, member2: 1, member3: 1 });
  assert.deepEqual(errors, []);
});
