// The <allot-playground> element inside another documentation toolchain: a minimal VitePress
// site (the toolchain family of Karmada's own docs: a bundler and a Vue front end) that imports
// `allot/element` from the package, built here, served, opened in Chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { serve, browser, screenshot, ROOT } from "./harness.mjs";
import { expected, readRows } from "./outcome.mjs";

// Inside the clone, so that VitePress resolves from the dev tools' node_modules.
const SITE = join(ROOT, "target", "vitepress-site");
const STORY = JSON.parse(readFileSync(join(ROOT, "docs", "examples", "story1-scale-up-7-to-8.json"), "utf8"));

let server, chrome;

before(async () => {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(join(SITE, "docs", ".vitepress", "theme"), { recursive: true });
  // The package as a user's install has it.
  cpSync(join(ROOT, "web", "pkg"), join(SITE, "node_modules", "allot"), { recursive: true });
  writeFileSync(join(SITE, "package.json"), JSON.stringify({ name: "docs", private: true, type: "module" }));
  writeFileSync(join(SITE, "docs", ".vitepress", "config.mjs"), `
export default {
  title: "Scheduling, explained",
  head: [["link", { rel: "icon", href: "data:," }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === "allot-playground" } } },
};
`);
  writeFileSync(join(SITE, "docs", ".vitepress", "theme", "index.mjs"), `
import DefaultTheme from "vitepress/theme";
export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import("allot/element");
  },
};
`);
  writeFileSync(join(SITE, "docs", "index.md"), `# Scaling up from 7 to 8

Karmada's first story of the even-division proposal, live:

<allot-playground preset="story1-scale-up-7-to-8" editors="replicas weights"></allot-playground>
`);
  execFileSync(join(ROOT, "node_modules", ".bin", "vitepress"), ["build", "docs"], { cwd: SITE, stdio: "pipe" });
  server = await serve(join(SITE, "docs", ".vitepress", "dist"));
  chrome = await browser();
});

after(async () => {
  await chrome?.close();
  await server?.close();
});

test("a VitePress page: the widget renders the core's outcome and follows an edit", async () => {
  const page = await chrome.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => document.querySelector("allot-playground")?.shadowRoot?.querySelector("#assignment"));
  assert.deepEqual(await page.evaluate(readRows, "allot-playground"), expected(STORY));
  const replicas = page.locator("allot-playground").locator('input[data-path="workload.replicas"]');
  await replicas.fill("12");
  const edited = { ...STORY, workload: { replicas: 12 } };
  await page.waitForFunction(
    (want) => document.querySelector("allot-playground").shadowRoot
      .querySelector('#assignment tbody tr[data-cluster="member1"] .replicas')?.textContent === want,
    expected(edited).member1,
  );
  assert.deepEqual(await page.evaluate(readRows, "allot-playground"), expected(edited));
  assert.deepEqual(errors, []);
  await screenshot(page, "vitepress-widget");
  await page.close();
});
