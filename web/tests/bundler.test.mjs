// The package through a bundler: webpack 5 builds a small app that imports "allot" (its
// `browser` entry, the module emitted as an asset from `new URL(..., import.meta.url)`, the
// top-level await of its instantiation), and the bundle runs in headless Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const ROOT = process.env.ALLOT_ROOT;
const webpack = createRequire(join(ROOT, "package.json"))("webpack");
const { pageResult } = await import(`${ROOT}/e2e/harness.mjs`);

function build(config) {
  return new Promise((resolve, reject) =>
    webpack(config, (err, stats) => {
      if (err) reject(err);
      else if (stats.hasErrors()) reject(new Error(stats.toString("errors-only")));
      else resolve(stats);
    }),
  );
}

test("webpack bundles an app that imports allot, and it runs in a browser", async () => {
  const app = join(process.cwd(), "bundled-app");
  mkdirSync(join(app, "src"), { recursive: true });
  writeFileSync(
    join(app, "src", "app.js"),
    `import { schedule, AllotError } from "allot";
const out = schedule({ version: 1, seed: 1, workload: { replicas: 7 },
  clusters: [{ name: "member1", weight: 2 }, { name: "member2", weight: 1 }, { name: "z\\u00fcrich", weight: 1 }] });
let code = "";
try { schedule({ version: 1, clusters: [], workload: { replicas: 1 } }); } catch (e) { code = e instanceof AllotError ? e.code : String(e); }
document.body.dataset.result = JSON.stringify({ assignment: out.assignment, code });
`,
  );
  const stats = await build({
    mode: "production",
    context: app,
    entry: "./src/app.js",
    target: "web",
    output: { path: join(app, "dist"), filename: "app.js", publicPath: "auto" },
    // The test project's node_modules, where the tarball was installed.
    resolve: { modules: [join(process.cwd(), "node_modules")] },
    performance: { hints: false },
  });
  assert.deepEqual(stats.compilation.warnings.map(String), []);
  const emitted = readdirSync(join(app, "dist"));
  assert.ok(emitted.some((f) => f.endsWith(".wasm")), `the module is emitted: ${emitted}`);
  writeFileSync(
    join(app, "dist", "index.html"),
    `<!doctype html><meta charset="utf-8"><title>bundled</title><script src="app.js"></script>`,
  );
  const { result, errors } = await pageResult(join(app, "dist"));
  assert.deepEqual(errors, []);
  assert.deepEqual(result.assignment, [
    { name: "member1", replicas: 3 },
    { name: "member2", replicas: 2 },
    { name: "z\u00fcrich", replicas: 2 },
  ]);
  assert.equal(result.code, "no_candidates");
});
