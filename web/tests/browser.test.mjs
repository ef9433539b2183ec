// The package in a browser: a plain HTML page imports it from node_modules, as a page without
// a bundler would, and runs a scenario in headless Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";

const { pageResult } = await import(`${process.env.ALLOT_ROOT}/e2e/harness.mjs`);

test("a plain HTML page loads the package and schedules", async () => {
  writeFileSync(
    "index.html",
    `<!doctype html><meta charset="utf-8"><title>allot</title>
<script type="module">
  import { schedule, version, AllotError } from "./node_modules/allot/index.js";
  const out = schedule({ version: 1, workload: { replicas: 7 },
    clusters: [{ name: "member1", weight: 2 }, { name: "member2", weight: 1 }, { name: "member3", weight: 1 }] });
  // Names beyond ASCII, through the browser's decoding of the outcome.
  const names = schedule({ version: 1, workload: { replicas: 3 },
    clusters: [{ name: "z\u00fcrich" }, { name: "\u6771\u4eac" }, { name: "\u{1f680}" }] }).assignment.map((a) => a.name);
  let code = "";
  try { schedule({ version: 1, clusters: [], workload: { replicas: 1 } }); } catch (e) { code = e instanceof AllotError ? e.code : String(e); }
  document.body.dataset.result = JSON.stringify({ version: version(), assignment: out.assignment, code, names });
</script>`,
  );
  const { result, errors } = await pageResult(process.cwd());
  assert.deepEqual(errors, []);
  assert.match(result.version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual(result.assignment, [
    { name: "member1", replicas: 3 },
    { name: "member2", replicas: 2 },
    { name: "member3", replicas: 2 },
  ]);
  assert.equal(result.code, "no_candidates");
  assert.deepEqual(result.names.sort(), ["z\u00fcrich", "\u6771\u4eac", "\u{1f680}"].sort());
});
