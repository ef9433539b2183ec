// Checks the timings the browser tests measured (target/NAME-figures.json) against their
// targets. Timings are never asserted in the tests themselves, which a busy machine must not
// fail; run this on a quiet one (`./dev figures`, after `./dev test`). Exit 1 when a target is
// missed, 2 when a figures file is missing.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Per figures file: [figure, most allowed, why]. */
export const TARGETS = {
  fleet: [
    ["loadToFleetMs", 2000, "a 7 MB dump chosen to the fleet on screen"],
    ["deleteMs", 200, "delete a cluster: click to plan on screen"],
    ["downMs", 200, "cluster down: click to plan on screen"],
    ["cordonMs", 200, "cordon: click to plan on screen"],
    ["deleteLongestMainTaskMs", 49.9, "no main-thread task over 50 ms on an event"],
    ["downLongestMainTaskMs", 49.9, "no main-thread task over 50 ms on an event"],
    ["cordonLongestMainTaskMs", 49.9, "no main-thread task over 50 ms on an event"],
    ["undoLongestMainTaskMs", 49.9, "no main-thread task over 50 ms on undo"],
    ["redoLongestMainTaskMs", 49.9, "no main-thread task over 50 ms on redo"],
    ["scrollFrameMedianMs", 16.8, "60 fps at the median while the workload list scrolls"],
    ["scrollFrameP95Ms", 49.9, "the 95th percentile frame while scrolling"],
  ],
  readiness: [
    ["readinessMs", 5000, "each of 1,000 clusters failing (10,000 workloads): click to the full table"],
    ["readinessLongestMainTaskMs", 49.9, "no main-thread task over 50 ms while the panel works and renders"],
  ],
};

export function check(read = (name) => JSON.parse(readFileSync(join(ROOT, "target", `${name}-figures.json`), "utf8"))) {
  const rows = [];
  for (const [name, targets] of Object.entries(TARGETS)) {
    let figures;
    try {
      figures = read(name);
    } catch {
      rows.push({ name, figure: "(file)", value: undefined, most: undefined, ok: false, why: `target/${name}-figures.json: run ./dev test first` });
      continue;
    }
    for (const [figure, most, why] of targets) {
      const value = figures[figure];
      rows.push({ name, figure, value, most, ok: typeof value === "number" && value <= most, why });
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = check();
  for (const r of rows)
    console.log(`${r.ok ? "met   " : "missed"} ${r.name}.${r.figure}: ${r.value ?? "-"} (at most ${r.most ?? "-"}): ${r.why}`);
  const missing = rows.some((r) => r.figure === "(file)");
  process.exit(missing ? 2 : rows.every((r) => r.ok) ? 0 : 1);
}
