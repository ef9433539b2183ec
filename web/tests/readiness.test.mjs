// Failover readiness as a user gets it: `readiness` in `allot/fleet`, on a fleet session, and
// `allot plan --each`, over the example fleets of docs/manifests. Each row is held to the plan
// of `planFleet` with that failure's clusters down.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { AllotError, fleetSession, planFleet, readiness } from "allot/fleet";

const DIR = join(process.env.ALLOT_ROOT, "docs/manifests");
const file = (name) => join(DIR, name);
const text = (name) => readFileSync(file(name), "utf8");

const sum = (m) => Object.values(m).reduce((a, n) => a + n, 0);

// A row's replicas as the single plan says them: lost (kept on a failed cluster), unplaced,
// rescheduled (newly placed on a cluster that stays up).
function fromPlan(plan, clusters) {
  const down = new Set(clusters);
  let lost = 0, unplaced = 0, rescheduled = 0;
  for (const b of plan.bindings) {
    for (const [c, n] of Object.entries(b.after)) {
      if (down.has(c)) lost += n;
      else rescheduled += Math.max(0, n - (b.before[c] ?? 0));
    }
    unplaced += Math.max(0, sum(b.before) - sum(b.after));
  }
  return { lost, unplaced, rescheduled };
}

test("readiness: every failure's row is the plan of that failure, worst first", () => {
  const dump = text("fleet-failover.yaml");
  for (const ask of [{ each: "cluster" }, { each: "region" }, { each: "cluster", taintEviction: true }]) {
    const r = readiness(dump, {}, ask);
    assert.ok(r.rows.length > 0);
    assert.equal(r.summary.failures, r.rows.length);
    for (const row of r.rows) {
      const { each: _, ...settings } = ask;
      const single = planFleet(dump, {}, { ...settings, clusterDown: row.clusters });
      const { lost, unplaced, rescheduled } = fromPlan(single, row.clusters);
      assert.deepEqual([row.lost, row.unplaced, row.rescheduled], [lost, unplaced, rescheduled], `${row.name}`);
    }
    const harm = r.rows.map((x) => x.lost + x.unplaced);
    assert.deepEqual(harm, [...harm].sort((a, b) => b - a));
  }
});

test("readiness on a fleet session follows its edits, with progress", () => {
  const s = fleetSession(text("fleet-shop.yaml"), {});
  const seen = [];
  const r = s.readiness({ each: "cluster" }, (done, total) => seen.push([done, total]));
  assert.deepEqual(r.rows, readiness(text("fleet-shop.yaml"), {}, { each: "cluster" }).rows);
  assert.deepEqual(seen.at(-1), [r.rows.length, r.rows.length]);
  // A cluster deleted: it is no longer a failure.
  const gone = r.rows[0].name;
  s.apply({ deleteCluster: [gone] });
  const after = s.readiness({ each: "cluster" });
  assert.ok(!after.rows.some((x) => x.name === gone));
  s.free();
});

test("readiness: a wrong ask is an AllotError at its field", () => {
  const dump = text("fleet-shop.yaml");
  assert.throws(() => readiness(dump, {}, { each: "rack" }), (e) => e instanceof AllotError);
  assert.throws(
    () => readiness(dump, {}, { each: "cluster", select: "region in us-east" }),
    (e) => e instanceof AllotError && e.code === "invalid_selector" && e.path.startsWith("select"),
  );
});

function allot(args) {
  const r = spawnSync("npx", ["--no-install", "allot", ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("allot plan --each: a table worst first, exit 1 when a failure harms, 2 on an error", () => {
  const t = allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "region"]);
  assert.equal(t.status, 1, t.stderr);
  assert.match(t.stdout, /^FAILURE\s+CLUSTERS\s+AFFECTED/m);
  assert.match(t.stdout, /^2 region failures planned: /m);
  const json = JSON.parse(allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "cluster", "-o", "json"]).stdout);
  assert.deepEqual(json.rows, readiness(text("fleet-shop.yaml"), {}, { each: "cluster" }).rows);
  const wide = allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "cluster", "-o", "wide"]);
  assert.match(wide.stdout, /^ {2}BINDING\s+OUTCOME/m);
  // No cluster selected: nothing fails, nothing harms.
  const none = allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "cluster", "--select", "nothing=here"]);
  assert.equal(none.status, 0, none.stdout);
  assert.equal(allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "rack"]).status, 2);
  assert.equal(allot(["plan", "-f", file("fleet-shop.yaml"), "--select", "a=b"]).status, 2);
  const bad = allot(["plan", "-f", file("fleet-shop.yaml"), "--each", "zone", "--select", "a in b"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--select a in b/);
});

// The sentences are the planner's, written once in the answer: the command prints them as they
// are (the fleet view shows the same), never words of its own.
test("allot plan --each prints the answer's own sentences", () => {
  const args = ["plan", "-f", file("fleet-failover.yaml"), "--each", "cluster", "--taint-eviction"];
  const json = JSON.parse(allot([...args, "-o", "json"]).stdout);
  const lines = allot([...args, "-o", "wide"]).stdout.split("\n");
  assert.match(json.said, /^3 cluster failures planned: /);
  assert.ok(lines.includes(json.said), json.said);
  const groups = json.rows.flatMap((r) => r.unplacedBy);
  assert.ok(groups.length > 0, "some failure leaves replicas unplaced");
  for (const u of groups) assert.ok(lines.includes(`  ${u.said}`), u.said);
  // A change: the fleet before it compared in words, and each row's harm before it.
  const cordoned = [...args, "--cordon", "member1"];
  const changed = JSON.parse(allot([...cordoned, "-o", "json"]).stdout);
  const text = allot(cordoned).stdout.split("\n");
  assert.ok(changed.before.said.length > 0);
  assert.ok(text.includes(changed.before.said), changed.before.said);
  for (const row of changed.rows) {
    const was = changed.before.rows.find((w) => w.name === row.name);
    const line = text.find((l) => l.startsWith(`${row.name} `));
    assert.ok(line.endsWith(`  ${was.harm}`), `${line} / ${was.harm}`);
  }
});
