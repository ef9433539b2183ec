// Times the wasm build (web/pkg, Node entry) on the documents `cargo bench --bench scenario`
// wrote to target/bench-scenarios/, and prints the median per call next to criterion's median
// for the same document (target/criterion), as a ratio. Also prints how much of the wasm call
// is V8 building the outcome object from its JSON text (JSON.parse), work the native benchmark
// has no counterpart for. Run by `./dev bench`.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { schedule } = await import(join(ROOT, "web/pkg/index.node.js"));
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

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const name = file.replace(/\.json$/, "");
  const text = readFileSync(join(dir, file), "utf8");
  const outcome = JSON.stringify(schedule(text));
  const wasm = median(() => schedule(text));
  const parse = median(() => JSON.parse(outcome));
  const base = native(name);
  const ratio = base ? `, ${(wasm / base).toFixed(2)}x native (${base.toFixed(2)} ms)` : "";
  console.log(
    `wasm ${name}: ${wasm.toFixed(2)} ms${ratio}; of which JSON.parse of the ` +
      `${(outcome.length / 1e6).toFixed(2)} MB outcome ${parse.toFixed(2)} ms`,
  );
}
