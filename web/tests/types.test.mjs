// The package's TypeScript types, checked by tsc (strict) against how a user writes scenarios
// and reads outcomes: every example scenario must type as a Scenario and every outcome the
// native tests wrote as an Outcome (object literals: excess fields are errors, so the types
// and the Rust types cannot drift apart silently).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const EXAMPLES = process.env.ALLOT_EXAMPLES;
const OUTCOMES = process.env.ALLOT_OUTCOMES;
const TSC = process.env.ALLOT_TSC;

test("the types accept every example and outcome and reject mistakes", () => {
  const names = readdirSync(EXAMPLES).filter((f) => f.endsWith(".json")).sort();
  const lines = [
    'import { schedule, scheduleJson, estimate, deploy, parseQuantity, AllotError } from "allot";',
    'import type { Scenario, KarmadaScenario, EruScenario, Outcome, ErrorCode } from "allot";',
  ];
  names.forEach((f, i) => {
    const scenario = readFileSync(join(EXAMPLES, f), "utf8");
    const outcome = readFileSync(join(OUTCOMES, f), "utf8");
    lines.push(`export const scenario${i}: Scenario = ${scenario};`);
    // A story that ends in an error recorded the error instead of an outcome.
    const type = JSON.parse(outcome).error
      ? "{ error: { code: ErrorCode; path: string; message: string } }"
      : "Outcome";
    lines.push(`export const outcome${i}: ${type} = ${outcome};`);
    lines.push(`export const got${i}: Outcome = schedule(scenario${i});`);
  });
  lines.push(`
const k: KarmadaScenario = { version: 1, clusters: [{ name: "a", weight: 2 }], workload: { replicas: 3 } };
const names: string[] = schedule(k).assignment.map((a) => a.name);
const e: EruScenario = { version: 1, nodes: [{ name: "n", memory: "1Gi" }], workload: { count: 1 } };
const perNode: Record<string, number> = deploy(e).deploy;
const formula: string | undefined = estimate(k).targets[0].general?.resources[0]?.formula;
const cores: number = parseQuantity("1.5").value;
const text: string = scheduleJson(k);
try { schedule(k); } catch (err) { if (err instanceof AllotError) { const c: ErrorCode = err.code; const p: string = err.path; void c; void p; } }
// @ts-expect-error: not a strategy
const bad1: Scenario = { version: 1, clusters: [], policy: { strategy: "spread" } };
// @ts-expect-error: an unknown field
const bad2: Scenario = { version: 1, clusters: [{ name: "a", wieght: 1 }] };
// @ts-expect-error: clusters and nodes together
const bad3: Scenario = { version: 1, clusters: [], nodes: [] };
export { names, perNode, formula, cores, bad1, bad2, bad3 };
`);
  // allot/kubernetes: objects in, the explanation's parts typed.
  lines.push(`
import * as kube from "allot/kubernetes";
const ex = kube.explain("kind: Cluster", { members: { m1: [{ apiVersion: "v1", kind: "Node" }] } });
const after: number = ex.binding.clusters[0].replicas;
const changed: (number | null)[] = ex.binding.changes.map((c) => c.before);
const rbKind: string = ex.resourceBinding.kind;
const used: string[] = kube.fromObjects([{ apiVersion: "v1", kind: "List", items: [] }]).report.used.map((u) => u.into);
const objs: string[] = kube.toObjects(k).objects.map((o) => o.kind);
const y: string = kube.toYaml(objs);
const assigned: number = kube.schedule("kind: Cluster").assignment.length;
// @ts-expect-error: members map cluster names to objects, not numbers
kube.fromObjects("", { members: { m1: 3 } });
export { after, changed, rbKind, used, y, assigned };
`);
  // allot/fleet: allot/kubernetes's API and the fleet planner; allot/kubernetes has no planner.
  lines.push(`
import * as fleet from "allot/fleet";
const planned = fleet.planFleet("kind: List", {}, { clusterDown: ["m1"], apply: "kind: List" });
const moved: number = planned.summary.movedReplicas;
const outcomes: string[] = planned.bindings.map((b) => b.outcome + b.id.name);
// The timeline: each entry's fields by its kind.
const evictedAt: number[] = planned.timeline.flatMap((t) => (t.kind === "evicted" ? [t.at + t.replicas] : []));
fleet.planFleet("", {}, { taintEviction: true, noExecuteTaintEvictionPurgeMode: "Directly", at: "90s" });
// @ts-expect-error: the purge modes are Karmada's two
fleet.planFleet("", {}, { noExecuteTaintEvictionPurgeMode: "Never" });
// @ts-expect-error: clusters are named, not numbered
fleet.planFleet("", {}, { cordon: [1] });
const session: number = fleet.fleetSession("kind: List").state().clusters.length;
// The sentences: the plan's counts, the readiness answer's.
const said: string = planned.summary.said + fleet.planSummary(planned.summary);
const ready = fleet.readiness("kind: List", {}, { each: "zone" });
const readySaid: string = ready.said + ready.rows.map((r) => r.harm + r.unplacedBy.map((u) => u.said)) + ready.before?.said;
// @ts-expect-error: counts are numbers
fleet.planSummary({ ...planned.summary, changed: "2" });
const explained: string = fleet.explain("kind: Cluster").resourceBinding.kind;
// @ts-expect-error: the planner is allot/fleet's
kube.planFleet("kind: List");
export { moved, outcomes, evictedAt, session, said, readySaid, explained };
`);
  writeFileSync("types-check.ts", lines.join("\n"));
  let out = "";
  try {
    out = execFileSync(
      TSC,
      ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "types-check.ts"],
      { encoding: "utf8" },
    );
  } catch (err) {
    out = `${err.stdout ?? ""}${err.stderr ?? ""}`;
    assert.fail(`tsc rejected the types:\n${out.slice(0, 4000)}`);
  }
  assert.equal(out.trim(), "");
});

test("the custom element's types: allot/element and <allot-playground> in the DOM's tag map", () => {
  writeFileSync("element-check.ts", `
import { AllotPlayground } from "allot/element";
import type { Scenario } from "allot";
const el: AllotPlayground = document.createElement("allot-playground");
const s: Scenario | null = el.scenario;
el.scenario = { version: 1, clusters: [{ name: "a", weight: 1 }], workload: { replicas: 2 } };
// @ts-expect-error: a scenario, not a string
el.scenario = "not a scenario";
el.addEventListener("allot-change", (e) => {
  const replicas: number | null | undefined = e.detail.scenario.workload?.replicas;
  void replicas;
});
export { s };
`);
  let out = "";
  try {
    out = execFileSync(
      TSC,
      ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom", "--module", "nodenext",
        "--moduleResolution", "nodenext", "element-check.ts"],
      { encoding: "utf8" },
    );
  } catch (err) {
    out = `${err.stdout ?? ""}${err.stderr ?? ""}`;
    assert.fail(`tsc rejected the element's types:\n${out.slice(0, 4000)}`);
  }
  assert.equal(out.trim(), "");
});
