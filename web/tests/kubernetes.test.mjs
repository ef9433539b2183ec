// `allot/kubernetes`, `allot/fleet` and the `allot` command as a user gets them: the packed
// tarball installed into a fresh project, the manifests of docs/manifests read as files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import {
  AllotError,
  bindingOf,
  explain,
  fromObjects,
  fromYaml,
  schedule,
  select,
  toObjects,
  toYaml,
} from "allot/kubernetes";
import * as kubernetes from "allot/kubernetes";
import { fleetSession, planFleet } from "allot/fleet";
import * as fleet from "allot/fleet";
import * as main from "allot";

const DIR = join(process.env.ALLOT_ROOT, "docs/manifests");
const file = (name) => join(DIR, name);
const text = (name) => readFileSync(file(name), "utf8");

function code(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof AllotError, String(e));
    return { code: e.code, path: e.path, message: e.message };
  }
  assert.fail("expected an AllotError");
}

test("multi-document YAML imports with its report", () => {
  const { scenario, report, resource } = fromObjects(text("static-weight.yaml"));
  assert.deepEqual([resource.kind, resource.namespace, resource.name], ["Deployment", "default", "nginx"]);
  assert.deepEqual(scenario.clusters.map((c) => c.name), ["member1", "member2", "member3"]);
  assert.equal(scenario.workload.replicas, 7);
  assert.equal(scenario.policy.strategy, "staticWeight");
  assert.ok(report.used.some((e) => e.object === "PropagationPolicy nginx" && e.into === "policy.staticWeights"));
  assert.ok(report.ignored.length === 0 || report.ignored.every((e) => e.into.length > 0));
});

test("explain: the placement, the binding and what changes", () => {
  const e = explain(text("dynamic-weight.yaml"));
  assert.equal(e.outcome.assignment.reduce((n, a) => n + a.replicas, 0), 12);
  assert.equal(e.resourceBinding.kind, "ResourceBinding");
  assert.equal(e.resourceBinding.metadata.name, "web-deployment");
  assert.deepEqual(e.resourceBinding.spec.clusters, e.binding.clusters);
  const member1 = e.binding.changes.find((c) => c.cluster === "member1");
  assert.equal(member1.before, 4);
  // `schedule` takes the same objects, and gives what the main entry gives for the scenario.
  const direct = schedule(text("dynamic-weight.yaml"));
  assert.equal(direct.kind, "karmada");
  assert.deepEqual(direct.assignment, main.schedule(e.scenario).assignment);
  assert.deepEqual(schedule(e.scenario).assignment, direct.assignment, "scenarios still work");
  // The binding a scenario's schedule writes, for a named template.
  const w = bindingOf(e.scenario, { name: "web", namespace: "default" });
  assert.deepEqual(w.binding, e.binding);
  assert.equal(w.resourceBinding.metadata.name, "web-deployment");
  assert.equal(bindingOf(e.scenario).resourceBinding.spec.resource.name, "workload");
});

test("explain's parts read the same whenever, and in whatever order, they are read", () => {
  const input = text("dynamic-weight.yaml");
  // The seed is drawn per call; the rest is the same answer every time.
  const plain = (e) => JSON.parse(JSON.stringify(e).replace(/"seed":\d+/g, '"seed":0'));
  const whole = plain(explain(input));
  assert.deepEqual(Object.keys(whole), ["scenario", "report", "outcome", "binding", "resourceBinding"]);
  // Answers made before any is read (more than the module keeps), read last part first.
  const answers = [explain(input), explain(input), explain(input), explain(input)];
  for (const e of answers) {
    for (const name of [...Object.keys(whole)].reverse()) assert.deepEqual(plain(e[name]), whole[name], name);
    assert.deepEqual(plain(e), whole);
  }
  // A part read between other calls, and a part assigned, are plain properties.
  const e = explain(input);
  explain(text("static-weight.yaml")).outcome;
  assert.deepEqual(plain(e.binding), whole.binding);
  e.outcome = 1;
  assert.equal(e.outcome, 1);
  assert.deepEqual(Object.getOwnPropertyDescriptor(e, "binding").writable, true);
  assert.deepEqual(plain({ ...e, outcome: whole.outcome }), whole);
});

test("several files, objects and member state", () => {
  const objects = toObjects(fromObjects(text("statefulset-nodes.yaml")).scenario).objects;
  const e = explain([text("statefulset-nodes.yaml")], {
    members: {
      member1: text("statefulset-nodes.member1.yaml"),
      member2: [text("statefulset-nodes.member2.yaml")],
    },
  });
  const m1 = e.scenario.clusters.find((c) => c.name === "member1");
  assert.equal(m1.nodes.length, 3);
  assert.equal(m1.pods.length, 1);
  assert.deepEqual(
    e.outcome.assignment.map((a) => [a.name, a.replicas]),
    [["member1", 4], ["member2", 1]],
  );
  assert.ok(objects.some((o) => o.kind === "StatefulSet"));
});

test("a scenario exported as objects and YAML imports back to the same scenario", () => {
  const { scenario } = fromObjects(text("spread-regions.yaml"));
  const exported = toObjects(scenario);
  assert.deepEqual(exported.unexpressed, []);
  const yaml = toYaml(exported.objects);
  assert.match(yaml, /^---$/m);
  assert.deepEqual(fromObjects(yaml).scenario, scenario);
  assert.deepEqual(fromObjects(exported.objects).scenario, scenario, "objects as they are");
});

test("bad input: clear errors with code and path, never a hang", () => {
  // A YAML bomb: nine levels of ten aliases each.
  let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 10; i++) {
    const prev = String.fromCharCode(96 + i);
    const c = String.fromCharCode(97 + i);
    bomb += `${c}: &${c} [${Array(10).fill(`*${prev}`).join(", ")}]\n`;
  }
  assert.equal(code(() => fromObjects(bomb)).code, "invalid_input");
  // A 10 MB document: a member's ten thousand pods import (or are refused whole, never hung).
  const pods = [];
  for (let i = 0; i < 10_000; i++)
    pods.push(`- apiVersion: v1\n  kind: Pod\n  metadata: {name: p${i}, namespace: default, annotations: {note: "${"x".repeat(900)}"}}\n  spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: 10m}}}]}\n  status: {phase: Running}\n`);
  const big = `apiVersion: v1\nkind: List\nitems:\n${pods.join("")}`;
  assert.ok(big.length > 10_000_000);
  const imported = fromObjects(text("statefulset-nodes.yaml"), { members: { member1: big } });
  assert.equal(imported.scenario.clusters[0].pods.length, 10_000);
  // A wrong apiVersion, a Deployment without replicas, a Cluster without status.
  const wrong = text("static-weight.yaml").replace("apiVersion: apps/v1\nkind: Deployment", "apiVersion: extensions/v1beta1\nkind: Deployment");
  const e = code(() => fromObjects(wrong));
  assert.equal(e.path, "objects[3].apiVersion");
  assert.match(e.message, /Deployment nginx/);
  const fresh = fromObjects(text("static-weight.yaml").replace("  replicas: 7\n", ""));
  assert.equal(fresh.scenario.workload.replicas, 1);
  assert.ok(fresh.report.defaulted.some((d) => d.field === "spec.replicas"));
  const bare = fromObjects(
    "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n",
  );
  assert.ok(bare.report.ignored.some((d) => d.field === "status.resourceSummary"));
  // Two policies selecting the template alike: the name first in order is used, as Karmada's
  // detector does, and the report says why; naming the other overrides.
  const second = text("static-weight.yaml") + "---\n" +
    text("static-weight.yaml").split("---\n").find((d) => d.includes("kind: PropagationPolicy")).replace("name: nginx\n  namespace", "name: nginx-too\n  namespace");
  const both = fromObjects(second).report.policy;
  assert.equal(both.policy, "PropagationPolicy default/nginx");
  assert.equal(both.decided, "nameOrder");
  assert.deepEqual(both.others.map((o) => o.policy), ["PropagationPolicy default/nginx-too"]);
  assert.match(both.others[0].why, /nginx comes first in name order/);
  const named = fromObjects(second, { policy: "nginx-too" });
  assert.equal(named.scenario.policy.strategy, "staticWeight");
  assert.equal(named.report.policy.decided, "named");
  // Not YAML at all, and a field of the wrong type in a later document.
  assert.equal(code(() => fromObjects("kind: [")).code, "invalid_input");
  const typed = code(() => fromObjects(text("static-weight.yaml").replace("replicas: 7", "replicas: seven")));
  assert.match(typed.path, /^documents\[3\]\.spec\.replicas$/);
  // When nothing fits, the steps before the division still say why.
  const noApi = fromObjects(text("static-weight.yaml").replaceAll("kind: Deployment}", "kind: Other}"));
  assert.ok(select(noApi.scenario).clusters.every((c) => !c.feasible));
});

// The command from the packed tarball, as `npx allot` runs it.
function allot(args, input) {
  const r = spawnSync("npx", ["--no-install", "allot", ...args], {
    input,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 << 20,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("npx allot explain on files and on standard input", () => {
  const files = allot(["explain", "-f", file("static-weight.yaml")]);
  assert.equal(files.status, 0, files.stderr);
  assert.match(files.stdout, /^member1\s+2\s/m);
  assert.match(files.stdout, /^member3\s+5\s/m);
  assert.match(files.stdout, /member2: cluster\(s\) had untolerated taint \{dedicated=gpu:NoSchedule\}/);
  assert.match(files.stdout, /^Policy: PropagationPolicy default\/nginx \(priority 0, matched by name\): the only policy that selects the template$/m);
  const stdin = allot(["explain", "-"], text("static-weight.yaml"));
  assert.equal(stdin.status, 0, stdin.stderr);
  assert.equal(stdin.stdout, files.stdout);
  const json = JSON.parse(allot(["explain", "-o", "json", "-f", file("static-weight.yaml")]).stdout);
  assert.deepEqual(json.binding.clusters, [{ name: "member1", replicas: 2 }, { name: "member3", replicas: 5 }]);
  const binding = allot(["explain", "--binding", "-f", file("dynamic-weight.yaml")]);
  assert.equal(binding.status, 0, binding.stderr);
  assert.match(binding.stdout, /^# \* member2: 6 -> 8$/m);
  assert.deepEqual(fromObjects(binding.stdout).scenario.previous, { member1: 4, member2: 8 });
  const members = allot([
    "explain", "-f", file("statefulset-nodes.yaml"),
    "--member", `member1=${file("statefulset-nodes.member1.yaml")}`,
    "--member", `member2=${file("statefulset-nodes.member2.yaml")}`,
  ]);
  assert.equal(members.status, 0, members.stderr);
  assert.match(members.stdout, /^member1\s+4\s/m);
});

test("allot explain never loads the fleet module; allot plan does", () => {
  // The installed package copied without the fleet module's wasm.
  const installed = dirname(fileURLToPath(import.meta.resolve("allot/package.json")));
  const copy = join(mkdtempSync(join(tmpdir(), "allot-")), "allot");
  cpSync(installed, copy, { recursive: true });
  rmSync(join(copy, "allot_fleet_bg.wasm"));
  const run = (args) => spawnSync(process.execPath, [join(copy, "cli.js"), ...args], { encoding: "utf8", timeout: 60_000 });
  const explained = run(["explain", "-f", file("static-weight.yaml")]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(explained.stdout, /^member3\s+5\s/m);
  assert.equal(run(["version"]).status, 0);
  const planned = run(["plan", "-f", file("fleet-shop.yaml")]);
  assert.notEqual(planned.status, 0);
  assert.match(planned.stderr, /allot_fleet_bg\.wasm/);
});

test("the Karmada release the objects come from: an option, a flag, a scenario field", () => {
  const objects = text("static-weight.yaml");
  assert.equal(fromObjects(objects).scenario.karmada, undefined, "the newest is not written");
  assert.equal(fromObjects(objects, { karmada: "v1.17.5" }).scenario.karmada, "1.17.5");
  const wrong = code(() => fromObjects(objects, { karmada: "1.20" }));
  assert.deepEqual([wrong.code, wrong.path], ["invalid_input", "karmada"]);
  const json = JSON.parse(allot(["explain", "-o", "json", "--karmada-version", "1.16", "-f", file("static-weight.yaml")]).stdout);
  assert.equal(json.scenario.karmada, "1.16");
  assert.match(allot(["explain", "-h"]).stdout, /--karmada-version VERSION/);
});

test("the scheduler's feature gates: an option, a flag, the scenario's gates", () => {
  const objects = text("static-weight.yaml");
  const gates = (o) => fromObjects(objects, o).scenario.policy?.gates ?? {};
  assert.deepEqual(gates({}), {});
  assert.deepEqual(gates({ featureGates: "CustomizedClusterResourceModeling=false,Failover=true" }), {
    customizedClusterResourceModeling: false,
  });
  assert.deepEqual(gates({ featureGates: { MultiplePodTemplatesScheduling: true } }), { multiplePodTemplatesScheduling: true });
  const unknown = code(() => fromObjects(objects, { featureGates: "Nope=true" }));
  assert.deepEqual([unknown.code, unknown.path], ["invalid_input", "featureGates"]);
  const json = JSON.parse(
    allot(["explain", "-o", "json", "--feature-gates", "CustomizedClusterResourceModeling=false", "-f", file("static-weight.yaml")]).stdout,
  );
  assert.equal(json.scenario.policy.gates.customizedClusterResourceModeling, false);
  const old = allot(["explain", "--karmada-version", "1.17", "--feature-gates", "SchedulingOvercommitProtection=true", "-f", file("static-weight.yaml")]);
  assert.equal(old.status, 1);
  assert.match(old.stderr, /--feature-gates SchedulingOvercommitProtection=true/);
  assert.match(allot(["explain", "-h"]).stdout, /--feature-gates NAME=BOOL/);
});

test("npx allot explain: bad input exits 1 with the error's code and path", () => {
  const bad = allot(["explain", "-"], "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: x}\n");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^error: invalid_input at apiVersion: Deployment x: expected apps\/v1/m);
  const two = allot(["explain", "-f", file("static-weight.yaml"), "-f", "-"], "kind: [\n");
  assert.equal(two.status, 1);
  assert.match(two.stderr, /^error: invalid_input at stdin: /m);
  const unfit = allot(["explain", "-"], text("static-weight.yaml").replaceAll("kind: Deployment}", "kind: Other}"));
  assert.equal(unfit.status, 1);
  assert.match(unfit.stdout, /member1: cluster\(s\) did not have the API resource/);
  assert.match(unfit.stderr, /^error: no_cluster_fit/m);
  assert.equal(allot(["explain", "--bogus"]).status, 2);
});

const DUMP = join(process.env.ALLOT_ROOT, "web/bench/dump.mjs");
const { dump } = await import(DUMP);

test("npx allot: -h on every command, exit codes in the help", () => {
  for (const args of [["explain", "-h"], ["explain", "--help"], ["explain", "-f", "x.yaml", "-h"], ["version", "-h"], ["-h"], ["help", "explain"]]) {
    const r = allot(args);
    assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage:/m, args.join(" "));
  }
  const help = allot(["explain", "-h"]).stdout;
  assert.match(help, /-o, --output/);
  assert.match(help, /-R, --recursive/);
  assert.match(help, /^Exit status:\n  0 .*\n  1 [^]*\n  2 /m);
  assert.match(help, /256 MiB/);
  const unknown = allot(["explain", "--bogus"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /--bogus/);
  assert.equal(allot(["explain", "-o", "xml"]).status, 2);
});

test("npx allot explain -o json|yaml|wide", () => {
  const f = file("static-weight.yaml");
  const json = allot(["explain", "-o", "json", "-f", f]);
  assert.equal(json.status, 0, json.stderr);
  const answer = JSON.parse(json.stdout);
  const yaml = allot(["explain", "-o", "yaml", "-f", f]);
  assert.equal(yaml.status, 0, yaml.stderr);
  const read = fromYaml(yaml.stdout);
  assert.deepEqual(read.binding, answer.binding);
  assert.deepEqual(read.scenario.clusters, answer.scenario.clusters);
  const wide = allot(["explain", "-o", "wide", "-f", f]);
  assert.equal(wide.status, 0, wide.stderr);
  assert.match(wide.stdout, /^CLUSTER\s+REPLICAS.*\sREGION\s+ZONES\s+AVAILABLE/m);
  // A ClusterPropagationPolicy for every Deployment: the PropagationPolicy wins, and -o wide
  // says why the other is not used.
  const cpp = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\n" +
    "spec:\n  priority: 5\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n";
  const two = allot(["explain", "-o", "wide", "-"], text("static-weight.yaml") + "---\n" + cpp);
  assert.equal(two.status, 0, two.stderr);
  assert.match(two.stdout, /^Policy: PropagationPolicy default\/nginx \(priority 0, matched by name\) over ClusterPropagationPolicy all \(priority 5, matched by an empty selector\): a PropagationPolicy that selects the template comes before any ClusterPropagationPolicy/m);
  assert.match(two.stdout, /^  not used: ClusterPropagationPolicy all: a PropagationPolicy that selects/m);
  const binding = JSON.parse(allot(["explain", "--binding", "-o", "json", "-f", file("dynamic-weight.yaml")]).stdout);
  assert.equal(binding.kind, "ResourceBinding");
});

test("npx allot explain -f DIR and -R read a directory's manifests as kubectl does", () => {
  const dir = mkdtempSync(join(tmpdir(), "allot-manifests-"));
  const documents = text("static-weight.yaml").split(/^---$/m);
  documents.slice(0, 3).forEach((d, i) => writeFileSync(join(dir, `cluster-${i}.yaml`), d));
  writeFileSync(join(dir, "notes.txt"), "not a manifest: skipped");
  mkdirSync(join(dir, "app"));
  writeFileSync(join(dir, "app", "deployment.yml"), documents[3]);
  writeFileSync(join(dir, "app", "policy.json"), JSON.stringify(fromYaml(documents[4])));
  const recursive = allot(["explain", "-R", "-f", dir]);
  assert.equal(recursive.status, 0, recursive.stderr);
  assert.match(recursive.stdout, /^member1\s+2\s/m);
  assert.match(recursive.stdout, /^member3\s+5\s/m);
  const flat = allot(["explain", "-f", dir]);
  assert.equal(flat.status, 1, "without -R the template and the policy are not read");
  assert.match(flat.stderr, /no resource template \(Deployment, StatefulSet/);
  const empty = mkdtempSync(join(tmpdir(), "allot-empty-"));
  const none = allot(["explain", "-f", empty]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no \.yaml, \.yml or \.json files in/);
  const wrong = allot(["explain", "-f", file("static-weight.yaml"), "-f", join(dir, "app", "deployment.yml")]);
  assert.equal(wrong.status, 1, "two templates");
  const bad = allot(["explain", "-R", "-f", dir, "-f", "-"], "kind: Deployment\nspec: {replicas: seven}\n");
  assert.match(bad.stderr, /^error: invalid_input at stdin: spec\.replicas: /m);
});

test("npx allot explain: errors once, in the user's terms, as JSON under -o json", () => {
  // -o json: the error as JSON on standard output.
  const r = allot(["explain", "-o", "json", "-"], "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: x}\n");
  assert.equal(r.status, 1);
  const e = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(e), ["code", "path", "message"]);
  assert.equal(e.code, "invalid_input");
  assert.equal(e.path, "apiVersion");
  assert.ok(!e.message.includes(e.path + ":"), e.message);
  const unreadable = allot(["explain", "-o", "json", "-f", "/nonexistent/x.yaml"]);
  assert.equal(unreadable.status, 1);
  assert.equal(JSON.parse(unreadable.stdout).code, "unreadable");
  // Each path once, as the user finds it in their file: the document, the List item.
  const policy = text("static-weight.yaml").replace("  resourceSelectors:\n", "  resourceSelectors: 3\n  x:\n");
  const twice = allot(["explain", "-"], policy);
  assert.equal(twice.status, 1);
  const line = twice.stderr.split("\n").find((l) => l.startsWith("error:"));
  const path = line.match(/ at (\S+):/)[1];
  assert.match(path, /^documents\[4\]\./);
  assert.equal(line.split(path).length, 2, line);
  const apiVersion = text("static-weight.yaml").replace("apiVersion: apps/v1\nkind: Deployment", "apiVersion: extensions/v1beta1\nkind: Deployment");
  assert.match(allot(["explain", "-"], apiVersion).stderr, /^error: invalid_input at documents\[3\]\.apiVersion: /m);
  const list = JSON.stringify({ apiVersion: "v1", kind: "List", items: [fromYaml(text("static-weight.yaml").split(/^---$/m)[0]), { apiVersion: "extensions/v1beta1", kind: "Deployment", metadata: { name: "x" } }] });
  assert.match(allot(["explain", "-"], list).stderr, /^error: invalid_input at items\[1\]\.apiVersion: /m);
  // Values as the user wrote them.
  const negative = text("static-weight.yaml").replace('cpu: "16"', 'cpu: "-6"');
  assert.notEqual(negative, text("static-weight.yaml"));
  const n = allot(["explain", "-"], negative);
  assert.equal(n.status, 1);
  assert.match(n.stderr, /-6\b/);
  assert.doesNotMatch(n.stderr, /-6000/);
  // What is missing, in Kubernetes' words.
  for (const input of ["", text("static-weight.yaml").split(/^---$/m).slice(0, 3).join("---")]) {
    const m = allot(["explain", "-"], input);
    assert.equal(m.status, 1);
    assert.match(m.stderr, /no resource template \(Deployment, StatefulSet, [^)]*\)/);
    assert.doesNotMatch(m.stderr, /workload\.replicas/);
  }
  // Past the limit, said in words without reading the file.
  const big = join(mkdtempSync(join(tmpdir(), "allot-big-")), "big.yaml");
  writeFileSync(big, "");
  truncateSync(big, 257 * 1024 * 1024);
  const large = allot(["explain", "-o", "json", "-f", big]);
  assert.equal(large.status, 1);
  assert.match(JSON.parse(large.stdout).message, /larger than 256 MiB/);
});

test("YAML dumps of a control plane read within the limits", () => {
  // 2,327 Clusters as documents (past serde-saphyr's default of 1,024 documents), and 25,000
  // as one List (past 2,000,000 YAML nodes).
  const workload = text("static-weight.yaml").split(/^---$/m).slice(3);
  assert.equal(fromObjects(dump(2_327, "documents") + "---" + workload.join("---")).scenario.clusters.length, 2_327);
  const list = dump(25_000, "list");
  assert.ok(list.length > 20e6, `${list.length}`);
  const r = allot(["explain", "-o", "json", "-"], list);
  assert.equal(JSON.parse(r.stdout).code, "missing", "read whole: only the template is missing");
});

test("--binding keeps every field of the given binding", () => {
  const eviction = text("dynamic-weight.yaml").replace(
    "  - name: member2\n    replicas: 6\n",
    "  - name: member2\n    replicas: 6\n  gracefulEvictionTasks:\n  - fromCluster: member1\n    replicas: 2\n    reason: TaintUntolerated\n    producer: TaintManager\n",
  );
  assert.notEqual(eviction, text("dynamic-weight.yaml"));
  const r = allot(["explain", "--binding", "-"], eviction);
  assert.equal(r.status, 0, r.stderr);
  const written = fromYaml(r.stdout.replace(/^#.*\n/gm, ""));
  assert.deepEqual(written.spec.gracefulEvictionTasks, [
    { fromCluster: "member1", replicas: 2, reason: "TaintUntolerated", producer: "TaintManager" },
  ]);
  assert.equal(written.metadata.ownerReferences[0].uid, "5f1e7c2a-0d4b-4bde-9b7e-web");
  assert.equal(written.status.schedulerObservedGeneration, 2);
  assert.equal(written.status.lastScheduledTime, "2026-11-20T10:00:00Z");
  const e = explain(eviction);
  assert.equal(e.resourceBinding.spec.gracefulEvictionTasks[0].producer, "TaintManager");
  assert.deepEqual(e.resourceBinding.spec.clusters, e.binding.clusters);
});

// A Ready member cluster serving Deployments, 8 CPUs; a Deployment of `shop` whose pods ask
// one CPU; its binding placed on `clusters` (YAML flow text): items of a dump's list.
const cluster = (name) => `- apiVersion: cluster.karmada.io/v1alpha1
  kind: Cluster
  metadata: {name: ${name}}
  status:
    conditions: [{type: Ready, status: "True"}]
    apiEnablements: [{groupVersion: apps/v1, resources: [{name: deployments, kind: Deployment}]}]
    resourceSummary: {allocatable: {cpu: "8", pods: "110"}}`;
const deployment = (name, replicas) => `- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: ${name}, namespace: shop}
  spec:
    replicas: ${replicas}
    template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}`;
const binding = (name, replicas, clusters) => `- apiVersion: work.karmada.io/v1alpha2
  kind: ResourceBinding
  metadata: {name: ${name}-deployment, namespace: shop}
  spec:
    resource: {apiVersion: apps/v1, kind: Deployment, namespace: shop, name: ${name}}
    replicas: ${replicas}
    clusters: ${clusters}
  status: {lastScheduledTime: "2026-11-20T10:00:00Z"}`;

// A control plane as `kubectl get clusters,pp,rb,deploy -A -o yaml` dumps it: two Clusters,
// one policy dividing every Deployment of `shop` by available replicas, two Deployments and
// their bindings.
const FLEET = `apiVersion: v1
kind: List
items:
${cluster("member1")}
${cluster("member2")}
- apiVersion: policy.karmada.io/v1alpha1
  kind: PropagationPolicy
  metadata: {name: shop, namespace: shop}
  spec:
    resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
    placement:
      replicaScheduling:
        replicaSchedulingType: Divided
        replicaDivisionPreference: Weighted
        weightPreference: {dynamicWeight: AvailableReplicas}
${deployment("web", 4)}
${deployment("api", 2)}
${binding("web", 4, "[{name: member1, replicas: 2}, {name: member2, replicas: 2}]")}
${binding("api", 2, "[{name: member1, replicas: 2}]")}
`;

test("allot/fleet: all of allot/kubernetes and the fleet planner, which allot/kubernetes lacks", () => {
  assert.equal(kubernetes.planFleet, undefined);
  assert.equal(kubernetes.fleetSession, undefined);
  for (const name of Object.keys(kubernetes)) assert.ok(name in fleet, `allot/fleet exports ${name}`);
  // The same error class: an AllotError of either module is one of both.
  assert.equal(fleet.AllotError, AllotError);
  assert.deepEqual(fleet.fromObjects(text("static-weight.yaml")), fromObjects(text("static-weight.yaml")));
  // The fleet module carries the planner: its wasm is the larger of the two.
  const size = (name) => readFileSync(join(dirname(fileURLToPath(import.meta.resolve("allot/package.json"))), name)).length;
  assert.ok(size("allot_fleet_bg.wasm") > size("allot_kubernetes_bg.wasm"));
});

test("planFleet: every binding of a dump, before and after a what-if", () => {
  const drift = planFleet(FLEET);
  assert.deepEqual(drift.summary, {
    bindings: 2, changed: 0, unschedulable: 0, unchanged: 2, movedReplicas: 0, unplacedReplicas: 0, pending: 0,
    overcommittedClusters: 0, said: "0 bindings changed (0 replicas moved), 0 unschedulable, 2 unchanged; 0 clusters overcommitted.",
  });
  // A cluster down: Divided bindings are enqueued by its taint but not rescheduled.
  const down = planFleet(FLEET, {}, { clusterDown: ["member1"] });
  assert.ok(down.bindings.every((b) => b.outcome === "unchanged" && b.why.reason === "noTrigger"));
  // Deleted: its replicas move, and the bindings are written.
  const gone = planFleet(FLEET, {}, { deleteCluster: ["member1"] });
  assert.equal(gone.summary.changed, 2);
  assert.equal(gone.summary.movedReplicas, 4);
  assert.deepEqual(gone.resourceBindings.map((b) => b.spec.clusters), [
    [{ name: "member2", replicas: 4 }],
    [{ name: "member2", replicas: 2 }],
  ]);
  const unknown = code(() => planFleet(FLEET, {}, { cordon: ["member9"] }));
  assert.deepEqual([unknown.code, unknown.path], ["unknown_value", "cordon[0]"]);
  assert.equal(code(() => planFleet(FLEET, {}, { bogus: [] })).code, "invalid_input");
});

test("fleetSession: one what-if at a time ends where planFleet of them all ends; go(k) goes back", () => {
  const dump = text("fleet-shop.yaml");
  const s = fleetSession(dump);
  assert.equal(s.state().bindings.length, planFleet(dump).bindings.length);
  const cordon = s.apply({ cordon: ["member2"] });
  const gone = s.apply({ deleteCluster: ["member1"] });
  assert.deepEqual([s.at, s.steps], [2, 3]);
  const all = planFleet(dump, {}, { cordon: ["member2"], deleteCluster: ["member1"] });
  const after = (bindings) => Object.fromEntries(bindings.map((b) => [b.id.name, b.after ?? b.clusters]));
  assert.deepEqual(after(s.state().bindings), after(all.bindings));
  assert.deepEqual(gone.summary, all.summary);
  assert.ok(cordon.bindings.every((b) => b.outcome === "unchanged"), "a cordon moves nothing");
  // Back to the cordoned fleet, then a what-if planned over it without keeping it.
  assert.ok(s.go(1));
  const planned = s.plan({ deleteCluster: ["member1"] });
  assert.deepEqual(planned.summary, gone.summary);
  assert.deepEqual([s.at, s.steps], [1, 3]);
  assert.ok(s.state().clusters.find((c) => c.name === "member2").cordoned);
  assert.equal(code(() => s.apply({ cordon: ["member9"] })).path, "cordon[0]");
  s.free();
});

test("fleetSession: progress while the scheduler works; the policies as applied", () => {
  const dump = text("fleet-policy.yaml");
  const s = fleetSession(dump);
  const calls = [];
  const drift = s.plan({}, (done, total) => calls.push([done, total]));
  assert.ok(calls.length > 0);
  assert.ok(calls.every(([done, total], k) => done <= total && (k === 0 || done > calls[k - 1][0])), JSON.stringify(calls));
  assert.deepEqual(calls.at(-1), [drift.summary.bindings, drift.summary.bindings]);
  assert.deepEqual(s.plan({}), drift, "the callback changes nothing");
  const [policy] = s.policies();
  assert.deepEqual([policy.kind, policy.metadata.name], ["PropagationPolicy", "shop"]);
  policy.spec.placement.clusterAffinity.clusterNames = ["member1"];
  s.apply({ apply: [policy] });
  assert.deepEqual(s.policies()[0].spec.placement.clusterAffinity.clusterNames, ["member1"]);
  s.free();
});

test("npx allot plan and kubectl allot plan: table, exit codes as kubectl diff", () => {
  const drift = allot(["plan", "-"], FLEET);
  assert.equal(drift.status, 0, drift.stderr);
  assert.match(drift.stdout, /^Plan: 0 bindings changed \(0 replicas moved\), 0 unschedulable, 2 unchanged/m);
  // The sentence is the planner's, as -o json answers it (the fleet view shows the same).
  const said = JSON.parse(allot(["plan", "-", "-o", "json"], FLEET).stdout).summary.said;
  assert.ok(drift.stdout.split("\n").includes(`Plan: ${said}`), said);
  const down = allot(["plan", "-f", "-", "--cluster-down", "member1", "-o", "wide"], FLEET);
  assert.equal(down.status, 0, down.stderr);
  assert.match(down.stdout, /^rb\/shop\/web-deployment\s+unchanged\s.*\(no trigger\)/m);
  const gone = allot(["plan", "-", "--delete-cluster", "member1"], FLEET);
  assert.equal(gone.status, 1, gone.stderr);
  assert.match(gone.stdout, /^rb\/shop\/web-deployment\s+changed\s+member1:2,member2:2\s+member2:4\s+2\s/m);
  assert.match(gone.stdout, /^member1\s+Ready -> Ready, being deleted\s+4 -> 0\s/m);
  const scaled = allot(["plan", "-", "--scale", "deploy/shop/api=3", "--bindings"], FLEET);
  assert.equal(scaled.status, 1, scaled.stderr);
  assert.match(scaled.stdout, /name: api-deployment/);
  const json = JSON.parse(allot(["plan", "-", "--cordon", "member9", "-o", "json"], FLEET).stdout);
  assert.deepEqual([json.code, json.path], ["unknown_value", "--cordon member9"]);
  assert.equal(allot(["plan", "-", "-o", "xml"], FLEET).status, 2);
  assert.match(allot(["plan", "-h"]).stdout, /^Exit status \(as kubectl diff\):/m);
  // The kubectl plugin is the same command.
  const plugin = spawnSync("npx", ["--no-install", "kubectl-allot", "plan", "-"], {
    input: FLEET,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(plugin.status, 0, plugin.stderr);
  assert.equal(plugin.stdout, drift.stdout);
});

test("npx allot plan --cluster-down with failover configured: who is evicted when, where replicas go", () => {
  const args = ["plan", "-f", file("fleet-failover.yaml"), "--cluster-down", "member2"];
  const settled = allot([...args, "--taint-eviction"]);
  assert.equal(settled.status, 1, settled.stderr);
  const out = settled.stdout;
  assert.match(out, /^Timeline:$/m);
  assert.match(out, /^0s\s+cluster member2 tainted cluster\.karmada\.io\/not-ready:NoExecute by ClusterTaintPolicy not-ready-no-execute$/m);
  assert.match(out, /^0s\s+rb\/shop\/web-deployment evicted from member2 \(2 replicas, purge Directly\)$/m);
  assert.match(out, /^0s\s+rb\/shop\/web-deployment placed: member1:\d,member3:\d$/m);
  assert.match(out, /^0s\s+rb\/shop\/db-deployment cannot be placed: /m);
  assert.match(out, /^5m\s+rb\/shop\/cart-deployment evicted from member2 \(1 replica, purge Gracefully\)$/m);
  assert.match(out, /^5m\s+rb\/shop\/cart-deployment placed: /m);
  assert.match(out, /^10m\s+rb\/shop\/web-deployment: its graceful eviction task for member2 ends \(timeout\)$/m);
  // db fails again as it failed: said once.
  assert.equal(out.match(/db-deployment cannot be placed/g).length, 1);
  // The planner marks the repeats, for every reader of the JSON.
  const full = JSON.parse(allot([...args, "--taint-eviction", "-o", "json"]).stdout);
  const dbFailed = full.timeline.filter((t) => t.kind === "unschedulable" && t.binding.name === "db-deployment");
  assert.ok(dbFailed.length > 1 && !dbFailed[0].again && dbFailed.slice(1).every((t) => t.again === true), JSON.stringify(dbFailed));
  // 90 seconds in: cart still tolerates the taint.
  const early = allot([...args, "--taint-eviction", "--at", "90s", "-o", "json"]);
  const p = JSON.parse(early.stdout);
  assert.deepEqual(
    p.timeline.filter((t) => t.kind === "evicted").map((t) => [t.at, t.binding.name]),
    [[0, "web-deployment"], [0, "db-deployment"]],
  );
  assert.ok("member2" in p.bindings.find((b) => b.id.name === "cart-deployment").after);
  // Karmada's defaults: the taint is added, nothing is evicted.
  const off = JSON.parse(allot([...args, "-o", "json"]).stdout);
  assert.equal(off.timeline.filter((t) => t.kind === "evicted").length, 0);
  assert.match(allot(["plan", "-h"]).stdout, /--no-execute-taint-eviction-purge-mode MODE/);
  const wrong = JSON.parse(allot([...args, "--at", "soon", "-o", "json"]).stdout);
  assert.deepEqual([wrong.code, wrong.path], ["invalid_input", "at"]);
  // planFleet: the same plan, its settings by Karmada's names.
  const planned = planFleet(text("fleet-failover.yaml"), {}, {
    clusterDown: ["member2"],
    taintEviction: true,
    noExecuteTaintEvictionPurgeMode: "Directly",
  });
  const db = planned.timeline.find((t) => t.kind === "evicted" && t.binding.name === "db-deployment");
  assert.equal(db.purgeMode, "Directly");
});

test("npx allot plan --cluster: only what touches one cluster; --delete and --delete-policy", () => {
  // api is on member1 alone: only web touches member2.
  const one = allot(["plan", "-", "--cluster", "member2", "-o", "wide"], FLEET);
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /^rb\/shop\/web-deployment\s+unchanged/m);
  assert.doesNotMatch(one.stdout, /api-deployment|^member1\s/m);
  assert.match(one.stdout, /^member2\s/m);
  assert.match(one.stdout, /^Plan \(touching member2\): 0 bindings changed \(0 replicas moved\), 0 unschedulable, 1 unchanged/m);
  const json = JSON.parse(allot(["plan", "-", "--delete-cluster", "member1", "--cluster", "member1", "-o", "json"], FLEET).stdout);
  assert.deepEqual([json.summary.bindings, json.summary.changed, json.clusters.map((c) => c.name)], [2, 2, ["member1"]]);
  // The part's counts said in the planner's words, as it says a whole plan's.
  const { said, ...counts } = json.summary;
  assert.equal(said, fleet.planSummary(counts));
  assert.match(said, /^2 bindings changed \(/);
  const { said: whole, ...all } = planFleet(FLEET, {}, { deleteCluster: ["member1"] }).summary;
  assert.equal(fleet.planSummary(all), whole);
  assert.ok(json.steps.every((s) => s.passes.every((n) => n.binding.namespace === "shop")));
  const unknown = allot(["plan", "-", "--cluster", "member9", "-o", "json"], FLEET);
  assert.equal(unknown.status, 2);
  assert.deepEqual(JSON.parse(unknown.stdout).path, "--cluster member9");
  // A deleted policy: its bindings lose their claim and keep their clusters.
  const byName = allot(["plan", "-", "--delete-policy", "shop/shop", "-o", "wide"], FLEET);
  assert.equal(byName.status, 0, byName.stderr);
  assert.match(byName.stdout, /^rb\/shop\/web-deployment\s+unchanged\s.*no policy claims it/m);
  const dir = mkdtempSync(join(tmpdir(), "allot-delete-"));
  const file = join(dir, "policy.yaml");
  writeFileSync(file, "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: shop, namespace: shop}\n");
  const byFile = allot(["plan", "-", "--delete", file, "-o", "wide"], FLEET);
  assert.equal(byFile.stdout, byName.stdout);
  const missing = JSON.parse(allot(["plan", "-", "--delete-policy", "shop/none", "-o", "json"], FLEET).stdout);
  assert.deepEqual([missing.code, missing.path], ["unknown_value", "--delete-policy shop/none"]);
  assert.equal(planFleet(FLEET, {}, { deletePolicy: ["shop/shop"] }).summary.unchanged, 2);
});

// A large answer written to a pipe arrives whole: the command sets its exit status and lets
// Node finish writing (process.exit cut `allot plan -o json | ...` at the pipe's first writes).
test("npx allot plan -o json: a large plan arrives whole through a pipe", () => {
  const clusters = Array.from({ length: 200 }, (_, i) => ({
    apiVersion: "cluster.karmada.io/v1alpha1",
    kind: "Cluster",
    metadata: { name: `member${i}`, labels: { region: `region${i % 4}` } },
    spec: { syncMode: "Push" },
  }));
  const deployments = Array.from({ length: 2000 }, (_, i) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: `app${i}`, namespace: "shop" },
    spec: { replicas: 3, template: { spec: { containers: [{ name: "c", image: "nginx" }] } } },
  }));
  const policy = {
    apiVersion: "policy.karmada.io/v1alpha1",
    kind: "PropagationPolicy",
    metadata: { name: "all", namespace: "shop" },
    spec: {
      resourceSelectors: [{ apiVersion: "apps/v1", kind: "Deployment" }],
      placement: { replicaScheduling: { replicaSchedulingType: "Duplicated" } },
    },
  };
  const dump = JSON.stringify({ apiVersion: "v1", kind: "List", items: [...clusters, ...deployments, policy] });
  const r = allot(["plan", "-", "-o", "json"], dump);
  assert.equal(r.status, 1, r.stderr);
  assert.ok(r.stdout.length > 256 << 10, `a plan of ${r.stdout.length} bytes`);
  const plan = JSON.parse(r.stdout);
  assert.equal(plan.bindings.length, 2000);
});

// Application failover (docs/rules/fleet.md §32): the member reports web Unhealthy on member2;
// its policy tolerates 60 s, so the fleet at 59 s still has it there, and at 60 s it has
// failed over, member2's copy kept (Gracefully) by a graceful eviction task.
test("planFleet unhealthy: a workload fails over after tolerationSeconds", () => {
  const dump = text("app-failover.yaml");
  const at = (time) => planFleet(dump, {}, { unhealthy: ["deploy/shop/web@member2"], at: time });
  const web = (plan) => plan.bindings.find((b) => b.id.name === "web-deployment");
  const early = at("59s");
  assert.equal(web(early).after.member2, 2);
  assert.ok(!early.timeline.some((m) => m.kind === "failedOver"));
  const late = at("60s");
  assert.equal(web(late).after.member2, undefined);
  assert.equal(Object.values(web(late).after).reduce((a, b) => a + b, 0), 6);
  assert.deepEqual(
    web(late).evicting.map((t) => [t.fromCluster, t.purgeMode, t.gracePeriodSeconds]),
    [["member2", "Gracefully", 120]],
  );
  assert.ok(late.timeline.some((m) => m.kind === "failedOver" && m.at === 60));
  assert.equal(code(() => planFleet(dump, {}, { unhealthy: ["deploy/shop/web"] })).path, "unhealthy[0]");
  assert.equal(code(() => planFleet(dump, {}, { unhealthy: ["deploy/shop/web@member9"] })).path, "unhealthy[0]");
});

test("npx allot plan --unhealthy: each purge mode as its policy says", () => {
  const file_ = file("app-failover.yaml");
  const plan = (workload) =>
    JSON.parse(allot(["plan", "-f", file_, "--unhealthy", `deploy/shop/${workload}@member2`, "-o", "json"]).stdout);
  const failed = (p) => p.timeline.filter((m) => m.kind === "failedOver").map((m) => m.at);
  assert.deepEqual(failed(plan("web")), [60]);
  assert.deepEqual(failed(plan("cart")), [300]);
  const stream = plan("stream");
  assert.deepEqual(failed(stream), [30]);
  const b = stream.bindings.find((b) => b.id.name === "stream-deployment");
  assert.equal(b.evicting[0].suppressDeletion, true);
  assert.match(allot(["plan", "-h"]).stdout, /--unhealthy KIND\/NAMESPACE\/NAME@CLUSTER/);
});
