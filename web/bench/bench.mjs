// Times the wasm build (web/pkg, Node entry) on the documents `cargo bench --bench scenario`
// wrote to target/bench-scenarios/, and prints the median per call: compare with criterion's
// figures for the same names. Run by `./dev bench`.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { schedule } = await import(join(ROOT, "web/pkg/index.node.js"));
const dir = join(ROOT, "target/bench-scenarios");

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const text = readFileSync(join(dir, file), "utf8");
  for (let i = 0; i < 3; i++) schedule(text);
  const times = [];
  const deadline = performance.now() + 3000;
  while (times.length < 20 || (performance.now() < deadline && times.length < 200)) {
    const t = performance.now();
    schedule(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`wasm ${file.replace(/\.json$/, "")}: ${median.toFixed(2)} ms (median of ${times.length})`);
}
