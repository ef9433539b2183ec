// Times the package's `readiness` (allot plan --each) on the fleet of the readiness benchmark
// (core/benches/readiness.rs: 1,000 clusters in 30 zones of 10 regions, 10,000 workloads with
// their bindings), beside the native build's time measured in the same run: each round runs
// the native example once, then the package once, so that both meet the same load on a
// shared machine, and the figure is their ratio. Then the peak memory of every cluster's
// failure beside one failure's plan, natively and in Node, each in a process of its own.
//
//   cargo run --release -p allot-core --example fleet -- dump 10000 zoned ZONED.json
//   node web/bench/readiness.mjs ZONED.json NATIVE [PKG_DIR]
//
// NATIVE is the example's binary (target/release/examples/fleet); PKG_DIR the package (default
// web/pkg). ROUNDS (default 4) rounds per kind of failure; EACH (default `cluster,zone,region`)
// the kinds.
//
// The package's time is the whole call as `allot plan --each` makes it: the dump's JSON text
// read, every failure planned, the answer written as JSON text and parsed. The native example
// times the same three phases (read, readiness, JSON); its figure is their sum.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const SELF = fileURLToPath(import.meta.url);

// A child of this script: one call in a fresh process, its peak memory reported as JSON.
if (process.argv[2] === "--memory") {
  const [, , , dir, file, what] = process.argv;
  const raw = await import(resolve(dir, "allot_fleet.js"));
  const api = await import(resolve(dir, "fleet.node.js"));
  const text = readFileSync(file, "utf8");
  const t = performance.now();
  if (what === "plan") api.planFleet(text, undefined, { clusterDown: ["member-5"] });
  else api.readiness(text, undefined, { each: what });
  const ms = performance.now() - t;
  // Already initialised by fleet.node.js: initSync answers the module's exports. WebAssembly
  // memory never shrinks, so its size now is the most the call held.
  const wasm = raw.initSync({ module: new Uint8Array() });
  console.log(JSON.stringify({ ms, wasmBytes: wasm.memory.buffer.byteLength, maxRssKb: process.resourceUsage().maxRSS }));
  process.exit(0);
}

const [file, native, dir = fileURLToPath(new URL("../pkg", import.meta.url))] = process.argv.slice(2);
if (!file || !native) {
  console.error("usage: node web/bench/readiness.mjs ZONED.json NATIVE_EXAMPLE [PKG_DIR]");
  process.exit(2);
}
const rounds = Number(process.env.ROUNDS ?? 4);
const kinds = (process.env.EACH ?? "cluster,zone,region").split(",");
const api = await import(resolve(dir, "fleet.node.js"));
const text = readFileSync(file, "utf8");

/** The example's phases from its line: `read 193.8 ms, readiness 5220.4 ms, JSON 3.1 ms ... peak 240.2 MB`. */
function nativeRun(args) {
  const line = execFileSync(native, args, { encoding: "utf8" }).trim();
  const num = (name, unit = "ms") => Number(line.match(new RegExp(`\\b${name} ([\\d.]+) ${unit}`))?.[1] ?? NaN);
  const work = line.includes(" readiness ") ? num("readiness") : num("plan");
  return { line, read: num("read"), work, json: num("JSON"), peakMb: num("peak", "MB") };
}
const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
const f0 = (x) => x.toFixed(0);

console.log(`readiness of ${file}, ${rounds} rounds, native and package in turn; load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const each of kinds) {
  const nat = [];
  const nread = [];
  const pkg = [];
  let said;
  for (let r = 0; r < rounds; r++) {
    const n = nativeRun(["readiness", file, each]);
    nat.push(n.read + n.work + n.json);
    nread.push(n.read);
    const t = performance.now();
    const answer = api.readiness(text, undefined, { each });
    pkg.push(performance.now() - t);
    said ??= answer.said;
  }
  // The package's first call compiles the module's hot code (V8 tiers it up as it runs) and
  // grows its memory: the command's one call pays that, a page's later calls do not. Both
  // are said; the figure is the calls after the first (all of them with one round).
  const later = pkg.length > 1 ? pkg.slice(1) : pkg;
  const base = median(nat);
  console.log(`each ${each}: ${said}`);
  console.log(`  native ${f0(base)} ms (read ${f0(median(nread))} ms; ${nat.map(f0).join(", ")}), ` +
    `package ${f0(median(later))} ms (${pkg.map(f0).join(", ")}): ${(median(later) / base).toFixed(2)}x native ` +
    `(target 1.5x); its first call ${(pkg[0] / base).toFixed(2)}x`);
}

// Peak memory: every cluster's failure against one failure's plan (member-5 down), each in a
// process of its own, natively (the example's VmHWM) and in Node (the module's memory, and the
// process's peak resident memory).
const child = (what) => JSON.parse(execFileSync(process.execPath, [SELF, "--memory", dir, file, what], { encoding: "utf8" }));
const natPlan = nativeRun(["plan", file, "member-5"]);
const natEach = nativeRun(["readiness", file, "cluster"]);
const jsPlan = child("plan");
const jsEach = child("cluster");
const mb = (b) => (b / 1e6).toFixed(1);
console.log("peak memory, every cluster's failure / one failure's plan:");
console.log(`  native: ${natEach.peakMb} MB / ${natPlan.peakMb} MB = ${(natEach.peakMb / natPlan.peakMb).toFixed(2)}x (target 1.2x)`);
console.log(`  package, wasm memory: ${mb(jsEach.wasmBytes)} MB / ${mb(jsPlan.wasmBytes)} MB = ${(jsEach.wasmBytes / jsPlan.wasmBytes).toFixed(2)}x; ` +
  `Node's peak RSS: ${mb(jsEach.maxRssKb * 1e3)} MB / ${mb(jsPlan.maxRssKb * 1e3)} MB = ${(jsEach.maxRssKb / jsPlan.maxRssKb).toFixed(2)}x`);
