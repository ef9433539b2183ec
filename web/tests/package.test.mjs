// The npm package as a user gets it: the packed tarball installed into a fresh project.
// ./dev test sets ALLOT_EXAMPLES (docs/examples) and ALLOT_OUTCOMES (the outcomes the native
// tests wrote for the same examples).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  AllotError,
  capacity,
  deploy,
  divide,
  estimate,
  filter,
  parseQuantity,
  schedule,
  scheduleJson,
  select,
  validateResourceModels,
  version,
} from "allot";

const EXAMPLES = process.env.ALLOT_EXAMPLES;
const OUTCOMES = process.env.ALLOT_OUTCOMES;
const read = (path) => JSON.parse(readFileSync(path, "utf8"));
const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ name: f.replace(/\.json$/, ""), scenario: read(join(EXAMPLES, f)) }));

const throwsAllot = (fn, code, path) =>
  assert.throws(fn, (e) => {
    assert.ok(e instanceof AllotError, `an AllotError, got ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.code, code, e.message);
    if (path !== undefined) assert.equal(e.path, path, e.message);
    return true;
  });

test("version is the crate's semver", () => {
  assert.match(version(), /^\d+\.\d+\.\d+$/);
});

test("every example gives the native outcome", () => {
  assert.ok(examples.length >= 19, `${examples.length} examples`);
  for (const { name, scenario } of examples) {
    const native = read(join(OUTCOMES, `${name}.json`));
    if (native.error) {
      // A story that ends in an error: the same code and path as natively.
      throwsAllot(() => schedule(scenario), native.error.code, native.error.path);
      continue;
    }
    const got = schedule(scenario);
    if (scenario.seed === undefined) {
      // Drawn here, 0 natively; it decides nothing in these examples.
      assert.equal(got.seedDrawn, true, name);
      assert.ok(Number.isSafeInteger(got.seed), name);
      assert.notEqual(got.randomDecided, true, name);
      assert.deepEqual({ ...got, seed: 0 }, native, name);
    } else {
      assert.equal(got.seedDrawn, false, name);
      assert.deepEqual(got, native, name);
    }
    // JSON text gives the same answer as the object.
    assert.deepEqual(schedule(JSON.stringify({ ...scenario, seed: 5 })), schedule({ ...scenario, seed: 5 }), name);
    // scheduleJson: the same outcome as 7-bit clean text.
    const text = scheduleJson({ ...scenario, seed: 5 });
    assert.equal(typeof text, "string", name);
    assert.match(text, /^[\x00-\x7f]*$/, name);
    assert.deepEqual(JSON.parse(text), schedule({ ...scenario, seed: 5 }), name);
  }
});

test("names beyond ASCII come back as they went in", () => {
  const names = ["z\u00fcrich", "m\u00fcnchen", "\u6771\u4eac", "\u{1f680}", 'quote"back\\slash'];
  const scenario = { version: 1, seed: 1, workload: { replicas: 10 }, clusters: names.map((name) => ({ name })) };
  const text = scheduleJson(scenario);
  assert.match(text, /^[\x00-\x7f]*$/);
  assert.ok(text.includes('"z\\u00fcrich"') && text.includes('"\\ud83d\\ude80"'), text.slice(0, 200));
  const out = schedule(scenario);
  assert.deepEqual(out.assignment.map((a) => a.name).sort(), [...names].sort());
  assert.equal(out.assignment.reduce((sum, a) => sum + a.replicas, 0), 10);
  assert.deepEqual(JSON.parse(text), out);
});

test("scenario text is read whole whatever its characters", () => {
  // Text that needs more UTF-8 bytes than it has UTF-16 units (the module reads it in two
  // rounds), characters of four bytes, and a lone surrogate, which reads as U+FFFD.
  const names = ["\u6771".repeat(5000), "\u{1f680}".repeat(100), "lone\ud800x", "plain"];
  const scenario = { version: 1, seed: 1, workload: { replicas: 4 }, clusters: names.map((name) => ({ name })) };
  const text = JSON.stringify(scenario).replace("\\ud800", "\ud800");
  const out = schedule(text);
  const expected = names.map((n) => n.replace("\ud800", "\ufffd"));
  assert.deepEqual(out.assignment.map((a) => a.name).sort(), expected.sort());
  assert.deepEqual(JSON.parse(scheduleJson(text)), out);
});

test("an outcome stays whole whatever is asked next", () => {
  // The module writes every answer into the same memory; what a call returned must not change
  // when a later call writes a shorter, a longer, or a failed answer there.
  const scenario = (n) => ({ version: 1, seed: 1, workload: { replicas: n },
    clusters: Array.from({ length: n }, (_, i) => ({ name: `member-${i}` })) });
  const long = scheduleJson(scenario(300));
  const longObject = schedule(scenario(300));
  const short = scheduleJson(scenario(2));
  const estimates = estimate(scenario(2));
  throwsAllot(() => scheduleJson({ version: 1, clusters: [{ name: "a", weight: -1 }], workload: { replicas: 3 } }),
    "negative", "clusters[0].weight");
  scheduleJson(scenario(600));
  assert.deepEqual(JSON.parse(long), longObject);
  assert.equal(JSON.parse(long).assignment.length, 300);
  assert.equal(JSON.parse(short).assignment.length, 2);
  assert.deepEqual(estimate(scenario(2)), estimates);
});

test("the same seed, the same outcome; the seed decides ties", () => {
  const s = {
    version: 1,
    clusters: [{ name: "a" }, { name: "b" }, { name: "c" }],
    workload: { replicas: 4 },
    policy: { method: "remainder" },
  };
  const winners = new Set();
  for (let seed = 0; seed < 40; seed++) {
    const a = schedule({ ...s, seed });
    assert.deepEqual(a, schedule({ ...s, seed }));
    assert.equal(a.seed, seed);
    assert.equal(a.randomDecided, true);
    winners.add(a.assignment.find((x) => x.replicas === 2).name);
  }
  assert.equal(winners.size, 3);
  const drawn = schedule(s);
  assert.equal(drawn.seedDrawn, true);
  assert.deepEqual(schedule({ ...s, seed: drawn.seed }).assignment, drawn.assignment);
});

test("granular calls", () => {
  const models = examples.find((e) => e.name === "resource-models-3c-20gi").scenario;
  const est = estimate(models);
  assert.deepEqual(est.targets.map((t) => t.availableReplicas), [6, 4, 10]);
  assert.match(est.targets[0].general.model.formula, /= 6$/);
  const div = divide({ ...models, clusters: models.clusters.map((c, i) => ({ name: c.name, availableReplicas: [6, 4, 10][i] })) });
  assert.deepEqual(div.assignment, schedule(models).assignment);
  const eru = examples.find((e) => e.name === "eru-volumes").scenario;
  assert.equal(capacity(eru).total, 12);
  assert.deepEqual(deploy(eru).deploy, { node1: 12 });
  throwsAllot(() => capacity(models), "invalid_input", "clusters");
  throwsAllot(() => estimate(eru), "invalid_input", "nodes");
});

test("quantities and resource models", () => {
  assert.deepEqual(parseQuantity("500m"), { value: 500, exact: "500", unit: "milli", canonical: "500m" });
  assert.equal(parseQuantity("16Gi", "memory").value, 17179869184);
  assert.equal(parseQuantity("1e3", "pods").value, 1000);
  throwsAllot(() => parseQuantity("16 GB", "memory"), "invalid_quantity");
  throwsAllot(() => parseQuantity("-1", "memory"), "negative");
  const ok = [
    { grade: 0, ranges: [{ name: "cpu", min: 0, max: 1 }] },
    { grade: 1, ranges: [{ name: "cpu", min: 1, max: "9223372036854775807" }] },
  ];
  assert.equal(validateResourceModels(ok), null);
  const gap = structuredClone(ok);
  gap[1].ranges[0].min = 2;
  const p = validateResourceModels(gap);
  assert.equal(p.code, "invalid_model");
  assert.equal(p.path, "[1].ranges[0].min");
});

test("errors carry a code and the field's path", () => {
  const base = { version: 1, clusters: [{ name: "a", weight: 1 }, { name: "b", weight: 2 }], workload: { replicas: 3 } };
  throwsAllot(() => schedule({ ...base, clusters: [{ name: "a", wieght: 1 }] }), "invalid_input", "clusters[0].wieght");
  throwsAllot(() => schedule({ ...base, clusters: [{ name: "a" }, { name: "b", weight: -2 }] }), "negative", "clusters[1].weight");
  throwsAllot(() => schedule({ ...base, version: 2 }), "unsupported_version", "version");
  throwsAllot(() => scheduleJson({ ...base, version: 2 }), "unsupported_version", "version");
  throwsAllot(() => schedule({ ...base, workload: { replicas: 3, count: 1 } }), "invalid_input", "workload.count");
  throwsAllot(
    () => schedule({ ...base, clusters: [{ name: "a", resourceSummary: { allocatable: { cpu: "four" } } }] }),
    "invalid_quantity",
    "clusters[0].resourceSummary.allocatable.cpu",
  );
  throwsAllot(() => schedule({ ...base, policy: { strategy: "dynamicWeight" }, clusters: [{ name: "a", availableReplicas: 1 }] }), "unschedulable", "workload.replicas");
  throwsAllot(() => schedule('{"version": 1,'), "invalid_input");
  throwsAllot(() => schedule(undefined), "invalid_input");
  // The module keeps working after errors.
  assert.equal(schedule(base).assignment.length, 2);
});

test("beyond the limits: too_large", () => {
  const clusters = Array.from({ length: (1 << 20) + 1 }, (_, i) => ({ name: `c${i}` }));
  throwsAllot(() => schedule({ version: 1, clusters, workload: { replicas: 1 } }), "too_large", "clusters");
  throwsAllot(() => schedule({ version: 1, clusters: [{ name: "a" }], workload: { replicas: 2 ** 53 + 2 } }), "too_large", "workload.replicas");
  // A node whose CPU map would bind a billion times: counted, too_large at once, and the
  // module keeps answering.
  for (const pieces of [1e8, 2e9]) {
    throwsAllot(
      () => deploy({ version: 1, nodes: [{ name: "n", memory: "1Gi", cpuMap: { 0: pieces } }], workload: { count: 1, requests: { cpu: 1 }, cpuBind: true } }),
      "too_large",
      "nodes[0].cpuMap",
    );
  }
  assert.equal(deploy({ version: 1, nodes: [{ name: "n", memory: "1Gi", cpuMap: { 0: 100 } }], workload: { count: 1, requests: { cpu: 1 }, cpuBind: true } }).deploy.n, 1);
});

test("numbers beyond a limit are too_large, whatever their size or form", () => {
  const at = (replicas) => ({ version: 1, clusters: [{ name: "a" }], workload: { replicas } });
  for (const replicas of [1e16, 1e19, 1e300, 2 ** 63, -1e300])
    throwsAllot(() => schedule(at(replicas)), "too_large", "workload.replicas");
  throwsAllot(() => schedule('{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":1e300}}'), "too_large", "workload.replicas");
  // A whole number written with an exponent is that number.
  assert.equal(schedule('{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":3e0}}').assignment[0].replicas, 3);
});

test("a reported seed reproduces its outcome; seeds beyond 2^53 are too_large", () => {
  const doc = (seed) =>
    `{"version":1,"clusters":[{"name":"a"},{"name":"b"},{"name":"c"}],"workload":{"replicas":4},"policy":{"method":"remainder"},"seed":${seed}}`;
  throwsAllot(() => schedule(doc("9007199254740993")), "too_large", "seed");
  throwsAllot(() => schedule(doc("18446744073709551615")), "too_large", "seed");
  const out = schedule(doc(String(2 ** 53)));
  assert.equal(out.seed, 2 ** 53);
  assert.deepEqual(schedule(doc(String(out.seed))).assignment, out.assignment);
});

test("values JSON cannot hold are reported as what they were", () => {
  const base = { version: 1, clusters: [{ name: "a", weight: 1 }], workload: { replicas: 3 } };
  for (const [bad, word] of [[NaN, "NaN"], [Infinity, "Infinity"], [-Infinity, "-Infinity"]]) {
    assert.throws(
      () => schedule({ ...base, workload: { replicas: bad } }),
      (e) => e instanceof AllotError && e.code === "invalid_input" && e.path === "workload.replicas" && e.message.includes(word),
    );
    assert.throws(
      () => schedule({ ...base, clusters: [{ name: "a", weight: bad }] }),
      (e) => e instanceof AllotError && e.path === "clusters[0].weight" && e.message.includes(word),
    );
  }
  for (const [bad, word] of [[undefined, "undefined"], [() => 1, "function"], [Symbol("s"), "symbol"], [null, "null"], [7, "number"], [10n, "bigint"]]) {
    assert.throws(
      () => schedule(bad),
      (e) => e instanceof AllotError && e.code === "invalid_input" && e.message.includes(word),
      String(word),
    );
  }
  // A required field given as undefined (JSON.stringify leaves it out) is said as such.
  assert.throws(
    () => schedule({ ...base, clusters: [{ name: undefined, weight: 1 }] }),
    (e) => e instanceof AllotError && e.code === "invalid_input" && e.path === "clusters[0].name" && e.message.includes("undefined"),
  );
  // A byte order mark before JSON text is read past.
  assert.equal(schedule("\uFEFF" + JSON.stringify(base)).assignment[0].replicas, 3);
  assert.equal(schedule(base).assignment[0].replicas, 3);
});

test("every bad argument is an AllotError, and only allot's errors are", () => {
  for (const bad of [null, undefined, {}, [], true, Symbol("s")])
    assert.throws(() => parseQuantity(bad), (e) => e instanceof AllotError && e.code === "invalid_input", String(bad));
  assert.equal(parseQuantity(5).value, 5000);
  assert.equal(parseQuantity(0.5, "cpu").value, 500);
  assert.throws(() => parseQuantity("1", 5), (e) => e instanceof AllotError && e.code === "invalid_input");
  for (const bad of [undefined, null, 5, "[", {}])
    assert.throws(() => validateResourceModels(bad), (e) => e instanceof AllotError, String(bad));
  assert.equal(parseQuantity("2").value, 2000);
});

// A small deterministic PRNG for the mutations.
function rng(seed) {
  let s = BigInt(seed) | 1n;
  return () => {
    s ^= s << 13n; s &= (1n << 64n) - 1n;
    s ^= s >> 7n;
    s ^= s << 17n; s &= (1n << 64n) - 1n;
    return Number(s % 1000003n) / 1000003;
  };
}

const ODD = [null, true, -1, 0, 2 ** 53, 1e300, -0.5, "", "16Gi", "NaN", "x:y", [], {}, [1, "a"], { name: 1 }];

function mutate(doc, r) {
  const paths = [];
  const walk = (v, path) => {
    paths.push(path);
    if (v && typeof v === "object") for (const k of Object.keys(v)) walk(v[k], [...path, k]);
  };
  walk(doc, []);
  const path = paths[Math.floor(r() * paths.length)];
  if (path.length === 0) return ODD[Math.floor(r() * ODD.length)];
  let at = doc;
  for (const k of path.slice(0, -1)) at = at[k];
  const last = path[path.length - 1];
  if (r() < 0.2) delete at[last];
  else at[last] = structuredClone(ODD[Math.floor(r() * ODD.length)]);
  return doc;
}

test("mutated scenarios give outcomes or AllotErrors, never a crash", () => {
  const r = rng(20261122);
  let errors = 0;
  for (let i = 0; i < 600; i++) {
    const doc = mutate(structuredClone(examples[i % examples.length].scenario), r);
    try {
      schedule(doc);
    } catch (e) {
      assert.ok(e instanceof AllotError, `case ${i}: ${e} for ${JSON.stringify(doc).slice(0, 300)}`);
      assert.ok(e.message.length > 0);
      errors++;
    }
  }
  assert.ok(errors > 0 && errors < 600, `${errors} errors`);
  assert.equal(schedule(examples[0].scenario).kind, "karmada");
});

test("allot/element is exported, and mounts the playground's embedded view from widget.js", async () => {
  const url = import.meta.resolve("allot/element");
  assert.match(url, /node_modules\/allot\/element\.js$/);
  const source = readFileSync(new URL(url), "utf8");
  assert.match(source, /customElements\.define\("allot-playground"/);
  assert.match(source, /import\("\.\/widget\.js"\)/);
  // The app's module instantiates (outside a browser it waits for `mount`, which needs a DOM).
  const widget = await import(new URL("./widget.js", url));
  await widget.default({ module_or_path: readFileSync(new URL("./widget_bg.wasm", url)) });
  assert.equal(typeof widget.mount, "function");
  const { default: css } = await import(new URL("./widget-style.js", url));
  assert.ok(css.includes(":host") && !/\d+rem\b/.test(css), "the stylesheet, its rem in the widget's own size");
});

test("filter and select: each plugin's verdict, the order, what selection keeps", () => {
  const scenario = read(join(EXAMPLES, "scheduler-taint-drops-cluster.json"));
  const f = filter(scenario);
  const m3 = f.clusters.find((c) => c.cluster === "member3");
  assert.equal(m3.feasible, false);
  assert.equal(m3.reason, "cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}");
  assert.deepEqual(
    m3.verdicts.map((v) => [v.plugin, v.status]),
    [
      ["APIEnablement", "notEvaluated"],
      ["TaintToleration", "unschedulable"],
      ["ClusterAffinity", "passed"],
      ["SpreadConstraint", "passed"],
      ["ClusterEviction", "passed"],
    ],
  );
  assert.equal(f.selection, null);
  const s = select(read(join(EXAMPLES, "scheduler-spread-two-regions.json")));
  assert.deepEqual(s.selection.candidates, ["member1", "member3", "member4"]);
  assert.equal(s.error, null);
  // A scheduling failure is reported, not thrown.
  const zone = select(read(join(EXAMPLES, "scheduler-label-only.json")));
  assert.equal(zone.error.code, "spread_unsatisfiable");
  assert.equal(zone.error.message, "policy.spreadConstraints: just support cluster and region spread constraint");
  // Bad input still throws.
  throwsAllot(() => select({ ...scenario, policy: { plugins: ["Nope"] } }), "unknown_value", "policy.plugins[0]");
});
