// Times the package's `planFleet` on the fleet of the speed targets, as `allot plan` runs it
// (the dump's JSON text in, the plan parsed out): every binding scheduled from scratch, and one
// cluster down over today's bindings. The dumps are the native benchmark's fleet
// (core/benches/fleet.rs), written by
//   cargo run --release -p allot-core --example fleet -- dump 10000 fresh FRESH.json
//   cargo run --release -p allot-core --example fleet -- dump 10000 placed PLACED.json
// and the same example times the native side (`... --example fleet -- plan FILE [CLUSTER]`).
// `node web/bench/fleet.mjs FRESH.json PLACED.json [PKG_DIR...]` (default web/pkg): with several
// package directories, runs them in turn and prints each one's time as a ratio of the first's.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const [fresh, placed, ...dirs] = process.argv.slice(2);
if (!fresh || !placed) {
  console.error("usage: node web/bench/fleet.mjs FRESH.json PLACED.json [PKG_DIR...]");
  process.exit(2);
}
const packages = dirs.length ? dirs : [fileURLToPath(new URL("../pkg", import.meta.url))];
const rounds = Number(process.env.ROUNDS ?? 5);
const down = process.env.CLUSTER ?? "member-5";
const texts = { fresh: readFileSync(fresh, "utf8"), placed: readFileSync(placed, "utf8") };

const apis = [];
for (const dir of packages) apis.push(await import(resolve(dir, "fleet.node.js")));

const cases = [
  ["from scratch", () => texts.fresh, undefined],
  [`cluster ${down} down`, () => texts.placed, { clusterDown: [down] }],
];
const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
for (const [name, input, whatIf] of cases) {
  const times = packages.map(() => []);
  for (let r = 0; r < rounds; r++) {
    apis.forEach((api, k) => {
      const t = performance.now();
      const p = api.planFleet(input(), undefined, whatIf);
      times[k].push(performance.now() - t);
      if (r === 0 && k === 0) {
        const s = p.summary;
        console.log(`${name}: ${s.bindings} bindings, ${s.changed} changed, ${s.unschedulable} unschedulable`);
      }
    });
  }
  const base = median(times[0]);
  packages.forEach((dir, k) => {
    const ms = median(times[k]);
    const each = times[k].map((t) => t.toFixed(0)).join(", ");
    console.log(`  ${dir}: ${ms.toFixed(0)} ms (median of ${each}), ${(ms / base).toFixed(2)}x the first`);
  });
}
