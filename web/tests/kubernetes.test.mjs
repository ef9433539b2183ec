// `allot/kubernetes` and the `allot` command as a user gets them: the packed tarball installed
// into a fresh project, the manifests of docs/manifests read as files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import {
  AllotError,
  bindingOf,
  explain,
  fromObjects,
  schedule,
  select,
  toObjects,
  toYaml,
} from "allot/kubernetes";
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
  // Two policies selecting the template: an error naming both, settled by naming one.
  const second = text("static-weight.yaml") + "---\n" +
    text("static-weight.yaml").split("---\n").find((d) => d.includes("kind: PropagationPolicy")).replace("name: nginx\n  namespace", "name: nginx-too\n  namespace");
  const both = code(() => fromObjects(second));
  assert.match(both.message, /PropagationPolicy nginx and PropagationPolicy nginx-too/);
  assert.equal(fromObjects(second, { policy: "nginx-too" }).scenario.policy.strategy, "staticWeight");
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
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("npx allot explain on files and on standard input", () => {
  const files = allot(["explain", "-f", file("static-weight.yaml")]);
  assert.equal(files.status, 0, files.stderr);
  assert.match(files.stdout, /^member1\s+2\s/m);
  assert.match(files.stdout, /^member3\s+5\s/m);
  assert.match(files.stdout, /member2: cluster\(s\) had untolerated taint \{dedicated=gpu:NoSchedule\}/);
  const stdin = allot(["explain", "-"], text("static-weight.yaml"));
  assert.equal(stdin.status, 0, stdin.stderr);
  assert.equal(stdin.stdout, files.stdout);
  const json = JSON.parse(allot(["explain", "--json", "-f", file("static-weight.yaml")]).stdout);
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

test("npx allot explain: bad input exits 1 with the error's code and path", () => {
  const bad = allot(["explain", "-"], "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: x}\n");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^error: invalid_input at objects\[0\]\.apiVersion: /m);
  const two = allot(["explain", "-f", file("static-weight.yaml"), "-f", "-"], "kind: [\n");
  assert.equal(two.status, 1);
  assert.match(two.stderr, /^error: invalid_input at stdin: /m);
  const unfit = allot(["explain", "-"], text("static-weight.yaml").replaceAll("kind: Deployment}", "kind: Other}"));
  assert.equal(unfit.status, 1);
  assert.match(unfit.stdout, /member1: cluster\(s\) did not have the API resource/);
  assert.match(unfit.stderr, /^error: no_cluster_fit/m);
  assert.equal(allot(["explain", "--bogus"]).status, 2);
});
