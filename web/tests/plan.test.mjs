// `allot plan` as an operator meets it: no silent green (nothing to plan, an invalid object,
// an invalid what-if: exit 2 with the object, the field and what to do; what allot does not
// read: one warning each), the event apart from the changes already pending, Karmada's words,
// and the control plane read through kubectl (a stand-in that records its arguments).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { planFleet } from "allot/fleet";

const DIR = join(process.env.ALLOT_ROOT, "docs/manifests");
const file = (name) => join(DIR, name);
const text = (name) => readFileSync(file(name), "utf8");
const here = dirname(fileURLToPath(import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "allot-plan-"));
// fleet-shop.yaml's documents, and its PropagationPolicy shop/web alone.
const documents = (name) => text(name).split(/^---$/m);
const webPolicy = documents("fleet-shop.yaml").find((d) => d.includes("kind: PropagationPolicy") && d.includes("name: web\n"));
const put = (name, content) => {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
};

function allot(args, input, env = {}) {
  const r = spawnSync("npx", ["--no-install", "allot", ...args], {
    input,
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("nothing to plan is exit 2, never a green 'Plan: 0 to change'", () => {
  for (const input of ["", "\n---\n", "# nothing\n"]) {
    const r = allot(["plan", "-f", "-"], input);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, /no objects/);
    assert.doesNotMatch(r.stdout, /Plan:/);
  }
  const empty = put("empty.yaml", "");
  assert.equal(allot(["plan", "-f", empty]).status, 2);
  const noCluster = allot(["plan", "-f", "-"], "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 1}\n");
  assert.equal(noCluster.status, 2);
  assert.match(noCluster.stderr, /no Cluster among the 1 object:/);
  // A binary file: said so, its bytes not echoed.
  const binary = put("dump.tgz", Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x73, 0x65, 0x63, 0x72, 0x65, 0x74, 0xff, 0x00]));
  const b = allot(["plan", "-f", binary]);
  assert.equal(b.status, 2);
  assert.match(b.stderr, /not text/);
  assert.doesNotMatch(b.stderr, /secret|\u0000|\u001f/);
});

test("an invalid object in -f or --apply is exit 2 once, at its file, object and field", () => {
  const dump = text("fleet-shop.yaml").replace("replicaSchedulingType: Divided", "replicaSchedulingType: Dividd");
  assert.notEqual(dump, text("fleet-shop.yaml"));
  const r = allot(["plan", "-f", put("bad.yaml", dump)]);
  assert.equal(r.status, 2, r.stdout);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /replicaSchedulingType: .*"Dividd".*Duplicated or Divided/);
  assert.equal(lines[0].split("replicaSchedulingType").length - 1, 1, "the path once");
  assert.match(lines[0], /bad\.yaml|documents\[\d+\]/);
  const bad = put("policy.yaml", webPolicy.replace("replicaSchedulingType: Divided", "replicaSchedulingType: Dividd"));
  const applied = allot(["plan", "-f", file("fleet-shop.yaml"), "--apply", bad]);
  assert.equal(applied.status, 2, applied.stdout);
  assert.match(applied.stderr, /--apply .*policy\.yaml.*replicaSchedulingType/);
  // A Cluster is not applied: it joins.
  const cluster = put("cluster.yaml", `${webPolicy}\n---\n${documents("fleet-shop.yaml")[0]}`);
  const c = allot(["plan", "-f", file("fleet-shop.yaml"), "--apply", cluster]);
  assert.equal(c.status, 2);
  assert.match(c.stderr, /--add-cluster/);
  // A negative scale is the what-if's error, not an unschedulable binding.
  const s = allot(["plan", "-f", file("fleet-shop.yaml"), "--scale", "deploy/shop/web=-1"]);
  assert.equal(s.status, 2, s.stdout);
  assert.match(s.stderr, /--scale deploy\/shop\/web=-1/);
});

test("unknown kinds and fields: one warning each on stderr, listed in -o json", () => {
  const dump = text("fleet-shop.yaml")
    .replace(/^kind: Deployment$/m, "kind: Deploymnet")
    .replace("weightPreference: {dynamicWeight: AvailableReplicas}", "weightPreference: {dynamicWeight: AvailableReplicas, staticWeightLis: []}");
  const r = allot(["plan", "-f", put("typos.yaml", dump), "-o", "json"]);
  assert.notEqual(r.status, 2, r.stderr);
  const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning:"));
  assert.equal(warnings.filter((w) => w.includes("Deploymnet")).length, 1, r.stderr);
  assert.equal(warnings.filter((w) => /spec\.placement\.replicaScheduling\.weightPreference\.staticWeightLis\b/.test(w)).length, 1, r.stderr);
  // The same typo in an applied policy: warned too.
  const typo = put("typo.yaml", webPolicy.replace("weightPreference: {dynamicWeight: AvailableReplicas}", "weightPreference: {dynamicWeight: AvailableReplicas, staticWeightLis: []}"));
  const applied = allot(["plan", "-f", file("fleet-shop.yaml"), "--apply", typo]);
  assert.notEqual(applied.status, 2, applied.stderr);
  assert.match(applied.stderr, /^warning: PropagationPolicy shop\/web: spec\.placement\.replicaScheduling\.weightPreference\.staticWeightLis: unknown field/m);
  const json = JSON.parse(r.stdout);
  assert.equal(json.report.warnings.length, warnings.length);
});

test("the event apart from changes already pending; words, units and plurals", () => {
  // fleet-shop.yaml's bindings are as the scheduler would place them; scaling web in the dump
  // (not by a what-if) makes its reschedule pending before any event.
  const dump = text("fleet-shop.yaml");
  const drift = planFleet(dump);
  const down = planFleet(dump, {}, { clusterDown: ["member1"] });
  assert.equal(down.summary.pending, down.bindings.filter((b) => b.pending).length);
  for (const b of down.bindings) assert.equal(typeof b.because, "string");
  const table = allot(["plan", "-f", file("fleet-shop.yaml"), "--delete-cluster", "member1"]);
  assert.equal(table.status, 1, table.stderr);
  assert.match(table.stdout, /placedClusterDeleting\)/);
  assert.match(table.stdout, /^CLUSTER\s+STATE\s+REPLICAS\s+CPU \(CORES\)/m);
  assert.match(table.stdout, /^member1\s+Ready -> Ready, being deleted\s/m);
  assert.doesNotMatch(table.stdout, /\d+m -> /, "CPU in cores");
  assert.match(table.stdout, /^member1\s.*\s14 -> 0\s+16\.5 -> 0\s+32\s+14\s+14Gi -> 0\s/m);
  // MOVED counts replicas that land elsewhere; the 2 of legacy that go nowhere are UNPLACED.
  assert.match(table.stdout, /^rb\/payments\/legacy-deployment\s+unschedulable\s+member1:2\s+-\s+0\s+2\s+no cluster fits \(Scheduled=False, NoClusterFit\)/m);
  assert.match(table.stdout, /\(12 replicas moved, 2 replicas placed nowhere\), 1 unschedulable/);
  // The counts' sentence is the planner's, as the fleet view shows it.
  const said = planFleet(dump, {}, { deleteCluster: ["member1"] }).summary.said;
  assert.ok(table.stdout.split("\n").includes(`Plan: ${said}`), said);
  assert.doesNotMatch(table.stdout, /\b1 (clusters|bindings|replicas)\b/);
  assert.ok(drift.summary.pending === 0);
  // Nothing moves: the default table says why.
  const cordon = allot(["plan", "-f", file("fleet-shop.yaml"), "--cordon", "member1"]);
  assert.equal(cordon.status, 0, cordon.stdout);
  assert.match(cordon.stdout, /^Why nothing moves:/m);
  assert.match(cordon.stdout, /cordoned \(unschedulable taint\)/);
  // -o yaml keeps the JSON's key order: a binding starts with its id.
  const yaml = allot(["plan", "-f", file("fleet-shop.yaml"), "--delete-cluster", "member1", "-o", "yaml"]);
  const binding = yaml.stdout.slice(yaml.stdout.indexOf("bindings:"));
  assert.ok(binding.indexOf("id:") < binding.indexOf("before:"), binding.slice(0, 300));
});

test("a change already pending is told apart from the event's, and does not set exit 1", () => {
  // query's Deployment says 13 replicas, its binding places 10: its reschedule is pending
  // before any event. member2 going down enqueues it and places the 3 as the drift would.
  const dump = put("drift.yaml", text("fleet-shop.yaml").replace("  replicas: 10\n  template:", "  replicas: 13\n  template:"));
  const down = allot(["plan", "-f", dump, "--cluster-down", "member2"]);
  assert.equal(down.status, 0, down.stdout);
  assert.match(down.stdout, /^Already pending before the event: 1 binding .*-o wide lists them\.$/m);
  assert.match(down.stdout, /; 1 binding already pending before the event\.$/m);
  assert.doesNotMatch(down.stdout, /^rb\/search\/query-deployment/m);
  const wide = allot(["plan", "-f", dump, "--cluster-down", "member2", "-o", "wide"]);
  assert.match(wide.stdout, /^rb\/search\/query-deployment\s+changed\s.*\(replicasChanged\)/m);
  const json = JSON.parse(allot(["plan", "-f", dump, "--cluster-down", "member2", "-o", "json"]).stdout);
  const query = json.bindings.find((b) => b.id.name === "query-deployment");
  assert.equal(query.pending, true);
  assert.deepEqual([json.summary.changed, json.summary.pending], [0, 1]);
  // Without what-ifs the drift is the plan: nothing is pending, and it sets 1.
  const drift = allot(["plan", "-f", dump]);
  assert.equal(drift.status, 1);
  assert.match(drift.stdout, /^rb\/search\/query-deployment\s+changed/m);
  assert.doesNotMatch(drift.stdout, /already pending/);
});

test("the top-level help is per command; plan's help has its exit status and every flag", () => {
  const top = allot(["--help"]).stdout;
  assert.doesNotMatch(top, /Exit status/);
  assert.match(top, /allot COMMAND -h/);
  const help = allot(["plan", "-h"]).stdout;
  for (const flag of ["--cluster-up", "--uncordon", "--delete-policy", "--rebalance", "--taint-eviction", "--overcommit-protection", "--workload-affinity", "--kubeconfig", "--chunk-size"])
    assert.ok(help.includes(flag), flag);
  assert.match(help, /Karmada API server/);
  assert.match(help, /already pending/);
});

test("without -f: the control plane through kubectl, its flags passed through", () => {
  const log = join(scratch, "kubectl.log");
  const env = { KUBECTL: join(here, "kubectl-standin.mjs"), STANDIN_LOG: log, STANDIN_DUMP: file("fleet-shop.yaml") };
  const live = allot(["plan", "--context", "karmada-apiserver", "--kubeconfig", "/etc/karmada.config", "-l", "team=shop", "--chunk-size", "50", "--delete-cluster", "member1"], "", env);
  const fromFile = allot(["plan", "-f", file("fleet-shop.yaml"), "--delete-cluster", "member1"]);
  assert.equal(live.status, fromFile.status, live.stderr);
  assert.equal(live.stdout, fromFile.stdout);
  const calls = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const kinds = calls.map((a) => a[1]);
  for (const k of ["clusters", "propagationpolicies", "clusterpropagationpolicies", "resourcebindings", "clusterresourcebindings", "priorityclasses", "deployments", "statefulsets", "jobs", "clustertaintpolicies"])
    assert.ok(kinds.includes(k), k);
  for (const a of calls) {
    assert.deepEqual(a.slice(2, 4), ["-o", "json"]);
    for (const pair of [["--context", "karmada-apiserver"], ["--kubeconfig", "/etc/karmada.config"], ["--selector", "team=shop"], ["--chunk-size", "50"]])
      assert.equal(a[a.indexOf(pair[0]) + 1], pair[1], JSON.stringify(a));
    assert.ok(a.includes("--all-namespaces"));
  }
  // An optional kind the server lacks: a warning, no failure; no progress line off a terminal.
  assert.match(live.stderr, /serves no clustertaintpolicies/);
  assert.doesNotMatch(live.stderr, /reading /);
  const ns = allot(["plan", "-n", "shop"], "", { ...env, STANDIN_LOG: join(scratch, "ns.log") });
  assert.notEqual(ns.status, 2, ns.stderr);
  const first = JSON.parse(readFileSync(join(scratch, "ns.log"), "utf8").split("\n")[0]);
  assert.equal(first[first.indexOf("--namespace") + 1], "shop");
  // kubectl failing: exit 2, what it said shown.
  const failing = allot(["plan"], "", { ...env, STANDIN_FAIL: "1" });
  assert.equal(failing.status, 2);
  assert.match(failing.stderr, /connection to the server 127\.0\.0\.1:5443 was refused/);
  assert.match(failing.stderr, /Karmada API server/);
  const missing = allot(["plan"], "", { KUBECTL: join(scratch, "no-such-kubectl") });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /not found/);
});

test("--assume-healthy: a binding placed again ends its graceful eviction task at once", () => {
  const args = ["plan", "-f", file("fleet-failover.yaml"), "--cluster-down", "member2", "--taint-eviction", "-o", "json"];
  const ended = (out) => JSON.parse(out).timeline.filter((t) => t.kind === "taskEnded");
  const waiting = ended(allot(args).stdout);
  assert.ok(waiting.length > 0 && waiting.every((t) => t.reason === "timeout"), JSON.stringify(waiting));
  const healthy = ended(allot([...args, "--assume-healthy"]).stdout);
  const cart = healthy.find((t) => t.binding.name === "cart-deployment");
  assert.equal(cart?.reason, "healthy", JSON.stringify(healthy));
  assert.match(cart.said, /ends \(the new placement is healthy\)$/);
  assert.match(allot(["plan", "-h"]).stdout, /--assume-healthy/);
});
