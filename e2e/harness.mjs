// Shared harness of the end-to-end tests: a static server for the built playground (dist/)
// and a headless Debian Chromium driven by playwright-core, also used by the package tests to
// open pages that run the package and report what it answered.
import { createServer } from "node:http";
import { before, after } from "node:test";
import { writeFileSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { readFile, mkdir } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST = process.env.ALLOT_DIST ?? join(ROOT, "dist");
export const SHOTS = join(ROOT, "target", "screenshots");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Serve `dir` on an ephemeral localhost port, with `headers` on every response; resolves to
 * { url, close }. */
export async function serve(dir = DIST, headers = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    const file = join(dir, path.endsWith("/") ? path + "index.html" : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { ...headers, "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Serve the built site under a sub-path (`/tools/`), as on a server where it is not the
 * root; resolves to { url, close } with `url` the server's root. */
export async function serveUnderSubPath(dir = DIST, name = "tools") {
  const root = mkdtempSync(join(tmpdir(), "allot-subpath-"));
  symlinkSync(dir, join(root, name));
  return serve(root);
}

/** A browser test file's session: a server for `dir` and a browser, started before its tests
 * and closed after them. The figures its tests measure go to target/NAME-figures.json and the
 * output. `headers` go on every response. */
export function session(name, dir = DIST, headers = {}) {
  const s = { server: null, chrome: null, figures: {} };
  before(async () => {
    s.server = await serve(dir, headers);
    s.chrome = await browser();
  });
  after(async () => {
    mkdirSync(join(ROOT, "target"), { recursive: true });
    writeFileSync(join(ROOT, "target", `${name}-figures.json`), JSON.stringify(s.figures, null, 2));
    console.log(`${name} figures:`, JSON.stringify(s.figures));
    await s.chrome?.close();
    await s.server?.close();
  });
  return s;
}

/** Launch Debian's Chromium headless (Playwright gives it a fresh temporary profile) with no
 * background networking: this machine's network is closed. */
export async function browser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Serve `dir`, open `file` from it in headless Chromium, and wait (at most 15 s) for the page
 * to report by setting `document.body.dataset.result` to JSON text. Resolves to { result: that
 * JSON, parsed (undefined when the page never reported), errors: the page's uncaught errors }:
 * for pages that run the package and report what it answered. */
export async function pageResult(dir, file = "index.html") {
  const server = await serve(dir);
  const b = await browser();
  try {
    const page = await b.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/${file}`);
    const reported = await page
      .waitForFunction(() => document.body.dataset.result, null, { timeout: 15000 })
      .then(() => true, () => false);
    const result = reported
      ? JSON.parse(await page.evaluate(() => document.body.dataset.result))
      : undefined;
    return { result, errors };
  } finally {
    await b.close();
    await server.close();
  }
}

/** Save a full-page screenshot as target/screenshots/NAME.png. */
export async function screenshot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core's violations on the page as it is now: [{id, nodes}]. */
export async function axe(page) {
  await page.addScriptTag({ path: join(ROOT, "node_modules", "axe-core", "axe.min.js") });
  const found = await page.evaluate(async () => (await window.axe.run(document)).violations);
  return found.map((v) => ({ id: v.id, nodes: v.nodes.length, first: v.nodes[0]?.target.join(" ") }));
}
