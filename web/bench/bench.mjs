// Times the wasm build (web/pkg, Node entry) on the documents `cargo bench --bench scenario`
// wrote to target/bench-scenarios/, and prints the median per call next to criterion's median
// for the same document (target/criterion), as a ratio: `scheduleJson` (JSON text in, JSON
// text out, as the native benchmark) and `schedule` (an object out). Also prints how much of
// the `schedule` call is V8 building the outcome object from its JSON text (JSON.parse), work
// the native benchmark has no counterpart for. Run by `./dev bench`.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { schedule, scheduleJson } = await import(join(ROOT, "web/pkg/index.node.js"));
const dir = join(ROOT, "target/bench-scenarios");

function median(f) {
  for (let i = 0; i < 3; i++) f();
  const times = [];
  const deadline = performance.now() + 3000;
  while (times.length < 20 || (performance.now() < deadline && times.length < 200)) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function native(name) {
  const file = join(ROOT, "target/criterion/scenario_json", name, "new/estimates.json");
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")).median.point_estimate / 1e6;
}

const ratio = (ms, base) => (base ? `, ${(ms / base).toFixed(2)}x native` : "");

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const name = file.replace(/\.json$/, "");
  const text = readFileSync(join(dir, file), "utf8");
  const outcome = scheduleJson(text);
  const base = native(name);
  // Text in, text out: the very work the native benchmark times.
  const json = median(() => scheduleJson(text));
  // Text in, an object out: V8 also builds the outcome object (JSON.parse of the text).
  const object = median(() => schedule(text));
  const parse = median(() => JSON.parse(outcome));
  console.log(
    `${name}: native ${base ? base.toFixed(2) : "?"} ms; wasm scheduleJson ` +
      `${json.toFixed(2)} ms${ratio(json, base)}; schedule ${object.toFixed(2)} ms` +
      `${ratio(object, base)}, of which JSON.parse of the ${(outcome.length / 1e6).toFixed(2)} MB ` +
      `outcome ${parse.toFixed(2)} ms`,
  );
}
