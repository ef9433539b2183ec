// Times `allot explain` end to end on a control plane's dump, as the command runs it: the
// package's `explain` over the text of a file (YAML or JSON), in Node. With several package
// directories, runs them in turn on the same text and prints each one's time as a ratio of
// the first's: `node web/bench/read.mjs FILE [PKG_DIR...]` (default web/pkg). Generate a dump
// with `node web/bench/dump.mjs N list|json > FILE` (with a workload and a policy appended,
// or any `kubectl get -o yaml` output). The answer's parts are read when first used: the
// scenario alone is read unless `READ=all`, which reads every part, as the command's text
// output does.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const [file, ...dirs] = process.argv.slice(2);
const packages = dirs.length ? dirs : [fileURLToPath(new URL("../pkg", import.meta.url))];
const rounds = Number(process.env.ROUNDS ?? 3);
const readAll = process.env.READ === "all";
const text = readFileSync(file, "utf8");
const mb = Buffer.byteLength(text) / 1e6;

const apis = [];
for (const dir of packages) apis.push(await import(resolve(dir, "kubernetes.node.js")));

const times = packages.map(() => []);
for (let r = 0; r < rounds; r++) {
  apis.forEach((api, k) => {
    const t = performance.now();
    const e = api.explain(text);
    if (readAll) for (const part of Object.keys(e)) void e[part];
    times[k].push(performance.now() - t);
    if (r === 0 && k === 0) console.log(`${file}: ${mb.toFixed(1)} MB, ${e.scenario.clusters.length} clusters`);
  });
}
const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
const base = median(times[0]);
packages.forEach((dir, k) => {
  const ms = median(times[k]);
  const each = times[k].map((t) => (t / 1000).toFixed(2)).join(", ");
  console.log(`${dir}: ${(ms / 1000).toFixed(2)} s (median of ${each}), ${(mb / (ms / 1000)).toFixed(1)} MB/s, ${(ms / base).toFixed(2)}x the first`);
});
